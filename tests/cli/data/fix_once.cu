// fix_once.cu: one finding each of SYNC201, SYNC202 and SYNC301, for the exact output of
// every format (tests/cli/fix_once.sh), called from a loop (a warning needs one).
#include <cuda_runtime.h>
#include <stdlib.h>
__global__ void k(float *x) { x[0] = 1; }
void f(float *d, int n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    k<<<1, 1, 0, s>>>(d);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    float v;
    cudaMemcpy(&v, d, sizeof(float), cudaMemcpyDeviceToHost);
}
// The step loop that makes them hot: f() runs on every iteration.
void run(float *d, int n, cudaStream_t s, int steps)
{
    for (int i = 0; i < steps; i++)
        f(d, n, s);
}
