// sync_copy_clean.cu: synchronous copies that are not in a pipeline: no non-default stream in
// the function and no kernel launch in the loop around them.
#include <cuda_runtime.h>

__global__ void fill(float *x) { x[threadIdx.x] = 1.0f; }

void setup(float *d, const float *h, int n)
{
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d, 0, n * sizeof(float));
}

void per_thread_stream_only(float *d, float *h, int n)
{
    fill<<<1, 32, 0, cudaStreamPerThread>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
}

void default_stream_variable(float *d, float *h, int n)
{
    cudaStream_t s = 0;
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, cudaStreamPerThread);
    cudaStreamSynchronize(cudaStreamPerThread);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    (void)s;
}

void loop_without_launches(float **d, float **h, int count, int n)
{
    for (int i = 0; i < count; i++)
        cudaMemcpy(d[i], h[i], n * sizeof(float), cudaMemcpyHostToDevice);
}

void launch_after_the_loop(float *d, float *h, int n)
{
    for (int i = 0; i < 4; i++)
        cudaMemcpy(d + i * n, h + i * n, n * sizeof(float), cudaMemcpyHostToDevice);
    fill<<<1, 32, 0, cudaStreamPerThread>>>(d);
}
