// legacy_other_branch_dtor.cu: a destructor (called implicitly at the end of a block, between
// a stream's work and its wait) runs the legacy branch. A unit that defines a destructor that
// calls something keeps the warning.
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
    cudaDeviceSynchronize();
}
struct Finish {
    float *x;
    ~Finish() { run_steps(x, 10, true); }
};
void pipeline(float *x, float *y)
{
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103 expect-severity: note
    {
        Finish f{x};
        step1<<<1, 32, 0, side>>>(y, 0);
    }
    cudaStreamDestroy(side);
    cudaDeviceSynchronize();
}
