// __CUDACC__ is 1 in CUDA files, as nvcc defines it: CUDA 13's NCCL device headers test
// '#if __CUDACC__', which fails to parse when it is defined empty (clang's CUDA wrapper).
#if __CUDACC__ != 1
#error __CUDACC__ is not 1
#endif
#include <cuda_runtime.h>

#if __CUDACC__
__global__ void kernel(int *p) { p[0] = 1; }

void launch(int *p)
{
    kernel<<<1, 1>>>(p); // expect: SYNC101
}
#endif
