// per_thread_define.cu: with -DCUDA_API_PER_THREAD_DEFAULT_STREAM the default stream is
// per-thread; only an explicit cudaStreamLegacy is reported.
// lint-args: -DCUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime.h>

__global__ void k(int *p) { p[0] = 1; }

void per_thread(int *p, char *dst, const char *src, size_t n)
{
    k<<<1, 1>>>(p);
    k<<<1, 1, 0, 0>>>(p);
    k<<<1, 1, 0, cudaStreamLegacy>>>(p); // expect: SYNC101
    cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice);
    cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, cudaStreamLegacy); // expect: SYNC102
    cudaStream_t legacy = cudaStreamLegacy;
    cudaMemsetAsync(dst, 0, n, legacy); // expect: SYNC102
}
