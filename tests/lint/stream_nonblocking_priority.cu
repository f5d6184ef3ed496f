// stream_nonblocking_priority.cu: a stream created non-blocking with a priority
// (cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p)) and used for a launch does not
// synchronize with the legacy default stream: the legacy launch is a note that says so.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

void train(float *d_x, float *d_y, int n, int steps, int priority)
{
    cudaStream_t urgent;
    cudaStreamCreateWithPriority(&urgent, cudaStreamNonBlocking, priority);
    for (int i = 0; i < steps; i++) {
        scale<<<1, 32, 0, urgent>>>(d_y, n);
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note expect-message: the other streams this translation unit uses are non-blocking ('cudaStreamNonBlocking'), which do not synchronize with the legacy one, so it holds nothing up yet
    }
    cudaStreamDestroy(urgent);
}
