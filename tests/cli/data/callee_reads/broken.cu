// broken.cu: a unit with an error; what it defines is not summarized.
#include "fetch.h"
void read_broken(float *host, const float *dev, int n)
{
    cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    undeclared_helper(n);
}
