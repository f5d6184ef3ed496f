// removed_thread_standin.cu: a project that defines its own stand-in for a call CUDA 13 removed
// (static, under the version test such code uses) still parses: lint's declarations are
// templates, which the project's function overloads and wins. The wait inside the stand-in is
// reported where it is; the call is reported too, since lint knows the API by its name (a
// limit, docs/lint.md: the same for a method named like any API).
#include <cuda_runtime.h>

#if !defined(CUDART_VERSION) || CUDART_VERSION >= 13000
static inline cudaError_t cudaThreadSynchronize()
{
    return cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
}
#endif
extern "C" cudaError_t cudaThreadExit(void);

__global__ void relax(float *grid, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        grid[i] = 0.5f * (grid[i - 1] + grid[i + 1]);
}

int solve(float *grid, int n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        relax<<<(n + 255) / 256, 256>>>(grid, n); // expect: SYNC101 expect-severity: note
        cudaThreadSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return cudaThreadExit();
}
