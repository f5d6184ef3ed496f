// grow_only_buffer.cu: an allocation guarded by "the buffer is too small" inside a loop runs
// when the buffer grows, a few times in a run, not on every iteration: a note, not a warning.
#include <cuda_runtime.h>

__global__ void scale(float *d, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= 2.0f;
}

void process(const float *h, const size_t *sizes, int batches, cudaStream_t s)
{
    float *d = nullptr;
    size_t capacity = 0;
    for (int b = 0; b < batches; b++) {
        if (sizes[b] > capacity) {
            cudaFree(d); // expect: SYNC402 expect-severity: note
            cudaMalloc(&d, 2 * sizes[b] * sizeof(float)); // expect: SYNC402 expect-severity: note
            capacity = 2 * sizes[b];
        }
        cudaMemcpyAsync(d, h, sizes[b] * sizeof(float), cudaMemcpyHostToDevice, s);
        scale<<<(unsigned)((sizes[b] + 255) / 256), 256, 0, s>>>(d, sizes[b]);
    }
    cudaStreamSynchronize(s);
    cudaFree(d);
}
