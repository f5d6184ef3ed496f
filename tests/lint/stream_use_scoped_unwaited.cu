// stream_use_scoped_unwaited.cu: stream_use_scoped.cu's helper without the wait: the stream's
// work still runs after the call returns (destroying a stream does not wait for it), beside
// the legacy work that follows, which stays a warning.
// (train() takes a stream it does not use: legacy work with a stream at hand is a warning;
// train_only() has none: a note, whatever the helper's stream does then is a run-time question.)
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

template <typename T> void reduce_all(T *buf, size_t n)
{
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103
    cudaMemsetAsync(buf, 0, n * sizeof(T), side);
    cudaStreamDestroy(side);
}

void train(float *d_x, float *d_grad, int n, int steps, cudaStream_t unused)
{
    (void)unused;
    for (int i = 0; i < steps; i++) {
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note expect-message: convention:
        reduce_all(d_grad, n);
    }
}

void train_only(float *d_x, float *d_grad, int n, int steps)
{
    for (int i = 0; i < steps; i++) {
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'train_only'
        reduce_all(d_grad, n);
    }
}
