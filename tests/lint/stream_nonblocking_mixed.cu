// stream_nonblocking_mixed.cu: near miss of stream_nonblocking.cu: beside a non-blocking stream
// the unit creates a blocking one (cudaStreamCreate), which the legacy stream serializes with:
// the legacy launch stays a warning.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

static cudaStream_t copier, worker;

void start(void)
{
    cudaStreamCreateWithFlags(&copier, cudaStreamNonBlocking);
    cudaStreamCreate(&worker); // expect: SYNC103
}

void train(float *d_x, float *d_y, int n, int steps)
{
    for (int i = 0; i < steps; i++) {
        scale<<<1, 32, 0, worker>>>(d_y, n);
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: warning
    }
}
