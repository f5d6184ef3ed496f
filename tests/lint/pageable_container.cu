// pageable_container.cu: SYNC201 for the storage of standard containers, through .data(),
// &v[0], &v.front() and c_str(); a custom allocator makes the storage unknown.
#include <array>
#include <cuda_runtime.h>
#include <string>
#include <vector>

void vector_data(float *d, size_t n, cudaStream_t s)
{
    std::vector<float> h_in(n);
    cudaMemcpyAsync(d, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    float *first = &h_in[0];
    cudaMemcpyAsync(d, first, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(&h_in.front(), d, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201
}

void vector_by_reference(std::vector<float> &results, const float *d, cudaStream_t s)
{
    /* Whoever owns the vector, its storage comes from std::allocator: pageable. */
    cudaMemcpyAsync(results.data(), d, results.size() * sizeof(float), cudaMemcpyDeviceToHost, // expect: SYNC201
                    s);
}

void array_and_string(char *d, cudaStream_t s)
{
    std::array<char, 64> block;
    cudaMemcpyAsync(d, block.data(), block.size(), cudaMemcpyHostToDevice, s); // expect: SYNC201
    std::string name = "kernel";
    cudaMemcpyAsync(d, name.c_str(), name.size(), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

template <typename T> struct PinnedAllocator {
    typedef T value_type;
    PinnedAllocator() = default;
    template <typename U> PinnedAllocator(const PinnedAllocator<U> &) {}
    T *allocate(size_t n)
    {
        void *p = nullptr;
        cudaMallocHost(&p, n * sizeof(T));
        return static_cast<T *>(p);
    }
    void deallocate(T *p, size_t) { cudaFreeHost(p); }
};
template <typename T, typename U>
bool operator==(const PinnedAllocator<T> &, const PinnedAllocator<U> &)
{
    return true;
}

void pinned_allocator(float *d, size_t n, cudaStream_t s)
{
    std::vector<float, PinnedAllocator<float>> staging(n);
    cudaMemcpyAsync(d, staging.data(), n * sizeof(float), cudaMemcpyHostToDevice, s);
}

void registered_vector(float *d, size_t n, cudaStream_t s)
{
    std::vector<float> h(n);
    cudaHostRegister(h.data(), n * sizeof(float), cudaHostRegisterDefault);
    cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, &h[8], sizeof(float), cudaMemcpyHostToDevice, s);
}
