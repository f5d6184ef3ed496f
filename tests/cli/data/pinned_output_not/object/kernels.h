#include <cuda_runtime.h>
int launch_other(unsigned *n, cudaStream_t s);
int launch_swap(unsigned *n, cudaStream_t s);
