// grow_only_early_chain.cu: a resize that returns early while the request fits, then
// reallocates every buffer of its list in a loop through the project's own cudaFree wrapper:
// the loop runs only when the list grows, so the wrapper's cudaFree, reached only from that
// loop, is a note like the loop's own cudaMalloc. A wrapper that a step loop calls too stays a
// warning.
#include <cuda_runtime.h>
#include <vector>

inline cudaError_t free_device(void *p)
{
    if (p != nullptr)
        return cudaFree(p); // expect: SYNC402 expect-severity: note expect-message: grow-only: every call from a loop runs when a buffer grows (the loop at grow_only_early_chain.cu:40 runs only when the buffer grows: grow_only_early_chain.cu:35 returns early unless the request exceeds 'len'
    return cudaSuccess;
}

inline cudaError_t free_scratch(void *p)
{
    return cudaFree(p); // expect: SYNC402 expect-severity: warning
}

struct Buf {
    float *data;
    float *swap;
    float *scratch;
};

struct List {
    std::vector<Buf> bufs;
    unsigned len = 0;
    void resize(unsigned n, cudaStream_t s);
};

void List::resize(unsigned n, cudaStream_t s)
{
    if (n <= len)
        return;
    unsigned next = len > 1024 ? len : 1024;
    while (next < n)
        next = next * 5 / 4;
    for (auto &b : bufs) {
        free_device(b.swap);
        free_scratch(b.scratch);
        cudaMalloc(&b.swap, next * sizeof(float)); // expect: SYNC402 expect-severity: note
        cudaMemcpyAsync(b.swap, b.data, len * sizeof(float), cudaMemcpyDeviceToDevice, s);
    }
    len = next;
}

void step(List &l, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++) {
        l.resize(1000u + i, s);
        free_scratch(l.bufs[0].scratch);
        cudaMemsetAsync(l.bufs[0].data, 0, sizeof(float), s);
    }
}
