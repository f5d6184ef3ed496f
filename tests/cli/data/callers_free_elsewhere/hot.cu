// hot.cu: calls bp.cu's back_project() on every iteration, freeing nothing after it: its wait
// is a stall here.
#include <cuda_runtime.h>

void back_project(float *d, int n, cudaStream_t s);

void refine(float *d, int n, int iterations, cudaStream_t s)
{
    for (int it = 0; it < iterations; it++)
        back_project(d, n, s);
}
