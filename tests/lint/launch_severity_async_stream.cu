// launch_severity_async_stream.cu: an asynchronous copy on a stream other than the legacy one
// (here a stream parameter, in another function) makes SYNC101 and SYNC102 warnings: the
// legacy stream's work holds that copy up, where the legacy work had a stream at hand (here one
// it takes and does not use); without one it is a note: whether the copy is queued then is a
// run-time question.
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void legacy(float *d, int n, cudaEvent_t done, cudaStream_t unused)
{
    (void)unused;
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: note expect-message: convention:
    cudaMemsetAsync(d, 0, n * sizeof(float), 0); // expect: SYNC102 expect-severity: note expect-message: convention:
    cudaEventRecord(done); // expect: SYNC102 expect-severity: note expect-message: convention:
}

void legacy_only(float *d, int n, cudaEvent_t done)
{
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: note expect-message: no stream at hand: 'legacy_only' takes no stream
    cudaMemsetAsync(d, 0, n * sizeof(float), 0); // expect: SYNC102 expect-severity: note
    cudaEventRecord(done); // expect: SYNC102 expect-severity: note
}

void upload(float *d, const float *pinned, int n, cudaStream_t s)
{
    cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
}
