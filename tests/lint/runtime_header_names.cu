// runtime_header_names.cu: names a CUDA program gets from cuda_runtime.h besides the CUDA API
// itself (clock_t, exit, memset from the C library; device count; host-alloc and attach
// flags) parse with the bundled declarations too, so the readback below is still found.
#include <cuda_runtime.h>

__global__ void stamp(clock_t *out) { out[0] = 0; }

long long ticks(clock_t *d_clock)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        exit(EXIT_FAILURE);
    clock_t *pinned = NULL;
    cudaHostAlloc((void **)&pinned, sizeof(clock_t), cudaHostAllocPortable | cudaHostAllocMapped);
    memset(pinned, 0, sizeof(clock_t));
    float *shared = NULL;
    cudaMallocManaged((void **)&shared, 64, cudaMemAttachHost);
    cudaStreamAttachMemAsync(cudaStreamPerThread, shared, 0, cudaMemAttachSingle);
    clock_t host = 0;
    cudaMemcpy(&host, d_clock, sizeof(clock_t), cudaMemcpyDeviceToHost); // expect: SYNC301
    cudaFreeHost(pinned);
    return (long long)host;
}
