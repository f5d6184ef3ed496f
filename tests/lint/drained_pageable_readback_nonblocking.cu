// drained_pageable_readback_nonblocking.cu: the loop of drained_pageable_readback.cu in a unit
// that creates a non-blocking stream and queues work on it: the readback on the legacy stream
// does not wait for that work, the wait for the whole device does. A warning.
#include <cuda_runtime.h>

__global__ void relax(int *values, int n, int *changed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && values[i] > 0) {
        values[i]--;
        *changed = 1;
    }
}

static cudaStream_t copier;

int until_settled(int *values, int n, int *d_changed, float *d_big, const float *h_big)
{
    cudaStreamCreateWithFlags(&copier, cudaStreamNonBlocking);
    int changed, rounds = 0;
    do {
        cudaMemcpyAsync(d_big, h_big, 1 << 24, cudaMemcpyHostToDevice, copier);
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpyAsync(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC201, SYNC301 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (changed == 1);
    return rounds;
}
