// The device side of a small spiking network: each function is called from net.cpp.
#include <cuda_runtime.h>

__global__ void integrate(float *v, int n) { int i = threadIdx.x; if (i < n) v[i] += 0.5f; }
__global__ void count(const float *v, int *spikes, int n) { int i = threadIdx.x; if (i < n) spikes[i] += v[i] > 1.0f; }

void launchStep(float *v, int *spikes, int n)
{
    integrate<<<1, 128>>>(v, n);
    count<<<1, 128>>>(v, spikes, n);
}

void copySpikeCount(int *host, const int *dev, int n, cudaMemcpyKind kind)
{
    cudaMemcpy(host, dev, n * sizeof(int), kind);
}

void copyPotentials(float *host, const float *dev, int n)
{
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void copyWeights(float *dev, const float *host, int n)
{
    cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
}

void copyLabels(int *host, const int *dev, int n)
{
    cudaMemcpy(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost);
}
