// launch_severity_note.cu: SYNC101 and SYNC102 are notes in a translation unit where nothing
// uses a stream other than the legacy one: the legacy stream has nothing to hold up.
// Synchronous copies, legacy-stream memsets and event records, and synchronizations of the
// legacy stream do not change that.
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void setup(float *d, float *h, int n, cudaEvent_t ev)
{
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: note
    fill<<<1, 32, 0, 0>>>(d, 2.0f); // expect: SYNC101 expect-severity: note
    cudaLaunchKernel((const void *)fill, dim3(1), dim3(32), nullptr, 0, cudaStreamLegacy); // expect: SYNC101 expect-severity: note
    cudaMemsetAsync(d, 0, n * sizeof(float)); // expect: SYNC102 expect-severity: note
    cudaEventRecord(ev, 0); // expect: SYNC102 expect-severity: note
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaStreamSynchronize(0);
    cudaDeviceSynchronize();
}

void message(float *d)
{
    fill<<<1, 32>>>(d, 3.0f); // expect: SYNC101 expect-message: so it holds nothing up yet
}
