// legacy_default_param_passed.cu: legacy_default_param.cu's template, but one call passes a
// stream the unit creates: the launch on the parameter runs there, so the launch without a
// stream is a warning.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

template <typename T> struct Op {
    int run(T *x, int n, cudaStream_t stream = nullptr)
    {
        scale<<<1, 32, 0, stream>>>(x, n);
        return 0;
    }
};

static void on(float *d_x, int n, cudaStream_t s)
{
    Op<float> op;
    op.run(d_x, n, s);
}

void forward(float *d_x, int n, cudaStream_t *s)
{
    Op<float> op;
    op.run(d_x, n);
    on(d_x, n, *s);
    scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note expect-message: how often it runs is not shown
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
