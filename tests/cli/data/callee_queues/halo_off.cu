// halo_off.cu: another build of wrap_halo() with the halo switched off: it only waits.
#include <cuda_runtime.h>
void wrap_halo(float *c, int n)
{
    (void)c;
    (void)n;
    cudaDeviceSynchronize();
}
