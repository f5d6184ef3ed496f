#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void find(int *count) { *count = 1; }
int extract(int *d_count)
{
    find<<<1, 1>>>(d_count);
    cudaDeviceSynchronize();
    cudaEvent_t start, stop;
    cudaError_t error = cudaEventCreate(&start);
    if (error != cudaSuccess) {
        fprintf(stderr, "%s\n", cudaGetErrorString(error));
        exit(EXIT_FAILURE);
    }
    cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    for (int i = 0; i < 300; i++)
        find<<<1, 1>>>(d_count);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms;
    cudaEventElapsedTime(&ms, start, stop);
    printf("%.2f ms\n", ms);
    return 0;
}
