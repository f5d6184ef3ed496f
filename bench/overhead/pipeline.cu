/* pipeline.cu: a copy-bound workload: a pinned buffer streamed through the GPU in chunks,
 * each chunk copied in, transformed and copied back on one of two streams, so one stream's
 * copies overlap the other's kernel.
 * Usage: pipeline [passes (300)] [chunks (64)] [chunk KiB (1024)]; the benchmark runs it as
 * "40 16 16384" (pipeline) and "300 64 1024" (pipeline_small)
 * Prints "bench: pipeline_ms VALUE CHECKSUM". */
#include "bench_common.h"

#include <stdint.h>

#define STREAMS 2
#define THREADS 256
#define MIX_ROUNDS 8

/* A few rounds of a linear congruential step per word: cheap next to the copies. */
static __global__ void mix(const uint32_t *in, uint32_t *out, size_t words)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words) {
        uint32_t x = in[i];
        for (int r = 0; r < MIX_ROUNDS; r++) {
            x = x * 1664525u + 1013904223u;
        }
        out[i] = x;
    }
}

int main(int argc, char **argv)
{
    long passes = arg_or(argc, argv, 1, 300);
    long chunks = arg_or(argc, argv, 2, 64);
    long chunk_kib = arg_or(argc, argv, 3, 1024);
    size_t chunk_words = (size_t)chunk_kib * 1024 / sizeof(uint32_t);
    size_t words = chunk_words * (size_t)chunks;
    size_t bytes = words * sizeof(uint32_t);
    unsigned blocks = (unsigned)((chunk_words + THREADS - 1) / THREADS);
    uint32_t *h_in = NULL, *h_out = NULL, *d_in = NULL, *d_out = NULL;
    cudaStream_t streams[STREAMS];

    CHECK(cudaMallocHost(&h_in, bytes));
    CHECK(cudaMallocHost(&h_out, bytes));
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    for (int s = 0; s < STREAMS; s++) {
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    }
    for (size_t i = 0; i < words; i++) {
        h_in[i] = (uint32_t)(i * 2654435761u);
    }

    /* Pass 0 is untimed: it warms up the copy engines and any tool's buffers. */
    double t0 = 0;
    for (long pass = 0; pass <= passes; pass++) {
        if (pass == 1) {
            CHECK(cudaDeviceSynchronize());
            t0 = now_ns();
        }
        for (long c = 0; c < chunks; c++) {
            cudaStream_t stream = streams[c % STREAMS];
            size_t off = (size_t)c * chunk_words;
            CHECK(cudaMemcpyAsync(d_in + off, h_in + off, chunk_words * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice, stream));
            mix<<<blocks, THREADS, 0, stream>>>(d_in + off, d_out + off, chunk_words);
            CHECK(cudaMemcpyAsync(h_out + off, d_out + off, chunk_words * sizeof(uint32_t),
                                  cudaMemcpyDeviceToHost, stream));
        }
    }
    for (int s = 0; s < STREAMS; s++) {
        CHECK(cudaStreamSynchronize(streams[s]));
    }
    double elapsed = now_ns() - t0;
    CHECK(cudaGetLastError());

    unsigned long long checksum = 0;
    int ok = 1;
    for (size_t i = 0; i < words; i++) {
        uint32_t x = h_in[i];
        for (int r = 0; r < MIX_ROUNDS; r++) {
            x = x * 1664525u + 1013904223u;
        }
        ok = ok && h_out[i] == x;
        checksum += h_out[i];
    }
    double gib = (double)bytes * (double)passes / (double)(1u << 30);
    printf("%ld passes of %ld chunks x %ld KiB on %d streams: %.1f ms, %.1f GiB/s each way, "
           "%s\n",
           passes, chunks, chunk_kib, STREAMS, elapsed / 1e6, gib / (elapsed / 1e9),
           ok ? "ok" : "FAILED");
    bench_result("pipeline_ms", elapsed / 1e6, checksum);

    for (int s = 0; s < STREAMS; s++) {
        CHECK(cudaStreamDestroy(streams[s]));
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    return ok ? 0 : 1;
}
