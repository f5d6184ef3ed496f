// reaching_defs.cu: a stream variable is reported only when every definition reaching the
// launch is the legacy default stream.
#include <cuda_runtime.h>

__global__ void k(int *p) { p[0] = 1; }

void always_zero(int *p)
{
    cudaStream_t s = 0;
    k<<<1, 1, 0, s>>>(p); // expect: SYNC101
}

void chain(int *p)
{
    cudaStream_t a = cudaStreamLegacy;
    cudaStream_t b = a;
    k<<<1, 1, 0, b>>>(p); // expect: SYNC101
}

void branch_makes_it_unknown(int *p, bool fast)
{
    cudaStream_t s = 0;
    if (fast)
        cudaStreamCreate(&s); // expect: SYNC103
    k<<<1, 1, 0, s>>>(p);
}

void branch_both_zero(int *p, bool fast)
{
    cudaStream_t s = nullptr;
    if (fast)
        s = 0;
    k<<<1, 1, 0, s>>>(p); // expect: SYNC101
}

void overwritten(int *p)
{
    cudaStream_t s = 0;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    k<<<1, 1, 0, s>>>(p);
}

void killed_by_later_assignment(int *p, cudaStream_t other)
{
    cudaStream_t s = other;
    s = 0;
    k<<<1, 1, 0, s>>>(p); // expect: SYNC101
}

void parameter_reassigned(int *p, cudaStream_t s)
{
    s = 0;
    k<<<1, 1, 0, s>>>(p); // expect: SYNC101
}

void parameter(int *p, cudaStream_t s = 0)
{
    k<<<1, 1, 0, s>>>(p);
}

void loop_carried(int *p, cudaStream_t other)
{
    cudaStream_t s = 0;
    for (int i = 0; i < 3; i++) {
        k<<<1, 1, 0, s>>>(p);
        s = other;
    }
}

void escaped(int *p)
{
    cudaStream_t s = 0;
    cudaStream_t *where = &s;
    *where = cudaStreamPerThread;
    k<<<1, 1, 0, s>>>(p);
}

static void set_stream(cudaStream_t &out);

void by_reference(int *p)
{
    cudaStream_t s = 0;
    set_stream(s);
    k<<<1, 1, 0, s>>>(p);
}

static void set_stream(cudaStream_t &out)
{
    out = cudaStreamPerThread;
}
