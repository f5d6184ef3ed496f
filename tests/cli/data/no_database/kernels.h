#include <cuda_runtime.h>
int launch_x(unsigned *n, cudaStream_t s);
