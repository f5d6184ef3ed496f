#include "work.h"
__global__ void gain(float *p) { p[threadIdx.x] += 1.0f; }
void stored(float *p)
{
    gain<<<1, 32>>>(p);
    cudaDeviceSynchronize();
}
void assigned(float *p)
{
    gain<<<1, 32>>>(p);
    cudaDeviceSynchronize();
}
void handed(float *p)
{
    gain<<<1, 32>>>(p);
    cudaDeviceSynchronize();
}
void invoked(float *p)
{
    gain<<<1, 32>>>(p);
    cudaDeviceSynchronize();
}
void bound(float *p)
{
    gain<<<1, 32>>>(p);
    cudaDeviceSynchronize();
}
