// legacy_default_param.cu: a library template (as CUTLASS's device-level operators) launches
// on a stream parameter that defaults to nullptr, and every call in this unit leaves it to the
// default: the unit uses only the legacy stream, so its launches without a stream are notes.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

template <typename T> struct Op {
    int run(T *x, int n, cudaStream_t stream = nullptr)
    {
        scale<<<1, 32, 0, stream>>>(x, n);
        return 0;
    }
    int operator()(T *x, int n, cudaStream_t stream = nullptr) { return run(x, n, stream); }
};

void forward(float *d_x, int n)
{
    Op<float> op;
    op(d_x, n);
    op.run(d_x, n, 0);
    scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note
}
