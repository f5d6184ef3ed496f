// wait_closes_loop_queued.cu: a wait for the whole device that closes a loop's body, whose next
// iteration opens with another wait, and whose way out of the loop queues work on the legacy
// stream before a call that waits for all of it: a readback of the unit's own function, as a
// refresh of the frontier after the pieces (held-out-19's shape AM, its way out; at 24668ac a
// warning). That call waits for the closing wait's kernel anyway: the queued work runs after it
// on the same stream, and removing the wait costs at most that work's launch latency, once per
// run of the loop. A note, "drained anyway: ... when the loop ends, past ... statements that
// only allocate or queue work on the legacy stream ...". Warnings stay where the way out
// queues work on another stream, queues more than four statements of work, runs the unit's own
// host work or a function of another unit, or reaches a branch before the call that waits.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void mark(const unsigned *flags, unsigned *list, unsigned n, unsigned *count)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && flags[v])
        list[atomicAdd(count, 1u)] = v;
}

__global__ void relax(const unsigned *piece, unsigned len, unsigned *flags)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        flags[piece[i]] = 0;
}

void log_elsewhere(unsigned n); // another unit's function

struct Frontier {
    unsigned *d_flags, *d_list, *d_count;
    unsigned count, n;
    void refresh();
    void refresh_twice();
    void refresh_checked(int verbose);
};

// A clear and a launch on the legacy stream, then the count read back.
void Frontier::refresh()
{
    unsigned *d_scratch;
    cudaMalloc(&d_scratch, sizeof(unsigned)); // expect: SYNC402
    cudaMemset(d_count, 0, sizeof(unsigned));
    mark<<<(n + 255) / 256, 256>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    cudaMemcpy(&count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301
    cudaFree(d_scratch); // expect: SYNC402
}

// Five launches before the readback: more than lint follows.
void Frontier::refresh_twice()
{
    mark<<<1, 1>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    mark<<<1, 1>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    mark<<<1, 1>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    mark<<<1, 1>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    mark<<<1, 1>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    cudaMemcpy(&count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301
}

// A branch before the readback.
void Frontier::refresh_checked(int verbose)
{
    mark<<<(n + 255) / 256, 256>>>(d_flags, d_list, n, d_count); // expect: SYNC101
    if (verbose)
        printf("refreshing\n");
    cudaMemcpy(&count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301
}

// The shape: pieces in a loop, each opened and closed by a wait; the frontier refreshed next.
void sweep(Frontier &f, unsigned *d_piece, const unsigned *h_list, unsigned cap)
{
    while (f.count > 0) {
        for (unsigned p = 0; p * cap < f.count; p++) {
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here
            cudaMemcpy(d_piece, h_list + p * cap, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
            relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, f.d_flags); // expect: SYNC101
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: every way on from here waits for the same work at once: on the next iteration, past the loop's increment and condition, 'cudaDeviceSynchronize' at line 74, a wait for the whole device; when the loop ends, past 1 statement on the host and 3 statements that only allocate or queue work on the legacy stream (the first, 'cudaMalloc' at line 42), in 'Frontier::refresh()' (called at line 79), 'cudaMemcpy' at line 45, a synchronous copy from the device, which waits for all work (the unit creates no stream and names none but the legacy one, so all its work is queued there); with no work queued between around the back edge, and on the way out only work on the legacy stream, which runs after this wait's work anyway, and nothing run but statements that stay on the host and read nothing through a pointer: the stall is theirs too, this wait adds none of its own (on the way out, at most that work's launch latency, once per run of the loop)
        }
        f.refresh();
    }
}

// A launch written after the loop, then a wait for the whole device.
void launch_then_wait(Frontier &f, unsigned *d_piece, unsigned cap, unsigned pieces)
{
    for (unsigned p = 0; p < pieces; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, f.d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: when the loop ends, past 1 statement that only allocates or queues work on the legacy stream ('mark' at line 91), 'cudaDeviceSynchronize' at line 92, a wait for the whole device
    }
    mark<<<(f.n + 255) / 256, 256>>>(f.d_flags, f.d_list, f.n, f.d_count); // expect: SYNC101
    cudaDeviceSynchronize();
}

// More work on the way out than lint follows.
void too_much(Frontier &f, unsigned *d_piece, unsigned cap, unsigned pieces)
{
    for (unsigned p = 0; p < pieces; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, f.d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    f.refresh_twice();
}

// A branch on the way out.
void branch_after(Frontier &f, unsigned *d_piece, unsigned cap, unsigned pieces, int verbose)
{
    for (unsigned p = 0; p < pieces; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, f.d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    f.refresh_checked(verbose);
}

// Another unit's function on the way out: it may queue work on a stream of its own.
void foreign_after(Frontier &f, unsigned *d_piece, unsigned cap, unsigned pieces)
{
    for (unsigned p = 0; p < pieces; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, f.d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    log_elsewhere(f.n);
    f.refresh();
}

// The host reads through a pointer on the way out, between the launch and the readback.
void read_after(Frontier &f, unsigned *d_piece, const unsigned *h_seen, unsigned cap,
                unsigned pieces)
{
    for (unsigned p = 0; p < pieces; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, f.d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    mark<<<1, 1>>>(f.d_flags, f.d_list, h_seen[0], f.d_count); // expect: SYNC101
    cudaDeviceSynchronize();
}
