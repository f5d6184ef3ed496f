// pageable_kinds.cu: which side of a copy is host memory: cudaMemcpyDefault, 2D and 3D
// copies, and symbol copies.
#include <cuda_runtime.h>
#include <stdlib.h>

__constant__ float c_weights[64];
__device__ int d_flag;

void default_kind(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyDefault, s); // expect: SYNC201
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDefault, s); // expect: SYNC201
    float *other = nullptr;
    cudaMalloc(&other, n * sizeof(float));
    /* Neither side is known to be host memory. */
    cudaMemcpyAsync(other, d, n * sizeof(float), cudaMemcpyDefault, s);
}

void two_d(float *d, size_t pitch, size_t width, size_t height, cudaStream_t s)
{
    float *h = (float *)malloc(width * height * sizeof(float));
    cudaMemcpy2DAsync(d, pitch, h, width * sizeof(float), width * sizeof(float), height, // expect: SYNC201
                      cudaMemcpyHostToDevice, s);
    cudaMemcpy2DAsync(h, width * sizeof(float), d, pitch, width * sizeof(float), height, // expect: SYNC201
                      cudaMemcpyDeviceToHost, s);
}

void three_d(cudaPitchedPtr device, cudaExtent extent, cudaStream_t s)
{
    float *h = (float *)malloc(extent.width * extent.height * extent.depth);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h, extent.width, extent.width, extent.height);
    p.dstPtr = device;
    p.extent = extent;
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3DAsync(&p, s); // expect: SYNC201
}

void symbols(const float *weights_unknown, cudaStream_t s)
{
    float weights[64] = {0};
    cudaMemcpyToSymbolAsync(c_weights, weights, sizeof weights, 0, cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyToSymbolAsync(c_weights, weights_unknown, sizeof weights, 0,
                            cudaMemcpyHostToDevice, s);
    int flag = 0;
    cudaMemcpyFromSymbolAsync(&flag, &d_flag, sizeof flag, 0, cudaMemcpyDeviceToHost, s); // expect: SYNC201
}
