// legacy_default_param_address.cu: a stream parameter of an inline function whose address is
// taken: a call through the pointer may pass any stream, so the launch without a stream is a
// warning although the one direct call passes 0.
// The legacy work is a warning where it had a stream at hand (here a parameter it does not
// use, which adds no stream to the unit); without one it is a note (legacy_stream_at_hand.cu).
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

static void enqueue(float *x, int n, cudaStream_t stream) { scale<<<1, 32, 0, stream>>>(x, n); }

void (*enqueue_hook)(float *, int, cudaStream_t) = nullptr;

void forward(float *d_x, int n, cudaStream_t unused)
{
    (void)unused;
    enqueue(d_x, n, 0);
    enqueue_hook = enqueue;
    scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note expect-message: convention:
}

void forward_only(float *d_x, int n)
{
    enqueue(d_x, n, 0);
    scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'forward_only'
}
