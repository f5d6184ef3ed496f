// free_array_capture.cu: cudaFreeArray while a stream is captured (global mode) may synchronize
// the device (SYNC501); CUDA arrays have no stream-ordered free, so the hint says to free the
// array after the capture rather than to use cudaFreeAsync.
// expect-hint: free the array after cudaStreamEndCapture
#include <cuda_runtime.h>

__global__ void k(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += 1.0f;
}

void captured(cudaArray_t array, float *out, int n, cudaStream_t s, cudaGraph_t *graph)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<(n + 255) / 256, 256, 0, s>>>(out, n);
    cudaFreeArray(array); // expect: SYNC501 expect-severity: error
    cudaStreamEndCapture(s, graph);
}
