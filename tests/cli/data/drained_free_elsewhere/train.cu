// train.cu: three loops that allocate a batch's buffer, build it, hand it to solver.cu and free
// it: after solve(), which waits for the whole device, the free and the next allocation have
// nothing to wait for; after solve_sometimes() or smooth() they may.
#include "solver.h"
__global__ void build(float *a, int n) { a[0] = (float)n; }
void train(float *x, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *a;
        cudaMalloc(&a, n * sizeof(float));
        build<<<n / 256 + 1, 256>>>(a, n);
        cudaDeviceSynchronize();
        solve(a, x, n);
        cudaFree(a);
    }
}
void train_checked(float *x, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *a;
        cudaMalloc(&a, n * sizeof(float));
        build<<<n / 256 + 1, 256>>>(a, n);
        solve_sometimes(a, x, n, s % 10 == 0);
        cudaFree(a);
    }
}
void train_smoothed(float *x, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *a;
        cudaMalloc(&a, n * sizeof(float));
        build<<<n / 256 + 1, 256>>>(a, n);
        smooth(a, n);
        cudaFree(a);
    }
}
