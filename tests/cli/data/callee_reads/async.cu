// async.cu: a readback on a stream the function creates non-blocking, which a copy on the legacy
// stream does not wait for: no unit of a run with this one says that its streams all block.
#include "fetch.h"
void read_async(float *host, const float *dev, int n)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
