/* sync402_quiet_frees.cu: two frees that wait for nothing while a 300 us kernel is pending on
 * the stream: cudaFree of memory the stream-ordered pool gave (cudaMallocAsync; its own work
 * already finished), and cudaFree(NULL), with which programs create the context. Neither
 * waits for the kernel (docs/studies/validation.md, 2026-12-06 23:40), so neither is a
 * finding, latent or not; each round's timings go to stderr. */
#include "gpu_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int round = 0; round < 3; round++) {
        unsigned long long start;
        unsigned *scratch = NULL;
        CHECK(cudaMallocAsync((void **)&scratch, BYTES, s));
        fill_kernel<<<64, 256, 0, s>>>(scratch, WORDS, (unsigned)round);
        CHECK(cudaGetLastError());
        ss_wait(s); /* the scratch buffer's work is done: freeing it is safe */
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaFree(scratch));
        ss_note_blocked("cudaFree of cudaMallocAsync memory", start);
        start = ss_now_ns();
        CHECK(cudaFree(NULL));
        ss_note_blocked("cudaFree(NULL)", start);
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
