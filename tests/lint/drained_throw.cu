// drained_throw.cu: an error-checking macro that throws, with a message built by a function of
// another unit (which, as far as lint knows, may queue work), around a wait for the whole
// device: the throw leaves that way, so after the check the device is drained, and the
// one-value readback right after it waits for nothing: a note. Without the wait, the readback
// into a global stays a warning (into the caller's variable it would be handed over: inherent).
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

#define CHECK(call)                                                                              \
    {                                                                                            \
        cudaError_t error = call;                                                                \
        if (error != cudaSuccess) {                                                              \
            throw std::runtime_error(describe(error));                                           \
        }                                                                                        \
    }                                                                                            \
    ((void)0)

std::string describe(cudaError_t error);

__global__ void search(unsigned *count) { atomicAdd(count, 1u); }

void final_count(unsigned *d_count, unsigned *count)
{
    search<<<1, 32>>>(d_count); // expect: SYNC101 expect-severity: note
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_throw.cu:26 drained it
}

unsigned last_count;

void quick_count(unsigned *d_count)
{
    search<<<1, 32>>>(d_count); // expect: SYNC101 expect-severity: note
    CHECK(cudaMemcpy(&last_count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
