// stream_create_legacy.cu: SYNC103 where the unit's legacy-stream work (a launch without a
// stream, an asynchronous copy on stream 0, a synchronous copy or memset, in any function) is
// ordered with the blocking stream only because it is blocking: the message names that work,
// and the finding has no fix-it (tests/cli/fixit.sh checks --fix).
#include <cuda_runtime.h>

__global__ void col2im(float *x) { x[threadIdx.x] = 1.0f; }

static void backward(float *d, float *h, size_t n)
{
    col2im<<<1, 32>>>(d); // expect: SYNC101
    cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, 0); // expect: SYNC102
    cudaMemset(d, 0, n);
    cudaEventRecord(nullptr, 0); // expect: SYNC102 (an event record is no work for SYNC103)
}

void make(float *d, float *h, size_t n)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103 expect-message: ; legacy-stream work at lines 11, 12 and 13 is ordered with this stream only because it is blocking: move that work onto the stream first
    col2im<<<1, 32, 0, s>>>(d);
    backward(d, h, n);
}
