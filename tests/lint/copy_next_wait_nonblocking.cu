// copy_next_wait_nonblocking.cu: copy_next_wait.cu's waits next to synchronous copies to the
// host in a unit that creates a non-blocking stream: work there is waited for by a device-wide
// wait but not by a copy on the legacy stream, so neither the wait right before the copy nor the
// one right after it is drained anyway: warnings.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <vector>

__global__ void match(float *out) { out[threadIdx.x] = 1.0f; }

static cudaStream_t side;

void make_side() { cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking); }

void wait_then_copy(float *d, float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64, 0, side>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void thrust_copy_then_wait(float *d, std::vector<float> &host, int levels)
{
    thrust::device_vector<float> dev(host.size());
    for (int l = levels; l >= 0; --l) {
        match<<<1, 64, 0, side>>>(d);
        thrust::copy(dev.begin(), dev.end(), host.begin());
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
