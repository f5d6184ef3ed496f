// stages.cu: each stage launches on its stream and ends by waiting for it.
#include "stages.h"
__global__ void k(float *d, int n) {}
int stage_sync(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
int stage_timed(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
int stage_device(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
int stage_event(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
int stage_next(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
int stage_mixed(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
int stage_pointer(float *d, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return 0;
}
// The host reads what the stage wrote after its wait: the wait is not its last action.
int stage_count(float *d, int *count, int n, cudaStream_t s)
{
    k<<<1, n, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    return *count;
}
