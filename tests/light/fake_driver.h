/* fake_driver.h: the fake driver's answers, shared by the light mode's test programs
 * (light_app.c, wrap_app.c): a pinned and a device range, the answer to
 * cuPointerGetAttributes's memory type for an address (any other address is unknown to the
 * driver: pageable), and cuStreamQuery's "busy" for as many answers as the program asks. */
#ifndef SS_TESTS_LIGHT_FAKE_DRIVER_H
#define SS_TESTS_LIGHT_FAKE_DRIVER_H

#include <cuda.h>

#include <stdint.h>
#include <string.h>

#define PINNED_BASE UINT64_C(0x7e0000000000)
#define DEVICE_BASE UINT64_C(0x7f0000000000)
#define RANGE_BYTES UINT64_C(0x100000)

/* Fills 'data' as cuPointerGetAttributes does for 'pointer': the memory type where asked, 0
 * for every other attribute. */
static inline void fake_memory_answer(unsigned int count, const CUpointer_attribute *attributes,
                                      void **data, CUdeviceptr pointer)
{
    for (unsigned i = 0; i < count; i++) {
        unsigned value = 0;
        if (attributes[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE) {
            if (pointer >= PINNED_BASE && pointer < PINNED_BASE + RANGE_BYTES)
                value = CU_MEMORYTYPE_HOST;
            else if (pointer >= DEVICE_BASE && pointer < DEVICE_BASE + RANGE_BYTES)
                value = CU_MEMORYTYPE_DEVICE;
        }
        memcpy(data[i], &value, sizeof value);
    }
}

/* cuStreamQuery answers CUDA_ERROR_NOT_READY this many more times. */
static int busy_answers;

/* cuStreamQuery's answer: busy while busy_answers lasts, then done. */
static inline CUresult fake_busy_answer(void)
{
    if (busy_answers > 0) {
        busy_answers--;
        return CUDA_ERROR_NOT_READY;
    }
    return CUDA_SUCCESS;
}

#endif
