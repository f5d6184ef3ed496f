// torch_op.cu: a libtorch-style custom operator; the hint names the caller's stream.
// expect-hint: at::cuda::getCurrentCUDAStream()
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

__global__ void relu_kernel(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] < 0.0f)
        x[i] = 0.0f;
}

void relu_forward_wrong(float *x, int n)
{
    relu_kernel<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101
}

void relu_forward(float *x, int n)
{
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    relu_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, n);
    relu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x, n);
    auto current = at::cuda::getCurrentCUDAStream();
    relu_kernel<<<(n + 255) / 256, 256, 0, current.stream()>>>(x, n);
}
