// torch_header_missing.cu: a custom operator linted without libtorch's include folders still
// gets the libtorch hint for SYNC101 (the file includes a torch header, found or not).
#include <torch/syncscope_absent_header.h> // expect-error: 'torch/syncscope_absent_header.h' file not found
#include <cuda_runtime.h>

// expect-hint: getCurrentCUDAStream

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

void scale_op(float *x, float a, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, a); // expect: SYNC101
}
