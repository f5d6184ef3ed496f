// cublas_host_result.cu: a cuBLAS level-1 call that returns one scalar into host memory (the
// default host pointer mode: 'cublasSasum(handle, n, x, 1, &loss)') returns only once the
// result is there, so it waits for the work it queues and, on its handle's stream, for all the
// work queued there before it: a one-value readback (SYNC301), as the Thrust reductions are. A
// device-wide wait right before it, where all the work since the last drain is on the legacy
// stream and the handle's stream is the legacy one (a local handle, made in the function, whose
// stream the unit never sets), waits for nothing the call would not: "drained anyway". A wait
// right after it waits for nothing at all: "drained". Held-out-17's shape AF (cumf_als).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void errors(float *e, int n) { e[threadIdx.x % n] = 1.0f; }

void report(float v); // defined in another unit

// cumf_als's RMSE: kernels, a wait, the sum into a host float, a wait, the print.
float rmse_loop(float *d_err, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    float loss = 0.0f;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next statement, 'cublasSasum' (line 26), returns its result to host memory and so waits for the same work on the legacy default stream, its handle's stream
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: warning expect-message: 'cublasSasum' returns its result to host memory (the host pointer mode, the default: this unit sets no other) in 'rmse_loop': the host stalls until all queued device work has finished
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cublasSasum' at cublas_host_result.cu:26 drained it (a cuBLAS call that returns its result to host memory, which returns only once it is there: the device was drained before it, and it waits for the work it queues)
        printf("loss %f\n", loss);
    }
    cublasDestroy(handle);
    return loss;
}

// The status kept, the 64-bit and double forms: readbacks, each per iteration.
void norms(const double *d_x, const float *d_y, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>((float *)d_y, n); // expect: SYNC101
        double nrm;
        cublasStatus_t st = cublasDnrm2(handle, n, d_x, 1, &nrm); // expect: SYNC301 expect-severity: warning expect-message: 'cublasDnrm2' returns its result to host memory
        float dot;
        cublasSdot(handle, n, d_y, 1, d_y, 1, &dot); // expect: SYNC301 expect-severity: warning
        long long at;
        cublasIsamax_64(handle, n, d_y, 1, &at); // expect: SYNC301 expect-severity: warning expect-message: 'cublasIsamax_64' returns its result
        report(nrm + dot + at + st);
    }
    cublasDestroy(handle);
}

// A handle handed in: another unit may have set its stream, or its pointer mode to the device
// (then the call returns at once), so the waits before and after the call stay warnings; the
// call after the first wait finds the device drained.
void handed_in(cublasHandle_t handle, float *d_err, int n, int iters)
{
    float loss;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at cublas_host_result.cu:60 drained it
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        report(loss);
    }
}

// A call of another unit's function between the wait and the call: it may queue work on a
// stream of its own, which the call does not wait for.
void other_between(float *d_err, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    float loss;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        report(0.0f);
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: warning
        report(loss);
    }
    cublasDestroy(handle);
}

// A launch between the call and the wait: the wait waits for it.
void launch_between(float *d_err, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    float loss;
    for (int it = 0; it < iters; ++it) {
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: warning
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        report(loss);
    }
    cublasDestroy(handle);
}

// Used at once: the function returns it.
float norm_of(cublasHandle_t handle, const double *d_x, int n)
{
    double r;
    cublasDnrm2(handle, n, d_x, 1, &r); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 104 returns it)
    return (float)r;
}

// The loop's function calls another unit's function, which may make another device current, so
// that the handle's device is not the one the wait drains: the wait before the call stays a
// warning. The wait after it finds the device drained all the same (the call waited for its own
// work only, on whatever device).
float reported_loop(float *d_err, int n, int iters)
{
    cublasHandle_t handle;
    cublasCreate(&handle);
    float loss = 0.0f;
    for (int it = 0; it < iters; ++it) {
        errors<<<1, 64>>>(d_err, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cublasSasum(handle, n, d_err, 1, &loss); // expect: SYNC301 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at cublas_host_result.cu:118 drained it
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cublasSasum' at cublas_host_result.cu:119 drained it
        report(loss);
    }
    cublasDestroy(handle);
    return loss;
}

// A thin wrapper that hands the result to its caller through a pointer parameter, as a copy
// into one does (held-out-15's shape Z): the caller decides what the value costs.
inline cublasStatus_t wrapped_dot(cublasHandle_t handle, int n, const float *x, const float *y,
                                  float *result)
{
    return cublasSdot(handle, n, x, 1, y, 1, result); // expect: SYNC301 expect-severity: note expect-message: 'cublasSdot' returns its result to host memory (the host pointer mode, the default: this unit sets no other) in 'wrapped_dot': the host stalls until all queued device work has finished; inherent: the call hands it to the caller through 'result'
}

float similarity(cublasHandle_t handle, int n, const float *x, const float *y)
{
    float dot = 0.0f;
    wrapped_dot(handle, n, x, y, &dot);
    return dot;
}
