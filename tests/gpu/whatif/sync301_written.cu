/* sync301_written.cu: a training-style step: a kernel, a reduction to one value, and the value
 * read back with a 4-byte cudaMemcpy every step, then the host's own work for the step
 * (host_work). SYNC301's pair: sync301_rewritten.cu.
 * Usage: sync301_written [steps] [warm-up] [host us per step] [words] [kernel iters] */
#include "whatif_common.h"

/* *value = the sum of in[0..n) (one block). */
static __global__ void reduce(const unsigned *in, size_t n, unsigned *value)
{
    __shared__ unsigned part[256];
    unsigned s = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        s += in[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if ((int)threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *value = part[0];
}

int main(int argc, char **argv)
{
    int steps = arg_or(argc, argv, 1, 500), warmup = arg_or(argc, argv, 2, 10);
    int host_us = arg_or(argc, argv, 3, 40);
    size_t words = (size_t)arg_or(argc, argv, 4, 1 << 20);
    int iters = arg_or(argc, argv, 5, 200), blocks = churn_blocks();
    unsigned *d_a = NULL, *d_b = NULL, *d_value = NULL, value = 0, seen = 0;
    double start = 0;
    CHECK(cudaMalloc(&d_a, words * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_b, words * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_value, sizeof(unsigned)));
    CHECK(cudaMemset(d_a, 1, words * sizeof(unsigned)));
    for (int i = 0; i < warmup + steps; i++) {
        if (i == warmup) {
            CHECK(cudaDeviceSynchronize());
            start = now_us();
        }
        churn<<<blocks, 256>>>(d_a, d_b, words, iters);
        reduce<<<1, 256>>>(d_b, 4096, d_value);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&value, d_value, sizeof value, cudaMemcpyDeviceToHost));
        seen ^= value;
        host_work(host_us, NULL, 0, (unsigned)i);
    }
    CHECK(cudaDeviceSynchronize());
    report(start, steps, warmup);
    printf("value %u\nok\n", seen);
    return 0;
}
