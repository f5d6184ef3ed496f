// The root configuration applies: SYNC101 is an error, SYNC103 is off.
#include <cuda_runtime.h>
__global__ void k(int *p) { p[0] = 1; }
void app(int *p, cudaStream_t *s)
{
    cudaStreamCreate(s);
    k<<<1, 1>>>(p);
}
