// refill_waits.cu: refill() launches, then reads a count back synchronously.
#include <cuda_runtime.h>
__global__ void count_live(unsigned *d) { d[1] = d[0]; }
void refill(unsigned *d, unsigned *h)
{
    count_live<<<1, 1>>>(d);
    cudaMemcpy(h, d + 1, sizeof(unsigned), cudaMemcpyDeviceToHost);
}
