/* sync102_legacy_memset.cu: a cudaMemsetAsync whose stream argument is left out (the legacy
 * default stream) between kernels of two blocking streams: it waits for both (SYNC102). */
#include "gpu_common.h"

#define SCRATCH_BYTES (1u << 20)

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *scratch = NULL;
    cudaStream_t first, second;
    CHECK(cudaMalloc(&scratch, SCRATCH_BYTES));
    CHECK(cudaStreamCreate(&first));  /* syncscope: SYNC103 */
    CHECK(cudaStreamCreate(&second)); /* syncscope: SYNC103 */

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, first>>>(counters, 0, 300000);
        spin_kernel<<<1, 1, 0, second>>>(counters, 1, 300000);
        CHECK(cudaGetLastError());
        CHECK(cudaMemsetAsync(scratch, 0, SCRATCH_BYTES)); /* syncscope: SYNC102 */
    }

    const cudaStream_t used[] = {first, second, 0};
    ss_finish(counters, 0, used, 3);
    CHECK(cudaFree(scratch));
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
