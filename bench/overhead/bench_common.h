/* bench_common.h: what the overhead benchmark programs share: error checking, a host clock,
 * argument parsing and the one result line that bench/overhead/run.sh reads. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Exits with status 1 and the failing call's text and error name when 'call' fails. Hides
 * control flow: a failure ends the program. */
#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t check_err_ = (call);                                                           \
        if (check_err_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                   \
                    cudaGetErrorName(check_err_));                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Host monotonic clock in nanoseconds. */
static inline double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* argv['index'] as a positive integer, or 'fallback' when absent. Exits with a usage
 * message when it is not a positive integer. */
static inline long arg_or(int argc, char **argv, int index, long fallback)
{
    char *end = NULL;
    long value;
    if (index >= argc) {
        return fallback;
    }
    value = strtol(argv[index], &end, 10);
    if (end == argv[index] || *end != '\0' || value <= 0) {
        fprintf(stderr, "%s: argument %d must be a positive integer: %s\n", argv[0], index,
                argv[index]);
        exit(2);
    }
    return value;
}

/* Prints the line run.sh parses: "bench: METRIC VALUE CHECK", where CHECK is a checksum of
 * the program's results that must be the same bare and under any tool. */
static inline void bench_result(const char *metric, double value, unsigned long long check)
{
    printf("bench: %s %.3f %llu\n", metric, value, check);
    fflush(stdout);
}

#endif
