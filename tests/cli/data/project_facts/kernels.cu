// kernels.cu: each wrapper launches on the stream it is given; permute_launch then waits for it.
#include <stdio.h>
#include "launch.h"
__global__ void k(float *d, int n) {}
int permute_launch(float *d, int n, cudaStream_t stream)
{
    k<<<1, n, 0, stream>>>(d, n);
    cudaStreamSynchronize(stream);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
        return -1;
    }
    return 0;
}
int launch_only(float *d, int n, cudaStream_t stream)
{
    k<<<1, n, 0, stream>>>(d, n);
    return 0;
}
int wait_then_launch(float *d, int n, cudaStream_t stream)
{
    cudaStreamSynchronize(stream);
    k<<<1, n, 0, stream>>>(d, n);
    return 0;
}
int wait_other(float *d, int n, cudaStream_t stream)
{
    k<<<1, n, 0, stream>>>(d, n);
    stream = 0;
    cudaStreamSynchronize(stream);
    return 0;
}
// Waits for the whole device before it launches: main.cu's second loop calls it right after a
// device-wide wait. wait_first waits for its stream first: called once right after a wait for
// that stream, once after other work.
int sync_then_launch(float *d, int n, cudaStream_t stream)
{
    cudaDeviceSynchronize();
    k<<<1, n, 0, stream>>>(d, n);
    return 0;
}
int wait_first(float *d, int n, cudaStream_t stream)
{
    cudaStreamSynchronize(stream);
    k<<<1, n, 0, stream>>>(d, n);
    return 0;
}
