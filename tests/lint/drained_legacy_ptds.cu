// drained_legacy_ptds.cu: drained_legacy_only.cu's steps compiled with the per-thread default
// stream: other threads' default streams are not waited for by a synchronous copy, so the
// copies after the readback stay warnings.
// lint-args: -DCUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime.h>

__global__ void layer(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }


void train(float *d_x, float *d_y, const float *h_x, float *h_y, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        cudaMemcpy(d_y, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        layer<<<1, 32>>>(d_x, n);
        cudaMemcpy(h_y, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}
