// bounded_sweep.cu: a loop in main over a small constant array of settings (a benchmark's sweep
// over block sizes) runs a fixed few times, once per program: what runs on its iterations (a
// wait, and allocations in the function it calls) costs a bounded few calls, notes. The same
// calls in a loop whose trip count is not a constant stay warnings. A wait in main's loop that
// repeats the same work a constant three times (not a sweep over settings) is a note too, as
// warm-up rounds beside the loop whose count is not bounded (bounded_warm_up.cu).
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void scale(float *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] *= 2.0f;
}

void run_variant(float *d, int n, int block_size, cudaStream_t s)
{
    float *scratch;
    cudaMalloc(&scratch, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: bounded: the loop at bounded_sweep.cu:33 runs once per element of 'block_sizes' (4, a constant array), and 'main' runs once
    scale<<<(n + block_size - 1) / block_size, block_size, 0, s>>>(d, n);
    cudaFree(scratch); // expect: SYNC402 expect-severity: note
}

int main(int argc, char **argv)
{
    const int n = 1 << 20;
    float *d;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d, n * sizeof(float));
    int block_sizes[] = {64, 128, 256, 512};
    for (int j = 0; j < (int)(sizeof(block_sizes) / sizeof(int)); j++) {
        run_variant(d, n, block_sizes[j], s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at line 33 runs once per element of 'block_sizes' (4, a constant array), and 'main' runs once
    }
    for (int warm = 0; warm < 3; warm++) {
        scale<<<n / 256, 256, 0, s>>>(d, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at line 37 runs at most 3 times (a constant count), outside any other loop, beside the loop at line 42, whose count is not bounded; and 'main' runs once
    }
    int steps = argc > 1 ? atoi(argv[1]) : 10;
    for (int step = 0; step < steps; step++) {
        scale<<<n / 256, 256, 0, s>>>(d, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    cudaFree(d);
    cudaStreamDestroy(s);
    return 0;
}
