/* memory_cap.cu: the light mode past its memory cap on a GPU (docs/run.md, "Cost and memory").
 *
 *   memory_cap ITERATIONS
 *
 * Each iteration queues a kernel that spins 20 us on a blocking stream, reads one value back
 * into pinned memory with cudaMemcpyAsync and waits for it with cudaStreamSynchronize (as
 * PyTorch's .item() does: a SYNC301 readback completed by the wait), then queues another 20 us
 * kernel and waits for the whole device (a stray cudaDeviceSynchronize: SYNC401). The light
 * mode records three calls an iteration; run under a memory cap that keeps only the first part,
 * it counts the rest by kind. Prints "iterations N" and "sum S" (S = the kernels' count). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "../gpu_common.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 0;
    if (n <= 0) {
        fprintf(stderr, "usage: memory_cap ITERATIONS\n");
        return 2;
    }
    unsigned *counters = NULL;
    unsigned *pinned = NULL;
    cudaStream_t stream;
    if (cudaMalloc((void **)&counters, 2 * sizeof(unsigned)) != cudaSuccess ||
        cudaMemset(counters, 0, 2 * sizeof(unsigned)) != cudaSuccess ||
        cudaMallocHost((void **)&pinned, sizeof(unsigned)) != cudaSuccess ||
        cudaStreamCreate(&stream) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "memory_cap: set-up failed\n");
        return 1;
    }
    for (long i = 0; i < n; i++) {
        spin_kernel<<<1, 1, 0, stream>>>(counters, 0, 20000ull);
        cudaMemcpyAsync(pinned, counters, sizeof(unsigned), cudaMemcpyDeviceToHost, stream);
        cudaStreamSynchronize(stream);
        spin_kernel<<<1, 1, 0, stream>>>(counters, 1, 20000ull);
        cudaDeviceSynchronize();
    }
    unsigned sums[2] = {0, 0};
    cudaMemcpy(sums, counters, sizeof(sums), cudaMemcpyDeviceToHost);
    printf("iterations %ld\nsum %u\n", n, sums[0] + sums[1]);
    cudaStreamDestroy(stream);
    cudaFreeHost(pinned);
    cudaFree(counters);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
