/* common.h: what every sample shares: error checking, a host clock, argument parsing. */
#ifndef SAMPLES_COMMON_H
#define SAMPLES_COMMON_H

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

/* Host monotonic clock in milliseconds. */
static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

#endif
