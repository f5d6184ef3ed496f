// member.cu: a filter whose state holds its stream in a member, created blocking.
#include <cuda_runtime.h>

struct FilterState {
    float *d_x;
    cudaStream_t stream;
};

__global__ void predict(float *x, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] += 1.0f;
}

FilterState *filter_create(int n)
{
    FilterState *st = new FilterState;
    cudaMalloc(&st->d_x, n * sizeof(float));
    cudaStreamCreate(&st->stream);
    return st;
}

void filter_step(FilterState *st, int n)
{
    predict<<<1, 256, 0, st->stream>>>(st->d_x, n);
    cudaStreamSynchronize(st->stream);
}
