/* sync103_clean.cu: both streams created non-blocking: the same legacy-stream kernel as in
 * sync103_blocking_stream.cu no longer waits for them nor delays them, so at run time nothing
 * is serialized (lint still reports the launch as SYNC101; run must not). */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t first, independent;
    CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&independent, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, independent>>>(counters, 0, 600000);
        spin_kernel<<<1, 1, 0, first>>>(counters, 1, 200000);
        spin_kernel<<<1, 1>>>(counters, 2, 50000);
        CHECK(cudaGetLastError());
    }

    const cudaStream_t used[] = {first, independent, 0};
    ss_finish(counters, 0, used, 3);
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(independent));
    return 0;
}
