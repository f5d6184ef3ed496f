// kernels.cu: each launch waits for its kernel, which writes through the pointer it is given.
#include "kernels.h"
__global__ void count(unsigned *n) { *n = 1; }
__global__ void mark(unsigned long long *mask, unsigned n) { mask[n] = 1; }
static float *scratch;
int launch_count(unsigned *n, cudaStream_t s)
{
    count<<<1, 1, 0, s>>>(n);
    cudaStreamSynchronize(s);
    return 0;
}
int launch_mask(unsigned long long *mask, unsigned n, cudaStream_t s)
{
    mark<<<1, 1, 0, s>>>(mask, n);
    cudaStreamSynchronize(s);
    return 0;
}
int launch_direct(unsigned *n, cudaStream_t s)
{
    count<<<1, 1, 0, s>>>(n);
    cudaStreamSynchronize(s);
    return 0;
}
int launch_if(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_last(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_early(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_work(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_unknown(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_shadow(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_op(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_pageable(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_given(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_public(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_mixed(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_taken(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_virtual(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_offset(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_more(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_streams(unsigned *n, cudaStream_t s, cudaStream_t t)
{
    count<<<1, 1, 0, s>>>(n);
    cudaStreamSynchronize(t);
    return 0;
}
int launch_queued(unsigned *n, cudaStream_t s, cudaStream_t t)
{
    cudaMemsetAsync(scratch, 0, 4, t);
    count<<<1, 1, 0, s>>>(n);
    cudaStreamSynchronize(s);
    return 0;
}
int launch_twice(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_null(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_store(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
int launch_loop_work(unsigned *n, cudaStream_t s) { count<<<1, 1, 0, s>>>(n); cudaStreamSynchronize(s); return 0; }
