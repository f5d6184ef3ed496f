#include <cuda_runtime.h>
int launch_memset(unsigned *n, cudaStream_t s);
int launch_sizeof(unsigned *n, cudaStream_t s);
int launch_cond(unsigned *n, cudaStream_t s);
int launch_and(unsigned *n, cudaStream_t s);
int launch_tmpl(unsigned *n, cudaStream_t s);
int launch_arith(unsigned *n, cudaStream_t s);
int launch_write(unsigned *n, cudaStream_t s);
