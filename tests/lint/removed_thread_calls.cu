// removed_thread_calls.cu: calls that CUDA 13 removed from the runtime (cudaThreadSynchronize,
// the old name of cudaDeviceSynchronize, and its siblings) still parse, as they do with the
// toolkits such code was written for, and cudaThreadSynchronize is the device-wide wait it
// always was: SYNC401 in a loop that launches.
#include <cuda_runtime.h>

__global__ void relax(float *grid, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        grid[i] = 0.5f * (grid[i - 1] + grid[i + 1]);
}

int solve(float *host, float *grid, int n, int rounds)
{
    cudaThreadSetLimit(cudaLimitStackSize, 4096);
    size_t stack = 0;
    cudaThreadGetLimit(&stack, cudaLimitStackSize);
    cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
    enum cudaFuncCache cache;
    cudaThreadGetCacheConfig(&cache);
    double scale = 1.0;
    cudaSetDoubleForDevice(&scale);
    cudaSetDoubleForHost(&scale);
    for (int r = 0; r < rounds; r++) {
        relax<<<(n + 255) / 256, 256>>>(grid, n); // expect: SYNC101 expect-severity: note
        cudaThreadSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaThreadSynchronize'
        relax<<<(n + 255) / 256, 256>>>(grid, n); // expect: SYNC101 expect-severity: note
    }
    cudaMemcpy(host, grid, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaThreadExit();
    return 0;
}
