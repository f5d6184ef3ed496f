// macro_location.cu: a call written in an error-checking macro's argument is reported where
// the call is written (its spelling location), as clang reports a diagnostic, also when the
// macro's invocation starts on an earlier line; a call that a macro's body spells is reported
// at the macro's invocation.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(call)                                                                  \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess)                                                               \
            printf("%s\n", cudaGetErrorString(err_));                                          \
    } while (0)
#define CUDA_TRY(call) checkCudaErrors(call)
#define COPY_UP(d, h, n) cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, 0)

void upload(float *d, size_t n)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    float *h = (float *)malloc(n * sizeof(float));
    checkCudaErrors(
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201
    checkCudaErrors(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201
    CUDA_TRY(cudaStreamSynchronize(s));
    CUDA_TRY(
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201
    COPY_UP(d, h, n * sizeof(float)); // expect: SYNC201, SYNC102
    free(h);
}
