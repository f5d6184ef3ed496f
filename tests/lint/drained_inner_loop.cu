// drained_inner_loop.cu: a wait in an inner loop (a join over devices) is entered, on each
// iteration of the outer loop, with the outer loop's launches pending: its first iteration
// waits for them, so it is not "drained" by its own previous iteration (a warning). After a
// wait that drains the device before the inner loop, the join waits for nothing (a note).
#include <cuda_runtime.h>

__global__ void scale(float *a, float f) { a[0] *= f; }
__global__ void sub(float *a, const float *b) { a[0] -= b[0]; }

void tv(float *img, float *grad, int ndev, int iters, cudaStream_t s)
{
    for (int it = 0; it < iters; it++) {
        scale<<<60, 256, 0, s>>>(grad, 0.5f);
        for (int d = 0; d < ndev; d++)
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        sub<<<60, 256, 0, s>>>(img, grad);
    }
}

void tv_joined(float *img, float *grad, int ndev, int iters, cudaStream_t s)
{
    for (int it = 0; it < iters; it++) {
        scale<<<60, 256, 0, s>>>(grad, 0.5f);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        for (int d = 0; d < ndev; d++)
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here
        sub<<<60, 256, 0, s>>>(img, grad);
    }
}
