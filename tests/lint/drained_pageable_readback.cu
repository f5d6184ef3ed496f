// drained_pageable_readback.cu: a loop until a flag stays clear, in a unit whose streams all
// block with the legacy one: the flag uploaded, a launch, the flag read back with
// cudaMemcpyAsync into a local, then a wait for the whole device. The readback goes into
// pageable memory, so it returns only once it is done, after all the work queued before it
// on the legacy stream (and on the unit's streams, which block with it): the wait after it
// finds the device drained, a note, as after cudaMemcpy. Where the flag is read into pinned
// memory (the copy returns at once), the copy is on a stream of the unit's own (it waits for
// that stream's work only), work is queued between the copy and the wait, or another device
// is made current between them (after cudaMemcpy too), the wait stays a warning.
#include <cuda_runtime.h>

__global__ void relax(int *values, int n, int *changed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && values[i] > 0) {
        values[i]--;
        *changed = 1;
    }
}

static cudaStream_t side, other;

void create_streams()
{
    cudaStreamCreate(&side); // expect: SYNC103 expect-severity: note
    cudaStreamCreate(&other); // expect: SYNC103 expect-severity: note
}

// The shape: the wait finds nothing the readback did not wait for.
int until_settled(int *values, int n, int *d_changed)
{
    int changed, rounds = 0;
    do {
        changed = 0;
        cudaMemcpyAsync(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC102, SYNC201 expect-severity: note
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpyAsync(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC201, SYNC301
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpyAsync' at drained_pageable_readback.cu:37 drained it (a copy into pageable memory, which returns only once it is done
        rounds++;
    } while (changed == 1);
    return rounds;
}

// Pinned memory: the copy returns at once, and the wait is the one that waits for it.
int until_settled_pinned(int *values, int n, int *d_changed, int *h_changed)
{
    int rounds = 0;
    do {
        *h_changed = 0;
        cudaMemcpyAsync(d_changed, h_changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC102 expect-severity: note
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpyAsync(h_changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC301 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (*h_changed == 1);
    return rounds;
}

// The readback on a stream of the unit's own: it waits for that stream's work only, and the
// wait for the whole device also waits for the legacy stream's launch after it started.
int until_settled_side(int *values, int n, int *d_changed)
{
    int changed, rounds = 0;
    do {
        relax<<<(n + 255) / 256, 256, 0, side>>>(values, n, d_changed);
        cudaMemcpyAsync(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost, side); // expect: SYNC201, SYNC301 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (changed == 1);
    return rounds;
}

// Work queued between the readback and the wait.
int until_settled_then_launch(int *values, int n, int *d_changed)
{
    int changed, rounds = 0;
    do {
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpyAsync(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC201, SYNC301
        relax<<<(n + 255) / 256, 256, 0, other>>>(values, n, d_changed);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (changed == 1);
    return rounds;
}

// Another device made current between the readback and the wait: the readback drained the
// first device, the wait is for the second one, whose launch it waits for. The same after
// cudaMemcpy. Neither readback is "drained anyway" by that wait.
int until_settled_two_devices(int *values, int n, int *d_changed, int *d_other)
{
    int changed, rounds = 0;
    do {
        cudaSetDevice(1);
        relax<<<(n + 255) / 256, 256>>>(d_other, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaSetDevice(0);
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpyAsync(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC201, SYNC301 expect-no-message: drained anyway
        cudaSetDevice(1);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (changed == 1);
    return rounds;
}

int until_settled_two_devices_sync(int *values, int n, int *d_changed, int *d_other)
{
    int changed, rounds = 0;
    do {
        cudaSetDevice(1);
        relax<<<(n + 255) / 256, 256>>>(d_other, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaSetDevice(0);
        relax<<<(n + 255) / 256, 256>>>(values, n, d_changed); // expect: SYNC101 expect-severity: note
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-no-message: drained anyway
        cudaSetDevice(1);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        rounds++;
    } while (changed == 1);
    return rounds;
}
