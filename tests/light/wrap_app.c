/* wrap_app.c: the observed program of the wrappers' test (run_wrap.py): linked against the
 * fake runtime (fake_cudart.c, libcudart.so.13), run with libsyncscope_cudart.so given with
 * LD_PRELOAD in the light mode under SYNCSCOPE_LIGHT_PROBE=switch. Puts the capture at each
 * level its argument names, in order ("43": 4, then 3; 0: CUPTI's runtime callbacks; 3: none;
 * 4 and 5: the wrappers), then makes light_app.c's calls through the runtime and one that
 * fails, and answers the light mode's driver questions as
 * light_app.c does (cuPointerGetAttributes, cuStreamQuery; cuCtxGetCurrent, the context of
 * a wrapped call). Prints how many calls CUPTI called back for and how many were made
 * without it, and the results the runtime returned. */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fake_driver.h"

#define TO_DEVICE cudaMemcpyHostToDevice
#define TO_HOST cudaMemcpyDeviceToHost
/* A stream the fake runtime does not know (fake_cudart.c): cudaErrorInvalidResourceHandle. */
#define UNKNOWN_STREAM ((cudaStream_t)(uintptr_t)0x9000)

__attribute__((visibility("default"))) CUresult CUDAAPI cuStreamQuery(CUstream stream)
{
    (void)stream;
    return fake_busy_answer();
}

__attribute__((visibility("default"))) CUresult CUDAAPI cuPointerGetAttributes(
    unsigned int count, CUpointer_attribute *attributes, void **data, CUdeviceptr pointer)
{
    fake_memory_answer(count, attributes, data, pointer);
    return CUDA_SUCCESS;
}

__attribute__((visibility("default"))) CUresult CUDAAPI cuCtxGetCurrent(CUcontext *context)
{
    static char the_context;
    *context = (CUcontext)(void *)&the_context;
    return CUDA_SUCCESS;
}

int fake_cudart_init(void);
void fake_cudart_set_call_ns(long ns);
void fake_cudart_counts(int *back, int *without);

/* A runtime call lasting 'ns' from its entry to its exit, while cuStreamQuery answers "busy"
 * 'busy' more times; its result added to 'failed' when not cudaSuccess. A macro, so that the
 * call's site is the line that names it. */
#define CALL(call, ns, busy)                                                                       \
    do {                                                                                           \
        fake_cudart_set_call_ns(ns);                                                               \
        busy_answers = (busy);                                                                     \
        failed += (call) != cudaSuccess;                                                           \
        busy_answers = 0;                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    void (*set_level)(int) = NULL;
    *(void **)&set_level = dlsym(RTLD_DEFAULT, "syncscope_light_probe_set");
    if (argc != 2 || set_level == NULL || fake_cudart_init() != 0) {
        fprintf(stderr, "wrap_app: usage: wrap_app LEVELS, under libsyncscope_cudart.so and the "
                        "fake CUPTI\n");
        return 2;
    }
    for (const char *level = argv[1]; *level != '\0'; level++)
        set_level(*level - '0'); /* one level after another: "43" is 4, then 3 */
    static unsigned char pageable[1 << 20];
    void *device = (void *)(uintptr_t)DEVICE_BASE, *pinned = (void *)(uintptr_t)PINNED_BASE;
    const long ms = 1000000;
    int failed = 0;
    const size_t n = sizeof pageable;
    CALL(cudaMemcpyAsync(device, pageable, n, TO_DEVICE, 0), ms, 1); /* expect: SYNC201 */
    CALL(cudaMemcpyAsync(pinned, device, 4, TO_HOST, 0), 0, 100);    /* expect: SYNC301 */
    CALL(cudaStreamSynchronize(0), 2 * ms, 1);
    CALL(cudaDeviceSynchronize(), ms, 1);              /* expect: SYNC401 */
    CALL(cudaFree(device), ms, 0);                     /* expect: SYNC402 latent */
    CALL(cudaFree(device), ms, 1);                     /* expect: SYNC402 */
    CALL(cudaStreamSynchronize(UNKNOWN_STREAM), 0, 0); /* fails: the runtime's result seen */
    int back = 0, without = 0;
    fake_cudart_counts(&back, &without);
    printf("wrap_app: called back %d, made without %d, failed %d\n", back, without, failed);
    return 0;
}
