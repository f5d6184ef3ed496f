#include "kernels.h"
__global__ void count(unsigned *n) { *n = 1; }
int launch_x(unsigned *n, cudaStream_t s)
{
    count<<<1, 1, 0, s>>>(n);
    cudaStreamSynchronize(s);
    return 0;
}
