// drained_legacy_named.cu: drained_legacy_only.cu's steps in a unit that also queues work on
// cudaStreamPerThread, which a synchronous copy on the legacy stream does not wait for: the
// copies after the readback stay warnings.
#include <cuda_runtime.h>

__global__ void layer(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

void enqueue_per_thread(float *d_x, int n) { layer<<<1, 32, 0, cudaStreamPerThread>>>(d_x, n); }

void train(float *d_x, float *d_y, const float *h_x, float *h_y, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        cudaMemcpy(d_y, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        layer<<<1, 32>>>(d_x, n); // expect: SYNC101
        cudaMemcpy(h_y, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}
