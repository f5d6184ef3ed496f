// periodic_local.cu: the remainder test of a periodic 'if' may sit in a local set earlier in the
// same iteration ('bool log_now = step % every == 0; ... if (log_now)'): a note, as for the test
// written in the 'if'. The local may be integral, and its value a conjunction with such a test
// ('warm && step % 50 == 0'). Still warnings: a local assigned something else before the 'if', a
// disjunction with a test that may hold every time, a local set outside the loop, and a test that
// holds on almost every iteration ('step % every != 0').
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void train_step(float *w) { w[threadIdx.x] -= 0.1f; }

// Reached from the loop of 'train' only under 'if (save)'.
static void snapshot(const float *w, int n)
{
    float *copy = NULL;
    cudaMalloc(&copy, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: periodic: every call from a loop runs once in a while (line 34 tests 'save', which line 27 sets to 'warm && step % 50 == 0')
    cudaMemcpy(copy, w, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(copy); // expect: SYNC402 expect-severity: note
}

void train(float *w, int steps, int every, int warm, int verbose, cudaStream_t s)
{
    for (int step = 0; step < steps; step++) {
        bool log_now = step % every == 0;
        bool flush = step % every == 0 || verbose;
        bool busy = step % every != 0;
        int save = warm && step % 50 == 0;
        bool check = (step % 64 == 0);
        check = verbose;
        train_step<<<1, 32, 0, s>>>(w);
        if (log_now) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 31 tests 'log_now', which line 24 sets to 'step % every == 0')
        }
        if (save) {
            snapshot(w, 32);
        }
        if (flush) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        if (busy) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        if (check) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void evaluate(float *w, int steps, int every, cudaStream_t s)
{
    bool report = every % 16 == 0;
    for (int step = 0; step < steps; step++) {
        train_step<<<1, 32, 0, s>>>(w);
        if (report) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}
