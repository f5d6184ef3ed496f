// stream_create.cu: SYNC103 for streams created as blocking streams.
#include <cuda_runtime.h>

void blocking(void)
{
    cudaStream_t a, b, c, d;
    cudaStreamCreate(&a); // expect: SYNC103
    cudaStreamCreateWithFlags(&b, cudaStreamDefault); // expect: SYNC103
    cudaStreamCreateWithFlags(&c, 0); // expect: SYNC103
    cudaStreamCreateWithPriority(&d, cudaStreamDefault, -1); // expect: SYNC103
}

void non_blocking(unsigned flags)
{
    cudaStream_t a, b, c;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithPriority(&b, cudaStreamNonBlocking, 0);
    cudaStreamCreateWithFlags(&c, flags);
}
