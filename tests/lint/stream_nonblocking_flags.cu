// stream_nonblocking_flags.cu: near miss of stream_nonblocking.cu: the flags come from a
// variable lint cannot evaluate (a parameter), so the stream may be blocking: the legacy
// launch stays a warning.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

void train(float *d_x, float *d_y, int n, int steps, unsigned flags)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, flags);
    for (int i = 0; i < steps; i++) {
        scale<<<1, 32, 0, side>>>(d_y, n);
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: warning
    }
    cudaStreamDestroy(side);
}
