// grow_only_thread_local.cu: a grow guard whose capacity is a 'thread_local' or 'static' local
// of a function that runs on every step: the local outlives the call, so the buffer is pinned
// again only when it grows, and the calls under the guard stay notes (a plain local, which
// every call starts afresh, makes them warnings: grow_only_local.cu).
#include <cuda_runtime.h>
#include <vector>

__global__ void scale(float *d, int n) { d[0] = (float)n; }

void stage_thread(const float *wave, int count, float *dev, cudaStream_t s)
{
    thread_local std::vector<float> pinned;
    if ((int)pinned.size() < count) {
        if (!pinned.empty())
            cudaHostUnregister(pinned.data()); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 13 compares with 'pinned'
        pinned.resize(count * 2);
        cudaHostRegister(pinned.data(), pinned.size() * sizeof(float), 0); // expect: SYNC402 expect-severity: note
    }
    for (int i = 0; i < count; i++)
        pinned[i] = wave[i];
    cudaMemcpyAsync(dev, pinned.data(), count * sizeof(float), cudaMemcpyHostToDevice, s);
    scale<<<1, 1, 0, s>>>(dev, count);
}

void stage_static(const float *wave, int count, float *dev, cudaStream_t s)
{
    static std::vector<float> pinned;
    if ((int)pinned.size() < count) {
        if (!pinned.empty())
            cudaHostUnregister(pinned.data()); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (line 28 compares with 'pinned'
        pinned.resize(count * 2);
        cudaHostRegister(pinned.data(), pinned.size() * sizeof(float), 0); // expect: SYNC402 expect-severity: note
    }
    for (int i = 0; i < count; i++)
        pinned[i] = wave[i];
    cudaMemcpyAsync(dev, pinned.data(), count * sizeof(float), cudaMemcpyHostToDevice, s);
    scale<<<1, 1, 0, s>>>(dev, count);
}

void decode(const std::vector<std::vector<float>> &waves, float *dev, cudaStream_t s)
{
    for (const auto &w : waves) {
        stage_thread(w.data(), (int)w.size(), dev, s);
        stage_static(w.data(), (int)w.size(), dev, s);
    }
}
