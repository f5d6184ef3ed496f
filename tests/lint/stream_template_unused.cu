// stream_template_unused.cu: stream work in a function template that nothing in the unit
// instantiates (a header's multi-GPU helpers: one creates, waits for and destroys a stream of
// its own, one queues a copy on the stream it is given), or in an inline function nothing
// calls, has no code in this unit: the unit uses no stream but the legacy one, so its legacy
// launches hold nothing up, notes. The near misses, where the same helpers have code here
// (called, instantiated explicitly, or a function of external linkage that another unit may
// call), are stream_template_used.cu, stream_template_explicit.cu, stream_function_external.cu.
#include <cuda_runtime.h>

template <typename T> void reduce_on(const T *in, T *out, size_t n, cudaStream_t stream)
{
    cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, stream);
}

template <typename T> void reduce(const T *in, T *out, size_t n)
{
    cudaStream_t own;
    cudaStreamCreate(&own); // expect: SYNC103 expect-severity: note
    reduce_on<T>(in, out, n, own);
    cudaStreamSynchronize(own);
    cudaStreamDestroy(own);
}

inline void clear_on_side(float *d, size_t n)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaMemsetAsync(d, 0, n * sizeof(float), side);
}

__global__ void scale(float *d) { d[threadIdx.x] *= 2.0f; }

void step(float *d)
{
    scale<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note expect-message: nothing in this translation unit uses a stream other than the legacy one
}
