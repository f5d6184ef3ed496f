// legacy_convention_note.cu: a file that queues most of its work on the legacy stream (and a
// device-to-device cudaMemcpy counts as such work), in a unit whose other
// stream is a header's: its legacy-stream work serializes with that stream by design, a note
// that says so. docs/lint.md, "Legacy-stream notes".
#include <cuda_runtime.h>

#include "include/side_stream.h"

__global__ void forward(float *x) { x[threadIdx.x] *= 2.0f; }

__global__ void side_kernel(float *x) { x[threadIdx.x] -= 1.0f; }

void train_step(float *x, float *grad, cudaStream_t side)
{
    forward<<<1, 32>>>(x); // expect: SYNC101 expect-severity: note expect-message: convention: this file queues all of its device work on the legacy stream (3 launches, asynchronous calls, device-side copies and memsets), none on another
    forward<<<1, 32>>>(x + 32); // expect: SYNC101 expect-severity: note expect-message: convention:
    cudaMemcpy(grad, x, 256, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
    side_update(grad, side);
}

int main()
{
    float *x, *grad;
    cudaMalloc(&x, 256);
    cudaMalloc(&grad, 256);
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103 expect-severity: note
    for (int step = 0; step < 100; step++)
        train_step(x, grad, side);
    return 0;
}
