// soft.cu: a weak definition of soften that launches before its wait; firm.cu's replaces it
// when both are linked.
#include <cuda_runtime.h>
__global__ void bump(float *d, int n) { d[threadIdx.x % n] += 1.0f; }
__attribute__((weak)) void soften(float *d, int n)
{
    bump<<<1, 64>>>(d, n);
    cudaDeviceSynchronize();
}
