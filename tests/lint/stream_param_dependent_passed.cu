// stream_param_dependent_passed.cu: stream_param_dependent.cu's library, but a call left
// unresolved in a template passes a member that may hold any stream: the copy on the parameter
// may run on another stream, so the launch without a stream is a warning.
// The legacy work is a warning where it had a stream at hand (here a parameter it does not
// use, which adds no stream to the unit, or a 'Level' that keeps one: legacy_stream_at_hand.cu).
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
    Vec<T> values;
    void copy_async(const Mat &a, cudaStream_t stream = 0) { values.copy_async(a.values, stream); }
};

template <typename T> struct Level {
    cudaStream_t stream;
    void refresh(Mat<T> &a, const Mat<T> &b) { a.copy_async(b, stream); }
};

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

void refresh_level(Level<float> &l, Mat<float> &a, const Mat<float> &b, float *d,
                   cudaStream_t unused)
{
    (void)unused;
    l.refresh(a, b);
    scale<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note expect-message: convention:
}

void refresh_only(Level<float> &l, Mat<float> &a, const Mat<float> &b, float *d)
{
    l.refresh(a, b);
    scale<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note expect-message: convention:
}
