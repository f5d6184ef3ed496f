// f.cu: work on g_quiet only.
#include "streams.h"
__global__ void m(float *x) {}
void quiet_step(float *x)
{
    m<<<1, 1, 0, g_quiet>>>(x);
}
