/* overwide_device_sync.cu: cudaDeviceSynchronize with work on four streams, of which one
 * produced the values the host reads next. Stream 0 runs 'produce_kernel' (300 us); streams 1
 * to 3 run 'unrelated_kernel' for 1, 1.5 and 2 ms over buffers of their own. The device
 * synchronization waits about 2 ms; an event recorded after the producer would have returned
 * after 0.3 ms, twice (SYNC601 besides SYNC401). */
#include "overwide_common.h"

#define OW_STREAMS 4

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *values = NULL, *scratch = NULL;
    CHECK(cudaMalloc(&values, OW_VALUES * sizeof(unsigned)));
    CHECK(cudaMalloc(&scratch, OW_STREAMS * 64 * sizeof(unsigned)));
    CHECK(cudaMemset(scratch, 0, OW_STREAMS * 64 * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t streams[OW_STREAMS];
    for (int s = 0; s < OW_STREAMS; s++) {
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    }

    unsigned long long seen = 0;
    static unsigned host[OW_VALUES];
    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        produce_kernel<<<1, 1, 0, streams[0]>>>(values, OW_VALUES, 10u * round, 300000);
        for (int s = 1; s < OW_STREAMS; s++) {
            unrelated_kernel<<<1, 1, 0, streams[s]>>>(scratch + 64 * s, 500000ull * (s + 1));
        }
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaDeviceSynchronize()); /* syncscope: SYNC401 */ /* syncscope: SYNC601 */
        ss_note_blocked("cudaDeviceSynchronize", start);
        CHECK(cudaMemcpy(host, values, sizeof host, cudaMemcpyDeviceToHost));
        seen += ow_sum(host, OW_VALUES);
    }

    ss_finish(counters, seen, streams, OW_STREAMS);
    for (int s = 0; s < OW_STREAMS; s++) {
        CHECK(cudaStreamDestroy(streams[s]));
    }
    CHECK(cudaFree(values));
    CHECK(cudaFree(scratch));
    return 0;
}
