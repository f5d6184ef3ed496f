/* scope_nvtx.cu: scopes (docs/run.md, "Scopes"): five 4-byte cudaMemcpy readbacks, each
 * behind a 500 us kernel (SYNC301 at its own line): one before everything, one inside the NVTX
 * push/pop range 'scope_nvtx', one between cudaProfilerStart and cudaProfilerStop, one inside
 * the NVTX start/end range 'scope_nvtx_startend', one after everything. Unscoped, all five are
 * findings (scope_nvtx.expect), the two in NVTX ranges naming them; run_scope_test.sh checks
 * that each scope keeps its one readback (the 'scope:' tag on the line says which). */
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned flag = 0;
    unsigned long long seen = 0;

    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&flag, counters, sizeof(flag), cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */ /* scope: none */
    seen += flag;

    nvtxRangePushA("scope_nvtx");
    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&flag, counters, sizeof(flag), cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */ /* scope: nvtx scope_nvtx */
    seen += flag;
    nvtxRangePop();

    CHECK(cudaProfilerStart());
    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&flag, counters, sizeof(flag), cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */ /* scope: profiler */
    seen += flag;
    CHECK(cudaProfilerStop());

    nvtxRangeId_t range = nvtxRangeStartA("scope_nvtx_startend");
    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&flag, counters, sizeof(flag), cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */ /* scope: nvtx scope_nvtx_startend */
    seen += flag;
    nvtxRangeEnd(range);

    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&flag, counters, sizeof(flag), cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */ /* scope: none */
    seen += flag;

    const cudaStream_t used[] = {0};
    ss_finish(counters, seen, used, 1);
    return 0;
}
