// stream_use_scoped.cu: a helper creates a stream, queues its exchange there, waits for it and
// destroys it before returning, queuing nothing else meanwhile (as a multi-device all-reduce
// helper may): its stream cannot overlap anything outside the call, which the caller sees as
// one synchronous operation. The unit uses no other stream, so its legacy work is a note, and
// the device-to-device copy, which would serialize with a blocking stream the unit keeps, is
// no finding.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) { x[threadIdx.x % n] *= 2.0f; }

template <typename T> void reduce_all(T *buf, size_t n)
{
    cudaStream_t side;
    cudaStreamCreate(&side); // expect: SYNC103
    cudaMemsetAsync(buf, 0, n * sizeof(T), side);
    cudaStreamSynchronize(side); // expect: SYNC401
    cudaStreamDestroy(side);
}

void train(float *d_x, float *d_grad, int n, int steps)
{
    for (int i = 0; i < steps; i++) {
        scale<<<1, 32>>>(d_x, n); // expect: SYNC101 expect-severity: note
        reduce_all(d_grad, n);
    }
}

void keep_best(float **d_best, const float *d_x, int n)
{
    cudaMalloc((void **)d_best, n * sizeof(float));
    cudaMemcpy(*d_best, d_x, n * sizeof(float), cudaMemcpyDeviceToDevice);
}
