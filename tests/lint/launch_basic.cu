// launch_basic.cu: SYNC101 for every spelling of the legacy default stream in <<<...>>>.
#include <cstddef>
#include <cuda_runtime.h>

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

void legacy_launches(float *x)
{
    scale<<<1, 32>>>(x, 2.0f); // expect: SYNC101
    scale<<<1, 32, 0>>>(x, 2.0f); // expect: SYNC101
    scale<<<1, 32, 0, 0>>>(x, 2.0f); // expect: SYNC101
    scale<<<1, 32, 0, NULL>>>(x, 2.0f); // expect: SYNC101
    scale<<<1, 32, 0, nullptr>>>(x, 2.0f); // expect: SYNC101
    scale<<<1, 32, 0, (cudaStream_t)0>>>(x, 2.0f); // expect: SYNC101
    scale<<<1, 32, 0, cudaStreamLegacy>>>(x, 2.0f); // expect: SYNC101
    scale<<<dim3(4, 4), dim3(8, 8), 128, // expect: SYNC101
            0>>>(x, 2.0f);
}

void fine_launches(float *x, cudaStream_t caller)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    scale<<<1, 32, 0, s>>>(x, 2.0f);
    scale<<<1, 32, 0, caller>>>(x, 2.0f);
    scale<<<1, 32, 0, cudaStreamPerThread>>>(x, 2.0f);
    cudaStreamDestroy(s);
}
