/* sync301_clean.cu: the fixed form of sync301_scalar_readback.cu: the flag of every round is
 * kept on the device and the host reads them all at once, after the last round. */
#include "gpu_common.h"

/* Copies counters[0] into history[round] on the device. */
static __global__ void keep_flag(const unsigned *counters, unsigned *history, int round)
{
    history[round] = counters[0];
}

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *history = NULL;
    unsigned *host = NULL;
    unsigned long long seen = 0;
    cudaStream_t s;
    CHECK(cudaMalloc(&history, SS_COUNTERS * sizeof(unsigned)));
    CHECK(cudaMallocHost(&host, SS_COUNTERS * sizeof(unsigned)));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 500000);
        keep_flag<<<1, 1, 0, s>>>(counters, history, round);
        CHECK(cudaGetLastError());
    }
    CHECK(
        cudaMemcpyAsync(host, history, SS_COUNTERS * sizeof(unsigned), cudaMemcpyDeviceToHost, s));
    ss_wait(s);
    for (int round = 0; round < 2; round++) {
        seen += host[round];
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, seen, used, 1);
    CHECK(cudaFree(history));
    CHECK(cudaFreeHost(host));
    CHECK(cudaStreamDestroy(s));
    return 0;
}
