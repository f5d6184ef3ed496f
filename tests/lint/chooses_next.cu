// chooses_next.cu: a value read back in a loop that, on every way from the readback to the next
// device work, a branch choosing what runs next or the loop's condition tests, or that sizes the
// next launch (Gardenia's direction-optimizing BFS and BC: 'scout_count' read back at the end of
// a top-down level chooses the next level's direction). The host needs it before it can queue
// anything: inherent as written, a note (chooses.c), whatever else reads the value. Statements
// between may call nothing, print the value, compute a local from it, or copy one value to or
// from the host synchronously (nothing is queued to wait for). Twins that stay warnings: a test
// inside a branch taken only sometimes, the value overwritten before the test, a launch, a host
// call or loop between, a value only printed, another name for it, a 'for' loop's next round, a
// value no test reads, an 'if' that chooses nothing, a buffer copy or an asynchronous one between.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void top_down(int *depth, int *scout, int *n) { *scout = depth[threadIdx.x] + *n; }
__global__ void bottom_up(int *depth, int *next) { next[threadIdx.x] = depth[threadIdx.x]; }
__global__ void expand(int *depth, int n) { depth[threadIdx.x % n] = n; }

static int zero = 0;
void log_round(int round);

// Gardenia's hybrid BFS: the next round's 'if' tests the value first; the readback of the
// frontier's size and the upload of a zero between wait for nothing more.
int hybrid(int *depth, int *next, int *d_scout, int *d_n, int edges, int alpha)
{
    int scout = 1, n = 1, rounds = 0;
    do {
        if (scout > edges / alpha) {
            bottom_up<<<64, 256>>>(depth, next); // expect: SYNC101
            scout = 1;
        } else {
            edges -= scout;
            top_down<<<64, 256>>>(depth, d_scout, d_n); // expect: SYNC101
            cudaMemcpy(&scout, d_scout, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 27's 'if' tests it before any launch, in the loop's next round)
            cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
            int *tmp = depth;
            depth = next;
            next = tmp;
            cudaMemcpy(d_n, &zero, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202
        }
        rounds++;
    } while (n > 0);
    return rounds;
}

// The loop's condition tests it; it is also summed and printed.
int summed(int *depth, int *d_n, int *total)
{
    int n;
    do {
        expand<<<64, 256>>>(depth, 4); // expect: SYNC101
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 54, the loop's condition, tests it before any launch)
        *total += n;
        printf("%d\n", n);
    } while (n > 0);
    return *total;
}

// The next round's first launch is sized with a local computed from it, after the upload of a
// zero.
void sized(int *depth, int *d_n, int *d_flag, int rounds)
{
    int n = 1, r = 0;
    while (r < rounds) {
        int blocks = (n + 255) / 256;
        cudaMemcpy(d_flag, &zero, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202
        expand<<<blocks, 256>>>(depth, n); // expect: SYNC101
        r++;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 66 sizes a launch with 'blocks', computed from it, in the loop's next round)
    }
}

// A guard that leaves, then a launch it does not size; the value also summed.
int guarded(int *depth, int *d_n, int rounds)
{
    int total = 0;
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 80's 'if' tests it before any launch)
        if (n == 0)
            break;
        total += n;
        expand<<<4, 256>>>(depth, r); // expect: SYNC101
    }
    return total;
}

// The test sits in a branch taken only sometimes: on the other way the next launch comes first.
void sometimes(int *depth, int *d_n, int rounds, bool check)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        if (check) {
            if (n > 0)
                expand<<<n, 256>>>(depth, n); // expect: SYNC101
        }
        expand<<<4, 256>>>(depth, r); // expect: SYNC101
    }
}

// Overwritten before the test: the test reads another value.
void overwritten(int *depth, int *d_n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        n = r;
        if (n > 0)
            expand<<<4, 256>>>(depth, n); // expect: SYNC101
    }
}

// A launch between the readback and the test: it could be queued before the readback.
void launch_between(int *depth, int *d_n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        expand<<<2, 256>>>(depth, r); // expect: SYNC101
        if (n > 0)
            expand<<<n, 256>>>(depth, 1); // expect: SYNC101
    }
}

// A call of the program between: host work that could come before the readback.
void call_between(int *depth, int *d_n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        log_round(r);
        if (n > 0)
            expand<<<n, 256>>>(depth, 1); // expect: SYNC101
    }
}

// Only printed: a metric, the next launch needs nothing of it.
void printed_only(int *depth, int *d_n, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        printf("round %d: %d\n", r, n);
    }
}

// Another name for it, through a pointer or a reference, may change it between.
void through_pointer(int *depth, int *d_n, int rounds)
{
    int n = 0;
    int *at = &n;
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        *at = r;
        if (n > 0)
            expand<<<4, 256>>>(depth, n); // expect: SYNC101
    }
}

void through_reference(int *depth, int *d_n, int rounds)
{
    int n = 0;
    int &same = n;
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        same = r;
        if (n > 0)
            expand<<<4, 256>>>(depth, n); // expect: SYNC101
    }
}

// A 'for' loop's next round is followed too (its increment and condition call nothing).
void for_round(int *depth, int *next, int *d_scout, int *d_n, int rounds)
{
    int scout = 0;
    for (int r = 0; r < rounds; r++) {
        if (scout > 8) {
            bottom_up<<<64, 256>>>(depth, next); // expect: SYNC101
        } else {
            top_down<<<64, 256>>>(depth, d_scout, d_n); // expect: SYNC101
            cudaMemcpy(&scout, d_scout, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 185's 'if' tests it before any launch, in the loop's next round)
        }
    }
}

// The next round launches before any test reads the value: nothing needs it first.
int never_tested(int *depth, int *d_n, int rounds)
{
    int n = 0, r = 0;
    do {
        r++;
        expand<<<64, 256>>>(depth, r); // expect: SYNC101
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    } while (r < rounds);
    return r;
}

// An 'if' on the value that chooses nothing (it counts), then a launch it does not size.
int counts_only(int *depth, int *d_n, int rounds)
{
    int big = 0;
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        if (n > 1000)
            big++;
        expand<<<4, 256>>>(depth, r); // expect: SYNC101
    }
    return big;
}

// A copy of a buffer, or an asynchronous upload, between the readback and the test: device work
// that could be queued before the readback.
void buffer_between(int *depth, int *d_n, int *h_depth, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemcpy(h_depth, depth, 256 * sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC202
        if (n > 0)
            expand<<<4, 256>>>(depth, n); // expect: SYNC101
    }
}

void async_between(int *depth, int *d_n, int *d_flag, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        cudaMemcpyAsync(d_flag, &zero, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC102, SYNC201
        if (n > 0)
            expand<<<n, 256>>>(depth, 1); // expect: SYNC101
    }
}

// A host loop between the readback and the test: host work that could come before the readback.
void host_loop_between(int *depth, int *d_n, int *h, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        expand<<<64, 256>>>(depth, r + 1); // expect: SYNC101
        int n;
        cudaMemcpy(&n, d_n, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        for (int i = 0; i < 8; i++)
            h[i] = i;
        if (n > 0)
            expand<<<4, 256>>>(depth, n); // expect: SYNC101
    }
}
