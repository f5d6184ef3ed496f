/* sync401_clean.cu: the fixed form of sync401_sync_in_loop.cu: the one true dependency (the
 * second stream's next round needs the first stream's round) is an event, and the host waits
 * once, at the end. */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t first, second;
    cudaEvent_t round_done;
    CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&round_done, cudaEventDisableTiming));

    for (int round = 0; round < 3; round++) {
        spin_kernel<<<1, 1, 0, first>>>(counters, 0, 200000);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(round_done, first));
        spin_kernel<<<1, 1, 0, second>>>(counters, 1, 300000);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamWaitEvent(second, round_done, 0));
    }

    const cudaStream_t used[] = {first, second};
    ss_finish(counters, 0, used, 2);
    CHECK(cudaEventDestroy(round_done));
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
