// launch_severity_stream_arg.cu: SYNC101 and SYNC102 are warnings in a translation unit that
// passes a stream other than the legacy one anywhere, here a stream parameter.
// The legacy work is a warning where it had a stream at hand (here a parameter it does not
// use, which adds no stream to the unit); without one it is a note (legacy_stream_at_hand.cu).
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void legacy(float *d, cudaStream_t unused)
{
    (void)unused;
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: note expect-message: convention:
    cudaMemsetAsync(d, 0, 32 * sizeof(float)); // expect: SYNC102 expect-severity: note expect-message: convention:
}

void legacy_only(float *d)
{
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'legacy_only' takes no stream
    cudaMemsetAsync(d, 0, 32 * sizeof(float)); // expect: SYNC102 expect-severity: note
}

void wait_for(cudaStream_t s)
{
    cudaStreamSynchronize(s);
}
