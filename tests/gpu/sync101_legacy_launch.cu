/* sync101_legacy_launch.cu: a kernel on the legacy default stream between kernels of two
 * blocking streams; it starts only when both finish, and the next round waits for it
 * (SYNC101, with the blocking streams named as SYNC103 describes), 2 rounds. The blocking
 * streams' kernels are gated (gpu_common.h): both run, 300 us later both end together, and
 * the legacy kernel starts right after; no launch timing decides which stream it waited for. */
#include "gpu_common.h"

#define HOLD_NS 300000ull

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    ss_gate gate = ss_gate_alloc();
    cudaStream_t first, second;
    CHECK(cudaStreamCreate(&first));  /* syncscope: SYNC103 */
    CHECK(cudaStreamCreate(&second)); /* syncscope: SYNC103 */

    for (int round = 0; round < 2; round++) {
        const unsigned *release = ss_gate_release(gate, round);
        gated_spin_kernel<<<1, 1, 0, first>>>(counters, 0, ss_gate_state(gate, 2 * round),
                                              release);
        gated_spin_kernel<<<1, 1, 0, second>>>(counters, 1, ss_gate_state(gate, 2 * round + 1),
                                               release);
        spin_kernel<<<1, 1>>>(counters, 2, 50000); /* syncscope: SYNC101 */
        CHECK(cudaGetLastError());
        ss_gate_open(gate, 2 * round, 2, round, HOLD_NS);
    }

    const cudaStream_t used[] = {first, second, 0};
    ss_finish(counters, 0, used, 3);
    ss_gate_free(gate, 4);
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
