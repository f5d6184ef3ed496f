// context_warm_up.cu: for tests/cli/context.sh: four warm-up rounds before the loop that
// repeats, each a launch and a wait, are a note (bounded); where hot-functions names 'main',
// the rounds' wait keeps its warning.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void step(int *x) { x[threadIdx.x] += 1; }

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 100;
    int *d = nullptr;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMallocAsync(&d, 32 * sizeof(int), s);
    for (int w = 0; w < 4; w++) {
        step<<<1, 32, 0, s>>>(d);
        cudaStreamSynchronize(s);
    }
    for (int i = 0; i < steps; i++) {
        step<<<1, 32, 0, s>>>(d);
        cudaStreamSynchronize(s);
    }
    cudaFreeAsync(d, s);
    return 0;
}
