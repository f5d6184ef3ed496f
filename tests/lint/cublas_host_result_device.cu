// cublas_host_result_device.cu: cublas_host_result.cu's loop in a unit that switches the device
// after making the handle: the handle's work runs on the device that was current when it was
// made, so the device-wide wait before the call, which waits for the current device, stays a
// warning. The wait after the call still finds the current device drained.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void errors(float *e, int n) { e[threadIdx.x % n] = 1.0f; }

float rmse_loop(float *d_err, float *d_other, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    cudaSetDevice(1);
    float loss = 0.0f;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_other, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cublasSasum' at cublas_host_result_device.cu:20 drained it
        printf("loss %f\n", loss);
    }
    cublasDestroy(handle);
    return loss;
}
