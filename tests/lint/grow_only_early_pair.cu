// grow_only_early_pair.cu: a resize that keeps the contents, guarded by two early returns in a
// row (the size unchanged; a smaller size while shrinking is off), then allocates the new
// block, copies the old contents over, frees the old block and records the new size: past the
// two returns it runs when the array grows, a few times in a run, so its calls are notes (in a
// template, where the allocation's call stays unresolved until instantiated). It
// stays a warning where the size is never recorded, where only the unchanged size returns
// early (any smaller size reallocates too), or where the second return tests the other way.
#include <cuda_runtime.h>

template <typename T> struct Grown {
    T *data = nullptr;
    int count = 0;
    void resize(int n, bool shrink = false)
    {
        if (count == n)
            return;
        if (count > n && !shrink)
            return;
        T *bigger;
        cudaMalloc(&bigger, n * sizeof(T)); // expect: SYNC402 expect-severity: note expect-message: grow-only: it runs when the buffer grows (lines 15 and 17 return early unless the request exceeds 'count'
        cudaMemcpy(bigger, data, (count < n ? count : n) * sizeof(T), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: grow-only: it runs when the buffer grows
        cudaFree(data); // expect: SYNC402 expect-severity: note
        data = bigger;
        count = n;
    }
    void forgetful(int n)
    {
        if (count == n)
            return;
        if (count > n)
            return;
        T *bigger;
        cudaMalloc(&bigger, n * sizeof(T)); // expect: SYNC402 expect-severity: warning
        cudaMemcpy(bigger, data, count * sizeof(T), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: warning
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        data = bigger;
    }
    void any_change(int n)
    {
        if (count == n)
            return;
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(T)); // expect: SYNC402 expect-severity: warning
        count = n;
    }
    void backwards(int n)
    {
        if (count == n)
            return;
        if (count < n)
            return;
        cudaFree(data); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&data, n * sizeof(T)); // expect: SYNC402 expect-severity: warning
        count = n;
    }
};

__global__ void drift(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.0f;
}

int main()
{
    cudaStream_t work;
    cudaStreamCreate(&work); // expect: SYNC103 expect-severity: note
    Grown<float> a, b, c, d;
    int n = 1 << 16;
    for (int step = 0; step < 1000; ++step) {
        if (step % 100 == 99)
            n += 1024;
        a.resize(n);
        b.forgetful(n);
        c.any_change(n);
        d.backwards(n);
        drift<<<(n + 255) / 256, 256, 0, work>>>(a.data, n);
        drift<<<(n + 255) / 256, 256, 0, work>>>(b.data, n);
        drift<<<(n + 255) / 256, 256, 0, work>>>(c.data, n);
        drift<<<(n + 255) / 256, 256, 0, work>>>(d.data, n);
    }
    cudaStreamSynchronize(work);
    return 0;
}
