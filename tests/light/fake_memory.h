/* fake_memory.h: the fake driver's memory, shared by the light mode's test programs
 * (light_app.c, wrap_app.c): a pinned and a device range, and the answer to
 * cuPointerGetAttributes's memory type for an address (any other address is unknown to the
 * driver: pageable). */
#ifndef SS_TESTS_LIGHT_FAKE_MEMORY_H
#define SS_TESTS_LIGHT_FAKE_MEMORY_H

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

#endif
