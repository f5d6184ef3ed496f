// one_pass_branch.cu: a call in the branch of 'if (i == 0)', where 'i' is the counter of the
// outermost loop of its function, runs on that loop's first pass only: the start-up of the
// computation (uploading the first block before iterating on it), once per run of the loop, so
// a wait there is a note, as outside the loop. The same wait stays a warning where the test may
// hold on more passes ('||', '!=', the else branch), where the loop changes its counter, where
// the loop is not the outermost one, and where the function is called from a loop that works.
#include <cuda_runtime.h>

__global__ void smooth(float *u) { u[0] *= 0.5f; }

void denoise(float **d_u, float *h_u, size_t bytes, int ndev, int iters, int blk, int splits,
             cudaStream_t *st)
{
    for (int i = 0; i < iters; i += blk) {
        for (int sp = 0; sp < splits; sp++) {
            if (i == 0) {
                for (int d = 0; d < ndev; d++) {
                    cudaSetDevice(d);
                    cudaMemcpyAsync(d_u[d], h_u + sp * bytes, bytes, cudaMemcpyHostToDevice, st[d]);
                }
                for (int d = 0; d < ndev; d++) {
                    cudaSetDevice(d);
                    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: one pass: the branch at line 16 runs on one iteration of the loop at line 14 only (it tests 'i == 0'), on that pass only (as often as the loop at line 15 repeats it there)
                }
            }
            for (int ib = 0; ib < blk; ib++)
                for (int d = 0; d < ndev; d++) {
                    cudaSetDevice(d);
                    smooth<<<60, 256, 0, st[d]>>>(d_u[d]);
                }
        }
    }
}

int first_count(float *d_u, const int *d_n, int *h_n, int iters, cudaStream_t s)
{
    *h_n = 0;
    for (int step = 0; step < iters; step++) {
        if (!step && d_n != NULL) {
            cudaMemcpyAsync(h_n, d_n, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: one pass: the branch at line 39 runs on one iteration of the loop at line 38 only (it tests '!step && d_n != NULL'), once per run of that loop: start-up or wind-down, not on every iteration: the value is read on one pass of the loop only
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note
        }
        smooth<<<60, 256, 0, s>>>(d_u);
    }
    return *h_n;
}

void every_pass(float *d_u, float *h_u, size_t bytes, int iters, int verbose, cudaStream_t s)
{
    for (int i = 0; i < iters; i++) {
        if (i == 0 || verbose) {
            cudaMemcpyAsync(d_u, h_u, bytes, cudaMemcpyHostToDevice, s);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        if (i != 0) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        if (i == 0) {
            cudaMemcpyAsync(d_u, h_u, bytes, cudaMemcpyHostToDevice, s);
        } else {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        smooth<<<60, 256, 0, s>>>(d_u);
    }
}

void counter_reset(float *d_u, int iters, cudaStream_t s)
{
    for (int i = 0; i < iters; i++) {
        if (i == 0) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        smooth<<<60, 256, 0, s>>>(d_u);
        if (i + 1 == iters)
            i = -1;
    }
}

void inner_counter(float *d_u, int reps, int iters, cudaStream_t s)
{
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < iters; i++) {
            if (i == 0) {
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            }
            smooth<<<60, 256, 0, s>>>(d_u);
        }
    }
}

static void step_block(float *d_u, int iters, cudaStream_t s)
{
    for (int i = 0; i < iters; i++) {
        if (i == 0) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        smooth<<<60, 256, 0, s>>>(d_u);
    }
}

void train(float *d_u, int steps, cudaStream_t s)
{
    for (int t = 0; t < steps; t++) {
        smooth<<<60, 256, 0, s>>>(d_u);
        step_block(d_u, 4, s);
    }
}

// A loop inside the branch that launches and waits on each of its iterations is its own hazard
// on that pass, as it would be without the outer loop: a warning. A loop around the branch
// repeats it on that pass: a note that says so, not 'once per run'.
void first_pass_inner_loop(float *d_u, int n, int iters, cudaStream_t s)
{
    for (int it = 0; it < iters; it++) {
        if (it == 0) {
            for (int k = 0; k < n; k++) {
                smooth<<<1, 1, 0, s>>>(d_u + k);
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            }
        }
        smooth<<<60, 256, 0, s>>>(d_u);
    }
}

static void advance(float *d_u, cudaStream_t s) { smooth<<<1, 1, 0, s>>>(d_u); }

void first_pass_helper(float *d_u, int n, int iters, cudaStream_t s)
{
    for (int it = 0; it < iters; it++) {
        if (it == 0) {
            for (int k = 0; k < n; k++) {
                advance(d_u + k, s);
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            }
        }
        smooth<<<60, 256, 0, s>>>(d_u);
    }
}

float first_pass_per_element(float *d_u, int n, int iters, cudaStream_t s)
{
    float sum = 0;
    for (int it = 0; it < iters; it++) {
        for (int k = 0; k < n; k++) {
            if (it == 0) {
                float v;
                cudaMemcpy(&v, d_u + k, sizeof v, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: (it tests 'it == 0'), on that pass only (as often as the loop at line 144 repeats it there): start-up or wind-down, not on every iteration: the value is read on one pass of the loop only
                sum += v;
            }
        }
        smooth<<<60, 256, 0, s>>>(d_u);
    }
    return sum;
}

// A counter that comes back to its value ('p ^= 1', a ping-pong index) is 0 on every other
// pass: not one pass.
void ping_pong(float **d_u, int iters, cudaStream_t s)
{
    int it = 0;
    for (int p = 0; it < iters; p ^= 1) {
        smooth<<<60, 256, 0, s>>>(d_u[p]);
        if (p == 0) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        it++;
    }
}
