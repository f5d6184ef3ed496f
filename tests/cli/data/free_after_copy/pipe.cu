// pipe.cu: a pipeline on a stream it creates blocking.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= 2.0f;
}

void pipeline(float *x, int n, int steps)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int i = 0; i < steps; i++)
        scale<<<1, 256, 0, s>>>(x, n);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
