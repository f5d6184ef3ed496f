/* fixed.cu: the same pipeline, double-buffered over three non-blocking streams (copy in,
 * compute, copy out) with pinned buffers and cudaMemcpyAsync; events express only the true
 * dependencies, so chunk c+1's copy in and chunk c-1's copy out overlap chunk c's kernel.
 * Usage: fixed [input MiB per chunk] [kernel iterations] [chunks] */
#include "work.cuh"

#define SLOTS 2

/* Times copy in, kernel and copy out of chunk 0 one after the other on 'stream' with events
 * and prints them. */
static void measure_stages(const struct config *cfg, int blocks, const unsigned *h_in,
                           unsigned *h_out, unsigned *d_in, unsigned *d_out, cudaStream_t stream)
{
    cudaEvent_t marks[4];
    float copy_in_ms, kernel_ms, copy_out_ms;
    for (int i = 0; i < 4; i++) {
        CHECK(cudaEventCreate(&marks[i]));
    }
    CHECK(cudaEventRecord(marks[0], stream));
    CHECK(cudaMemcpyAsync(d_in, h_in, cfg->in_bytes, cudaMemcpyHostToDevice, stream));
    CHECK(cudaEventRecord(marks[1], stream));
    work<<<blocks, 256, 0, stream>>>(d_in, d_out, cfg->out_words, cfg->iters);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(marks[2], stream));
    CHECK(cudaMemcpyAsync(h_out, d_out, cfg->out_bytes, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaEventRecord(marks[3], stream));
    CHECK(cudaEventSynchronize(marks[3]));
    CHECK(cudaEventElapsedTime(&copy_in_ms, marks[0], marks[1]));
    CHECK(cudaEventElapsedTime(&kernel_ms, marks[1], marks[2]));
    CHECK(cudaEventElapsedTime(&copy_out_ms, marks[2], marks[3]));
    printf("per chunk (events): copy in %.3f ms (%.1f GB/s), kernel %.3f ms, copy out %.3f ms "
           "(%.1f GB/s)\n",
           copy_in_ms, cfg->in_bytes / (copy_in_ms * 1e6), kernel_ms, copy_out_ms,
           cfg->out_bytes / (copy_out_ms * 1e6));
    printf("stage ratio: %.1f : %.1f : %.1f (aim: 3 : 7 : 2)\n",
           12.0 * copy_in_ms / (copy_in_ms + kernel_ms + copy_out_ms),
           12.0 * kernel_ms / (copy_in_ms + kernel_ms + copy_out_ms),
           12.0 * copy_out_ms / (copy_in_ms + kernel_ms + copy_out_ms));
    {
        float slowest = kernel_ms > copy_in_ms ? kernel_ms : copy_in_ms;
        slowest = copy_out_ms > slowest ? copy_out_ms : slowest;
        printf("serial estimate %.3f ms, ideal pipelined %.3f ms for %d chunks\n",
               cfg->chunks * (copy_in_ms + kernel_ms + copy_out_ms),
               copy_in_ms + kernel_ms + copy_out_ms + (cfg->chunks - 1) * slowest, cfg->chunks);
    }
    for (int i = 0; i < 4; i++) {
        CHECK(cudaEventDestroy(marks[i]));
    }
}

int main(int argc, char **argv)
{
    struct config cfg = config_from_args(argc, argv);
    int blocks = work_blocks();
    unsigned *h_in = NULL, *h_out = NULL;
    unsigned *d_in[SLOTS], *d_out[SLOTS];
    cudaStream_t up, compute, down;
    cudaEvent_t in_ready[SLOTS], computed[SLOTS], out_free[SLOTS], begin, end;
    float total_ms;
    double start, host_ms;
    int ok;

    CHECK(cudaMallocHost(&h_in, cfg.chunks * cfg.in_bytes));
    CHECK(cudaMallocHost(&h_out, cfg.chunks * cfg.out_bytes));
    fill_input(h_in, &cfg);
    memset(h_out, 0, cfg.chunks * cfg.out_bytes);
    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaMalloc(&d_in[s], cfg.in_bytes));
        CHECK(cudaMalloc(&d_out[s], cfg.out_bytes));
        CHECK(cudaEventCreateWithFlags(&in_ready[s], cudaEventDisableTiming));
        CHECK(cudaEventCreateWithFlags(&computed[s], cudaEventDisableTiming));
        CHECK(cudaEventCreateWithFlags(&out_free[s], cudaEventDisableTiming));
    }
    CHECK(cudaEventCreate(&begin));
    CHECK(cudaEventCreate(&end));
    CHECK(cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking));

    /* Warm up (loads the kernel), then time the three stages of one chunk on their own. */
    work<<<1, 32, 0, compute>>>(d_in[0], d_out[0], 0, 1);
    CHECK(cudaGetLastError());
    measure_stages(&cfg, blocks, h_in, h_out, d_in[0], d_out[0], compute);

    start = now_ms();
    CHECK(cudaEventRecord(begin, up));
    for (int c = 0; c < cfg.chunks; c++) {
        int s = c % SLOTS;
        const unsigned *src = h_in + c * cfg.in_words;
        unsigned *dst = h_out + c * cfg.out_words;
        /* Copy in once the kernel of chunk c-2 has read this slot's input. */
        if (c >= SLOTS) {
            CHECK(cudaStreamWaitEvent(up, computed[s], 0));
        }
        CHECK(cudaMemcpyAsync(d_in[s], src, cfg.in_bytes, cudaMemcpyHostToDevice, up));
        CHECK(cudaEventRecord(in_ready[s], up));
        /* Compute once the input is in and chunk c-2's output has been copied out. */
        CHECK(cudaStreamWaitEvent(compute, in_ready[s], 0));
        if (c >= SLOTS) {
            CHECK(cudaStreamWaitEvent(compute, out_free[s], 0));
        }
        work<<<blocks, 256, 0, compute>>>(d_in[s], d_out[s], cfg.out_words, cfg.iters);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(computed[s], compute));
        /* Copy out once the kernel is done. */
        CHECK(cudaStreamWaitEvent(down, computed[s], 0));
        CHECK(cudaMemcpyAsync(dst, d_out[s], cfg.out_bytes, cudaMemcpyDeviceToHost, down));
        CHECK(cudaEventRecord(out_free[s], down));
    }
    CHECK(cudaEventRecord(end, down));
    host_ms = now_ms() - start;
    CHECK(cudaStreamSynchronize(down));
    CHECK(cudaEventElapsedTime(&total_ms, begin, end));

    printf("enqueue: %.3f ms on the host\n", host_ms);
    printf("total: %.3f ms for %d chunks (events)\n", total_ms, cfg.chunks);
    ok = check_output(h_in, h_out, &cfg);
    printf("%s\n", ok ? "ok" : "FAILED");

    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaFree(d_in[s]));
        CHECK(cudaFree(d_out[s]));
        CHECK(cudaEventDestroy(in_ready[s]));
        CHECK(cudaEventDestroy(computed[s]));
        CHECK(cudaEventDestroy(out_free[s]));
    }
    CHECK(cudaEventDestroy(begin));
    CHECK(cudaEventDestroy(end));
    CHECK(cudaStreamDestroy(up));
    CHECK(cudaStreamDestroy(compute));
    CHECK(cudaStreamDestroy(down));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    return ok ? 0 : 1;
}
