// copy.cpp: the consumer's host code: a pageable asynchronous copy, and a memset without the
// stream its function has at hand, which the target's per-thread default stream makes harmless.
#include <cuda_runtime.h>

#include <vector>

void upload(cudaStream_t stream, float *device, const std::vector<float> &values)
{
    cudaMemcpyAsync(device, values.data(), values.size() * sizeof(float),
                    cudaMemcpyHostToDevice, stream);
}

void clear(cudaStream_t stream, float *device, size_t n)
{
    cudaMemsetAsync(device, 0, n * sizeof(float));
}

// The step loop: both on every iteration.
void train(cudaStream_t stream, float *device, const std::vector<float> &values, int steps)
{
    for (int i = 0; i < steps; i++) {
        upload(stream, device, values);
        clear(stream, device, values.size());
    }
}
