// legacy_other_branch_callback.cu: legacy_other_branch_caller.cu, but the other function calls
// the code through a std::function made before its stream: a library call given something to
// call may call back into the program, so the legacy work stays a warning.
#include <cuda_runtime.h>

#include <functional>

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
    std::function<void()> steps = [=] { run_steps(x, tmax, true); };
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103 expect-severity: note
    step1<<<1, 32, 0, side>>>(y, 0);
    steps();
    cudaStreamDestroy(side);
    cudaDeviceSynchronize();
}
