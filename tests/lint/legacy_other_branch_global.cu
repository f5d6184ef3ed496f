// legacy_other_branch_global.cu: legacy_other_branch.cu's shape, but the stream of the other
// branch is a global, which keeps work across calls: the legacy work stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }

cudaStream_t g_stream;

void run_steps(float *x, int tmax, bool coop)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        cudaStreamCreate(&g_stream); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, g_stream>>>(x, t);
            step2<<<1, 32, 0, g_stream>>>(x, t);
        }
    }
    cudaDeviceSynchronize();
}
