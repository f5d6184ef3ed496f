// Inherits the root configuration (SYNC103 off) under its own (SYNC101 note, SYNC401 off).
#include <cuda_runtime.h>
__global__ void k(int *p) { p[0] = 1; }
void test(int *p, cudaStream_t *s, int n)
{
    cudaStreamCreate(s);
    k<<<1, 1>>>(p);
    for (int i = 0; i < n; i++) {
        k<<<1, 1, 0, *s>>>(p);
        cudaStreamSynchronize(*s);
    }
}
