// drained_first_round_streams.cu: the first round's rule in a unit whose streams are all
// blocking (a synchronous copy waits for all work). Where the work queued before the loop and
// the next launch are both on the legacy stream, the launch waits for that work anyway: a note.
// Where the next launch is on another stream than that work, the upload's wait holds up work
// that would not have waited (a warning), and so where the work before the loop is on a
// stream of its own.
#include <cuda_runtime.h>

__global__ void seed(int *v, int n) { v[n - 1] = 0; }
__global__ void relax(int *v, int n, int *changed) { if (v[0] > n) *changed = 1; }

int settle_legacy(int *v, int n, int *d_changed, int blocks)
{
    int rounds = 0;
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32>>>(v, n); // expect: SYNC101
        int changed;
        do {
            changed = 0;
            rounds++;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained in every round but the first; the first round waits for 'seed' at line 16, once per pass of the loop at line 15, work that the next launch, 'relax' (line 22), waits for anyway on the legacy default stream
            relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
    return rounds;
}

void settle_other_stream(int *v, int n, int *d_changed, int blocks)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32>>>(v, n); // expect: SYNC101
        int changed;
        do {
            changed = 0;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning expect-message: drained in every round but the first; the first round waits for 'seed' at line 34, once per pass of the loop at line 33, work that the round's next launch does not wait for anyway
            relax<<<1, 32, 0, s>>>(v, n, d_changed);
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
    cudaStreamDestroy(s);
}

void settle_seeded_on_stream(int *v, int n, int *d_changed, int blocks)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    for (int b = 0; b < blocks; b++) {
        seed<<<1, 32, 0, s>>>(v, n);
        int changed;
        do {
            changed = 0;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning expect-message: drained in every round but the first; the first round waits for 'seed' at line 51, once per pass of the loop at line 50, work that the round's next launch does not wait for anyway
            relax<<<1, 32>>>(v, n, d_changed); // expect: SYNC101
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
    cudaStreamDestroy(s);
}
