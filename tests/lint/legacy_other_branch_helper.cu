// legacy_other_branch_helper.cu: legacy_other_branch.cu's shape, but another function of the
// unit queues work on a local stream and returns without draining it: that work may still be
// queued when the legacy work runs, which stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }

void run_steps(float *x, int tmax, bool coop)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        cudaStream_t s;
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, s>>>(x, t);
            step2<<<1, 32, 0, s>>>(x, t);
        }
        cudaStreamDestroy(s);
    }
    cudaDeviceSynchronize();
}

void prefetch(float *y)
{
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103 expect-severity: note
    step1<<<1, 32, 0, side>>>(y, 0);
    step2<<<1, 32, 0, side>>>(y, 0);
    cudaStreamDestroy(side);
}
