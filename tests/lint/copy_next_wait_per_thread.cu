// copy_next_wait_per_thread.cu: copy_next_wait.cu's waits next to synchronous copies to the host,
// compiled with --default-stream per-thread: the copies run on the calling thread's stream and
// wait for its work only, while a device-wide wait waits for every thread's: warnings.
// lint-compdb: /usr/local/cuda/bin/nvcc -x cu --default-stream per-thread -std=c++17 -o copy_next_wait_per_thread.o -c
#include <cuda_runtime.h>

__global__ void match(float *out) { out[threadIdx.x] = 1.0f; }

void wait_then_copy(float *d, float *h, int n, int pairs)
{
    for (int i = 0; i < pairs; i++) {
        match<<<1, 64>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void copy_then_wait(float *d, float *h, int n, int levels)
{
    for (int l = levels; l >= 0; --l) {
        match<<<1, 64>>>(d);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
