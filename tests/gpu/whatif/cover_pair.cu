/* cover_pair.cu: a wait right before a free that waits for the whole device anyway (astra's
 * FanFP_internal and FP_simple_internal: 'cudaStreamSynchronize(s); cudaFreeArray(a);' after the
 * projection kernels, on every call; held-out-28's shape CB, judged false: "the free waits for
 * the same work, removing the wait removes no stall"). Each iteration makes a scratch buffer,
 * launches a kernel that fills it from the input and folds it into a running sum, then:
 *   FORM 1, as written: waits for the stream, then frees the buffer;
 *   FORM 2, the old warning's rewrite (the wait removed): frees the buffer at once;
 *   FORM 3, the SYNC402 finding's rewrite: the buffer is made once before the loop and freed
 *           after it, no wait and no free in the loop.
 * Usage: cover_pair FORM [iterations] [warm-up] [kernel rounds] [KiB of scratch]
 * Prints whatif_common.h's steady line and "checksum: <value>" (the sum read back once after
 * the loop: the same for every form). */
#include "whatif_common.h"

#include <stdlib.h>

/* sum += the words of 'tmp' (a small fold: one block). */
static __global__ void fold(const unsigned *tmp, size_t n, unsigned long long *sum)
{
    unsigned long long local = 0;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        local += tmp[i];
    atomicAdd(sum, local);
}

int main(int argc, char **argv)
{
    int form = (int)arg_or(argc, argv, 1, 1);
    int iterations = (int)arg_or(argc, argv, 2, 200);
    int warmup = (int)arg_or(argc, argv, 3, 20);
    int rounds = (int)arg_or(argc, argv, 4, 256);
    size_t n = (size_t)arg_or(argc, argv, 5, 1024) * 1024 / sizeof(unsigned);
    if (form < 1 || form > 3 || iterations < 1 || warmup < 0 || rounds < 1 || n == 0) {
        fprintf(stderr, "usage: cover_pair FORM(1-3) [iterations] [warm-up] [rounds] [KiB]\n");
        return 2;
    }
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned *in, *kept = NULL;
    unsigned long long *sum;
    CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&sum, sizeof(unsigned long long)));
    CHECK(cudaMemset(in, 1, n * sizeof(unsigned)));
    CHECK(cudaMemset(sum, 0, sizeof(unsigned long long)));
    if (form == 3)
        CHECK(cudaMalloc(&kept, n * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    int blocks = churn_blocks();
    double start = 0;
    for (int it = 0; it < warmup + iterations; it++) {
        if (it == warmup) {
            CHECK(cudaStreamSynchronize(s));
            start = now_us();
        }
        unsigned *tmp = kept;
        if (form != 3)
            CHECK(cudaMalloc(&tmp, n * sizeof(unsigned)));
        churn<<<blocks, 256, 0, s>>>(in, tmp, n, rounds);
        fold<<<1, 256, 0, s>>>(tmp, n, sum);
        if (form == 1)
            CHECK(cudaStreamSynchronize(s));
        if (form != 3)
            CHECK(cudaFree(tmp));
    }
    CHECK(cudaStreamSynchronize(s));
    report(start, iterations, warmup);
    unsigned long long total = 0;
    CHECK(cudaMemcpy(&total, sum, sizeof total, cudaMemcpyDeviceToHost));
    printf("checksum: %llu\n", total);
    if (kept)
        CHECK(cudaFree(kept));
    CHECK(cudaFree(in));
    CHECK(cudaFree(sum));
    return 0;
}
