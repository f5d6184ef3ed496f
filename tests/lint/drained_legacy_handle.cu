// drained_legacy_handle.cu: drained_legacy_only.cu's steps in a unit that is handed a library
// handle (made in another unit, with a stream of its own perhaps: cublasSetStream): the work
// it queues is not waited for by a synchronous copy on the legacy stream, so the upload after
// the readback stays a warning.
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void layer(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

void train(cublasHandle_t handle, float *d_x, const float *h_x, float *h_y, int n, int steps)
{
    const float half = 0.5f;
    for (int s = 0; s < steps; s++) {
        cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        layer<<<1, 32>>>(d_x, n); // expect: SYNC101
        cublasSscal(handle, n, &half, d_x, 1);
        cudaMemcpy(h_y, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
    }
}
