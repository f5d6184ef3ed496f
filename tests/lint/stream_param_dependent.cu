// stream_param_dependent.cu: a container library's copy takes a stream parameter that defaults
// to the legacy stream, and the unit calls it only from templates, where the calls are left
// unresolved until instantiation (a member of a class template passing its own parameter on, a
// function template called with dependent arguments). Every such call in the unit leaves the
// stream to its default or passes on a parameter that holds it, so the unit uses only the
// legacy stream and its launch without a stream is a note.
#include <cuda_runtime.h>

template <typename T> struct Vec {
    T *ptr;
    size_t n;
    void copy_async(const Vec &a, cudaStream_t s = 0)
    {
        cudaMemcpyAsync(ptr, a.ptr, n * sizeof(T), cudaMemcpyDefault, s);
    }
};

template <typename T> struct Mat {
    Vec<T> values, index;
    void copy_async(const Mat &a, cudaStream_t stream = 0)
    {
        values.copy_async(a.values, stream);
        index.copy_async(a.index, stream);
    }
};

template <int Space, typename It>
inline It copy_range(It first, It last, It out, cudaStream_t stream = 0, bool sync = false)
{
    if (sync)
        cudaStreamSynchronize(0);
    cudaMemcpyAsync(out, first, (last - first) * sizeof(*first), cudaMemcpyDefault, stream);
    cudaStreamSynchronize(stream);
    return out + (last - first);
}

template <typename T> void coarsen(Mat<T> &a, const Mat<T> &b, T *d, size_t n)
{
    a.copy_async(b);
    copy_range<1>(d, d + n, d + n);
}

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

void build_level(Mat<float> &a, const Mat<float> &b, float *d, size_t n)
{
    coarsen(a, b, d, n);
    scale<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note
}
