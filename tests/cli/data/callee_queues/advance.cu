// advance.cu: each step relaxes the cells, waits for the whole device, then calls a helper
// of halo.cu that waits again. Where the helper queues work before its wait, that wait
// waits for it: the step's wait before the call does not make it free.
#include <cuda_runtime.h>
void wrap_halo(float *c, int n);
void settle();
void zero_then_settle(float *c, int n);
void settle_then_zero(float *c, int n);
void wrap_if_periodic(float *c, int n, bool periodic);
__global__ void relax(float *c, int n) { c[threadIdx.x % n] *= 0.5f; }

void advance(float *c, int n, int steps, bool periodic)
{
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        cudaDeviceSynchronize();
        wrap_halo(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        cudaDeviceSynchronize();
        settle();
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        cudaDeviceSynchronize();
        zero_then_settle(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        cudaDeviceSynchronize();
        settle_then_zero(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        cudaDeviceSynchronize();
        wrap_if_periodic(c, n, periodic);
    }
}

// The wait before the second call is another unit's too: the drained walk takes settle() on
// trust, which holds for the second settle() and not for wrap_halo().
void advance_twice(float *c, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        settle();
        wrap_halo(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n);
        settle();
        settle();
    }
}
