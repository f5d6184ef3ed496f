// async_calls.cu: SYNC102 for asynchronous APIs on the legacy default stream.
#include <cuda_runtime.h>

__device__ int symbol[4];

void default_stream_calls(char *dst, const char *src, size_t n, cudaEvent_t event,
                          cudaMemPool_t pool)
{
    cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice); // expect: SYNC102
    cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, 0); // expect: SYNC102
    cudaMemcpy2DAsync(dst, n, src, n, n, 1, cudaMemcpyDeviceToDevice); // expect: SYNC102
    cudaMemcpyToSymbolAsync(symbol, src, 4, 0, cudaMemcpyHostToDevice); // expect: SYNC102
    cudaMemcpyFromSymbolAsync(dst, symbol, 4, 0, cudaMemcpyDeviceToHost, NULL); // expect: SYNC102
    cudaMemcpyPeerAsync(dst, 1, src, 0, n); // expect: SYNC102
    cudaMemsetAsync(dst, 0, n); // expect: SYNC102
    cudaMemset2DAsync(dst, n, 0, n, 1, cudaStreamLegacy); // expect: SYNC102
    cudaMemLocation device = {};
    cudaMemPrefetchAsync(dst, n, device, 0); // expect: SYNC102
    void *buffer = nullptr;
    cudaMallocAsync(&buffer, n, 0); // expect: SYNC102
    cudaMallocFromPoolAsync(&buffer, n, pool, nullptr); // expect: SYNC102
    cudaFreeAsync(buffer, 0); // expect: SYNC102
    cudaEventRecord(event); // expect: SYNC102
    cudaEventRecord(event, 0); // expect: SYNC102
    cudaStreamWaitEvent(0, event, 0); // expect: SYNC102
    cudaStreamAttachMemAsync(nullptr, dst); // expect: SYNC102
}

void stream_calls(char *dst, const char *src, size_t n, cudaEvent_t event, cudaStream_t s)
{
    cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, cudaStreamPerThread);
    cudaMemsetAsync(dst, 0, n, s);
    cudaEventRecord(event, s);
    cudaStreamWaitEvent(s, event, 0);
    cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice); // expect: SYNC202
    void *buffer = nullptr;
    cudaMallocAsync(&buffer, n, s);
    cudaFreeAsync(buffer, s);
}
