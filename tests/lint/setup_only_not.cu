// setup_only_not.cu: a loop in a function that set-up code calls is not set-up where something
// else may call it too: a function that is not set-up calls it as well, a set-up function that
// calls it runs on every iteration of a loop that enqueues device work, another unit may call
// it (external linkage), its address is taken, or the call is in a lambda that may run later.
// All stay warnings.
#include <cuda_runtime.h>

__global__ void item(unsigned base) {}

static void fill_a(unsigned n, cudaStream_t s)
{
    for (unsigned i = 0; i < n; i++) {
        item<<<1, 128, 0, s>>>(i);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
void initA(cudaStream_t s) { fill_a(4, s); }
void step_a(cudaStream_t s) { fill_a(4, s); }

/* 'initB' sets up by its name, but 'step_b' calls it on every iteration. */
static void fill_b(unsigned n, cudaStream_t s)
{
    for (unsigned i = 0; i < n; i++) {
        item<<<1, 128, 0, s>>>(i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}
void initB(cudaStream_t s) { fill_b(4, s); }
void step_b(unsigned n, cudaStream_t s)
{
    for (unsigned i = 0; i < n; i++) {
        item<<<1, 128, 0, s>>>(i);
        initB(s);
    }
}

/* External linkage: another unit may call it from its hot loop. */
void fill_c(unsigned n, cudaStream_t s)
{
    for (unsigned i = 0; i < n; i++) {
        item<<<1, 128, 0, s>>>(i);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
void initC(cudaStream_t s) { fill_c(4, s); }

/* Its address is taken: whoever holds the pointer may call it. */
static void fill_d(unsigned n, cudaStream_t s)
{
    for (unsigned i = 0; i < n; i++) {
        item<<<1, 128, 0, s>>>(i);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
void (*fill_hook)(unsigned, cudaStream_t);
void initD(cudaStream_t s)
{
    fill_d(4, s);
    fill_hook = fill_d;
}

/* Called in a lambda that 'initE' returns: it runs whenever the caller calls it. */
static void fill_e(unsigned n, cudaStream_t s)
{
    for (unsigned i = 0; i < n; i++) {
        item<<<1, 128, 0, s>>>(i);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
auto initE(cudaStream_t s)
{
    return [s] { fill_e(4, s); };
}
