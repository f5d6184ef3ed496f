// context.cu: one finding per severity case, for tests/cli/context.sh.
#include <cuda_runtime.h>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

static int process(const int *d)
{
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    h += 1;
    return 0;
}

int main()
{
    int *d = nullptr;
    cudaMalloc(&d, 32 * sizeof(int));
    for (int i = 0; i < 8; i++) {
        step<<<1, 32>>>(d);
        cudaDeviceSynchronize();
    }
    return process(d);
}
