// free_wait_cases.cu: which frees wait for nothing (no SYNC402) and which wait right after a wait
// makes that wait "drained anyway", where lint cannot be sure. A cudaFree is dropped only where
// every write of its local variable is a stream-ordered allocation; the note before a free needs
// a local variable written once, before the wait and whenever it runs, by a synchronizing
// allocator of the free's kind (or, for an array, a call whose null result returns), in a
// function that switches no device. Else the wait and the free stay warnings.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void k(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += 1.0f;
}

static void alloc_plain(float **p, size_t n) { cudaMalloc(p, n * sizeof(float)); } // expect: SYNC402 expect-severity: warning
static float *make_plain(size_t n)
{
    float *p = nullptr;
    cudaMalloc(&p, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
    return p;
}
// An optional workspace, null on the other way: the free may wait for nothing.
void optional_ws(float *out, int n, int rounds, bool big, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *ws = nullptr;
        if (big)
            cudaMalloc(&ws, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        k<<<(n + 255) / 256, 256, 0, s>>>(out, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(ws); // expect: SYNC402 expect-severity: warning
    }
}

// A pointer null on one arm of '?:'.
void ternary_null(float *buf, float *out, int n, int rounds, bool keep, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = keep ? nullptr : buf;
        k<<<(n + 255) / 256, 256, 0, s>>>(out, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// A copy of a pointer to stream-ordered memory: an initializer, not the allocation.
void alias_async(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *q = nullptr;
        cudaMallocAsync(&q, n * sizeof(float), s);
        float *p = q;
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// Assigned between the wait and the free.
void reassigned(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *q = nullptr, *p = nullptr;
        cudaMallocAsync(&q, n * sizeof(float), s);
        k<<<(n + 255) / 256, 256, 0, s>>>(q, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        p = q;
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// A pointer from a function of the unit that returns stream-ordered memory.
static float *pool_alloc(size_t n, cudaStream_t s)
{
    float *p = nullptr;
    cudaMallocAsync(&p, n * sizeof(float), s);
    return p;
}

void from_helper(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = pool_alloc(n, s);
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// A parameter, here fed stream-ordered memory by the unit's own caller.
static void release(float *p, cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaFree(p); // expect: SYNC402 expect-severity: warning
}

void caller_async(int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *t = nullptr;
        cudaMallocAsync(&t, n * sizeof(float), s);
        k<<<(n + 255) / 256, 256, 0, s>>>(t, n);
        release(t, s);
    }
}

// Another device's stream waited, the free on the current device: it waits for that one only.
void two_devices(float *out0, int n, int rounds, cudaStream_t s0, cudaStream_t s1)
{
    for (int r = 0; r < rounds; r++) {
        cudaSetDevice(0);
        k<<<(n + 255) / 256, 256, 0, s0>>>(out0, n);
        cudaSetDevice(1);
        float *p1 = nullptr;
        cudaMalloc(&p1, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        k<<<(n + 255) / 256, 256, 0, s1>>>(p1, n);
        cudaStreamSynchronize(s0); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(p1); // expect: SYNC402 expect-severity: warning
    }
}

// A wait for the whole device, the device set again before the free.
void switch_between(float *out, int n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        cudaSetDevice(0);
        float *p = nullptr;
        cudaMalloc(&p, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        k<<<(n + 255) / 256, 256>>>(p, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaSetDevice(0);
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}
// cudaMallocAsync on one way, cudaMalloc through a helper on the other: SYNC402 stays.
void mixed_helper(int n, int rounds, bool pool, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = nullptr;
        if (pool)
            cudaMallocAsync(&p, n * sizeof(float), s);
        else
            alloc_plain(&p, n);
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// Assigned a plain allocation on the other way: SYNC402 stays.
void mixed_assign(int n, int rounds, bool pool, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = nullptr;
        if (pool)
            cudaMallocAsync(&p, n * sizeof(float), s);
        else
            p = make_plain(n);
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// Both allocators in the function: SYNC402 stays.
void mixed_direct(int n, int rounds, bool pool, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = nullptr;
        if (pool)
            cudaMallocAsync(&p, n * sizeof(float), s);
        else
            cudaMalloc(&p, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// Stream-ordered memory, then the variable reused for a parameter's memory: SYNC402 stays.
void reuse_var(float *plain, int n, int rounds, cudaStream_t s)
{
    float *p = nullptr;
    cudaMallocAsync(&p, n * sizeof(float), s);
    cudaFreeAsync(p, s);
    for (int r = 0; r < rounds; r++) {
        p = plain;
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}

// Only stream-ordered allocations: the free waits for nothing, no SYNC402.
void only_ordered(int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = nullptr;
        cudaMallocAsync(&p, n * sizeof(float), s);
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(p);
    }
}

// The same through a 'void *' variable: no SYNC402.
void ordered_void_cast(int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        void *v = nullptr;
        cudaMallocAsync(&v, n * sizeof(float), s);
        float *p = (float *)v;
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(v);
    }
}

// Exchanged with a parameter's buffer: SYNC402 stays.
void swapped(float *plain, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *p = nullptr;
        cudaMallocAsync(&p, n * sizeof(float), s);
        float *t = p;
        p = plain;
        plain = t;
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaFree(p); // expect: SYNC402 expect-severity: warning
    }
}
// cudaFreeHost of registered memory (an error): no allocator of pinned memory, no note.
void free_host_registered(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *h = (float *)malloc(n * sizeof(float));
        cudaHostRegister(h, n * sizeof(float), 0); // expect: SYNC402 expect-severity: warning
        cudaMemcpyAsync(h, out, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFreeHost(h); // expect: SYNC402 expect-severity: warning
    }
}

// cudaFreeArray of an array that may be null.
void maybe_null_array(const cudaChannelFormatDesc *fmt, float *out, int n, int rounds, bool tex,
                      cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        cudaArray_t a = nullptr;
        if (tex)
            cudaMallocArray(&a, fmt, n, 1);
        k<<<(n + 255) / 256, 256, 0, s>>>(out, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFreeArray(a); // expect: SYNC402 expect-severity: warning
    }
}

// An optional workspace after a wait for the whole device: the wait stays a warning.
void optional_ws_dev(float *out, int n, int rounds, bool big)
{
    for (int r = 0; r < rounds; r++) {
        float *ws = nullptr;
        if (big)
            cudaMalloc(&ws, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        k<<<(n + 255) / 256, 256>>>(out, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(ws); // expect: SYNC402 expect-severity: note
    }
}

// A copy of stream-ordered memory after a wait for the whole device.
void alias_dev(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *q = nullptr;
        cudaMallocAsync(&q, n * sizeof(float), s);
        float *p = q;
        k<<<(n + 255) / 256, 256, 0, s>>>(p, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(p); // expect: SYNC402 expect-severity: note
    }
}

// A global allocated in stream order by another function of the unit: SYNC402 stays.
static float *g_buf;
void init_buf(int n, cudaStream_t s) { cudaMallocAsync(&g_buf, n * sizeof(float), s); }
void global_free(int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        init_buf(n, s);
        k<<<(n + 255) / 256, 256, 0, s>>>(g_buf, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(g_buf); // expect: SYNC402 expect-severity: warning
    }
}

// Frees of a null pointer as written wait for nothing: no SYNC402.
void free_array_zero(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        k<<<(n + 255) / 256, 256, 0, s>>>(out, n);
        cudaFreeArray(0);
        cudaFreeHost(nullptr);
    }
}
