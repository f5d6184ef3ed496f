// Two functions main.cpp's loop calls reach one wait that finds its stream idle: end_sync()
// ends by waiting for it (the project pass's "idle" answer, one question per way).
#include <cuda_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] = 0.f; }
void end_sync(float *x, cudaStream_t s)
{
    k<<<1, 32, 0, s>>>(x);
    cudaStreamSynchronize(s);
}
static void finish(float *x, cudaStream_t s)
{
    end_sync(x, s);
    cudaStreamSynchronize(s);
}
void step_a(float *x, cudaStream_t s)
{
    k<<<1, 32, 0, s>>>(x);
    finish(x, s);
}
void step_b(float *x, cudaStream_t s)
{
    k<<<1, 32, 0, s>>>(x);
    finish(x, s);
}
