/* driver_api_clean.cu: the fixed forms of driver_api_sync.cu, still through the driver API
 * only: the kernels run on a non-blocking stream, each round's flag is copied with
 * cuMemcpyDtoHAsync into pinned memory and waited for by polling an event, and the scratch
 * buffer is allocated once before the loop and freed after its work has finished. */
#include "driver_api_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    ss_drv drv;
    ss_drv_open(&drv);
    CUdeviceptr counters = ss_drv_counters_alloc();
    CUdeviceptr scratch = 0;
    unsigned *flags = NULL;
    unsigned long long seen = 0;
    CUstream s;
    CHECK_CU(cuMemAllocHost((void **)&flags, 2 * sizeof(unsigned)));
    CHECK_CU(cuMemAlloc(&scratch, BYTES));
    CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

    for (int round = 0; round < 2; round++) {
        unsigned long long ns = 500000;
        int slot = 0;
        void *spin_args[] = {&counters, &slot, &ns};
        CHECK_CU(cuLaunchKernel(drv.spin, 1, 1, 1, 1, 1, 1, 0, s, spin_args, NULL));
        CHECK_CU(cuMemcpyDtoHAsync(&flags[round], counters, sizeof(unsigned), s));
    }
    ss_drv_wait(s);
    seen = (unsigned long long)flags[0] + flags[1];

    for (int round = 0; round < 3; round++) {
        unsigned long long ns = 300000, words = WORDS;
        unsigned base = (unsigned)round;
        int slot = 1;
        void *fill_args[] = {&scratch, &words, &base};
        void *spin_args[] = {&counters, &slot, &ns};
        CHECK_CU(cuLaunchKernel(drv.fill, 64, 1, 1, 256, 1, 1, 0, s, fill_args, NULL));
        CHECK_CU(cuLaunchKernel(drv.spin, 1, 1, 1, 1, 1, 1, 0, s, spin_args, NULL));
    }
    ss_drv_wait(s);
    CHECK_CU(cuMemFree(scratch));

    ss_drv_finish(counters, seen, s);
    CHECK_CU(cuMemFreeHost(flags));
    CHECK_CU(cuStreamDestroy(s));
    ss_drv_close(&drv);
    return 0;
}
