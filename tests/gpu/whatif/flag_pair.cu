/* flag_pair.cu: a wait whose stall the readback of the loop's flag makes again, through a value
 * wrapper's conversion operator (held-out-35's shape CL, Hornet's connected components:
 * 'do { forAll(...); } while (hd_continue);', forAll ending with CHECK_CUDA_ERROR's
 * cudaDeviceSynchronize, 'hd_continue' a HostDeviceVar<bool> whose 'operator bool' reads the flag
 * back with cudaMemcpy; judged false: "the readback waits for the same kernel"). Each iteration
 * launches 'work' over a buffer and a one-thread 'step' that counts the iterations and clears
 * the flag once the count reaches the target; the loop runs until the flag is clear. Then:
 *   FORM 1, as written: the launch helper waits for the device and checks the last error, and
 *           the loop's condition reads the flag back;
 *   FORM 2, the old warning's rewrite (lint's note now says it gains nothing): the helper only
 *           checks the last error, the condition reads the flag back;
 *   FORM 3, the readback note's rewrite ("test it every N iterations"): no wait, the flag read
 *           back every 8th iteration (the iterations past the target do no work: both kernels
 *           are guarded by the count).
 * Usage: flag_pair FORM [target iterations] [repeats] [warm-up repeats] [kernel rounds] [KiB]
 * Prints whatif_common.h's steady line (per iteration of the target) and "checksum: <value>"
 * (the count and a word of the buffer, read back once after the runs: the same for every
 * form). */
#include "whatif_common.h"

#include <stdlib.h>

/* out[i] = 'iters' rounds of a hash of in[i], while the count is below the target. */
static __global__ void work(const unsigned *in, unsigned *out, size_t n, int iters,
                            const int *count, int target)
{
    if (*count >= target)
        return;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = in[i] + out[i];
        for (int k = 0; k < iters; k++)
            x = x * 1664525u + 1013904223u + (x >> 7);
        out[i] = x;
    }
}

/* One iteration counted; the flag cleared once the count reaches the target. */
static __global__ void step(int *count, int *flag, int target)
{
    if (*count < target)
        (*count)++;
    *flag = *count < target;
}

/* A value on the device that converts to its host value by reading it back (Hornet's
 * HostDeviceVar). */
struct DeviceFlag {
    int *d;
    operator bool() const
    {
        int v = 0;
        CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
        return v != 0;
    }
};

/* The launch helper: both kernels on the legacy stream, then the check (FORM 1 waits first). */
static void launch(int form, int blocks, const unsigned *in, unsigned *out, size_t n, int rounds,
                   int *count, int *flag, int target)
{
    work<<<blocks, 256>>>(in, out, n, rounds, count, target);
    step<<<1, 1>>>(count, flag, target);
    if (form == 1)
        CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    int form = (int)arg_or(argc, argv, 1, 1);
    int target = (int)arg_or(argc, argv, 2, 64);
    int repeats = (int)arg_or(argc, argv, 3, 20);
    int warmup = (int)arg_or(argc, argv, 4, 3);
    int rounds = (int)arg_or(argc, argv, 5, 16);
    size_t n = (size_t)arg_or(argc, argv, 6, 64) * 1024 / sizeof(unsigned);
    if (form < 1 || form > 3 || target < 1 || repeats < 1 || warmup < 0 || rounds < 1 || n == 0) {
        fprintf(stderr, "usage: flag_pair FORM(1-3) [target] [repeats] [warm-up] [rounds] [KiB]\n");
        return 2;
    }
    unsigned *in, *out;
    int *count, *flag;
    CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&count, sizeof(int)));
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMemset(in, 1, n * sizeof(unsigned)));
    CHECK(cudaMemset(out, 0, n * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    int blocks = churn_blocks();
    DeviceFlag go = {flag};
    double start = 0;
    for (int r = 0; r < warmup + repeats; r++) {
        if (r == warmup) {
            CHECK(cudaDeviceSynchronize());
            start = now_us();
        }
        CHECK(cudaMemset(count, 0, sizeof(int)));
        int i = 0;
        if (form == 3) {
            do {
                launch(form, blocks, in, out, n, rounds, count, flag, target);
                i++;
            } while (i % 8 != 0 || go);
        } else {
            do {
                launch(form, blocks, in, out, n, rounds, count, flag, target);
            } while (go);
        }
    }
    CHECK(cudaDeviceSynchronize());
    report(start, repeats * target, warmup * target);
    int done = 0;
    unsigned word = 0;
    CHECK(cudaMemcpy(&done, count, sizeof done, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&word, out, sizeof word, cudaMemcpyDeviceToHost));
    printf("checksum: %d:%u\n", done, word);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(count));
    CHECK(cudaFree(flag));
    return 0;
}
