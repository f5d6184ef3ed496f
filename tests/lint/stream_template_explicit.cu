// stream_template_explicit.cu: stream_template_unused.cu's helpers, and the unit instantiates
// the template that creates a stream explicitly, for other units to call: it has code here,
// the unit uses another stream, and its legacy launch is a warning.
// The legacy work is a warning where it had a stream at hand (here a parameter it does not
// use, which adds no stream to the unit); without one it is a note (legacy_stream_at_hand.cu).
#include <cuda_runtime.h>

template <typename T> void reduce_on(const T *in, T *out, size_t n, cudaStream_t stream)
{
    cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, stream);
}

template <typename T> void reduce(const T *in, T *out, size_t n)
{
    cudaStream_t own;
    cudaStreamCreate(&own); // expect: SYNC103 expect-severity: note
    reduce_on<T>(in, out, n, own);
    cudaStreamSynchronize(own);
    cudaStreamDestroy(own);
}

inline void clear_on_side(float *d, size_t n)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaMemsetAsync(d, 0, n * sizeof(float), side);
}

template void reduce<float>(const float *, float *, size_t);

__global__ void scale(float *d) { d[threadIdx.x] *= 2.0f; }

void step(float *d, cudaStream_t unused)
{
    (void)unused;
    scale<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
}

void step_only(float *d)
{
    scale<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'step_only'
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
