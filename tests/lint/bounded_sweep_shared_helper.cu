// bounded_sweep_shared_helper.cu: a helper that a sweep over a constant array of settings in
// main calls, and that a loop of main whose trip count is not a constant calls too, runs on
// every iteration of that loop: its wait stays a warning (a sweep alone makes it a note,
// bounded_sweep.cu). The helper called from the sweep alone is a note.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void touch(float *d) { d[threadIdx.x] += 1.0f; }

static void settle(float *d, cudaStream_t s)
{
    cudaMemsetAsync(d, 0, 4, s);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
}

static void settle_once(float *d, cudaStream_t s)
{
    cudaMemsetAsync(d, 0, 4, s);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: bounded: the loop at bounded_sweep_shared_helper.cu:29 runs once per element of 'widths' (3, a constant array), and 'main' runs once
}

int main(int argc, char **argv)
{
    float *d;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d, 256 * sizeof(float));
    int widths[] = {32, 64, 128};
    for (int j = 0; j < (int)(sizeof(widths) / sizeof(int)); j++) {
        touch<<<1, widths[j], 0, s>>>(d);
        settle(d, s);
        settle_once(d, s);
    }
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    for (int i = 0; i < rounds; i++) {
        touch<<<1, 32, 0, s>>>(d);
        settle(d, s);
    }
    cudaFree(d);
    cudaStreamDestroy(s);
    return 0;
}
