// stream_nonblocking.cu: the only streams the unit creates are non-blocking
// (cudaStreamCreateWithFlags with cudaStreamNonBlocking): they do not synchronize with the
// legacy default stream, so the legacy stream's work holds nothing up, and a launch on it is a
// note. The copy engine's stream does its own work meanwhile.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

static cudaStream_t copier;

void start(float *d_x, const float *h_x, int n)
{
    cudaStreamCreateWithFlags(&copier, cudaStreamNonBlocking);
    cudaMemcpyAsync(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice, copier);
}

void train(float *d_x, int n, int steps)
{
    for (int i = 0; i < steps; i++)
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note
}
