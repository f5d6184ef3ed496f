// halo.cu: helpers that end with a wait for the whole device. Some queue work of their own
// before that wait (a launch, a memset, a launch on one branch); the others only wait, or
// wait and then clear a buffer that nothing waits for.
#include <cuda_runtime.h>
__global__ void wrap_cells(float *c, int n) { c[threadIdx.x % n] = c[n - 1]; }
void wrap_halo(float *c, int n)
{
    wrap_cells<<<1, 64>>>(c, n);
    cudaDeviceSynchronize();
}
void settle() { cudaDeviceSynchronize(); }
void zero_then_settle(float *c, int n)
{
    cudaMemset(c, 0, n * sizeof(float));
    cudaDeviceSynchronize();
}
void settle_then_zero(float *c, int n)
{
    cudaDeviceSynchronize();
    cudaMemsetAsync(c, 0, n * sizeof(float));
}
void wrap_if_periodic(float *c, int n, bool periodic)
{
    if (periodic)
        wrap_cells<<<1, 64>>>(c, n);
    cudaDeviceSynchronize();
}
