// clock_wrappers.cu: a solve timed through two wrappers of the unit ('now_us' returns
// 'now_ms() * 1e3', 'now_ms' reads clock_gettime), called from a loop that repeats it: its waits
// bound the measurement, as they do with a clock read directly or through one wrapper. A third
// wrapper is past what lint follows: the wait stays a warning. Past two calls lint follows only
// a function whose body returns a value: a logging helper that stamps its line with the clock
// (report -> log_line -> wall_ms -> clock_gettime) times nothing, and the wait nothing on the
// host needs stays a warning.
#include <stdio.h>
#include <cuda_runtime.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static double now_us(void)
{
    return now_ms() * 1e3;
}

static double now_ns(void)
{
    return now_us() * 1e3;
}

__global__ void sweep(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 0.5f;
}

static double solve(float *x, int n, int iters)
{
    double start = now_us();
    for (int i = 0; i < iters; i++)
        sweep<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the loop times its iterations ('clock_gettime' at line 15)
    return now_us() - start;
}

static double solve_deeper(float *x, int n, int iters)
{
    double start = now_ns();
    for (int i = 0; i < iters; i++)
        sweep<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    return now_ns() - start;
}

double repeat(float *x, int n, int rounds)
{
    double us = 0.0;
    for (int r = 0; r < rounds; r++)
        us += solve(x, n, 100);
    return us;
}

double repeat_deeper(float *x, int n, int rounds)
{
    double ns = 0.0;
    for (int r = 0; r < rounds; r++)
        ns += solve_deeper(x, n, 100);
    return ns;
}

static double wall_ms(void)
{
    return now_ms();
}

static void log_line(const char *msg)
{
    fprintf(stderr, "[%.3f] %s\n", wall_ms(), msg);
}

static void report(int step)
{
    char line[64];
    snprintf(line, sizeof line, "step %d queued", step);
    log_line(line);
}

void logged_steps(float *x, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        sweep<<<(n + 255) / 256, 256>>>(x, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        report(s);
    }
}
