/* driver_api_sync.cu: the driver API called directly, with no runtime call: the primary
 * context, the embedded kernels loaded with cuModuleLoadData, cuLaunchKernel. A 4-byte
 * cuMemcpyDtoH right after a 500 us kernel on the legacy stream waits for it (SYNC301, twice);
 * then a scratch buffer is allocated and freed in each of 3 rounds that launch 300 us of work on
 * a non-blocking stream, and cuMemFree waits for that work (SYNC402, three times). */
#include "driver_api_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    ss_drv drv;
    ss_drv_open(&drv);
    CUdeviceptr counters = ss_drv_counters_alloc();
    CUdeviceptr d = counters; /* the flag is counters[0] */
    unsigned long long seen = 0;
    CUstream s;

    for (int round = 0; round < 2; round++) {
        unsigned long long start, ns = 500000;
        unsigned flag = 0;
        int slot = 0;
        void *spin_args[] = {&counters, &slot, &ns};
        CHECK_CU(cuLaunchKernel(drv.spin, 1, 1, 1, 1, 1, 1, 0, NULL, spin_args, NULL));
        start = ss_drv_now_ns();
        CHECK_CU(cuMemcpyDtoH(&flag, d, sizeof flag)); /* syncscope: SYNC301 */
        ss_drv_note_blocked("4-byte cuMemcpyDtoH", start);
        seen += flag;
    }

    CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (int round = 0; round < 3; round++) {
        unsigned long long start, ns = 300000, words = WORDS;
        unsigned base = (unsigned)round;
        int slot = 1;
        CUdeviceptr scratch = 0;
        CHECK_CU(cuMemAlloc(&scratch, BYTES));
        void *fill_args[] = {&scratch, &words, &base};
        void *spin_args[] = {&counters, &slot, &ns};
        CHECK_CU(cuLaunchKernel(drv.fill, 64, 1, 1, 256, 1, 1, 0, s, fill_args, NULL));
        CHECK_CU(cuLaunchKernel(drv.spin, 1, 1, 1, 1, 1, 1, 0, s, spin_args, NULL));
        start = ss_drv_now_ns();
        CHECK_CU(cuMemFree(scratch)); /* syncscope: SYNC402 */
        ss_drv_note_blocked("cuMemFree", start);
    }

    ss_drv_finish(counters, seen, s);
    CHECK_CU(cuStreamDestroy(s));
    ss_drv_close(&drv);
    return 0;
}
