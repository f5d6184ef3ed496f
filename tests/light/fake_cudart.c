/* fake_cudart.c: a stand-in for the shared CUDA runtime (libcudart.so.13, its symbols under
 * the runtime's version node) for the wrappers' test (run_wrap.py): each call runs the fake
 * CUPTI's callbacks around itself, as the real runtime's calls do while CUPTI's runtime
 * callbacks are enabled; a call whose callback is not enabled (the capture took the wrappers
 * instead) lasts as long without them. The calls say how often each way was taken
 * (fake_cudart_counts). */
#include <cupti.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

static int (*fake_call)(const char *name, void *params, const char *nested, void *nested_params);
static void (*fake_call_ns)(long ns);
static int (*fake_context)(void);
static void (*fake_result)(int32_t result);
static long call_ns;
static int called_back, made_without;

/* The fake CUPTI that the capture library loaded (SYNCSCOPE_CUPTI_PATH). */
static int find_fake(void)
{
    if (fake_call != NULL)
        return 0;
    const char *path = getenv("SYNCSCOPE_CUPTI_PATH");
    void *fake = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (fake == NULL)
        return -1;
    *(void **)&fake_call = dlsym(fake, "fake_cupti_call_with");
    *(void **)&fake_call_ns = dlsym(fake, "fake_cupti_set_call_ns");
    *(void **)&fake_context = dlsym(fake, "fake_cupti_context");
    *(void **)&fake_result = dlsym(fake, "fake_cupti_set_result");
    return fake_call != NULL && fake_call_ns != NULL && fake_context != NULL && fake_result != NULL
               ? 0
               : -1;
}

/* Makes the context, as cudaSetDevice or a first cudaFree(0) does before a program's calls.
 * Returns 0, or -1 without the fake CUPTI or its subscriber. */
FAKE_EXPORT int fake_cudart_init(void);
FAKE_EXPORT int fake_cudart_init(void)
{
    return find_fake() == 0 ? fake_context() : -1;
}

/* How long the next calls last from their entry to their exit. */
FAKE_EXPORT void fake_cudart_set_call_ns(long ns);
FAKE_EXPORT void fake_cudart_set_call_ns(long ns)
{
    call_ns = ns;
}

/* How many calls CUPTI called back for, and how many were made without it. */
FAKE_EXPORT void fake_cudart_counts(int *back, int *without);
FAKE_EXPORT void fake_cudart_counts(int *back, int *without)
{
    *back = called_back;
    *without = made_without;
}

/* Call 'name' (CUPTI's callback name) with 'params', returning 'result'. */
static cudaError_t call(const char *name, void *params, cudaError_t result)
{
    if (find_fake() != 0)
        return cudaErrorUnknown;
    fake_call_ns(call_ns);
    fake_result((int32_t)result);
    if (fake_call(name, params, NULL, NULL) == 0) {
        called_back++;
        return result;
    }
    fake_result(0);
    made_without++;
    struct timespec left = {call_ns / 1000000000L, call_ns % 1000000000L};
    while (nanosleep(&left, &left) != 0) {
    }
    return result;
}

FAKE_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                        enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaMemcpyAsync_v3020_params params = {dst, src, count, kind, stream};
    return call("cudaMemcpyAsync_v3020", &params, cudaSuccess);
}

/* A stream the fake runtime does not know: its synchronization fails with
 * cudaErrorInvalidResourceHandle (its exit callback told so, as CUPTI tells the runtime's). */
#define UNKNOWN_STREAM ((cudaStream_t)(uintptr_t)0x9000)

FAKE_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    cudaStreamSynchronize_v3020_params params = {stream};
    return call("cudaStreamSynchronize_v3020", &params,
                stream == UNKNOWN_STREAM ? cudaErrorInvalidResourceHandle : cudaSuccess);
}

FAKE_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    uint64_t none[4] = {0};
    return call("cudaDeviceSynchronize_v3020", none, cudaSuccess);
}

FAKE_EXPORT cudaError_t cudaFree(void *devPtr)
{
    cudaFree_v3020_params params = {devPtr};
    return call("cudaFree_v3020", &params, cudaSuccess);
}
