// Its own configuration only: SYNC103 back at its default, SYNC401 a warning, standalone() hot.
#include <cuda_runtime.h>
__global__ void k(int *p) { p[0] = 1; }
void standalone(int *p, cudaStream_t *s, int n)
{
    cudaStreamCreate(s);
    k<<<1, 1>>>(p);
    for (int i = 0; i < n; i++) {
        k<<<1, 1, 0, *s>>>(p);
        cudaStreamSynchronize(*s);
    }
}
