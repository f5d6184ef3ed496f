// solver.cu: solve() launches its kernel and waits for the whole device on every way out;
// solve_sometimes() waits only when asked to; smooth() launches and does not wait.
#include "solver.h"
__global__ void cg(float *a, float *x, int n) { x[0] += a[0] * n; }
void solve(float *a, float *x, int n)
{
    cg<<<n / 256 + 1, 256>>>(a, x, n);
    cudaDeviceSynchronize();
}
void solve_sometimes(float *a, float *x, int n, int check)
{
    cg<<<n / 256 + 1, 256>>>(a, x, n);
    if (check)
        cudaDeviceSynchronize();
}
void smooth(float *a, int n)
{
    cg<<<n / 256 + 1, 256>>>(a, a, n);
}
