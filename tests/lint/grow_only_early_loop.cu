// grow_only_early_loop.cu: a resize that returns early while the request fits, then reallocates
// every buffer of its list in a loop (one allocation per buffer, each followed by a copy of the
// old data) and records the new size, grown by a factor until it fits ('while (next < n)'):
// the loop runs only when the list grows, so its allocations are notes. Without the size
// recorded, the loop runs on every call: warnings.
#include <cuda_runtime.h>
#include <vector>

struct Buf {
    float *data;
    float *swap;
};

struct List {
    std::vector<Buf> bufs;
    unsigned len = 0;
    void resize(unsigned n, cudaStream_t s);
    void refill(unsigned n, cudaStream_t s);
};

void List::resize(unsigned n, cudaStream_t s)
{
    if (n <= len)
        return;
    unsigned next = len > 1024 ? len : 1024;
    while (next < n)
        next = next * 5 / 4;
    for (auto &b : bufs) {
        cudaFree(b.swap); // expect: SYNC402 expect-severity: note expect-message: grow-only: the loop at line 28 runs only when the buffer grows (line 23 returns early unless the request exceeds 'len'
        cudaMalloc(&b.swap, next * sizeof(float)); // expect: SYNC402 expect-severity: note
        cudaMemcpyAsync(b.swap, b.data, len * sizeof(float), cudaMemcpyDeviceToDevice, s);
    }
    len = next;
}

void List::refill(unsigned n, cudaStream_t s)
{
    if (n <= len)
        return;
    for (auto &b : bufs) {
        cudaFree(b.swap); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&b.swap, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        cudaMemcpyAsync(b.swap, b.data, len * sizeof(float), cudaMemcpyDeviceToDevice, s);
    }
}

void step(List &l, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        l.resize(1000u + i, s);
        l.refill(1000u + i, s);
    }
}
