/* sync503_written.cu: a chunked pipeline as first written, with the host's own work between
 * chunks: the host prepares each chunk (host_work), copies it in from pageable memory with
 * cudaMemcpy, runs a kernel and copies the result out, one stage after the other on the legacy
 * stream. SYNC503's pair: sync503_rewritten.cu.
 * Usage: sync503_written [chunks] [warm-up] [host us per chunk] [words per chunk] [kernel iters] */
#include "whatif_common.h"

int main(int argc, char **argv)
{
    int chunks = arg_or(argc, argv, 1, 60), warmup = arg_or(argc, argv, 2, 5);
    int host_us = arg_or(argc, argv, 3, 300);
    size_t words = (size_t)arg_or(argc, argv, 4, 1 << 20);
    int iters = arg_or(argc, argv, 5, 400), blocks = churn_blocks();
    unsigned *h_in = (unsigned *)malloc(words * sizeof(unsigned));
    unsigned *h_out = (unsigned *)malloc(words * sizeof(unsigned));
    unsigned *d_in = NULL, *d_out = NULL, sum = 0;
    double start = 0;
    if (h_in == NULL || h_out == NULL)
        return 1;
    CHECK(cudaMalloc(&d_in, words * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_out, words * sizeof(unsigned)));
    for (int c = 0; c < warmup + chunks; c++) {
        if (c == warmup)
            start = now_us();
        host_work(host_us, h_in, words, (unsigned)c);
        CHECK(cudaMemcpy(d_in, h_in, words * sizeof(unsigned), cudaMemcpyHostToDevice));
        churn<<<blocks, 256>>>(d_in, d_out, words, iters);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_out, d_out, words * sizeof(unsigned), cudaMemcpyDeviceToHost));
        sum += h_out[c % words];
    }
    report(start, chunks, warmup);
    printf("checksum %u\nok\n", sum);
    return 0;
}
