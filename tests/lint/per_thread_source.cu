// per_thread_source.cu: the per-thread macro defined in the source itself.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda_runtime.h>

__global__ void k(int *p) { p[0] = 1; }

void per_thread(int *p)
{
    k<<<1, 1>>>(p);
    k<<<1, 1, 0, cudaStreamLegacy>>>(p); // expect: SYNC101
}
