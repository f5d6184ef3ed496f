// fixit_refused.cu: a blocking stream the unit's legacy-stream work is ordered with: SYNC103
// says so and --fix leaves the file as it is (tests/cli/fixit.sh).
#include <cuda_runtime.h>

__global__ void im2col(float *x) { x[threadIdx.x] = 1.0f; }

void forward(float *d, float *h, size_t n)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    im2col<<<1, 32>>>(d);
    im2col<<<1, 32, 0, s>>>(d);
    cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
}

void train(float *d, float *h, size_t n, int steps)
{
    for (int i = 0; i < steps; i++)
        forward(d, h, n);
}
