// launch_severity_async.cu: SYNC101 is a warning in a translation unit that copies
// asynchronously (even on the legacy stream, where SYNC102 also reports the copy).
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void legacy(float *d, float *pinned, int n)
{
    cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC102
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: warning
}
