// stream_in_macro_arg.cu: a stream argument written inside an error-checking macro's argument
// is named as written, not after the macro (cuda-samples' checkCudaErrors(cuLaunchKernel(...,
// NULL, ...)) was reported as "stream 'checkCudaErrors'").
#include <cstddef>
#include <cuda.h>
#include <cuda_runtime.h>

#define checkCudaErrors(x)                                                                         \
    do {                                                                                           \
        if ((x) != 0)                                                                              \
            return;                                                                                \
    } while (0)

__global__ void fill(int *p) { p[0] = 1; }

void run(CUfunction f, void **params, int *d)
{
    checkCudaErrors(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL)); // expect: SYNC101 expect-message: (stream 'NULL')
    checkCudaErrors(cudaMemsetAsync(d, 0, 4, NULL)); // expect: SYNC102 expect-message: (stream 'NULL')
    checkCudaErrors(cudaMemsetAsync(d, 0, 4, 0)); // expect: SYNC102 expect-message: (stream '0')
    checkCudaErrors(cudaMemsetAsync(d, 0, 4, (cudaStream_t)0)); // expect: SYNC102 expect-message: (stream '(cudaStream_t)0')
    cudaMemsetAsync(d, 0, 4, NULL); // expect: SYNC102 expect-message: (stream 'NULL')
}
