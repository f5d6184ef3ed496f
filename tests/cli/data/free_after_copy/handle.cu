// handle.cu: a stream made from an integer handle a caller outside the run passes (a Python
// binding's 'stream_ptr'), beside one it creates blocking.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void shift(float *x, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] += 1.0f;
}

void shift_on(float *x, int n, uintptr_t stream_ptr)
{
    cudaStream_t own;
    cudaStreamCreate(&own);
    shift<<<1, 256, 0, own>>>(x, n);
    shift<<<1, 256, 0, (cudaStream_t)stream_ptr>>>(x, n);
    cudaStreamDestroy(own);
}
