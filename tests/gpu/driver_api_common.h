/* driver_api_common.h: shared pieces of the driver API test programs, which make no runtime
 * API call at all: CUresult checking, the kernels' fatbin embedded at build time, the primary
 * context and module, waiting by event polling, the counters and the final result line. */
#ifndef SS_DRIVER_API_COMMON_H
#define SS_DRIVER_API_COMMON_H

#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Aborts the program with the failing call's text and the error name when 'call' fails.
 * Hides control flow: a failure exits with status 1. */
#define CHECK_CU(call)                                                                             \
    do {                                                                                           \
        CUresult check_rc_ = (call);                                                               \
        if (check_rc_ != CUDA_SUCCESS) {                                                           \
            const char *check_name_ = NULL;                                                        \
            cuGetErrorName(check_rc_, &check_name_);                                               \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    check_name_ != NULL ? check_name_ : "unknown error");                          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* The fatbin of driver_api_kernels.cuh (machine code for the configured GPUs plus PTX), put
 * into the host object by the assembler; SS_DRIVER_IMAGE is its path in the build tree. */
#ifndef SS_DRIVER_IMAGE
#error "SS_DRIVER_IMAGE: the path of the kernels' fatbin (set by tests/gpu/CMakeLists.txt)"
#endif
#if !defined(__CUDA_ARCH__)
__asm__(".pushsection .rodata\n"
        ".balign 64\n"
        ".globl ss_driver_image\n"
        ".hidden ss_driver_image\n"
        "ss_driver_image:\n"
        ".incbin \"" SS_DRIVER_IMAGE "\"\n"
        ".byte 0\n"
        ".popsection\n");
#endif
extern "C" const unsigned char ss_driver_image[];

/* Number of counters every program accumulates into; the final readback copies all of them
 * (256 bytes), so that it is never a scalar readback itself. */
#define SS_DRV_COUNTERS 64

/* What the programs use of the driver: device, primary context, module and kernels. */
typedef struct {
    CUdevice device;
    CUcontext context;
    CUmodule module;
    CUfunction spin; /* ss_drv_spin(unsigned *counters, int slot, unsigned long long ns) */
    CUfunction fill; /* ss_drv_fill(unsigned *data, unsigned long long n, unsigned base) */
} ss_drv;

/* Initializes the driver, makes device 0's primary context current (the context the runtime
 * would use; cuCtxCreate changed its signature in CUDA 13) and loads the kernels. */
static inline void ss_drv_open(ss_drv *drv)
{
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&drv->device, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&drv->context, drv->device));
    CHECK_CU(cuCtxSetCurrent(drv->context));
    CHECK_CU(cuModuleLoadData(&drv->module, ss_driver_image));
    CHECK_CU(cuModuleGetFunction(&drv->spin, drv->module, "ss_drv_spin"));
    CHECK_CU(cuModuleGetFunction(&drv->fill, drv->module, "ss_drv_fill"));
}

/* Unloads the module and releases the primary context. */
static inline void ss_drv_close(ss_drv *drv)
{
    CHECK_CU(cuModuleUnload(drv->module));
    CHECK_CU(cuDevicePrimaryCtxRelease(drv->device));
}

/* Host monotonic clock in nanoseconds. */
static inline unsigned long long ss_drv_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Reports on stderr how long a marked call held the host (stdout stays deterministic). */
static inline void ss_drv_note_blocked(const char *what, unsigned long long start_ns)
{
    fprintf(stderr, "timing: %s held the host %.3f ms\n", what,
            (double)(ss_drv_now_ns() - start_ns) / 1e6);
}

/* Allocates the zeroed counters. Call it before any kernel: the zeros come from pinned memory
 * with a synchronous copy, which has completed when it returns, so nothing is pending after
 * it (a memset could still be running when a later call blocks). Returns the device pointer. */
static inline CUdeviceptr ss_drv_counters_alloc(void)
{
    CUdeviceptr counters = 0;
    unsigned *zeros = NULL;
    CHECK_CU(cuMemAlloc(&counters, SS_DRV_COUNTERS * sizeof(unsigned)));
    CHECK_CU(cuMemAllocHost((void **)&zeros, SS_DRV_COUNTERS * sizeof(unsigned)));
    for (int i = 0; i < SS_DRV_COUNTERS; i++) {
        zeros[i] = 0;
    }
    CHECK_CU(cuMemcpyHtoD(counters, zeros, SS_DRV_COUNTERS * sizeof(unsigned)));
    CHECK_CU(cuMemFreeHost(zeros));
    return counters;
}

/* Waits until the work enqueued so far on 'stream' (NULL: the legacy default stream) has
 * finished, by polling an event: an explicit synchronization that waited would be a SYNC401
 * note, and the clean program must come out with no finding at all. */
static inline void ss_drv_wait(CUstream stream)
{
    CUevent done;
    CUresult state;
    struct timespec pause = {0, 20000};
    CHECK_CU(cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
    CHECK_CU(cuEventRecord(done, stream));
    while ((state = cuEventQuery(done)) == CUDA_ERROR_NOT_READY) {
        nanosleep(&pause, NULL);
    }
    CHECK_CU(state);
    CHECK_CU(cuEventDestroy(done));
}

/* Waits for 'stream' and the legacy stream, reads the counters back (nothing is pending, so
 * the copy blocks on nothing), prints "result <weighted sum + extra>" and frees the counters. */
static inline void ss_drv_finish(CUdeviceptr counters, unsigned long long extra, CUstream stream)
{
    unsigned host[SS_DRV_COUNTERS];
    unsigned long long sum = extra;
    ss_drv_wait(stream);
    ss_drv_wait(NULL);
    CHECK_CU(cuMemcpyDtoH(host, counters, sizeof(host)));
    for (int i = 0; i < SS_DRV_COUNTERS; i++) {
        sum += (unsigned long long)host[i] * (unsigned long long)(i + 1);
    }
    CHECK_CU(cuMemFree(counters));
    printf("result %llu\n", sum);
}

#endif
