// copy_next_wait_param.cu: copy_next_wait.cu's waits next to synchronous copies to the host in a
// unit that creates no stream but takes one as a parameter: the caller's stream may be a
// non-blocking one, whose work a device-wide wait waits for and a copy on the legacy stream does
// not: warnings.
#include <cuda_runtime.h>

__global__ void match(float *out) { out[threadIdx.x] = 1.0f; }

void enqueue(float *d, cudaStream_t stream) { match<<<1, 64, 0, stream>>>(d); }

void wait_then_copy(float *d, float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void copy_then_wait(float *d, float *h, int n, int levels)
{
    for (int l = levels; l >= 0; --l) {
        match<<<1, 64>>>(d); // expect: SYNC101
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
