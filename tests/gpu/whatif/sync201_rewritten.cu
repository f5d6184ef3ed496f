/* sync201_rewritten.cu: sync201_written.cu the way SYNC201's hint says: the batches are in pinned
 * (cudaMallocHost) memory, so each cudaMemcpyAsync is asynchronous and runs at the pinned rate;
 * the same copies and kernels on the same stream.
 * Usage: sync201_rewritten [steps] [warm-up] [words per batch] [kernel iters] */
#include "whatif_common.h"

#define BATCHES 2

int main(int argc, char **argv)
{
    int steps = arg_or(argc, argv, 1, 100), warmup = arg_or(argc, argv, 2, 5);
    size_t words = (size_t)arg_or(argc, argv, 3, 2 << 20);
    int iters = arg_or(argc, argv, 4, 100), blocks = churn_blocks();
    size_t bytes = words * sizeof(unsigned);
    unsigned *h_batch[BATCHES], *d_in = NULL, *d_out = NULL, h = 0;
    cudaStream_t stream;
    double start = 0;
    for (int b = 0; b < BATCHES; b++) {
        CHECK(cudaMallocHost(&h_batch[b], bytes));
        if (h_batch[b] == NULL)
            return 1;
        for (size_t i = 0; i < words; i++)
            h_batch[b][i] = (unsigned)(i * 2654435761u + b);
    }
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int i = 0; i < warmup + steps; i++) {
        if (i == warmup) {
            CHECK(cudaStreamSynchronize(stream));
            start = now_us();
        }
        CHECK(cudaMemcpyAsync(d_in, h_batch[i % BATCHES], bytes, cudaMemcpyHostToDevice, stream));
        churn<<<blocks, 256, 0, stream>>>(d_in, d_out, words, iters);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaStreamSynchronize(stream));
    report(start, steps, warmup);
    CHECK(cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    printf("value %u\nok\n", h);
    return 0;
}
