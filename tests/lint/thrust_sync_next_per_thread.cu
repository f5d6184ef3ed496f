// thrust_sync_next_per_thread.cu: compiled with the per-thread default stream, 'thrust::cuda::par'
// runs on the per-thread stream and synchronizes it when it ends: a device-wide wait in a loop
// right before it, with nothing but work on that stream queued since the device was drained, is
// a note ("drained anyway: ... on the per-thread default stream"). Work on the legacy stream,
// named 'cudaStreamLegacy', is on another stream there: the warning stays.
// lint-args: -std=c++17 -DCUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

__global__ void bin(float *h, int n) { h[threadIdx.x] = n; }

void per_thread(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64>>>(d, n);
        cudaMemset(d, 0, sizeof(float));
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the next statement, 'thrust::inclusive_scan' with the synchronous policy 'thrust::cuda::par' (line 19), waits for the same work on the per-thread default stream
        thrust::inclusive_scan(thrust::cuda::par, d, d + n, d);
    }
}

void legacy_before(float *d, int pairs, int n)
{
    for (int i = 0; i < pairs; ++i) {
        bin<<<1, 64, 0, cudaStreamLegacy>>>(d, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        thrust::inclusive_scan(thrust::cuda::par, d, d + n, d);
    }
}
