// launch_severity_stream_arg.cu: SYNC101 and SYNC102 are warnings in a translation unit that
// passes a stream other than the legacy one anywhere, here a stream parameter.
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void legacy(float *d)
{
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: warning
    cudaMemsetAsync(d, 0, 32 * sizeof(float)); // expect: SYNC102 expect-severity: warning
}

void wait_for(cudaStream_t s)
{
    cudaStreamSynchronize(s);
}
