// legacy_other_branch_shortcircuit.cu: the wait for the whole device is the right operand of
// '&&' (in an 'if's condition, or in an expression statement): it runs only when the left is
// true, so it does not drain the streams' work on every way and the legacy work stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }

void run_steps(float *x, int tmax, bool coop, bool check)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        cudaStream_t s;
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++)
            step1<<<1, 32, 0, s>>>(x, t);
        cudaStreamDestroy(s);
    }
    if (check && cudaDeviceSynchronize() != cudaSuccess)
        return;
}

bool run_more(float *x, int tmax, bool coop, bool ok)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        cudaStream_t s;
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++)
            step1<<<1, 32, 0, s>>>(x, t);
        cudaStreamDestroy(s);
    }
    ok = ok && cudaDeviceSynchronize() == cudaSuccess;
    return ok;
}
