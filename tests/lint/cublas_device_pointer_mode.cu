// cublas_device_pointer_mode.cu: cublas_host_result.cu's loop in a unit that sets a handle's
// pointer mode to the device: a cuBLAS reduction then writes its result to device memory and
// returns at once, without waiting. Lint does not tell the handles apart: any
// cublasSetPointerMode in the unit that may set the device mode leaves every such call a
// launch, no readback, and both waits warnings, as they were.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void errors(float *e, int n) { e[threadIdx.x % n] = 1.0f; }

float rmse_loop(float *d_err, float *d_loss, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE);
    float loss = 0.0f;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cublasSasum(handle, n, d_err, 1, d_loss);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(&loss, d_loss, sizeof loss, cudaMemcpyDeviceToHost); // expect: SYNC301
        printf("loss %f\n", loss);
    }
    cublasDestroy(handle);
    return loss;
}

// Another handle in host mode: the unit's device mode above counts for it too (not told apart).
float other_handle(float *d_err, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
    float loss = 0.0f;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cublasSasum(handle, n, d_err, 1, &loss);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        printf("loss %f\n", loss);
    }
    cublasDestroy(handle);
    return loss;
}
