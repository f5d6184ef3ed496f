// lint_stub.h: a small stand-in for Thrust, shaped like the real library where the analyzer
// looks (device_reference conversions, normal_iterator<device_ptr<T>>, detail::device_t
// policies, the CUDA policies of cuda_cub: par_t, par_nosync_t, execute_on_stream), so the lint
// tests parse the same with and without a CUDA toolkit. A system header, as the toolkit's Thrust
// is: its iterator accessors and constructions stay on the host for the analyzer.
#pragma once
#pragma GCC system_header
#include <iosfwd>
#include <stddef.h>

struct CUstream_st;

namespace thrust
{
template <typename T> class device_ptr;

template <typename T> class device_reference
{
  public:
    explicit device_reference(device_ptr<T> p) : ptr_(p)
    {
    }
    operator T() const;
    device_reference &operator=(const T &value);
    device_reference &operator+=(const T &value);
    device_ptr<T> operator&() const
    {
        return ptr_;
    }

  private:
    device_ptr<T> ptr_;
};

/* Printing a device element reads it, as in the real library. */
template <typename T, typename CharT, typename Traits>
std::basic_ostream<CharT, Traits> &operator<<(std::basic_ostream<CharT, Traits> &os,
                                              const device_reference<T> &r);

template <typename T> class device_ptr
{
  public:
    typedef T value_type;
    device_ptr() : raw_(0)
    {
    }
    explicit device_ptr(T *raw) : raw_(raw)
    {
    }
    device_reference<T> operator*() const
    {
        return device_reference<T>(*this);
    }
    device_reference<T> operator[](ptrdiff_t i) const
    {
        return device_reference<T>(*this + i);
    }
    device_ptr operator+(ptrdiff_t i) const
    {
        return device_ptr(raw_ + i);
    }
    T *get() const
    {
        return raw_;
    }

  private:
    T *raw_;
};

template <typename T> device_ptr<T> device_pointer_cast(T *raw)
{
    return device_ptr<T>(raw);
}

template <typename T> struct iterator_traits {
    typedef typename T::value_type value_type;
};
template <typename T> struct iterator_traits<T *> {
    typedef T value_type;
};

/* The CUDA policies, as thrust/system/cuda/detail/par.h names them. */
namespace cuda_cub
{
struct execute_on_stream {
};
struct par_t {
    execute_on_stream on(CUstream_st *stream) const;
};
struct execute_on_stream_nosync {
};
struct par_nosync_t {
    execute_on_stream_nosync on(CUstream_st *stream) const;
};
extern const par_t par;
extern const par_nosync_t par_nosync;
} // namespace cuda_cub

namespace cuda
{
using thrust::cuda_cub::par;
using thrust::cuda_cub::par_nosync;
} // namespace cuda

namespace detail
{
template <typename Pointer> class normal_iterator
{
  public:
    typedef typename Pointer::value_type value_type;
    explicit normal_iterator(Pointer p) : p_(p)
    {
    }
    device_reference<value_type> operator*() const
    {
        return *p_;
    }
    normal_iterator operator+(ptrdiff_t i) const
    {
        return normal_iterator(p_ + i);
    }
    bool operator==(const normal_iterator &other) const;

  private:
    Pointer p_;
};

/* thrust::device where the device system is CUDA. */
typedef cuda_cub::par_t device_t;
struct host_t {
};
template <typename T> struct device_allocator {
};
} // namespace detail

extern const detail::device_t device;
extern const detail::host_t host;

template <typename T> class device_vector
{
  public:
    typedef T value_type;
    typedef device_reference<T> reference;
    typedef detail::normal_iterator<device_ptr<T>> iterator;
    explicit device_vector(size_t n = 0);
    device_vector(size_t n, const T &value);
    device_vector &operator=(const device_vector &other);
    reference operator[](size_t i);
    reference front();
    reference back();
    iterator begin();
    iterator end();
    size_t size() const;
    device_ptr<T> data();
};

template <typename T> class host_vector
{
  public:
    typedef T value_type;
    explicit host_vector(size_t n = 0);
    T &operator[](size_t i);
    T *begin();
    T *end();
    T *data();
    size_t size() const;
};

template <typename It> typename iterator_traits<It>::value_type reduce(It first, It last);
template <typename It>
typename iterator_traits<It>::value_type reduce(const detail::device_t &policy, It first, It last);
template <typename It>
typename iterator_traits<It>::value_type reduce(const detail::host_t &policy, It first, It last);
template <typename It, typename T, typename Op> T reduce(It first, It last, T init, Op op);
template <typename It>
typename iterator_traits<It>::value_type reduce(const cuda_cub::par_nosync_t &policy, It first,
                                                It last);
template <typename T> struct minimum {
    T operator()(const T &a, const T &b) const;
};
template <typename Policy, typename It, typename Out, typename Op>
Out transform(const Policy &policy, It first, It last, Out result, Op op);
template <typename It, typename Out, typename Op>
Out transform(It first, It last, Out result, Op op);
template <typename It, typename T> ptrdiff_t count(It first, It last, const T &value);
template <typename It, typename Pred> bool any_of(It first, It last, Pred pred);
template <typename It> bool is_sorted(It first, It last);
template <typename It> It max_element(It first, It last);
template <typename It> It max_element(const detail::device_t &policy, It first, It last);
template <typename It> It min_element(It first, It last);
template <typename It, typename Out> Out copy(It first, It last, Out result);

template <typename Policy, typename It, typename Out>
Out inclusive_scan(const Policy &policy, It first, It last, Out result);
template <typename Policy, typename Keys, typename Values, typename Out>
Out inclusive_scan_by_key(const Policy &policy, Keys first, Keys last, Values values, Out result);
template <typename Policy, typename It> void sort(const Policy &policy, It first, It last);
template <typename Policy, typename It, typename T>
void fill(const Policy &policy, It first, It last, const T &value);
template <typename Policy, typename It, typename Size, typename T>
It fill_n(const Policy &policy, It first, Size n, const T &value);
template <typename Policy, typename It, typename Size, typename Out>
Out copy_n(const Policy &policy, It first, Size n, Out result);
template <typename It, typename Size, typename Out> Out copy_n(It first, Size n, Out result);
template <typename Policy, typename It, typename Map, typename Out>
void scatter(const Policy &policy, It first, It last, Map map, Out result);
template <typename T> class constant_iterator
{
  public:
    typedef T value_type;
    explicit constant_iterator(const T &value);
    constant_iterator operator+(ptrdiff_t i) const;
    T operator*() const;
};
template <typename T> constant_iterator<T> make_constant_iterator(T value);
template <typename A, typename B> struct pair {
    A first;
    B second;
};
template <typename Policy, typename It, typename Pred>
It partition(const Policy &policy, It first, It last, Pred pred);
template <typename It, typename Pred> It partition(It first, It last, Pred pred);
template <typename Policy, typename It, typename Pred>
It stable_partition(const Policy &policy, It first, It last, Pred pred);
template <typename Policy, typename It, typename Out1, typename Out2, typename Pred>
pair<Out1, Out2> partition_copy(const Policy &policy, It first, It last, Out1 in, Out2 out,
                                Pred pred);
template <typename Policy, typename It, typename Out1, typename Out2, typename Pred>
pair<Out1, Out2> stable_partition_copy(const Policy &policy, It first, It last, Out1 in, Out2 out,
                                       Pred pred);
} // namespace thrust
