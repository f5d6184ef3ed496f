/* sync201_written.cu: each step copies a batch in with cudaMemcpyAsync from pageable (malloc)
 * memory and runs a kernel on it, on one non-blocking stream: the runtime stages the copy and
 * the call blocks the host. SYNC201's pair: sync201_rewritten.cu.
 * Usage: sync201_written [steps] [warm-up] [words per batch] [kernel iters] */
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
        h_batch[b] = (unsigned *)malloc(bytes);
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
