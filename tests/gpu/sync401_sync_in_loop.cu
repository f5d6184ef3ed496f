/* sync401_sync_in_loop.cu: cudaDeviceSynchronize at the end of every round of a loop that
 * enqueues work on two streams: each call waits for both streams, three times (SYNC401). */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t first, second;
    CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));

    for (int round = 0; round < 3; round++) {
        unsigned long long start;
        spin_kernel<<<1, 1, 0, first>>>(counters, 0, 200000);
        spin_kernel<<<1, 1, 0, second>>>(counters, 1, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaDeviceSynchronize()); /* syncscope: SYNC401 */
        ss_note_blocked("cudaDeviceSynchronize", start);
    }

    const cudaStream_t used[] = {first, second};
    ss_finish(counters, 0, used, 2);
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
