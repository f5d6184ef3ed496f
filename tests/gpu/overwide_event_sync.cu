/* overwide_event_sync.cu: an event synchronization that waits for more than the values read
 * next. On one non-blocking stream 'produce_kernel' writes the values (300 us), then
 * 'unrelated_kernel' spins 1.5 ms over a buffer of its own; the event is recorded after both,
 * and the host waits for it before a cudaMemcpy2D of the values, twice (SYNC601 besides SYNC401:
 * an event recorded after the producer would have returned about 1.5 ms sooner). */
#include "overwide_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *values = NULL, *scratch = NULL;
    CHECK(cudaMalloc(&values, OW_VALUES * sizeof(unsigned)));
    CHECK(cudaMalloc(&scratch, 64 * sizeof(unsigned)));
    CHECK(cudaMemset(scratch, 0, 64 * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));

    unsigned long long seen = 0;
    static unsigned host[OW_VALUES];
    const size_t row = OW_VALUES / 2 * sizeof(unsigned);
    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        produce_kernel<<<1, 1, 0, stream>>>(values, OW_VALUES, 10u * round, 300000);
        unrelated_kernel<<<1, 1, 0, stream>>>(scratch, 1500000);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(done, stream));
        start = ss_now_ns();
        CHECK(cudaEventSynchronize(done)); /* syncscope: SYNC401 */ /* syncscope: SYNC601 */
        ss_note_blocked("cudaEventSynchronize", start);
        CHECK(cudaMemcpy2D(host, row, values, row, row, 2, cudaMemcpyDeviceToHost));
        seen += ow_sum(host, OW_VALUES);
    }

    ss_finish(counters, seen, &stream, 1);
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaEventDestroy(done));
    CHECK(cudaFree(values));
    CHECK(cudaFree(scratch));
    return 0;
}
