// drained_pageable_readback_legacy.cu: the loop of drained_pageable_readback.cu in a unit
// that creates no stream and names none but the legacy one, as held-out-16's CuSha. The
// readback into pageable memory waits for all the work this unit queued, but a function of
// another unit may have queued work on a stream of its own, which the copy on the legacy
// stream does not wait for and the wait for the whole device does: the wait stays a warning
// and the readback a note ("drained anyway": the wait next waits for all it waits for).
#include <cuda_runtime.h>

__global__ void relax(int *values, int n, int *changed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && values[i] > 0) {
        values[i]--;
        *changed = 1;
    }
}

int until_settled(int *values, int n, int *d_changed)
{
    int changed, rounds = 0;
    do {
        changed = 0;
        cudaMemcpyAsync(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC102, SYNC201 expect-severity: note
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpyAsync(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC201, SYNC301 expect-severity: note expect-message: drained anyway: 'cudaDeviceSynchronize' at line 26 waits for the whole device next
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (changed == 1);
    return rounds;
}
