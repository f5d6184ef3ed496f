// launch_severity_created.cu: SYNC101 and SYNC102 are warnings in a translation unit that
// creates a stream that can be blocking (here flags cudaStreamDefault), even in another
// function: the legacy work holds that stream's work up.
#include <cuda_runtime.h>

__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }

void legacy(float *d)
{
    fill<<<1, 32>>>(d, 1.0f); // expect: SYNC101 expect-severity: warning
    cudaMemsetAsync(d, 0, 32 * sizeof(float)); // expect: SYNC102 expect-severity: warning
}

cudaStream_t make_stream()
{
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamDefault); // expect: SYNC103 expect-severity: note
    return s;
}
