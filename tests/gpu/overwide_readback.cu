/* overwide_readback.cu: a readback that waits for an unrelated stream. On two blocking
 * streams, 'produce_kernel' writes the values (200 us) and 'unrelated_kernel' spins 2 ms over a
 * buffer of its own; the 4 KiB cudaMemcpy of the values runs on the legacy stream, which waits
 * for both, twice (SYNC601: about 1.8 ms of each wait was for the unrelated kernel). */
#include "overwide_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *values = NULL, *scratch = NULL;
    CHECK(cudaMalloc(&values, OW_VALUES * sizeof(unsigned)));
    CHECK(cudaMalloc(&scratch, 64 * sizeof(unsigned)));
    CHECK(cudaMemset(scratch, 0, 64 * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t producer, other;
    CHECK(cudaStreamCreate(&producer));
    CHECK(cudaStreamCreate(&other));

    unsigned long long seen = 0;
    static unsigned host[OW_VALUES];
    const size_t size = sizeof host;
    const cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        produce_kernel<<<1, 1, 0, producer>>>(values, OW_VALUES, 10u * round, 200000);
        unrelated_kernel<<<1, 1, 0, other>>>(scratch, 2000000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        /* syncscope: SYNC202 */ /* syncscope: SYNC601 */ CHECK(cudaMemcpy(host, values, size, kind));
        ss_note_blocked("4 KiB cudaMemcpy DtoH", start);
        seen += ow_sum(host, OW_VALUES);
    }

    const cudaStream_t used[] = {producer, other};
    ss_finish(counters, seen, used, 2);
    CHECK(cudaStreamDestroy(producer));
    CHECK(cudaStreamDestroy(other));
    CHECK(cudaFree(values));
    CHECK(cudaFree(scratch));
    return 0;
}
