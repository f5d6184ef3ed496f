// sync_copy_pipeline.cu: SYNC202, synchronous copies and memsets in a function that also
// uses a non-default stream, or inside a loop that launches kernels.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

__constant__ float c_bias[16];

void uses_a_stream(float *d, float *h, int n, cudaStream_t s)
{
    scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    cudaMemset(d, 0, n * sizeof(float)); // device memory (as far as is known): host not blocked
}

void created_stream(float *d, const float *h, int n)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaStreamDestroy(s);
}

void loop_launches(float *d, float *h, int n, int steps)
{
    for (int i = 0; i < steps; i++) {
        cudaMemcpyToSymbol(c_bias, h, sizeof(float)); // expect: SYNC202
        scale<<<(n + 255) / 256, 256>>>(d, n); // expect: SYNC101
    }
    int left = steps;
    while (left-- > 0) {
        scale<<<1, 256>>>(d, n); // expect: SYNC101
        cudaMemcpy2D(h, 4, d, 4, 4, 1, cudaMemcpyDeviceToHost); // expect: SYNC202
    }
    do {
        cudaLaunchKernel((const void *)scale, dim3(1), dim3(256), nullptr, 0, 0); // expect: SYNC101
        cudaMemset2D(d, 4, 0, 4, 1); // device memory: host not blocked
    } while (--left > 0);
}

void range_for_and_nested(float *d, float *h, int n)
{
    int sizes[3] = {64, 128, 256};
    for (int size : sizes) {
        scale<<<1, size>>>(d, n); // expect: SYNC101
        for (int j = 0; j < 2; j++)
            cudaMemcpy(h + j, d + j, sizeof(float) * 64, cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void lambda_in_loop(float *d, float *h, int n, int steps)
{
    auto step = [&](int i) { scale<<<1, 256>>>(d + i, n); }; // expect: SYNC101
    auto fetch = [&](int i) { cudaMemcpy(h + i, d + i, 256, cudaMemcpyDeviceToHost); }; // expect: SYNC202
    for (int i = 0; i < steps; i++) {
        step(i);
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202
        fetch(i);
    }
}
