// drained_first_round_cxx11.cu: the first round's rule under C++11, where each launch copies its
// 'dim3' sizes into the configuration call (no copy elision before C++17): the implicit copy
// of a system header's value type queues nothing, so the work before the loop is still all on
// the legacy stream and the next launch waits for it anyway (a note). At 24668ac the copy,
// whose constructor libclang does not name, counted as a library's work.
// lint-args: -std=c++11
#include <cuda_runtime.h>

__global__ void seed(int *v, int n) { v[n - 1] = 0; }
__global__ void relax(int *v, int n, int *changed) { if (v[0] > n) *changed = 1; }

int settle_blocks(int *v, int n, int *d_changed, int blocks)
{
    int rounds = 0;
    for (int b = 0; b < blocks; b++) {
        seed<<<dim3(n / 32 + 1), 32>>>(v, n); // expect: SYNC101
        int changed;
        do {
            changed = 0;
            rounds++;
            cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: drained in every round but the first; the first round waits for 'seed' at line 16, once per pass of the loop at line 15, work that the next launch, 'relax' (line 22), waits for anyway on the legacy default stream
            relax<<<n / 32 + 1, 32>>>(v, n, d_changed); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401
            cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301
        } while (changed);
    }
    return rounds;
}
