/* sync202_clean.cu: the fixed form of sync202_sync_copy.cu: the work and the copies go on a
 * non-blocking stream, the copies into pinned memory with cudaMemcpyAsync, and the host waits
 * once, at the end. */
#include "gpu_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *dev = NULL;
    unsigned *host[2] = {NULL, NULL};
    unsigned long long checksum = 0;
    cudaStream_t s;
    CHECK(cudaMalloc(&dev, BYTES));
    CHECK(cudaMallocHost(&host[0], BYTES));
    CHECK(cudaMallocHost(&host[1], BYTES));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        fill_kernel<<<64, 256, 0, s>>>(dev, WORDS, (unsigned)round);
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(host[round], dev, BYTES, cudaMemcpyDeviceToHost, s));
    }

    ss_wait(s);
    for (int round = 0; round < 2; round++) {
        checksum += host[round][0] + host[round][WORDS - 1];
    }
    const cudaStream_t used[] = {s};
    ss_finish(counters, checksum, used, 1);
    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(host[0]));
    CHECK(cudaFreeHost(host[1]));
    CHECK(cudaStreamDestroy(s));
    return 0;
}
