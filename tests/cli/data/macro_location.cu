#include <cstdlib>
#include <cuda_runtime.h>
#define CHECK(call) (void)(call)

void upload(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n);
    CHECK(
        cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s));
    CHECK( // syncscope-ignore: SYNC201
        cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s));
}
void train(float *d, size_t n, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++)
        upload(d, n, s);
}
