/* whatif_common.h: what the what-if pairs share (tests/gpu/whatif/README.md): error checking,
 * a host clock, the host's own work as a timed busy loop, a compute kernel of tunable length,
 * and the one timing line every program prints:
 *   steady: <microseconds> us per iteration (<n> iterations after <w> warm-up)
 * Each program takes [iterations] [warm-up] as its first two arguments. */
#ifndef WHATIF_COMMON_H
#define WHATIF_COMMON_H

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t check_err_ = (call);                                                           \
        if (check_err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    cudaGetErrorName(check_err_));                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static inline double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* argv['index'] as a positive integer, or 'fallback' when absent; exits 2 when it is not. */
static inline int arg_or(int argc, char **argv, int index, int fallback)
{
    char *end = NULL;
    long value;
    if (index >= argc)
        return fallback;
    value = strtol(argv[index], &end, 10);
    if (end == argv[index] || *end != '\0' || value < 0 || value > 1000000) {
        fprintf(stderr, "%s: argument %d must be an integer from 0 to 1000000: %s\n", argv[0],
                index, argv[index]);
        exit(2);
    }
    return (int)value;
}

/* The host's own work: 'us' microseconds of CPU time writing 'n' words of 'dst' (which may
 * be NULL), the way a program prepares its next input. */
static inline void host_work(double us, unsigned *dst, size_t n, unsigned seed)
{
    double end = now_us() + us;
    size_t i = 0;
    unsigned x = seed * 2654435761u + 1;
    do {
        for (int k = 0; k < 256; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if (dst != NULL && n > 0) {
                dst[i] = x;
                i = i + 1 == n ? 0 : i + 1;
            }
        }
    } while (now_us() < end);
}

/* out[i] = 'iters' rounds of a hash of in[i]: GPU time proportional to n * iters. */
static __global__ void churn(const unsigned *in, unsigned *out, size_t n, int iters)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = in[i];
        for (int k = 0; k < iters; k++)
            x = x * 1664525u + 1013904223u + (x >> 7);
        out[i] = x;
    }
}

static inline int churn_blocks(void)
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return sms * 8;
}

static inline void report(double start_us, int iterations, int warmup)
{
    double us = now_us() - start_us;
    printf("steady: %.3f us per iteration (%d iterations after %d warm-up)\n",
           iterations > 0 ? us / iterations : 0.0, iterations, warmup);
}

#endif
