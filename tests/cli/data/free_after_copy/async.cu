// async.cu: work on a stream it creates non-blocking, which a copy on the legacy stream does not
// wait for.
#include <cuda_runtime.h>

__global__ void fill(float *x, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] = 1.0f;
}

void background(float *x, int n)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    fill<<<1, 256, 0, s>>>(x, n);
    cudaStreamDestroy(s);
}
