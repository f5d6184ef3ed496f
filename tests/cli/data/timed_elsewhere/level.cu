#include <cuda_runtime.h>
__global__ void step(int *out) { out[0] = 1; }
void level(int *d, int *h)
{
    step<<<1, 1>>>(d);
    cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaDeviceSynchronize();
}
void level_launch(int *d, int *h)
{
    cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    step<<<1, 1>>>(d);
    cudaDeviceSynchronize();
}
