// loop_once_macro.cu: 'do { ... } while (0)' (every error-checking macro's shape) and
// 'while (0)' run at most once: no loop rule sees a loop there. The two arms of one ?: never
// both run: one is not the device work beside the other.
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess)                                                                   \
            return e_;                                                                           \
    } while (0)

#define CHECK_FALSE(call)                                                                        \
    do {                                                                                         \
        (void)(call);                                                                            \
    } while (false)

cudaError_t alloc_either(void **p, size_t n, bool use_async, cudaStream_t s)
{
    CHECK(use_async ? cudaMallocAsync(p, n, s) : cudaMalloc(p, n));
    CHECK_FALSE(use_async ? cudaFreeAsync(*p, s) : cudaFree(*p));
    return cudaSuccess;
}

cudaError_t launch_and_sync(float *d, cudaStream_t s)
{
    CHECK((step<<<1, 32, 0, s>>>(d), cudaGetLastError()));
    CHECK(cudaStreamSynchronize(s));
    while (0) {
        step<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize();
    }
    return cudaSuccess;
}

// In a real loop, the other arm of the ?: is still not work beside the call; other work in
// the loop is.
void arms_in_a_loop(void **p, size_t n, bool use_async, cudaStream_t s, int frames)
{
    for (int i = 0; i < frames; i++)
        (void)(use_async ? cudaMallocAsync(p, n, s) : cudaMalloc(p, n));
    for (int i = 0; i < frames; i++) {
        step<<<1, 32, 0, s>>>((float *)*p);
        (void)(use_async ? cudaFreeAsync(*p, s) : cudaFree(*p)); // expect: SYNC402
    }
}

// A do-while loop with a condition that is not constant is a loop.
void real_do_while(float *d, cudaStream_t s, int n)
{
    int i = 0;
    do {
        step<<<1, 32, 0, s>>>(d);
        cudaStreamSynchronize(s); // expect: SYNC401
    } while (++i < n);
}
