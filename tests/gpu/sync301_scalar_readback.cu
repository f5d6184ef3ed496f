/* sync301_scalar_readback.cu: a 4-byte cudaMemcpy device-to-host of a flag after a 500 us
 * kernel (the .item() pattern): the host waits for all queued work to read one value
 * (SYNC301, twice). */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *d = counters; /* the flag is counters[0] */
    unsigned long long seen = 0;

    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        unsigned flag = 0;
        spin_kernel<<<1, 1>>>(counters, 0, 500000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpy(&flag, d, sizeof(flag), cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */
        ss_note_blocked("4-byte cudaMemcpy DtoH", start);
        seen += flag;
    }

    const cudaStream_t used[] = {0};
    ss_finish(counters, seen, used, 1);
    return 0;
}
