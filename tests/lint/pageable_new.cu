// pageable_new.cu: SYNC201 for buffers from new-expressions and std::unique_ptr<T[]>.
#include <cuda_runtime.h>
#include <memory>
#include <new>

struct Sample {
    float value;
};

void array_new(float *d, size_t n, cudaStream_t s)
{
    float *h = new float[n];
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    delete[] h;
}

void object_new(Sample *d, cudaStream_t s)
{
    Sample *one = new Sample{1.0f};
    cudaMemcpyAsync(d, one, sizeof(Sample), cudaMemcpyHostToDevice, s); // expect: SYNC201
    delete one;
}

void placement_new(Sample *d, void *arena, cudaStream_t s)
{
    /* Placement new reuses someone else's buffer: unknown. */
    Sample *in_arena = new (arena) Sample{2.0f};
    cudaMemcpyAsync(d, in_arena, sizeof(Sample), cudaMemcpyHostToDevice, s);
}

void unique_array(float *d, size_t n, cudaStream_t s)
{
    std::unique_ptr<float[]> owner(new float[n]);
    cudaMemcpyAsync(d, owner.get(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(&owner[1], d, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201
}

struct PinnedDelete {
    void operator()(float *p) const { cudaFreeHost(p); }
};

void unique_with_custom_deleter(float *d, float *pinned, size_t n, cudaStream_t s)
{
    /* A custom deleter says the memory is not from new[]: unknown. */
    std::unique_ptr<float[], PinnedDelete> owner(pinned);
    cudaMemcpyAsync(d, owner.get(), n * sizeof(float), cudaMemcpyHostToDevice, s);
}
