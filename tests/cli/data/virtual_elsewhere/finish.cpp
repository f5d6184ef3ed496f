#include <cuda_runtime.h>

void finish_all()
{
    cudaDeviceSynchronize();
}
