/* bench_common.h: what the overhead benchmark programs share: error checking, a host clock,
 * argument parsing and the one result line that bench/overhead/run.sh reads. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

/* CHECK, now_ms and arg_or, shared with the samples. */
#include "../../samples/common.h"

/* Host monotonic clock in nanoseconds. */
static inline double now_ns(void)
{
    return now_ms() * 1e6;
}

/* Prints the line run.sh parses: "bench: METRIC VALUE CHECK", where CHECK is a checksum of
 * the program's results that must be the same bare and under any tool. */
static inline void bench_result(const char *metric, double value, unsigned long long check)
{
    printf("bench: %s %.3f %llu\n", metric, value, check);
    fflush(stdout);
}

#endif
