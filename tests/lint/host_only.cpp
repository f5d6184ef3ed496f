// host_only.cpp: a C++ file that calls the runtime API directly.
#include <cuda_runtime.h>
#include <vector>

void upload(std::vector<float> &v, float *device, cudaStream_t s)
{
    cudaMemcpyAsync(device, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC102, SYNC201
    cudaMemcpyAsync(device, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaStream_t mine;
    cudaStreamCreate(&mine); // expect: SYNC103
}
