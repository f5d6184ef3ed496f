/* overwide_narrow.cu: the narrow waits that SYNC601 must not report. The four streams of
 * overwide_device_sync.cu, but the host waits only for what produced the values it reads:
 * an event recorded after 'produce_kernel' (round 0), the producer's stream (round 1), and the
 * producer's stream when an unrelated kernel runs before the producer on that stream, which
 * the values depend on by stream order (round 2). Each wait is SYNC401 only. */
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
    cudaEvent_t produced;
    CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));

    unsigned long long seen = 0;
    static unsigned host[OW_VALUES];
    for (int round = 0; round < 3; round++) {
        unsigned long long start;
        if (round == 2) {
            unrelated_kernel<<<1, 1, 0, streams[0]>>>(scratch, 500000);
        }
        produce_kernel<<<1, 1, 0, streams[0]>>>(values, OW_VALUES, 10u * round, 300000);
        for (int s = 1; s < OW_STREAMS; s++) {
            unrelated_kernel<<<1, 1, 0, streams[s]>>>(scratch + 64 * s, 500000ull * (s + 1));
        }
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        if (round == 0) {
            CHECK(cudaEventRecord(produced, streams[0]));
            CHECK(cudaEventSynchronize(produced)); /* syncscope: SYNC401 */
        } else {
            CHECK(cudaStreamSynchronize(streams[0])); /* syncscope: SYNC401 */
        }
        ss_note_blocked("narrow wait", start);
        CHECK(cudaMemcpy(host, values, sizeof host, cudaMemcpyDeviceToHost));
        seen += ow_sum(host, OW_VALUES);
    }

    ss_finish(counters, seen, streams, OW_STREAMS);
    for (int s = 0; s < OW_STREAMS; s++) {
        CHECK(cudaStreamDestroy(streams[s]));
    }
    CHECK(cudaEventDestroy(produced));
    CHECK(cudaFree(values));
    CHECK(cudaFree(scratch));
    return 0;
}
