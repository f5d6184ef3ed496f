// fetch.cu: functions that read results back to the host. read_back and read_either open with a
// synchronous copy on every way; read_if only on one branch; launch_then_read launches first;
// read_twice is also defined in fetch_launch.cu; read_checked copies in a checking macro.
#include "fetch.h"
__global__ void scale(float *c, int n) { c[threadIdx.x % n] *= 2.f; }

void read_back(float *host, const float *dev, int n)
{
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void read_either(float *host, float *dev, int n, bool up)
{
    if (up) {
        cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
    } else {
        cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    cudaDeviceSynchronize();
}

void read_if(float *host, const float *dev, int n, bool fresh)
{
    if (fresh)
        cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void launch_then_read(float *host, float *dev, int n)
{
    scale<<<1, 64>>>(dev, n);
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void read_twice(float *host, float *dev, int n)
{
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t status = (call);                                                               \
        if (status != cudaSuccess)                                                                 \
            __builtin_trap();                                                                      \
    } while (0)

void read_checked(float *host, const float *dev, int n)
{
    CHECK(cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost));
}

// read_counted reads a count that a kernel of another unit may write before its copy.
int fetched;
void read_counted(float *host, const float *dev)
{
    int m = fetched;
    cudaMemcpy(host, dev, m * sizeof(float), cudaMemcpyDeviceToHost);
}
