// Operators that main.cpp's loop runs: waits behind the settings' switches.
#include "settings.h"
#include <cuda_runtime.h>

__global__ void clamp_kernel(float *x, int n)
{
    int i = threadIdx.x;
    if (i < n && x[i] > 1.f)
        x[i] = 1.f;
}

// A debugging switch only the environment sets: the wait runs only when it is set.
static void device_sync()
{
    if (settings().cuda_sync)
        cudaDeviceSynchronize();
}

void clamp(float *x, int n)
{
    clamp_kernel<<<1, 256>>>(x, n);
    device_sync();
}

// A second way to the same wait from main.cpp's loop: every way's finding is a note.
void clamp_again(float *x, int n)
{
    clamp_kernel<<<1, 256>>>(x, n);
    device_sync();
}

// Also set by a command-line flag (main.cpp): not only the environment.
void clamp_checked(float *x, int n)
{
    clamp_kernel<<<1, 256>>>(x, n);
    if (settings().check_nan)
        cudaDeviceSynchronize();
}

// Set by a function of the program: not a switch the environment alone turns on.
void clamp_traced(float *x, int n)
{
    clamp_kernel<<<1, 256>>>(x, n);
    if (settings().trace_steps)
        cudaDeviceSynchronize();
}

// On by default: the wait runs on an ordinary run.
void clamp_verbose(float *x, int n)
{
    clamp_kernel<<<1, 256>>>(x, n);
    if (settings().verbose)
        cudaDeviceSynchronize();
}

// Switches whose wait runs on an ordinary run, or that other code sets too: warnings. 'either'
// is set from either of two variables: a note that names both.
void clamp_switches(float *x, int n)
{
    clamp_kernel<<<1, 256>>>(x, n);
    if (settings().no_fast)
        cudaDeviceSynchronize();
    if (settings().any_arg)
        cudaDeviceSynchronize();
    if (settings().tabled)
        cudaDeviceSynchronize();
    if (settings().either)
        cudaDeviceSynchronize();
}
