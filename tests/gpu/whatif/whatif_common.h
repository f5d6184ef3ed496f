/* whatif_common.h: what the what-if pairs share (tests/gpu/whatif/README.md): error checking,
 * a host clock, the host's own work as a timed busy loop, a compute kernel of tunable length,
 * and the one timing line every program prints:
 *   steady: <microseconds> us per iteration (<n> iterations after <w> warm-up)
 * Each program takes [iterations] [warm-up] as its first two arguments (positive integers). */
#ifndef WHATIF_COMMON_H
#define WHATIF_COMMON_H

#include "../../../samples/common.h" /* CHECK, now_ms, arg_or */

static inline double now_us(void)
{
    return now_ms() * 1e3;
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
