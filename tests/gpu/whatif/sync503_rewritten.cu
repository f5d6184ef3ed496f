/* sync503_rewritten.cu: sync503_written.cu double-buffered the way SYNC503's hint says: two
 * non-blocking streams, pinned buffers, cudaMemcpyAsync; the host prepares chunk c + 1 while
 * the GPU copies and computes chunk c, and reads a chunk's result once its stream is done with
 * it (the same host work, copies and kernels as the written form).
 * Usage: sync503_rewritten [chunks] [warm-up] [host us per chunk] [words per chunk] [kernel iters]
 */
#include "whatif_common.h"

#define SLOTS 2

int main(int argc, char **argv)
{
    int chunks = arg_or(argc, argv, 1, 60), warmup = arg_or(argc, argv, 2, 5);
    int host_us = arg_or(argc, argv, 3, 300);
    size_t words = (size_t)arg_or(argc, argv, 4, 1 << 20);
    int iters = arg_or(argc, argv, 5, 400), blocks = churn_blocks();
    size_t bytes = words * sizeof(unsigned);
    unsigned *h_in[SLOTS], *h_out[SLOTS], *d_in[SLOTS], *d_out[SLOTS], sum = 0;
    int pending[SLOTS] = {-1, -1};
    cudaStream_t streams[SLOTS];
    double start = 0;
    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaMallocHost(&h_in[s], bytes));
        CHECK(cudaMallocHost(&h_out[s], bytes));
        CHECK(cudaMalloc(&d_in[s], bytes));
        CHECK(cudaMalloc(&d_out[s], bytes));
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    }
    for (int c = 0; c < warmup + chunks; c++) {
        int s = c % SLOTS;
        if (c == warmup) {
            CHECK(cudaDeviceSynchronize());
            start = now_us();
        }
        /* The slot's previous chunk: wait for it, then read its result. */
        if (pending[s] >= 0) {
            CHECK(cudaStreamSynchronize(streams[s]));
            sum += h_out[s][pending[s] % words];
        }
        host_work(host_us, h_in[s], words, (unsigned)c);
        CHECK(cudaMemcpyAsync(d_in[s], h_in[s], bytes, cudaMemcpyHostToDevice, streams[s]));
        churn<<<blocks, 256, 0, streams[s]>>>(d_in[s], d_out[s], words, iters);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_out[s], d_out[s], bytes, cudaMemcpyDeviceToHost, streams[s]));
        pending[s] = c;
    }
    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaStreamSynchronize(streams[s]));
        if (pending[s] >= 0)
            sum += h_out[s][pending[s] % words];
    }
    report(start, chunks, warmup);
    printf("checksum %u\nok\n", sum);
    return 0;
}
