// free_no_wait.cu: a cudaFree that waits for nothing is no SYNC402 (measured, docs/studies/
// validation.md 2026-12-06): of a null pointer as written (0, NULL, nullptr, a cast of 0), and
// of a variable the function allocates only in stream order (cudaMallocAsync,
// cudaMallocFromPoolAsync). A variable allocated with cudaMalloc too, or a pointer handed in,
// is taken for cudaMalloc memory: reported.
#include <cuda_runtime.h>
#include <cstddef>

__global__ void fill(float *x, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] = 1.0f;
}

void null_frees(float *d, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        fill<<<1, 32, 0, s>>>(d, n);
        cudaFree(0);
        cudaFree(NULL);
        cudaFree(nullptr);
        cudaFree((void *)0);
    }
}

void stream_ordered(int n, int rounds, cudaStream_t s, cudaMemPool_t pool)
{
    for (int r = 0; r < rounds; r++) {
        float *a = nullptr, *b = nullptr;
        cudaMallocAsync(&a, n * sizeof(float), s);
        cudaMallocFromPoolAsync((void **)&b, n * sizeof(float), pool, s);
        fill<<<1, 32, 0, s>>>(a, n);
        fill<<<1, 32, 0, s>>>(b, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        cudaFree(a);
        cudaFree(b);
    }
}

void mixed(int n, int rounds, bool pooled, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *a = nullptr;
        if (pooled)
            cudaMallocAsync(&a, n * sizeof(float), s);
        else
            cudaMalloc(&a, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        fill<<<1, 32, 0, s>>>(a, n);
        cudaFree(a); // expect: SYNC402 expect-severity: warning
    }
}

void handed_in(float *d, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        fill<<<1, 32, 0, s>>>(d, n);
        cudaFree(d); // expect: SYNC402 expect-severity: warning
    }
}
