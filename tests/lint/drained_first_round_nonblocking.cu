// drained_first_round_nonblocking.cu: the first round's rule in a unit that creates a
// non-blocking stream. A device-wide wait ends each round: where the work before the loop and
// the next launch are on the legacy stream, a note as in drained_first_round.cu. Where the
// round's kernel runs on the non-blocking stream and only a readback on the legacy stream ends
// the round, that readback does not wait for the kernel: the rounds are not drained on the
// loop's back edge, and the upload stays a warning, without the first round's words.
#include <cuda_runtime.h>

__global__ void seed(int *v, int n) { v[n - 1] = 0; }
__global__ void relax(int *v, int n, int *changed) { if (v[0] > n) *changed = 1; }

void settle_waited(int *v, int n, int *d_changed, int blocks)
{
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32>>>(v, n); // expect: SYNC101
        int changed;
        do {
            changed = 0;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained in every round but the first; the first round waits for 'seed' at line 15, once per pass of the loop at line 14, work that the next launch, 'relax' (line 20), waits for anyway on the legacy default stream
            relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
}

void settle_nonblocking(int *v, int n, int *d_changed, int blocks)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32, 0, s>>>(v, n);
        int changed;
        do {
            changed = 0;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning expect-no-message: drained in every round but the first
            relax<<<1, 32, 0, s>>>(v, n, d_changed);
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
    cudaStreamDestroy(s);
}
