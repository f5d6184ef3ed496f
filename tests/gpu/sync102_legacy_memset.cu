/* sync102_legacy_memset.cu: a cudaMemsetAsync whose stream argument is left out (the legacy
 * default stream) between kernels of two blocking streams: it waits for both (SYNC102), and
 * both streams are named where they were created (SYNC103), in each of 2 rounds. The kernels
 * are gated (gpu_common.h): both run, 300 us later both end together, and the memset, queued
 * behind them, starts right after; no launch timing decides which stream it waited for. */
#include "gpu_common.h"

#define SCRATCH_BYTES (1u << 20)
#define HOLD_NS 300000ull

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    ss_gate gate = ss_gate_alloc();
    unsigned *scratch = NULL;
    cudaStream_t first, second;
    CHECK(cudaMalloc(&scratch, SCRATCH_BYTES));
    CHECK(cudaStreamCreate(&first));  /* syncscope: SYNC103 */
    CHECK(cudaStreamCreate(&second)); /* syncscope: SYNC103 */

    for (int round = 0; round < 2; round++) {
        const unsigned *release = ss_gate_release(gate, round);
        gated_spin_kernel<<<1, 1, 0, first>>>(counters, 0, ss_gate_state(gate, 2 * round),
                                              release);
        gated_spin_kernel<<<1, 1, 0, second>>>(counters, 1, ss_gate_state(gate, 2 * round + 1),
                                               release);
        CHECK(cudaGetLastError());
        CHECK(cudaMemsetAsync(scratch, 0, SCRATCH_BYTES)); /* syncscope: SYNC102 */
        ss_gate_open(gate, 2 * round, 2, round, HOLD_NS);
    }

    const cudaStream_t used[] = {first, second, 0};
    ss_finish(counters, 0, used, 3);
    ss_gate_free(gate, 4);
    CHECK(cudaFree(scratch));
    CHECK(cudaStreamDestroy(first));
    CHECK(cudaStreamDestroy(second));
    return 0;
}
