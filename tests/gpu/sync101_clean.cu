/* sync101_clean.cu: the fixed form of sync101_legacy_launch.cu: non-blocking streams and the
 * third kernel launched on one of them, so the two streams run without a barrier. */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t first, second;
    CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, first>>>(counters, 0, 300000);
        spin_kernel<<<1, 1, 0, second>>>(counters, 1, 300000);
        spin_kernel<<<1, 1, 0, first>>>(counters, 2, 50000);
        CHECK(cudaGetLastError());
    }

    const cudaStream_t used[] = {first, second};
    ss_finish(counters, 0, used, 2);
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
