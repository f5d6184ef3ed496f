// error_branch.cu: an error-checking macro that resets the device when the last CUDA call
// failed, then reports and ends the process through a function of another unit (not declared
// noreturn): the reset runs only on the error path, not on every iteration of the loop that
// checks (a note). The same reset outside the check stays a warning.
#include <cuda_runtime.h>

void fail(const char *id, const char *msg);

#define check(msg)                                                                               \
    do {                                                                                         \
        cudaError_t e = cudaGetLastError();                                                      \
        if (e != cudaSuccess) {                                                                  \
            cudaDeviceReset();                                                                   \
            fail(msg, cudaGetErrorString(e));                                                    \
        }                                                                                        \
    } while (0)

__global__ void k(float *a) { a[0] += 1; }

void iterate(float *a, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        k<<<1, 1, 0, s>>>(a);
        check("kernel"); // expect: SYNC402 expect-severity: note expect-message: on the error path: it runs only when a CUDA call failed (line 24 tests the error code, and the branch reports it)
    }
}

void iterate_reset(float *a, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        k<<<1, 1, 0, s>>>(a);
        cudaDeviceReset(); // expect: SYNC402 expect-severity: warning
    }
}
