// per_pass_controls.cu: a wait once per pass of an outer loop stays a warning ("it runs on every
// iteration") wherever the inner loop beside it may not block the host on each of its own
// iterations, or may not run on that pass: its wait under a condition, after a 'break' or a
// 'continue' (also one in a 'switch'), the inner loop in a branch or after a 'continue' of the
// outer loop, a loop over a few layers (a constant count below 16, steps of 100 to a constant,
// an array of three) or over the devices, an inner loop that queues no work, a copy within the
// device (it returns before it runs), the per-step wait after a loop of launches that does not
// wait, a wait a label may repeat, and a wait in an inner loop of its own.
#include <cuda_runtime.h>

__global__ void fill_random(float *r, int n) { r[n] = 0.5f; }
__global__ void forward(float *w, const float *r, int b) { w[b] += r[b]; }

void per_step(float *w, float *r, int steps, int layers, cudaStream_t s)
{
    for (int t = 0; t < steps; t++) {
        for (int l = 0; l < layers; l++)
            forward<<<128, 256, 0, s>>>(w, r, l);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void wait_in_branch(float *w, float *r, int epochs, int batches, int verbose, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            if (verbose)
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void break_before_wait(float *w, float *r, int epochs, int batches, const int *done,
                       cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            if (done[b])
                break;
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void continue_in_switch(float *w, float *r, int epochs, int batches, const int *kind,
                        cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            switch (kind[b]) {
            case 0:
                continue;
            default:
                break;
            }
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void loop_in_branch(float *w, float *r, int epochs, int batches, const int *train,
                    cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (train[e]) {
            for (int b = 0; b < batches; b++) {
                forward<<<128, 256, 0, s>>>(w, r, b);
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            }
        }
    }
}

void continue_before_loop(float *w, float *r, int epochs, int batches, const int *skip,
                          cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (skip[e])
            continue;
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void few_layers(float *w, float *r, float **layers, int steps, cudaStream_t s)
{
    float *three[3] = {layers[0], layers[1], layers[2]};
    for (int t = 0; t < steps; t++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int l = 0; l < 4; l++) {
            forward<<<128, 256, 0, s>>>(w, r, l);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        for (int l = 0; l < 400; l += 100) {
            forward<<<128, 256, 0, s>>>(w, r, l);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        for (float *layer : three) {
            forward<<<128, 256, 0, s>>>(layer, r, 0);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void each_device(float **w, float **r, int steps, int ndev, cudaStream_t *s)
{
    for (int t = 0; t < steps; t++) {
        for (int d = 0; d < ndev; d++) {
            cudaSetDevice(d);
            forward<<<128, 256, 0, s[d]>>>(w[d], r[d], t);
            cudaStreamSynchronize(s[d]); // expect: SYNC401 expect-severity: warning
        }
        cudaSetDevice(0);
        fill_random<<<256, 256, 0, s[0]>>>(r[0], 1 << 18);
        cudaStreamSynchronize(s[0]); // expect: SYNC401 expect-severity: warning
    }
}

void no_work_inner(float *r, int epochs, int batches, float *h, const float *d, cudaStream_t s,
                   cudaStream_t copies)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int b = 0; b < batches; b++) {
            cudaStreamSynchronize(copies); // expect: SYNC401 expect-severity: warning
            h[b] = d[b];
        }
    }
}

void copy_within_device(float *w, float *r, float *d2, int epochs, int batches, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            cudaMemcpy(d2, w, 64, cudaMemcpyDeviceToDevice);
        }
    }
}

void label_between(float *w, float *r, int epochs, int batches, const int *again, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    retry:
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (again[e])
            goto retry;
    }
}

void wait_in_own_loop(float *w, float *r, int epochs, int batches, int tries, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        for (int k = 0; k < tries; k++)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}
