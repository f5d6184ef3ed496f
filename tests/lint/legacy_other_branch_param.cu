// legacy_other_branch_param.cu: legacy_other_branch.cu's shape, but the stream of the other
// branch is a parameter: the caller's stream may hold work when the legacy work runs, which
// stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }

void run_steps(float *x, int tmax, bool coop, cudaStream_t s)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, s>>>(x, t);
            step2<<<1, 32, 0, s>>>(x, t);
        }
    }
    cudaDeviceSynchronize();
}
