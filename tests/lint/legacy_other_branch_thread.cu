// legacy_other_branch_thread.cu: a std::thread runs the streams' branch while the main thread
// runs the legacy one. A unit that starts a host thread (std::thread, std::async,
// pthread_create) keeps the warning.
#include <cuda_runtime.h>

#include <thread>
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

void both(float *x, float *y)
{
    std::thread other(run_steps, y, 10, false);
    run_steps(x, 10, true);
    other.join();
}
