// setup_loop.cu: a loop inside a set-up function (named so, or a constructor) runs when the
// program or an object is set up, not on a hot path: what it reaches is set-up, a note, also
// through a helper that allocates, clears and waits for each element.
#include <cuda_runtime.h>

static int clear_on_device(float **p, size_t n)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaMalloc(p, n); // expect: SYNC402 expect-severity: note
    cudaMemsetAsync(*p, 0, n, side);
    cudaStreamSynchronize(side); // expect: SYNC401 expect-severity: note
    cudaStreamDestroy(side);
    return 0;
}

struct Context {
    float *buf;
};

int contextsInit(Context *ctx, int count)
{
    for (int i = 0; i < count; i++)
        clear_on_device(&ctx[i].buf, 256);
    return 0;
}
