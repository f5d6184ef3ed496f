#include "kernels.h"
__global__ void count(unsigned *n) { *n = 1; }
int launch_memset(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_sizeof(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_cond(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_and(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_tmpl(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_arith(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_write(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
