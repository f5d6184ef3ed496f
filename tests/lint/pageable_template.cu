// pageable_template.cu: SYNC201 where the host buffer's type depends on a template parameter:
// a container ('std::vector<OutT>') in a function template, a class template's member and a
// generic lambda, instantiated or not, and a malloc'ed 'T *' passed to a copy that is not
// resolved until instantiation. A container with an allocator that may pin is not reported.
#include <cstdlib>
#include <cuda_runtime.h>
#include <type_traits>
#include <vector>

template <typename OutT> std::vector<OutT> to_host(const OutT *d, size_t n, cudaStream_t s)
{
    std::vector<OutT> out(n);
    cudaMemcpyAsync(out.data(), d, n * sizeof(OutT), cudaMemcpyDeviceToHost, s); // expect: SYNC201
    cudaStreamSynchronize(s);
    return out;
}
template std::vector<float> to_host<float>(const float *, size_t, cudaStream_t);

template <typename T> void never_instantiated(const T *d, size_t n, cudaStream_t s)
{
    std::vector<T> out(n);
    cudaMemcpyAsync(&out[0], d, n * sizeof(T), cudaMemcpyDeviceToHost, s); // expect: SYNC201
    T *raw = (T *)malloc(n * sizeof(T));
    cudaMemcpyAsync(raw, d, n * sizeof(T), cudaMemcpyDeviceToHost, s); // expect: SYNC201
    T *fresh = new T[n];
    cudaMemcpyAsync(fresh, d, n * sizeof(T), cudaMemcpyDeviceToHost, s); // expect: SYNC201
}

template <typename T> class DeviceVector {
  public:
    std::vector<T> copyToHost(cudaStream_t s) const
    {
        std::vector<T> out(size_);
        T *first = out.data();
        cudaMemcpyAsync(first, data_, size_ * sizeof(T), cudaMemcpyDeviceToHost, s); // expect: SYNC201
        return out;
    }

  private:
    T *data_ = nullptr;
    size_t size_ = 0;
};
template class DeviceVector<int>;

void generic_lambda(const float *d, size_t n, cudaStream_t s)
{
    auto fetch = [&](auto *src) {
        using Elem = std::remove_const_t<std::remove_pointer_t<decltype(src)>>;
        std::vector<Elem> out(n);
        cudaMemcpyAsync(out.data(), src, n * sizeof(Elem), cudaMemcpyDeviceToHost, s); // expect: SYNC201
        return out;
    };
    fetch(d);
}

template <typename T> struct PinnedAllocator {
    typedef T value_type;
    T *allocate(size_t n);
    void deallocate(T *p, size_t);
};

template <typename T, typename Alloc> void allocators(const T *d, size_t n, cudaStream_t s)
{
    std::vector<T, PinnedAllocator<T>> pinned(n);
    cudaMemcpyAsync(pinned.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
    std::vector<T, Alloc> chosen(n);
    cudaMemcpyAsync(chosen.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
    std::vector<T, std::allocator<T>> standard(n);
    cudaMemcpyAsync(standard.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, s); // expect: SYNC201
}
