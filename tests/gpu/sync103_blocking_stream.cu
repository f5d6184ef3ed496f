/* sync103_blocking_stream.cu: one blocking and one non-blocking stream; a legacy-stream kernel
 * waits for the blocking stream's kernel only (200 us) while the non-blocking stream's kernel
 * (600 us) runs on. The SYNC101 finding names the blocking stream, and a second finding,
 * SYNC103, sits where that stream was created, with the GPU time it lost. */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    cudaStream_t blocking, independent;
    CHECK(cudaStreamCreate(&blocking)); /* syncscope: SYNC103 */
    CHECK(cudaStreamCreateWithFlags(&independent, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        spin_kernel<<<1, 1, 0, independent>>>(counters, 0, 600000);
        spin_kernel<<<1, 1, 0, blocking>>>(counters, 1, 200000);
        spin_kernel<<<1, 1>>>(counters, 2, 50000); /* syncscope: SYNC101 */
        CHECK(cudaGetLastError());
    }

    const cudaStream_t used[] = {blocking, independent, 0};
    ss_finish(counters, 0, used, 3);
    CHECK(cudaStreamDestroy(blocking));
    CHECK(cudaStreamDestroy(independent));
    return 0;
}
