// reduce.cu: a reduction that another unit's loop calls: it launches, waits for the whole device
// and reads the result back through read_back (fetch.cu). No drain before the wait is seen here;
// the copy waits for the same work where no unit queues work on a stream that does not block.
#include "fetch.h"
__global__ void fold(float *c, int n) { c[0] += c[threadIdx.x % n]; }

void finish(float *host, float *dev, int n)
{
    fold<<<1, 64>>>(dev, n);
    cudaDeviceSynchronize();
    read_back(host, dev, 1);
}
