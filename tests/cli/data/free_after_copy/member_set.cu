// member_set.cu: another filter whose state's stream is the per-thread default stream, which a
// copy on the legacy stream does not wait for.
#include <cuda_runtime.h>

struct FilterState {
    float *d_x;
    cudaStream_t stream;
};

__global__ void correct(float *x, int n)
{
    if (threadIdx.x < n)
        x[threadIdx.x] *= 0.5f;
}

void filter_reset(FilterState *st, int n)
{
    cudaStream_t mine;
    cudaStreamCreate(&mine);
    st->stream = cudaStreamPerThread;
    correct<<<1, 256, 0, st->stream>>>(st->d_x, n);
    cudaStreamDestroy(mine);
}
