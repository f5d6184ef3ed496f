// A program with one stream, the legacy one: its launch is a note, and so is its readback (once).
#include "kernels.cu"

int main()
{
    float *d = nullptr;
    float sum = 0.0f;
    cudaMalloc(&d, 256 * sizeof(float));
    scale<<<1, 256>>>(d, 2.0f);
    cudaMemcpy(&sum, d, sizeof sum, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return sum > 0.0f ? 0 : 1;
}
