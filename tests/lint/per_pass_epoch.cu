// per_pass_epoch.cu: a wait, copy or launch once per epoch, in the epoch loop's own body (or in
// a function it calls, outside any loop), beside the loop over the epoch's batches, each batch
// with its kernels and its own wait for the host: the call adds one stall per epoch to one per
// batch, so it is a note ("once per pass"). The batches' own waits stay warnings. The inner
// loop may be written in the epoch loop's body, or in a function it surely calls; its wait may
// be in a function each batch surely calls, or a synchronous copy to or from the host.
#include <cuda_runtime.h>

__global__ void fill_random(float *r, int n) { r[n] = 0.5f; }
__global__ void forward(float *w, const float *r, int b) { w[b] += r[b]; }
__global__ void count_correct(const float *w, int *c) { c[0] = (int)w[0]; }

void evaluate(float *w, int *d_correct, int *h_correct, cudaStream_t s)
{
    count_correct<<<1, 32, 0, s>>>(w, d_correct);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: once per pass: the loop at line 37 blocks the host on each of its iterations (line 39), so this call adds one stall per pass of the loop at per_pass_epoch.cu:31, not one per step
    cudaMemcpy(h_correct, d_correct, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: once per pass: the loop at line 37 blocks the host on each of its iterations (line 39)
}

void step(float *w, const float *r, int b, cudaStream_t s)
{
    forward<<<128, 256, 0, s>>>(w, r, b);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

// The reproduction: a stop test at the top of each epoch, the epoch's random numbers and its
// shuffled table uploaded, the batches, then the test pass's count read back.
void train(float *w, float *r, float *d_table, const float *h_table, size_t bytes, int *d_correct,
           int *h_correct, int epochs, int batches, const int *stop, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        if (stop[e])
            break;
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: once per pass: the loop at line 37 blocks the host on each of its iterations (line 39), so this call adds one stall per pass of the loop at line 31, not one per step
        cudaMemcpy(d_table, h_table, bytes, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: once per pass: the loop at line 37 blocks the host on each of its iterations (line 39)
        for (int b = 0; b < batches; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        evaluate(w, d_correct, h_correct, s);
    }
}

// Each batch waits in a function it calls.
void train_called(float *w, float *r, int epochs, int batches, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: once per pass: the loop at line 51 blocks the host on each of its iterations (line 52)
        for (int b = 0; b < batches; b++)
            step(w, r, b, s);
    }
}

// The batches in a function the epoch loop calls.
void run_batches(float *w, const float *r, int batches, cudaStream_t s)
{
    for (int b = 0; b < batches; b++) {
        forward<<<128, 256, 0, s>>>(w, r, b);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void train_batches_called(float *w, float *r, int epochs, int batches, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        run_batches(w, r, batches, s);
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: once per pass: the loop at line 59 in 'run_batches()' blocks the host on each of its iterations (line 61)
    }
}

// The epoch's own function holds both its wait and the batches.
void one_epoch(float *w, float *r, float *h_loss, const float *d_loss, int batches, cudaStream_t s)
{
    fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: so this call adds one stall per pass of the loop at per_pass_epoch.cu:88
    for (int b = 0; b < batches; b++) {
        forward<<<128, 256, 0, s>>>(w, r, b);
        cudaMemcpy(h_loss + b, d_loss, 64, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}

void train_epochs(float *w, float *r, float *h_loss, const float *d_loss, int epochs, int batches,
                  cudaStream_t s)
{
    for (int e = 0; e < epochs; e++)
        one_epoch(w, r, h_loss, d_loss, batches, s);
}

// Many batches, a constant count.
void train_constant(float *w, float *r, int epochs, cudaStream_t s)
{
    for (int e = 0; e < epochs; e++) {
        for (int b = 0; b < 400; b++) {
            forward<<<128, 256, 0, s>>>(w, r, b);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        fill_random<<<256, 256, 0, s>>>(r, 1 << 18);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: once per pass: the loop at line 96 blocks the host on each of its iterations (line 98)
    }
}
