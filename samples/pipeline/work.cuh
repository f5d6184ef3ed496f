/* work.cuh: the pipeline sample's data, kernel and checks, shared by naive.cu and fixed.cu. */
#ifndef SAMPLES_PIPELINE_WORK_CUH
#define SAMPLES_PIPELINE_WORK_CUH

#include "../common.h"

#include <string.h>

/* Defaults sized for an H200 so that copy in : kernel : copy out stand about 3 : 7 : 2
 * (pinned copies at about 50 GB/s); pass other values to retune on another machine. */
#define DEFAULT_IN_MIB 144
#define DEFAULT_ITERS 2000
#define DEFAULT_CHUNKS 10

/* The problem: 'chunks' chunks of 'in_words' input words, each giving 'out_words' output
 * words (two thirds of the input, so the copy back is two thirds of the copy in). */
struct config {
    size_t in_words, out_words;
    size_t in_bytes, out_bytes;
    int iters, chunks;
};

/* Reads "[input MiB per chunk] [kernel iterations] [chunks]" from the command line. */
static inline struct config config_from_args(int argc, char **argv)
{
    struct config cfg;
    cfg.in_words = (size_t)arg_or(argc, argv, 1, DEFAULT_IN_MIB) * (1u << 20) / sizeof(unsigned);
    cfg.iters = (int)arg_or(argc, argv, 2, DEFAULT_ITERS);
    cfg.chunks = (int)arg_or(argc, argv, 3, DEFAULT_CHUNKS);
    cfg.out_words = cfg.in_words * 2 / 3;
    cfg.in_bytes = cfg.in_words * sizeof(unsigned);
    cfg.out_bytes = cfg.out_words * sizeof(unsigned);
    printf("%d chunks: %.1f MiB in, %.1f MiB out, %d kernel iterations per element\n", cfg.chunks,
           cfg.in_bytes / 1048576.0, cfg.out_bytes / 1048576.0, cfg.iters);
    return cfg;
}

/* The per-element work: 'iters' rounds of a multiply-xor mix; exact, so the host can check
 * it. */
static __host__ __device__ inline unsigned mix(unsigned a, unsigned b, int iters)
{
    unsigned x = a;
    for (int i = 0; i < iters; i++) {
        x = (x * 1664525u + b) ^ (x >> 13);
    }
    return x;
}

/* out[j] = mix(in[j + j/2], in[j + j/2 + 1]) for the 'n_out' outputs of one chunk. */
static __global__ void work(const unsigned *in, unsigned *out, size_t n_out, int iters)
{
    size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; j < n_out; j += stride) {
        out[j] = mix(in[j + j / 2], in[j + j / 2 + 1], iters);
    }
}

/* Blocks for the kernel: enough to fill every multiprocessor several times over. */
static inline int work_blocks(void)
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return sms * 8;
}

/* Fills all chunks of the input. */
static inline void fill_input(unsigned *in, const struct config *cfg)
{
    for (size_t i = 0; i < (size_t)cfg->chunks * cfg->in_words; i++) {
        in[i] = (unsigned)(i * 2654435761u);
    }
}

/* Checks a sample of every chunk's outputs against the host. Returns 1 when all match. */
static inline int check_output(const unsigned *in, const unsigned *out, const struct config *cfg)
{
    for (int c = 0; c < cfg->chunks; c++) {
        const unsigned *chunk_in = in + (size_t)c * cfg->in_words;
        const unsigned *chunk_out = out + (size_t)c * cfg->out_words;
        for (size_t j = 0; j < cfg->out_words; j += 65521) {
            unsigned want = mix(chunk_in[j + j / 2], chunk_in[j + j / 2 + 1], cfg->iters);
            if (chunk_out[j] != want) {
                printf("chunk %d element %zu: %u, expected %u\n", c, j, chunk_out[j], want);
                return 0;
            }
        }
    }
    return 1;
}

#endif
