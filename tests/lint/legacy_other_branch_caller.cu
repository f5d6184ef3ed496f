// legacy_other_branch_caller.cu: legacy_other_branch.cu's shape, but another function of the
// unit calls it while its own local stream holds work: that stream may hold work when the
// legacy work runs, which stays a warning.
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

void pipeline(float *x, float *y, int tmax)
{
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103 expect-severity: note
    step1<<<1, 32, 0, side>>>(y, 0);
    run_steps(x, tmax, true);
    cudaDeviceSynchronize();
    cudaStreamDestroy(side);
}
