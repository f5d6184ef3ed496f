/* sync402_free_in_loop.cu: a scratch buffer allocated and freed every round of a loop that
 * launches work: cudaFree waits for the whole device (the 300 us kernel) each time (SYNC402,
 * three times). The cudaMalloc comes when nothing is pending, so it blocks on nothing. */
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
        CHECK(cudaMalloc(&scratch, BYTES));
        fill_kernel<<<64, 256, 0, s>>>(scratch, WORDS, (unsigned)round);
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaFree(scratch)); /* syncscope: SYNC402 */
        ss_note_blocked("cudaFree", start);
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
