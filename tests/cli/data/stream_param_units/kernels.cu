#include "kernels.h"

__global__ void add_delta(float *ar, unsigned n) { ar[threadIdx.x % n] += 1.0f; }

void AddDelta(float *ar, unsigned n, cudaStream_t stm) { add_delta<<<1, 32, 0, stm>>>(ar, n); }

void Scale(float *ar, unsigned n, cudaStream_t stm) { add_delta<<<1, 32, 0, stm>>>(ar, n); }

void Clear(float *ar, unsigned n, cudaStream_t stm)
{
    cudaMemsetAsync(ar, 0, n * sizeof(float), stm);
}

void Step(float *ar, unsigned n, cudaStream_t spare)
{
    for (int i = 0; i < 4; i++)
        add_delta<<<1, 32>>>(ar, n);
}

void Forces(const Params &p) { add_delta<<<1, 32, 0, p.stm>>>(p.ar, p.n); }
