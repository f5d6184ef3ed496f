// throw_branch.cu: a wait on an error path, in a block that ends by throwing or by a call that
// does not return, runs once, just before the program gives up (a check macro that waits for
// the device to report where it failed, then throws): it is a note with the reason, not a
// per-iteration cost. It stays a warning where it runs before the 'if' (on every iteration),
// where the branch goes on (no throw ends it), or where the throw is in a lambda the branch
// only defines.
#include <cuda_runtime.h>
#include <stdexcept>
#include <stdio.h>
#include <stdlib.h>

__global__ void relax(float *x) { x[threadIdx.x] *= 0.5f; }

struct launch_error : std::runtime_error {
    launch_error(const char *m) : std::runtime_error(m) {}
};

// The wait, then the throw, in a block of their own written by the macro.
#define GIVE_UP(msg)                                                                           \
    {                                                                                          \
        fprintf(stderr, "%s\n", msg);                                                          \
        cudaDeviceSynchronize();                                                               \
        throw launch_error(msg);                                                               \
    }
#define CHECK_LAUNCH()                                                                         \
    {                                                                                          \
        cudaError_t status = cudaGetLastError();                                               \
        if (status != cudaSuccess) {                                                           \
            GIVE_UP(cudaGetErrorString(status));                                               \
        }                                                                                      \
    }

void smooth(float *x, int sweeps)
{
    for (int k = 0; k < sweeps; k++) {
        relax<<<1, 32>>>(x); // expect: SYNC101
        CHECK_LAUNCH(); // expect: SYNC401 expect-severity: note expect-message: on the error path: it runs only before the throw at line 37
    }
}

[[noreturn]] void stop_run(const char *why);

void smooth_or_stop(float *x, cudaStream_t s, int sweeps)
{
    for (int k = 0; k < sweeps; k++) {
        relax<<<1, 32, 0, s>>>(x);
        if (cudaGetLastError() != cudaSuccess) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: on the error path: it runs only before the call that does not return at line 49
            stop_run("relax failed");
        }
        if (cudaGetLastError() != cudaSuccess) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: on the error path: it runs only before the call that does not return at line 53
            abort();
        }
    }
}

// The wait before the 'if' runs on every iteration.
#define CHECK_WAIT()                                                                           \
    {                                                                                          \
        cudaDeviceSynchronize();                                                               \
        cudaError_t status = cudaGetLastError();                                               \
        if (status != cudaSuccess)                                                             \
            GIVE_UP(cudaGetErrorString(status));                                               \
    }

void smooth_checked(float *x, int sweeps)
{
    for (int k = 0; k < sweeps; k++) {
        relax<<<1, 32>>>(x); // expect: SYNC101
        CHECK_WAIT(); // expect: SYNC401 expect-severity: warning
    }
}

// The branch reports and goes on with the loop: it may run on every iteration.
void smooth_report(float *x, cudaStream_t s, int sweeps)
{
    for (int k = 0; k < sweeps; k++) {
        relax<<<1, 32, 0, s>>>(x);
        if (cudaGetLastError() != cudaSuccess) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            fprintf(stderr, "relax failed\n");
            continue;
        }
    }
}

// The branch only defines a lambda that throws: the branch itself ends and the loop goes on.
void smooth_deferred(float *x, cudaStream_t s, int sweeps)
{
    for (int k = 0; k < sweeps; k++) {
        relax<<<1, 32, 0, s>>>(x);
        if (cudaGetLastError() != cudaSuccess) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            auto fail = [] { throw launch_error("relax failed"); };
            (void)fail;
        }
    }
}
