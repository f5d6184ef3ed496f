// stream_array.cu: streams held in arrays.
#include <cuda_runtime.h>

__global__ void work(int *p) { p[threadIdx.x] = 0; }

void array_of_created(int *p)
{
    cudaStream_t streams[4];
    for (int i = 0; i < 4; i++)
        cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
    for (int i = 0; i < 4; i++)
        work<<<1, 32, 0, streams[i]>>>(p + 32 * i);
}

void array_of_zero(int *p)
{
    cudaStream_t streams[2] = {};
    for (int i = 0; i < 2; i++)
        work<<<1, 32, 0, streams[i]>>>(p + 32 * i); // expect: SYNC101
}

void array_partly_created(int *p)
{
    cudaStream_t streams[2] = {0, 0};
    cudaStreamCreateWithFlags(&streams[1], cudaStreamNonBlocking);
    work<<<1, 32, 0, streams[0]>>>(p);
}

void array_param(int *p, cudaStream_t *streams)
{
    work<<<1, 32, 0, streams[0]>>>(p);
}
