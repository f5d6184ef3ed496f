// A program that uses a stream of its own: its default-stream launch is a warning.
__global__ void fill(float *x)
{
    x[threadIdx.x] = 1.0f;
}

void run(float *d)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    fill<<<1, 32, 0, s>>>(d);
    fill<<<1, 32>>>(d);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
