// launch_severity_async.cu: asynchronous copies, memsets and event records that all run on the
// legacy stream themselves (stream omitted, 0, NULL, cudaStreamLegacy, a variable that holds 0)
// are not work beside it: SYNC101 and SYNC102 stay notes in this translation unit.
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void legacy(float *d, float *pinned, int n, cudaEvent_t start, cudaEvent_t stop)
{
    cudaStream_t none = 0;
    cudaEventRecord(start, 0); // expect: SYNC102 expect-severity: note
    cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC102 expect-severity: note
    cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, NULL); // expect: SYNC102 expect-severity: note
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: note
    cudaMemsetAsync(d, 0, n * sizeof(float), cudaStreamLegacy); // expect: SYNC102 expect-severity: note
    cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, none); // expect: SYNC102 expect-severity: note
    cudaEventRecord(stop, 0); // expect: SYNC102 expect-severity: note expect-message: 'cudaEventRecord' in 'legacy' runs on the legacy default stream (stream '0'); nothing in this translation unit uses a stream other than the legacy one, so it holds nothing up yet
    cudaEventSynchronize(stop);
}
