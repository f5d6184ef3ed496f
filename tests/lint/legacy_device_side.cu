// legacy_device_side.cu: SYNC102 for the synchronous calls that do not block the host but are
// queued on the legacy default stream (a device-to-device cudaMemcpy, a cudaMemset of device
// memory), in a unit that creates a blocking stream, with which they serialize. Host memory
// (SYNC202's) and memory of unknown provenance are not reported.
#include <cuda_runtime.h>

__global__ void work(float *x) { x[threadIdx.x] += 1.0f; }

void streams_and_memsets(size_t n, float *unknown)
{
    cudaStream_t s[2];
    for (int i = 0; i < 2; i++)
        cudaStreamCreate(&s[i]); // expect: SYNC103
    float *d_a = nullptr, *d_b = nullptr, *h = nullptr;
    cudaMalloc(&d_a, n);
    cudaMalloc(&d_b, n);
    cudaMallocHost(&h, n);
    cudaMemset(d_a, 0, n); // expect: SYNC102 expect-message: 'cudaMemset' in 'streams_and_memsets' sets device memory ('d_a') without blocking the host, on the legacy default stream: it serializes with the blocking streams this unit creates (line 13)
    cudaMemcpy(d_b, d_a, n, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-message: copies device to device ('d_b')
    cudaMemcpy(d_b, d_a, n, cudaMemcpyDefault); // expect: SYNC102
    cudaMemset(unknown, 0, n);
    cudaMemset(h, 0, n); // expect: SYNC202
    work<<<1, 32, 0, s[0]>>>(d_a);
    work<<<1, 32, 0, s[1]>>>(d_b);
}
