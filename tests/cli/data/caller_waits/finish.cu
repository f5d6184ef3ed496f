// finish.cu: the last launch of a frame, which waits for its stream.
#include "stages.h"
__global__ void last(float *d, int n) {}
int finish(float *d, int n, cudaStream_t s)
{
    last<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
