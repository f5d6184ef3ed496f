// bp.cu: back_project() ends with a wait, and its one call in this unit is followed by a free
// that waits for the whole device (held-out-28's shape CB across a return, ASTRA's cone_bp.cu).
// hot.cu calls it in a loop of its own, with no free after.
#include <cuda_runtime.h>

__global__ void spread(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] += 1.0f;
}

void back_project(float *d, int n, cudaStream_t s)
{
    spread<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
}

void reconstruct(int n, int iterations, cudaStream_t s)
{
    for (int it = 0; it < iterations; it++) {
        float *tmp = nullptr;
        cudaMalloc(&tmp, n * sizeof(float));
        back_project(tmp, n, s);
        cudaFree(tmp);
    }
}
