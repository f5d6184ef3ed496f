/* gpu_probe.cu: prints the number of CUDA devices this process can use (0 when there is no
 * driver or no device), so that the GPU tests can skip where none is visible. */
#include <cuda_runtime.h>

#include <stdio.h>

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        count = 0;
    }
    printf("%d\n", count);
    return 0;
}
