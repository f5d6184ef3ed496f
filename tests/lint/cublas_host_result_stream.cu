// cublas_host_result_stream.cu: cublas_host_result.cu's loop in a unit that sets a handle's
// stream (cublasSetStream): the reduction then waits for that stream only, so the wait right
// before it, which waits for the whole device, stays a warning. The call is still a readback,
// and the wait right after it still finds the device drained: from a drained device the call
// waits for the work it queues, on whatever stream.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void errors(float *e, int n) { e[threadIdx.x % n] = 1.0f; }

float rmse_loop(float *d_err, int n, int iters)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cublasHandle_t handle;
    cublasCreate(&handle);
    cublasSetStream(handle, s);
    float loss = 0.0f;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at cublas_host_result_stream.cu:22 drained it
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cublasSasum' at cublas_host_result_stream.cu:23 drained it
        printf("loss %f\n", loss);
    }
    cublasDestroy(handle);
    cudaStreamDestroy(s);
    return loss;
}
