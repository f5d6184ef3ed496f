// legacy_other_branch_openmp.cu: two OpenMP threads run both branches at once. A unit with an
// OpenMP directive keeps the warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }

void run_steps(float *x, int tmax, bool coop)
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
    cudaDeviceSynchronize(); // expect: SYNC401
}

void both(float *x, float *y)
{
#pragma omp parallel for
    for (int i = 0; i < 2; i++)
        run_steps(i ? x : y, 10, i == 0);
}
