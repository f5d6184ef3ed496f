// uncalled_inline.cu: an inline function, or one of internal linkage, that nothing in the unit
// calls or takes the address of runs nowhere in this unit (a shared header's helpers, which
// every unit includes and only some call; an inline function template too): its findings are
// notes, "not called in this unit"; a unit that calls it reports it where it runs. An inline
// function that is called, a function another unit may call (external linkage, not inline; a
// template that is not inline, instantiated here for other units), a virtual method (called
// through its class) and a static function in a global table of callbacks keep their severity
// (each has a stream at hand, a parameter or its class's field, which legacy-stream work needs
// to be a warning: legacy_stream_at_hand.cu).
#include <cuda_runtime.h>

inline void dev_to_dev(float **dst, const float *src, size_t n)
{
    cudaMalloc((void **)dst, n);
    cudaMemcpy(*dst, src, n, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: not called in this unit: 'dev_to_dev' is inline, and nothing in this unit calls it or takes its address
}

static void clear_static(float *d, size_t n)
{
    cudaMemcpy(d, d + n / 2, n / 2, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: not called in this unit: 'clear_static' has internal linkage
}

inline void clear_called(float *d, size_t n, cudaStream_t unused)
{
    (void)unused;
    cudaMemcpy(d, d + n / 2, n / 2, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
}

void clear_exported(float *d, size_t n, cudaStream_t unused)
{
    (void)unused;
    cudaMemcpy(d, d + n / 2, n / 2, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
}

struct Weights {
    cudaStream_t stream;
    float *d;
    size_t n;
    void copy_to(float *other) { cudaMemcpy(other, d, n, cudaMemcpyDeviceToDevice); } // expect: SYNC102 expect-severity: note expect-message: not called in this unit: 'Weights::copy_to' is inline
    virtual void refresh() { cudaMemcpy(d, d + n / 2, n / 2, cudaMemcpyDeviceToDevice); } // expect: SYNC102 expect-severity: note expect-message: convention:
    virtual ~Weights() {}
};

template <typename T> inline T *dev_copy(const T *src, size_t n)
{
    void *dst = nullptr;
    cudaMalloc(&dst, n * sizeof(T));
    cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: not called in this unit: 'dev_copy' is inline
    return static_cast<T *>(dst);
}

template <typename T> void copy_back(T *dst, const T *src, size_t n, cudaStream_t unused)
{
    (void)unused;
    cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
}

template void copy_back<float>(float *, const float *, size_t, cudaStream_t);

static void table_copy(float *d, size_t n, cudaStream_t unused)
{
    (void)unused;
    cudaMemcpy(d, d + n / 2, n / 2, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: convention:
}

static void (*const copiers[])(float *, size_t, cudaStream_t) = {table_copy};

void run(float *d, size_t n)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    clear_called(d, n, s);
    cudaMemsetAsync(d, 0, n, s);
}
