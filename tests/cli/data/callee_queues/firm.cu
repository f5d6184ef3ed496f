// firm.cu: the definition of soften that a link with soft.cu keeps: it only waits.
#include <cuda_runtime.h>
void soften(float *d, int n)
{
    (void)d;
    (void)n;
    cudaDeviceSynchronize();
}
