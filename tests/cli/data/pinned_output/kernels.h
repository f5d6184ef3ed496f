// kernels.h: launches that wait for their kernel, which writes through a pointer parameter.
#include <cuda_runtime.h>
int launch_count(unsigned *n, cudaStream_t s);
int launch_mask(unsigned long long *mask, unsigned n, cudaStream_t s);
int launch_direct(unsigned *n, cudaStream_t s);
int launch_if(unsigned *n, cudaStream_t s);
int launch_last(unsigned *n, cudaStream_t s);
int launch_early(unsigned *n, cudaStream_t s);
int launch_work(unsigned *n, cudaStream_t s);
int launch_unknown(unsigned *n, cudaStream_t s);
int launch_shadow(unsigned *n, cudaStream_t s);
int launch_op(unsigned *n, cudaStream_t s);
int launch_pageable(unsigned *n, cudaStream_t s);
int launch_given(unsigned *n, cudaStream_t s);
int launch_public(unsigned *n, cudaStream_t s);
int launch_mixed(unsigned *n, cudaStream_t s);
int launch_taken(unsigned *n, cudaStream_t s);
int launch_virtual(unsigned *n, cudaStream_t s);
int launch_offset(unsigned *n, cudaStream_t s);
int launch_more(unsigned *n, cudaStream_t s);
int launch_streams(unsigned *n, cudaStream_t s, cudaStream_t t);
int launch_queued(unsigned *n, cudaStream_t s, cudaStream_t t);
int launch_twice(unsigned *n, cudaStream_t s);
int launch_null(unsigned *n, cudaStream_t s);
int launch_store(unsigned *n, cudaStream_t s);
int launch_loop_work(unsigned *n, cudaStream_t s);
void log_step(void);
