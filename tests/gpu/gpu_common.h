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
    atomicAdd(&counters[slot], 1u); /* kernels of different streams may overlap */
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

/* ---- Gates: kernels on several streams that end together ----
 * A legacy-stream operation enqueued behind kernels of two blocking streams waits for both.
 * The detectors name a stream in SYNC103 (and the operation in SYNC101/102) when the operation
 * started within serial_gap_ns (10 us) of that stream's work ending, or held back that
 * stream's next operation. Kernels that spin a fixed time from their own start end as far
 * apart as they started: 14-24 us in the first round on the H200, whose launches are the
 * slowest, so the first stream counted only when the next round's kernel was already queued
 * and started within 10 us of the legacy operation's end. A gated kernel spins until the host
 * opens its gate, and the host opens it only once every kernel of the round is running (it
 * reads their state words) and has run 'hold_ns' more; all then end within about one read of
 * host memory (1-2 us) of each other, and the legacy operation starts right after the last. */

#define SS_GATE_KERNELS 32 /* state words: one per gated kernel */
#define SS_GATE_ROUNDS 32  /* release words: one per round */
/* A gated kernel whose gate stays shut this long gives up (a broken test, not a hang). */
#define SS_GATE_TIMEOUT_NS 5000000000ull
/* How long the host waits for a round's kernels to be running before it gives up. */
#define SS_GATE_START_NS 10000000000ull

/* The gate words, in mapped pinned host memory: 'host' for the host, 'device' for kernels.
 * words[k] for k < SS_GATE_KERNELS: gated kernel k's state (0 queued, 1 running, 2 released,
 * 3 gave up); words[SS_GATE_KERNELS + r]: 1 once round r's gate is open. */
typedef struct ss_gate {
    volatile unsigned *host;
    unsigned *device;
} ss_gate;

/* Says it runs, spins until the gate 'release' opens, then adds 1 to counters['slot']. */
static __global__ void gated_spin_kernel(unsigned *counters, int slot, unsigned *state,
                                         const unsigned *release)
{
    volatile unsigned *my_state = state;
    const volatile unsigned *open = release;
    *my_state = 1;
    __threadfence_system();
    unsigned long long start = ss_globaltimer();
    while (*open == 0) {
        if (ss_globaltimer() - start > SS_GATE_TIMEOUT_NS) {
            *my_state = 3;
            __threadfence_system();
            return;
        }
    }
    *my_state = 2;
    __threadfence_system();
    atomicAdd(&counters[slot], 1u);
}

/* Allocates the gate words (all zero). Call it before any stream exists. */
static inline ss_gate ss_gate_alloc(void)
{
    ss_gate gate;
    void *words = NULL;
    size_t bytes = (SS_GATE_KERNELS + SS_GATE_ROUNDS) * sizeof(unsigned);
    CHECK(cudaHostAlloc(&words, bytes, cudaHostAllocMapped));
    for (size_t i = 0; i < bytes / sizeof(unsigned); i++) {
        ((volatile unsigned *)words)[i] = 0;
    }
    gate.host = (volatile unsigned *)words;
    CHECK(cudaHostGetDevicePointer((void **)&gate.device, words, 0));
    return gate;
}

/* The kernel arguments of gated kernel 'kernel' in round 'round'. */
static inline unsigned *ss_gate_state(ss_gate gate, int kernel)
{
    return gate.device + kernel;
}

static inline const unsigned *ss_gate_release(ss_gate gate, int round)
{
    return gate.device + SS_GATE_KERNELS + round;
}

/* Waits until gated kernels 'first' .. 'first' + 'count' - 1 are all running, lets them run
 * 'hold_ns' more, then opens round 'round''s gate. Exits 1 when they do not start within
 * SS_GATE_START_NS. */
static inline void ss_gate_open(ss_gate gate, int first, int count, int round,
                                unsigned long long hold_ns)
{
    unsigned long long start = ss_now_ns();
    for (int k = first; k < first + count; k++) {
        while (gate.host[k] == 0) {
            if (ss_now_ns() - start > SS_GATE_START_NS) {
                fprintf(stderr, "gated kernel %d did not start within %llu s\n", k,
                        SS_GATE_START_NS / 1000000000ull);
                exit(1);
            }
        }
    }
    unsigned long long running = ss_now_ns();
    while (ss_now_ns() - running < hold_ns) {
    }
    __sync_synchronize();
    gate.host[SS_GATE_KERNELS + round] = 1;
    __sync_synchronize();
}

/* Once the gated kernels 0 .. 'count' - 1 have finished: exits 1 unless every one was
 * released by its gate (none gave up); frees the gate words. */
static inline void ss_gate_free(ss_gate gate, int count)
{
    for (int k = 0; k < count; k++) {
        if (gate.host[k] != 2) {
            fprintf(stderr, "gated kernel %d ended in state %u, not released\n", k, gate.host[k]);
            exit(1);
        }
    }
    CHECK(cudaFreeHost((void *)gate.host));
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
