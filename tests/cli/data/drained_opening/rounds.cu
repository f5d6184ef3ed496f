// rounds.cu: loops that launch, wait for the whole device (or a stream) and then call another
// unit's function. Where that function's first device work synchronizes the legacy stream the
// kernel ran on, and nothing on another stream is queued, the wait adds no stall: notes; where
// it only launches, skips the synchronization, or the wait is for another stream: warnings.
#include "sums.h"

__global__ void spread(float *v, int n) { v[threadIdx.x] = n; }

float unit_rounds(float *v, int n, int rounds)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        spread<<<1, 64>>>(v, n);
        must(cudaDeviceSynchronize());
        total += unit_sum(n);
    }
    return total;
}

float side_rounds(float *v, int n, int rounds)
{
    float last = 0.f;
    for (int r = 0; r < rounds; ++r) {
        spread<<<1, 64>>>(v, n);
        cudaDeviceSynchronize();
        last = side_sum(n, r % 2);
    }
    return last;
}

void halve_rounds(float *v, int n, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        spread<<<1, 64>>>(v, n);
        cudaDeviceSynchronize();
        halve_all(v, n);
    }
}

void shift_rounds(float *v, int n, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        spread<<<1, 64>>>(v, n);
        cudaDeviceSynchronize();
        shift_all(v, n);
    }
}

float stream_rounds(float *v, int n, int rounds, cudaStream_t s)
{
    float total = 0.f;
    for (int r = 0; r < rounds; ++r) {
        spread<<<1, 64, 0, s>>>(v, n);
        cudaStreamSynchronize(s);
        total += unit_sum(n);
    }
    return total;
}
