/* sync101_legacy_launch.cu: a kernel on the legacy default stream between kernels of two
 * blocking streams; it starts only when both finish, and the next round waits for it
 * (SYNC101, with the blocking streams named as SYNC103 describes). */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t first, second;
    CHECK(cudaStreamCreate(&first));  /* syncscope: SYNC103 */
    CHECK(cudaStreamCreate(&second)); /* syncscope: SYNC103 */

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, first>>>(counters, 0, 300000);
        spin_kernel<<<1, 1, 0, second>>>(counters, 1, 300000);
        spin_kernel<<<1, 1>>>(counters, 2, 50000); /* syncscope: SYNC101 */
        CHECK(cudaGetLastError());
    }

    const cudaStream_t used[] = {first, second, 0};
    ss_finish(counters, 0, used, 3);
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
