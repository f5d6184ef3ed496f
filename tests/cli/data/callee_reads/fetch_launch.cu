// fetch_launch.cu: another build of read_twice, which launches before its copy.
#include "fetch.h"
__global__ void shift(float *c, int n) { c[threadIdx.x % n] += 1.f; }

void read_twice(float *host, float *dev, int n)
{
    shift<<<1, 64>>>(dev, n);
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
}
