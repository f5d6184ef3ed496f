// grow_only_early_return.cu: a growing method that starts by returning when the request fits
// ('if (n <= size) return;') and then frees, allocates, waits and stores the larger size runs
// only when the buffer grows, however often a loop calls it: its calls are notes. The shapes
// that only look like it stay warnings: the early return tests another member, the size is
// never stored (or stored as 0), the return needs a second condition, or a loop allocates one
// element at a time.
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void fill(float *d, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = 1.0f;
}

struct Workspace {
    float *data = nullptr;
    size_t size = 0;
    bool pinned_copy = false;
    void enlarge(size_t n)
    {
        if (n <= size) {
            return;
        }
        if (pinned_copy) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 23 returns early unless the request exceeds 'size', and the function records the new size)
            size = n + n / 2;
            float *larger = nullptr;
            cudaMalloc(&larger, size * sizeof(float)); // expect: SYNC402 expect-severity: note
            cudaFree(data); // expect: SYNC402 expect-severity: note
            data = larger;
            return;
        }
        cudaFree(data); // expect: SYNC402 expect-severity: note
        cudaMalloc(&data, (n - size) * 2 * sizeof(float)); // expect: SYNC402 expect-severity: note
        size += (n - size) * 2;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
    }
};

void run_steps(Workspace &ws, const size_t *sizes, int steps, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        ws.enlarge(sizes[i]);
        fill<<<(unsigned)((sizes[i] + 255) / 256), 256, 0, s>>>(ws.data, sizes[i]);
    }
}

// The driver's allocation grows it too, and the size grows by what was added.
struct DriverArena {
    CUdeviceptr chunks[8] = {};
    size_t chunk_count = 0;
    size_t reserved = 0;
    void reserve(size_t bytes)
    {
        if (reserved >= bytes)
            return;
        cuMemAlloc(&chunks[chunk_count++ % 8], bytes - reserved); // expect: SYNC402 expect-severity: note
        reserved += bytes - reserved;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 57 returns early unless the request exceeds 'reserved', and the function records the new size)
    }
};

void run_driver_steps(DriverArena &arena, float *d, const size_t *sizes, int steps,
                      cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        arena.reserve(sizes[i] * sizeof(float));
        fill<<<(unsigned)((sizes[i] + 255) / 256), 256, 0, s>>>(d, sizes[i]);
    }
}

// The early return tests the limit, not the size the function stores.
struct Limited {
    float *data = nullptr;
    size_t size = 0;
    size_t limit = 0;
    void enlarge(size_t n)
    {
        if (n <= limit)
            return;
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        size = n;
    }
};

// The size is never stored: every call past the limit reallocates.
struct Unrecorded {
    float *data = nullptr;
    size_t size = 0;
    void enlarge(size_t n)
    {
        if (n <= size)
            return;
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
    }
};

// The size is set to 0, not to the larger one: the next call reallocates again.
struct Reset {
    float *data = nullptr;
    size_t size = 0;
    void enlarge(size_t n)
    {
        if (n <= size)
            return;
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        size = 0;
    }
};

// The early return needs a second condition: when it fails the function runs at any size.
struct Gated {
    float *data = nullptr;
    size_t size = 0;
    bool keep = false;
    void enlarge(size_t n)
    {
        if (n <= size && keep)
            return;
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        size = n;
    }
};

// One allocation per element in a loop of the growing function.
struct Blocks {
    float *blocks[64] = {};
    size_t count = 0;
    void enlarge(size_t n)
    {
        if (n <= count)
            return;
        for (size_t i = count; i < n; i++)
            cudaMalloc(&blocks[i], 1024 * sizeof(float)); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        count = n;
    }
};

void run_near_misses(Limited &l, Unrecorded &u, Reset &r, Gated &g, Blocks &b,
                     const size_t *sizes, int steps, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        l.enlarge(sizes[i]);
        u.enlarge(sizes[i]);
        r.enlarge(sizes[i]);
        g.enlarge(sizes[i]);
        b.enlarge(sizes[i] % 64);
        fill<<<(unsigned)((sizes[i] + 255) / 256), 256, 0, s>>>(l.data, sizes[i]);
    }
}
