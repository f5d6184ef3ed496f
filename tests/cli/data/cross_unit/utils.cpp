// utils.cpp: SynchronizeDevice and Timer::Stop wait for the whole device on every way out;
// the others do not (a stream only, one branch only, work queued after the wait).
#include <stdio.h>
#include <stdlib.h>
#include "utils.h"
static void check(cudaError_t code, const char *file, int line)
{
    if (code != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s\n", file, line, cudaGetErrorString(code));
        exit(1);
    }
}
void SynchronizeDevice(const char *file, int line)
{
    check(cudaDeviceSynchronize(), file, line);
}
void SynchronizeStream(cudaStream_t stream)
{
    cudaStreamSynchronize(stream);
}
void SynchronizeIf(int needed)
{
    if (needed)
        cudaDeviceSynchronize();
}
void SynchronizeThenCopy(float *d, int n, cudaStream_t stream)
{
    cudaDeviceSynchronize();
    cudaMemcpyAsync(d, d + n, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
}
void Timer::Stop()
{
    SynchronizeDevice(__FILE__, __LINE__);
}
