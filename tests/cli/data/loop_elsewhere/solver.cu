#include "guard.h"
__global__ void flux(float *u) { u[0] += 1.0f; }
__global__ void update(float *u) { u[0] *= 2.0f; }
void advance(float *u)
{
    flux<<<64, 256>>>(u);
    guard_kernel();
    update<<<64, 256>>>(u);
    cudaStreamSynchronize(0);
}
void InitGrid(float *u)
{
    flux<<<64, 256>>>(u);
    cudaDeviceSynchronize();
}
void report(float *u)
{
    update<<<1, 1>>>(u);
    cudaDeviceSynchronize();
}
static void scratch(float *u)
{
    flux<<<1, 1>>>(u);
    cudaDeviceSynchronize();
}
void reset(float *u) { scratch(u); }
void relax(float *u)
{
    update<<<64, 256>>>(u);
    cudaDeviceSynchronize();
}
