/* sync202_sync_copy.cu: a synchronous 1 MiB cudaMemcpy device-to-host right after a 300 us
 * kernel queued on the legacy stream: the call holds the host until the kernel has finished
 * (SYNC202, twice). Only the legacy stream is used, so nothing else is serialized. */
#include "gpu_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *dev = NULL;
    unsigned *host = (unsigned *)malloc(BYTES);
    unsigned long long checksum = 0;
    if (host == NULL) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    CHECK(cudaMalloc(&dev, BYTES));

    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        fill_kernel<<<64, 256>>>(dev, WORDS, (unsigned)round);
        spin_kernel<<<1, 1>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpy(host, dev, BYTES, cudaMemcpyDeviceToHost)); /* syncscope: SYNC202 */
        ss_note_blocked("cudaMemcpy DtoH", start);
        checksum += host[0] + host[WORDS - 1];
    }

    const cudaStream_t used[] = {0};
    ss_finish(counters, checksum, used, 1);
    CHECK(cudaFree(dev));
    free(host);
    return 0;
}
