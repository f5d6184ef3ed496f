/* gpu_common.h: shared pieces of the GPU test programs: error checking, a busy-wait kernel,
 * host timing and the final deterministic result line. */
#ifndef SS_GPU_COMMON_H
#define SS_GPU_COMMON_H

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Aborts the program with the failing call's text and the error name when 'call' fails.
 * Hides control flow: a failure exits with status 1. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t check_err_ = (call);                                                           \
        if (check_err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    cudaGetErrorName(check_err_));                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Number of counters every program accumulates into; the final readback copies all of them
 * (256 bytes), so that it is never a scalar readback itself. */
#define SS_COUNTERS 64

/* Device time in nanoseconds from the GPU's global timer. */
static __device__ unsigned long long ss_globaltimer(void)
{
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

/* Busy-waits 'ns' nanoseconds on the GPU, then adds 1 to counters['slot']. Launched as
 * <<<1, 1>>>, it makes pending device work last a known time whatever the GPU's clock. */
static __global__ void spin_kernel(unsigned *counters, int slot, unsigned long long ns)
{
    unsigned long long start = ss_globaltimer();
    while (ss_globaltimer() - start < ns) {
    }
    counters[slot] += 1;
}

/* Adds 'value' to every element of 'data' ('n' elements); gives copies something to check. */
static __global__ void add_kernel(unsigned *data, size_t n, unsigned value)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        data[i] += value;
    }
}

/* Sets data[i] = base + i % 7 for the 'n' elements of 'data'. */
static __global__ void fill_kernel(unsigned *data, size_t n, unsigned base)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        data[i] = base + (unsigned)(i % 7);
    }
}

/* Host monotonic clock in nanoseconds. */
static inline unsigned long long ss_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Reports on stderr how long a marked call held the host (stdout stays deterministic). */
static inline void ss_note_blocked(const char *what, unsigned long long start_ns)
{
    fprintf(stderr, "timing: %s held the host %.3f ms\n", what,
            (double)(ss_now_ns() - start_ns) / 1e6);
}

/* Allocates the zeroed counters. Call it first, before any stream exists. The zeros come
 * from pinned memory with a synchronous copy, which has completed when it returns (a memset
 * would still be pending on the legacy stream and could hold back the program's streams).
 * Returns the device pointer. */
static inline unsigned *ss_counters_alloc(void)
{
    unsigned *counters = NULL;
    unsigned *zeros = NULL;
    CHECK(cudaMalloc(&counters, SS_COUNTERS * sizeof(unsigned)));
    CHECK(cudaMallocHost(&zeros, SS_COUNTERS * sizeof(unsigned)));
    for (int i = 0; i < SS_COUNTERS; i++) {
        zeros[i] = 0;
    }
    CHECK(cudaMemcpy(counters, zeros, SS_COUNTERS * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaFreeHost(zeros));
    return counters;
}

/* Waits until the work enqueued so far on 'stream' (0: the legacy default stream) has
 * finished, by polling an event instead of blocking in a synchronization call: the runtime
 * detectors report every explicit synchronization that waited for work (SYNC401, a note), and
 * the clean programs must come out with no finding at all. A real program would call
 * cudaStreamSynchronize here once. */
static inline void ss_wait(cudaStream_t stream)
{
    cudaEvent_t done;
    cudaError_t state;
    struct timespec pause = {0, 20000};
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    CHECK(cudaEventRecord(done, stream));
    while ((state = cudaEventQuery(done)) == cudaErrorNotReady) {
        nanosleep(&pause, NULL);
    }
    CHECK(state);
    CHECK(cudaEventDestroy(done));
}

/* Waits for the work of the 'count' 'streams' (ss_wait), reads the counters back (nothing is
 * pending any more, so the copy blocks on nothing), prints "result <weighted sum + extra>"
 * and frees the counters. */
static inline void ss_finish(unsigned *counters, unsigned long long extra,
                             const cudaStream_t *streams, int count)
{
    unsigned host[SS_COUNTERS];
    unsigned long long sum = extra;
    for (int i = 0; i < count; i++) {
        ss_wait(streams[i]);
    }
    CHECK(cudaMemcpy(host, counters, sizeof(host), cudaMemcpyDeviceToHost));
    for (int i = 0; i < SS_COUNTERS; i++) {
        sum += (unsigned long long)host[i] * (unsigned long long)(i + 1);
    }
    CHECK(cudaFree(counters));
    printf("result %llu\n", sum);
}

#endif
