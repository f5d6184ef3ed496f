/* naive.cu: the pipeline as it is often first written: one stream (the legacy default
 * stream), pageable buffers and synchronous copies, so copy in, kernel and copy out of each
 * chunk run one after the other and the host waits for each copy.
 * Usage: naive [input MiB per chunk] [kernel iterations] [chunks] */
#include "work.cuh"

int main(int argc, char **argv)
{
    struct config cfg = config_from_args(argc, argv);
    int blocks = work_blocks();
    unsigned *h_in = (unsigned *)malloc(cfg.chunks * cfg.in_bytes);
    unsigned *h_out = (unsigned *)malloc(cfg.chunks * cfg.out_bytes);
    unsigned *d_in = NULL, *d_out = NULL;
    double copy_in_ms = 0, rest_ms = 0, start, total_ms;
    int ok;
    if (h_in == NULL || h_out == NULL) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    fill_input(h_in, &cfg);
    memset(h_out, 0, cfg.chunks * cfg.out_bytes);
    CHECK(cudaMalloc(&d_in, cfg.in_bytes));
    CHECK(cudaMalloc(&d_out, cfg.out_bytes));

    start = now_ms();
    for (int c = 0; c < cfg.chunks; c++) {
        const unsigned *src = h_in + c * cfg.in_words;
        unsigned *dst = h_out + c * cfg.out_words;
        double t0 = now_ms(), t1;
        CHECK(cudaMemcpy(d_in, src, cfg.in_bytes, cudaMemcpyHostToDevice)); // expect: SYNC202
        t1 = now_ms();
        work<<<blocks, 256>>>(d_in, d_out, cfg.out_words, cfg.iters); // expect: SYNC101
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(dst, d_out, cfg.out_bytes, cudaMemcpyDeviceToHost)); // expect: SYNC202
        copy_in_ms += t1 - t0;
        rest_ms += now_ms() - t1;
    }
    total_ms = now_ms() - start;

    printf("per chunk (host clock): copy in %.3f ms, kernel + copy out %.3f ms\n",
           copy_in_ms / cfg.chunks, rest_ms / cfg.chunks);
    printf("total: %.3f ms for %d chunks\n", total_ms, cfg.chunks);
    ok = check_output(h_in, h_out, &cfg);
    printf("%s\n", ok ? "ok" : "FAILED");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return ok ? 0 : 1;
}
