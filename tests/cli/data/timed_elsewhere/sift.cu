#include <cuda_runtime.h>
#include <cstdio>
__global__ void find(int *count) { *count = 1; }
struct Timer {
    cudaEvent_t start, stop;
    Timer() { cudaEventCreate(&start); cudaEventCreate(&stop); cudaEventRecord(start, 0); }
    float read()
    {
        float t;
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&t, start, stop);
        return t;
    }
};
int extract(int *d_count)
{
    Timer timer;
    find<<<1, 1>>>(d_count);
    int n;
    cudaMemcpy(&n, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    find<<<1, 1>>>(d_count);
    printf("%.2f ms\n", timer.read());
    return n;
}
void other(int *d_count) { find<<<1, 1>>>(d_count); }
