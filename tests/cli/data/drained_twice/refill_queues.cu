// refill_queues.cu: another build of refill() that launches and returns.
#include <cuda_runtime.h>
__global__ void count_live(unsigned *d) { d[1] = d[0]; }
void refill(unsigned *d, unsigned *h)
{
    count_live<<<1, 1>>>(d);
    (void)h;
}
