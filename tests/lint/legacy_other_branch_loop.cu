// legacy_other_branch_loop.cu: legacy_other_branch.cu's shape, but the 'if' is inside the loop
// over the time steps: an earlier step may have taken the streams' branch, whose work may still
// be queued when the legacy work runs, which stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }

void run_steps(float *x, int tmax, const bool *coop)
{
    for (int t = 0; t < tmax; t++) {
        if (coop[t]) {
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
        } else {
            cudaStream_t s;
            cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
            step1<<<1, 32, 0, s>>>(x, t);
            step2<<<1, 32, 0, s>>>(x, t);
            cudaStreamDestroy(s);
        }
    }
    cudaDeviceSynchronize();
}
