// wait_then_readback.cu: a wait for the whole device right before a synchronous readback, in a
// unit whose work is all on the legacy stream: the readback returns only once the kernel before
// it is done, so the wait adds no stall of its own (held-out-15's shape Y, at 24668ac a warning,
// and the readback a "drained" note). The wait is a note, "drained anyway: the next device call,
// ...", and the readback is no longer "drained" by it: it is the stall, reported at the severity
// its own rules give (a warning in a loop; "inherent" where the value sizes the next launch).
// Warnings stay where work is queued between the two, where the host reads through a pointer
// between them, where three statements stand between, where the readback runs in a branch or
// returns at once (pinned memory), where the loop calls a function of another unit, which may
// queue work on a stream of its own, and where the readback is a copy within the device.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void sweep(unsigned *labels, unsigned *changed, unsigned n)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && labels[v] > 0) {
        labels[v]--;
        *changed = 1;
    }
}

static void check(cudaError_t e, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s at line %d\n", cudaGetErrorString(e), line);
        exit(EXIT_FAILURE);
    }
}
#define CHECK(call) { check((call), __LINE__); }

void external_step(unsigned *labels); // another unit's function

// Held-out-19's form: the flag reset, the launch, the wait, a check of the last error, the
// flag read back (the loop's condition, its only use: a note). The upload is drained before.
void converge(unsigned *d_labels, unsigned *d_changed, unsigned n)
{
    unsigned changed;
    do {
        changed = 0;
        CHECK(cudaMemcpy(d_changed, &changed, sizeof changed, cudaMemcpyHostToDevice)); // expect: SYNC202 expect-severity: note
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_changed, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 46, a synchronous copy from the device, waits for the same work: it returns only once the work queued before it on the legacy default stream is done, and only statements that stay on the host run between them (where the CUDA calls succeed: the branch at wait_then_readback.cu:26 runs only when one failed, and is left out), and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it: the stall is that readback's, this wait adds none of its own
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&changed, d_changed, sizeof changed, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-no-message: drained expect-message: inherent as written: the loop only tests it to decide whether to go on (line 47, the loop's condition); to remove the stall, test it every N iterations or on the device
    } while (changed);
}

// A count read back and summed, a declaration between.
unsigned total_count(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        cudaMemset(d_count, 0, sizeof(unsigned));
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 59
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += got;
    }
    return total;
}

// The count sizes the next launch: the readback is "inherent", a note, and so is the wait.
void sized(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 72
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent
        sweep<<<(got + 255) / 256, 256>>>(d_labels, d_count, got); // expect: SYNC101
    }
}

// A wait for the legacy stream itself, and a buffer read back (SYNC202).
void stream_zero(unsigned *d_labels, unsigned *d_changed, unsigned *h_labels, unsigned n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_changed, n); // expect: SYNC101
        cudaStreamSynchronize(0); // expect: SYNC401 expect-severity: note expect-message: it returns only once the work queued before it on the legacy default stream, the stream this wait is for, is done
        cudaMemcpy(h_labels, d_labels, n * sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}

// An asynchronous copy into a local, pageable memory: it returns only once it is done.
void pageable_flag(unsigned *d_labels, unsigned *d_changed, unsigned n)
{
    unsigned changed = 1;
    while (changed) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_changed, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaMemcpyAsync' at line 94, a copy from the device into pageable memory, waits for the same work
        cudaMemcpyAsync(&changed, d_changed, sizeof changed, cudaMemcpyDeviceToHost); // expect: SYNC201, SYNC102
    }
}

// A launch between the wait and the readback: the wait lets the host queue it only once the
// first kernel is done.
unsigned launch_between(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        sweep<<<1, 1>>>(d_labels, d_count, 1); // expect: SYNC101
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += got;
    }
    return total;
}

// The host reads memory the kernel may write (mapped or managed) between them: the wait is
// what that read needs.
unsigned read_between(unsigned *labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        total += labels[0];
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained
        total += got;
    }
    return total;
}

// Three statements between: past two, lint does not follow.
unsigned three_between(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned a = r, b = a + 1, got = 0;
        a += b;
        b += a;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        total += got + a + b;
    }
    return total;
}

// The readback runs on some rounds only.
unsigned sometimes(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned got = 0;
        if (r % 3 == 0)
            cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        total += got;
    }
    return total;
}

// An asynchronous copy into pinned memory returns at once: it does not wait for the kernel.
unsigned pinned(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0, *h_pinned = NULL;
    cudaMallocHost(&h_pinned, sizeof(unsigned));
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpyAsync(h_pinned, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC102
        total += r;
    }
    return total;
}

// Another unit's function in the loop may queue work on a stream of its own, which the
// wait for the whole device waits for and the copy on the legacy stream does not.
unsigned foreign(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        external_step(d_labels);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained
        total += got;
    }
    return total;
}

// A copy within the device returns before it runs: it waits for nothing.
void device_copy(unsigned *d_labels, unsigned *d_copy, unsigned *d_count, unsigned n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(d_copy, d_labels, n * sizeof(unsigned), cudaMemcpyDeviceToDevice);
    }
}
