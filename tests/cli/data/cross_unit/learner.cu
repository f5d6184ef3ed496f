// learner.cu: a per-split loop whose steps wait for the whole device through utils.cpp's
// wrappers; the set-up waits once.
#include "utils.h"
__global__ void split(float *d, int n) {}
__global__ void update(float *d, int n) {}
void Init(float *d, int n)
{
    split<<<1, n>>>(d, n);
    SynchronizeDevice(__FILE__, __LINE__);
}
void Train(float *d, int n, int leaves, cudaStream_t stream, Timer *timer)
{
    for (int leaf = 0; leaf < leaves; leaf++) {
        split<<<1, n, 0, stream>>>(d, n);
        SynchronizeDevice(__FILE__, __LINE__);
        update<<<1, n>>>(d, n);
        SynchronizeDevice(__FILE__, __LINE__);
        SynchronizeStream(stream);
        SynchronizeIf(leaf);
        SynchronizeThenCopy(d, n, stream);
        timer->Stop();
    }
}
void InitLeaves(float *d, int n, int leaves)
{
    for (int leaf = 0; leaf < leaves; leaf++) {
        split<<<1, n, 0, 0>>>(d, n);
        SynchronizeDevice(__FILE__, __LINE__);
    }
}
void Step(float *d, int n, int leaves, cudaStream_t stream)
{
    for (int leaf = 0; leaf < leaves; leaf++) {
        cudaDeviceSynchronize();
        update<<<1, n>>>(d, n);
        cudaDeviceSynchronize();
        update<<<1, n>>>(d, n);
        split<<<1, n, 0, stream>>>(d, n);
        SynchronizeDevice(__FILE__, __LINE__);
        update<<<1, n>>>(d, n);
        SynchronizeIf(leaf);
    }
}
// As much work on a stream as on the legacy one, so that the legacy launches above are no
// convention of the file (docs/lint.md, "Legacy-stream notes").
void Refine(float *d, int n, cudaStream_t stream)
{
    split<<<1, n, 0, stream>>>(d, n);
    update<<<1, n, 0, stream>>>(d, n);
    split<<<1, n, 0, stream>>>(d, n);
    update<<<1, n, 0, stream>>>(d, n);
}
