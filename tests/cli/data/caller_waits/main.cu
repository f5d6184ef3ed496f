// main.cu: the stream of the pipeline, a blocking one.
#include "stages.h"
int main()
{
    float *d;
    int *count;
    cudaMalloc(&d, 1024 * sizeof(float));
    cudaMallocHost(&count, sizeof(int));
    cudaStream_t stream = NULL;
    cudaStreamCreate(&stream);
    pipeline(d, count, 1024, 100, stream);
    cudaStreamDestroy(stream);
    return 0;
}
