// error_check_aside.cu: a value read back that bounds the range of the next Thrust algorithm
// ('first + n', an iterator or a pointer argument) sizes that work as a launch's grid does: the
// wait for it is inherent. A value passed as a number (a fill's value) does not size anything.
// An error check between the wait and that use stands aside, however the check is written: a
// checking macro's block '{ cudaError_t err; if ((err = cudaGetLastError()) != cudaSuccess)
// {...} }', an 'if' that tests the call itself, or an assignment in its condition. An 'if' that
// does more than report the error does not stand aside. CUDASW4's gridsearch.cu (held-out-28).
// lint-args: -std=c++17
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/scatter.h>

#define CUERR                                                                                  \
    {                                                                                          \
        cudaError_t err;                                                                       \
        if ((err = cudaGetLastError()) != cudaSuccess) {                                       \
            printf("CUDA error: %s\n", cudaGetErrorString(err));                               \
            exit(1);                                                                           \
        }                                                                                      \
    }

__global__ void count(float *p, int *n) { *n = (int)p[0]; }

// The count bounds the scatter's range, past the checking macro after the copy and the wait.
void scatter_macro(float *d, int *dn, int *pos, cudaStream_t s, int steps)
{
    auto value = thrust::make_constant_iterator(1.0f);
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); CUERR; // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent: the statement after the wait at line 36 needs the value (line 37 bounds the range of 'thrust::scatter' with it)
        cudaStreamSynchronize(s); CUERR; // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 35, and the next statement needs it (line 37 bounds the range of 'thrust::scatter' with it)
        thrust::scatter(thrust::cuda::par_nosync.on(s), value, value + n, pos, d);
    }
}

// The check tests the call itself.
void scatter_call_test(float *d, int *dn, int *pos, cudaStream_t s, int steps)
{
    auto value = thrust::make_constant_iterator(1.0f);
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: (line 54 bounds the range of 'thrust::scatter' with it)
        if (cudaGetLastError() != cudaSuccess) {
            fprintf(stderr, "failed\n");
            exit(1);
        }
        thrust::scatter(thrust::cuda::par_nosync.on(s), value, value + n, pos, d);
    }
}

// The value is what the fill writes, not the end of its range: it could be read on the device.
void fill_value(float *d, int *dn, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-message: back from the device into '&n' and 'cudaStreamSynchronize' at line 65 waits for it: the host stalls until all queued work has produced it; it runs on every iteration of the loop at line 61
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        thrust::fill(thrust::cuda::par_nosync.on(s), d, d + 64, (float)n);
    }
}

// The 'if' also resets a counter when the call succeeded: not only a check.
void check_does_more(float *d, int *dn, int *pos, cudaStream_t s, int steps, int *failures)
{
    auto value = thrust::make_constant_iterator(1.0f);
    for (int i = 0; i < steps; i++) {
        count<<<1, 1, 0, s>>>(d, dn);
        int n = 0;
        cudaMemcpyAsync(&n, dn, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-message: back from the device into '&n' and 'cudaStreamSynchronize' at line 78 waits for it: the host stalls until all queued work has produced it; it runs on every iteration of the loop at line 74
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (cudaGetLastError() != cudaSuccess) {
            fprintf(stderr, "failed\n");
            exit(1);
        } else {
            *failures = 0;
        }
        thrust::scatter(thrust::cuda::par_nosync.on(s), value, value + n, pos, d);
    }
}
