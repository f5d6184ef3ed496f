// drained_legacy_param.cu: drained_legacy_only.cu's steps in a unit that is handed a stream
// (a parameter, created in another unit, non-blocking perhaps): work queued there is not
// waited for by a synchronous copy, so the copies after the readback stay warnings.
#include <cuda_runtime.h>

__global__ void layer(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

// Work on a stream that another unit created and passed in.
void enqueue_on(float *d_x, int n, cudaStream_t s) { layer<<<1, 32, 0, s>>>(d_x, n); }

void train(float *d_x, float *d_y, const float *h_x, float *h_y, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        cudaMemcpy(d_y, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        layer<<<1, 32>>>(d_x, n); // expect: SYNC101
        cudaMemcpy(h_y, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}
