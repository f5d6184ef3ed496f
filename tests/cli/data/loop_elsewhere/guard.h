// The project's error check: drains the device so that a kernel's failure shows where it happened.
#include <cuda_runtime.h>
inline void guard_kernel()
{
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        throw e;
}
