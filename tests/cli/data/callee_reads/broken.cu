// broken.cu: a unit with an error; what it defines is not summarized, and a function it declares
// may be defined here otherwise than elsewhere.
#include <cuda_runtime.h>
void read_broken(float *host, const float *dev, int n)
{
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    undeclared_helper(n);
}
