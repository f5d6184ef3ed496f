/* sync102_clean.cu: the fixed form of sync102_legacy_memset.cu: non-blocking streams and the
 * memset enqueued on the stream that owns the buffer. */
#include "gpu_common.h"

#define SCRATCH_BYTES (1u << 20)

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *scratch = NULL;
    cudaStream_t first, second;
    CHECK(cudaMalloc(&scratch, SCRATCH_BYTES));
    CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, first>>>(counters, 0, 300000);
        spin_kernel<<<1, 1, 0, second>>>(counters, 1, 300000);
        CHECK(cudaGetLastError());
        CHECK(cudaMemsetAsync(scratch, 0, SCRATCH_BYTES, first));
    }

    const cudaStream_t used[] = {first, second};
    ss_finish(counters, 0, used, 2);
    CHECK(cudaFree(scratch));
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
