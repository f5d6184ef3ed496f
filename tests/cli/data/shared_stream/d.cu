// d.cu: a synchronous copy (legacy stream) beside the stream of make_stream().
#include "streams.h"
void copy_back(float *h, const float *d, size_t n)
{
    cudaStream_t s = make_stream();
    cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
    cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
}
