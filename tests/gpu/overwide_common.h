/* overwide_common.h: the kernels of the over-wide wait programs (overwide_*.cu, SYNC601): one
 * that produces the values the host reads back, and one that works on a buffer of its own. */
#ifndef SS_OVERWIDE_COMMON_H
#define SS_OVERWIDE_COMMON_H

#include "gpu_common.h"

/* Values read back per round (4 KiB: more than a scalar readback). */
#define OW_VALUES 1024

/* Spins 'ns' nanoseconds, then writes value + i to out[i] for the 'n' values. */
static __global__ void produce_kernel(unsigned *out, int n, unsigned value, unsigned long long ns)
{
    unsigned long long start = ss_globaltimer();
    while (ss_globaltimer() - start < ns) {
    }
    for (int i = 0; i < n; i++) {
        out[i] = value + (unsigned)i;
    }
}

/* Spins 'ns' nanoseconds, then adds 1 to scratch[0]: work the host never reads back. */
static __global__ void unrelated_kernel(unsigned *scratch, unsigned long long ns)
{
    unsigned long long start = ss_globaltimer();
    while (ss_globaltimer() - start < ns) {
    }
    scratch[0] += 1;
}

/* The sum of the 'n' values read back, for the result line. */
static inline unsigned long long ow_sum(const unsigned *values, int n)
{
    unsigned long long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += values[i];
    }
    return sum;
}

#endif
