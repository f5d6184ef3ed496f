// waits.cu: helpers that end with a wait for the whole device, each doing something else first:
// a call of report.cpp's host-only function; a launch whose result a synchronous copy fetches;
// a launch through a helper of this unit, with a memset after the wait; a launch and two waits.
#include <cuda_runtime.h>
void report(int step);
__global__ void bump(float *d, int n) { d[threadIdx.x % n] += 1.0f; }
static void stage(float *d, int n) { bump<<<1, 64>>>(d, n); }
void report_then_settle(int step)
{
    report(step);
    cudaDeviceSynchronize();
}
void copy_back_then_settle(float *d, float *h, int n)
{
    bump<<<1, 64>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaDeviceSynchronize();
}
void stage_then_settle_clear(float *d, int n)
{
    stage(d, n);
    cudaDeviceSynchronize();
    cudaMemsetAsync(d, 0, n * sizeof(float));
}
void launch_settle_settle(float *d, int n)
{
    bump<<<1, 64>>>(d, n);
    cudaDeviceSynchronize();
    cudaDeviceSynchronize();
}
