// drained_review24.cu: work queued by a lambda the code calls (where it is written, or through
// a variable) is device work between two waits: no "drained" note. A return or co_return (a
// RETURN_IF macro's too) between a readback and the next wait may skip the wait: no "drained
// anyway" note, unless it comes after that wait (its own error check). A break out of a
// 'do { } while (0)' still reaches the wait after it: the note stays.
// lint-args: -std=c++20
#include <coroutine>
#include <cuda_runtime.h>
__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }
static cudaStream_t s;
void make() { cudaStreamCreate(&s); } // expect: SYNC103 expect-severity: note
#define RETURN_IF(c)                                                                               \
    do {                                                                                           \
        if (c)                                                                                     \
            return -1;                                                                             \
    } while (0)

float lambda_now(float *d, int n)
{
    for (int i = 0; i < n; i++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        [&] { fill<<<1, 32, 0, s>>>(d); }();
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

float lambda_named(float *d, int n)
{
    auto step = [&] { fill<<<1, 32, 0, s>>>(d); };
    for (int i = 0; i < n; i++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        step();
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

float lambda_host_only(float *d, float *h, int n)
{
    auto bump = [&] { *h += 1; };
    for (int i = 0; i < n; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        bump();
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained
    }
    return 0;
}

float return_plain(float *d, float *h, int n, int stop)
{
    for (int i = 0; i < n; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        if (i == stop)
            return 1;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

float return_macro(float *d, float *h, int n, int stop)
{
    for (int i = 0; i < n; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        RETURN_IF(i == stop);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

float return_after_wait(float *d, float *h, int n)
{
    for (int i = 0; i < n; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: drained anyway
        RETURN_IF(cudaDeviceSynchronize() != cudaSuccess); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}

struct task {
    struct promise_type {
        task get_return_object() { return {}; }
        std::suspend_never initial_suspend() { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() {}
        void unhandled_exception() {}
    };
};

task co_return_between(float *d, float *h, int n, int stop)
{
    for (int i = 0; i < n; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        if (i == stop)
            co_return;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

float once_break(float *d, float *h, int n, int c)
{
    for (int i = 0; i < n; i++) {
        fill<<<1, 32, 0, s>>>(d);
        do {
            cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: drained anyway
            if (c)
                break;
            *h += 1;
        } while (0);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return 0;
}
