/* sync402_clean.cu: the fixed form of sync402_free_in_loop.cu: the scratch buffer comes from
 * the stream-ordered pool (cudaMallocAsync/cudaFreeAsync on the stream), which never waits
 * for the device. */
#include "gpu_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int round = 0; round < 3; round++) {
        unsigned *scratch = NULL;
        CHECK(cudaMallocAsync((void **)&scratch, BYTES, s));
        fill_kernel<<<64, 256, 0, s>>>(scratch, WORDS, (unsigned)round);
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        CHECK(cudaFreeAsync(scratch, s));
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
