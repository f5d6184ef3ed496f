// wait_closes_loop.cu: a wait for the whole device that closes a loop's body right after its
// launch, where every way on from it waits for the same work at once: around the back edge, past
// the loop's increment and condition, the wait that opens the next iteration; out of the loop,
// past a declaration, a synchronous readback on the legacy stream (held-out-19's shape AM, at
// e36f4ad a warning). The closing wait is a note ("drained anyway"); the opening wait keeps its
// "drained" note (the closing one drained the device for it). Warnings stay where work is queued
// after the closing wait, where the loop's way out reaches the unit's own host work before the
// next wait, where the opening wait runs on some iterations only or is an asynchronous
// copy, where the loop's condition calls a function of the unit, where the function ends after
// the loop, where the host reads through a pointer after the wait, where the loop is the last
// statement of an outer loop's body, where the wait after the loop is in a branch, where three
// statements follow the closing wait, and where a check of the last error reads through a
// pointer (wait_closes_loop_streams.cu: waits on one stream,
// warnings; wait_closes_loop_nonblocking.cu: a non-blocking stream in the unit).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void relax(const unsigned *piece, unsigned len, unsigned *flags)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        flags[piece[i]] = 0;
}

static void check(cudaError_t e, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s at line %d\n", cudaGetErrorString(e), line);
        exit(EXIT_FAILURE);
    }
}
#define CHECK(call) check((call), __LINE__)
#define CHECK_BLOCK(call) { check((call), __LINE__); }

void report(unsigned n)
{
    printf("%u left\n", n);
}

unsigned more(unsigned p)
{
    return p < 8 ? 1u : 0u;
}

// The shape: open with a wait, upload the piece, wait, launch, close with a wait; after the
// loop, a readback of the count.
unsigned pieces(unsigned *d_piece, const unsigned *h_all, unsigned *d_flags, unsigned *d_count,
                unsigned cap, unsigned count)
{
    for (unsigned p = 0; p * cap < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at wait_closes_loop.cu:56 drained it
        cudaMemcpy(d_piece, h_all + p * cap, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: every way on from here waits for the same work at once: on the next iteration, past the loop's increment and condition, 'cudaDeviceSynchronize' at line 52, a wait for the whole device; when the loop ends, past 1 statement on the host, 'cudaMemcpy' at line 59, a synchronous copy from the device, which waits for all work (the unit creates no stream and names none but the legacy one, so all its work is queued there)
    }
    unsigned left = 0;
    cudaMemcpy(&left, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301
    return left;
}

// A 'while' loop, the last error checked after the closing wait (a function, a macro's block),
// the next iteration opened by the upload itself, the way out by a wait.
void rounds(unsigned *d_piece, const unsigned *h_all, unsigned *d_flags, unsigned cap,
            unsigned count)
{
    unsigned p = 0;
    while (p < count) {
        CHECK(cudaMemcpy(d_piece, h_all + p, cap * sizeof(unsigned), cudaMemcpyHostToDevice)); // expect: SYNC202 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        CHECK(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: note expect-message: drained anyway: every way on from here waits for the same work at once: on the next iteration, past 2 statements on the host and the loop's condition, 'cudaMemcpy' at line 70, a synchronous copy to the device, which waits for all work (the unit creates no stream and names none but the legacy one, so all its work is queued there); when the loop ends, 'cudaDeviceSynchronize' at line 76, a wait for the whole device; with no work queued between on either way
        CHECK_BLOCK(cudaGetLastError());
        p += cap;
    }
    cudaDeviceSynchronize();
}

// Work queued after the closing wait, before the loop's end: the wait lets the host queue it
// only once the first kernel is done.
void queued_after(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count)
{
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        relax<<<1, 1>>>(d_piece, 1, d_flags); // expect: SYNC101
    }
    cudaDeviceSynchronize();
}

// The way out of the loop reaches the unit's own host work before the readback: without the
// closing wait that work would overlap the last kernel.
unsigned host_work_after(unsigned *d_piece, unsigned *d_flags, unsigned *d_count, unsigned cap,
                         unsigned count)
{
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    report(count);
    unsigned left = 0;
    cudaMemcpy(&left, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301
    return left;
}

// A launch on the way out, before the readback, which waits for it and the last kernel: a note.
unsigned launch_after(unsigned *d_piece, unsigned *d_flags, unsigned *d_count, unsigned cap,
                      unsigned count)
{
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: when the loop ends, past 1 statement on the host and 1 statement that only allocates or queues work on the legacy stream ('relax' at line 117), 'cudaMemcpy' at line 119, a synchronous copy from the device
    }
    relax<<<1, 1>>>(d_piece, 1, d_count); // expect: SYNC101
    unsigned left = 0;
    cudaMemcpy(&left, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301
    return left;
}

// The opening wait on some iterations only.
void opened_sometimes(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count)
{
    for (unsigned p = 0; p < count; p++) {
        if (p % 2 == 0)
            cudaDeviceSynchronize(); // expect: SYNC401
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    cudaDeviceSynchronize();
}

// The next iteration opens with an asynchronous upload, which returns without waiting.
void opened_async(unsigned *d_piece, const unsigned *h_all, unsigned *d_flags, unsigned cap,
                  unsigned count)
{
    for (unsigned p = 0; p < count; p++) {
        cudaMemcpyAsync(d_piece, h_all + p, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC102
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    cudaDeviceSynchronize();
}

// The loop's condition calls a function of the unit, which could do anything.
void called_condition(unsigned *d_piece, unsigned *d_flags, unsigned cap)
{
    for (unsigned p = 0; more(p); p++) {
        cudaDeviceSynchronize(); // expect: SYNC401
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    cudaDeviceSynchronize();
}

// The function ends after the loop: what its callers do next is not followed.
void ends_after(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count)
{
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

// The host reads through a pointer after the closing wait (memory the kernel may have written,
// mapped or managed): the wait is what that read needs.
unsigned read_after(unsigned *d_piece, unsigned *flags, unsigned cap, unsigned count)
{
    unsigned seen = 0;
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        seen += flags[p];
    }
    cudaDeviceSynchronize();
    return seen;
}

// A loop nested in another, the last statement of its body: the way out goes around the outer
// loop, which is not followed.
void nested(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count, unsigned passes)
{
    for (unsigned pass = 0; pass < passes; pass++) {
        cudaDeviceSynchronize(); // expect: SYNC401
        for (unsigned p = 0; p < count; p++) {
            cudaDeviceSynchronize(); // expect: SYNC401
            relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        }
    }
}

// The way out waits on some runs only: the wait after the loop sits in a branch.
void closed_sometimes(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count, int last)
{
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    if (last)
        cudaDeviceSynchronize();
}

// Three statements on the host after the closing wait: past two, lint does not follow.
void three_after(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count)
{
    unsigned a = 0, b = 0, c = 0;
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        a += p;
        b += a;
        c += b;
    }
    cudaDeviceSynchronize();
    printf("%u\n", a + b + c);
}

// A check of the last error that reads through a pointer when the call succeeded.
void checked_read(unsigned *d_piece, unsigned *flags, unsigned cap, unsigned count)
{
    unsigned seen = 0;
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        if (cudaGetLastError() == cudaSuccess)
            seen += flags[p];
    }
    cudaDeviceSynchronize();
    printf("%u\n", seen);
}
