// readback_in_pipeline.cu: a one-value synchronous copy back to the host in a pipeline (a loop
// that launches kernels, or a function that uses a stream) is one finding, SYNC301, whose
// message names the loop or the stream; SYNC202 keeps the copies that are not readbacks.
#include <cuda_runtime.h>

__global__ void step(int *flag, float *x, int n) { x[threadIdx.x] += (float)n + (float)*flag; }

void converge(int *d_flag, float *d_x, float *h_x, int n, cudaStream_t s)
{
    int flag = 1;
    while (flag) {
        step<<<1, 32, 0, s>>>(d_flag, d_x, n);
        cudaMemcpy(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: inside the loop at line 11, which launches kernel 'step' (line 12): in every iteration the host stalls
        cudaMemcpy(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}

void after_stream_work(int *d_flag, float *d_x, int n, cudaStream_t s)
{
    step<<<1, 32, 0, s>>>(d_flag, d_x, n);
    int flag = 0;
    cudaMemcpy(&flag, d_flag, 4, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: and the synchronous copy serializes with the work on stream 's' (line 20)
}

void alone(int *d_flag)
{
    int flag = 0;
    cudaMemcpy(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: back from the device into '&flag': the host stalls until all queued work has produced it
}
