// only_tested.cu: a value read back in a loop to decide control flow (a convergence flag, a
// residual against a tolerance): the loop's own condition, or an 'if' right after the readback
// (past waits). The stall is inherent to the loop as written, a note that says how to remove it
// (test less often, or on the device); the value may also be printed, read after the loop or
// kept for the next round's test (only_tested_more.cu); also summed: chooses.c's note. Still
// warnings: a value the host hands to a function by address, tests through a call or reads via a
// reference; device work or a host call between the readback (or its wait) and the test; a flag
// kept in a member; a wait for the whole device (it also waits for other work), or one that
// another copy to the host also needs; a value that bounds a host loop ('while (j < n)': a trip
// count, not a test); a 'for' loop's own condition (not followed).
#include <cuda_runtime.h>
#include <cstdio>

__global__ void relax(int *v, int n, int *changed)
{
    if (v[threadIdx.x] > n)
        *changed = 1;
}
__global__ void residual(const float *x, float *r) { *r = x[threadIdx.x]; }

// The do-while's condition, a flag reset and uploaded each round.
int settle(int *v, int n, int *d_changed)
{
    int changed, rounds = 0;
    do {
        changed = 0;
        cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice); // expect: SYNC202
        relax<<<(n + 255) / 256, 256>>>(v, n, d_changed); // expect: SYNC101
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it to decide whether to go on (line 31, the loop's condition); to remove the stall, test it every N iterations or on the device
        rounds++;
    } while (changed);
    return rounds;
}

// A while loop's condition, the readback asynchronous and waited for on its stream.
void solve(const float *x, float *d_r, float tol, cudaStream_t s)
{
    float r = 1.f;
    while (r > tol) {
        residual<<<1, 64, 0, s>>>(x, d_r);
        cudaMemcpyAsync(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it to decide whether to go on (line 39, the loop's condition)
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for the value read back at line 41; the loop only tests it to decide whether to go on (line 39, the loop's condition); to remove the stall, test it every N iterations or on the device
    }
}

// An 'if' right after the readback that leaves the loop; arithmetic inside the test only.
void iterate(const float *x, float *d_r, float tol, int max_iter)
{
    for (int k = 0; k < max_iter; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host only tests it to decide what runs next (line 53 branches on it); to remove the stall, test it every N iterations or on the device
        if (r * r < tol)
            break;
    }
}

// Also used in arithmetic after the test: the test still chooses what runs next (chooses.c).
float scaled(const float *x, float *d_r, float tol, int max_iter)
{
    float scale = 1.f;
    for (int k = 0; k < max_iter; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 66's 'if' tests it before any launch)
        if (r < tol)
            break;
        scale = 1.f / r;
    }
    return scale;
}

// Summed on the host after the test: the same (chooses.c).
int summed(int *v, int n, int *d_changed, int rounds)
{
    int total = 0;
    for (int i = 0; i < rounds; i++) {
        relax<<<1, 64>>>(v, n, d_changed); // expect: SYNC101
        int moved;
        cudaMemcpy(&moved, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 81's 'if' tests it before any launch)
        if (moved == 0)
            break;
        total += moved;
    }
    return total;
}

// Copied into another variable, which only the next round's test reads (NiftyReg's lastDistance).
void copied(const float *x, float *d_r, float tol, int max_iter)
{
    float last = 1e30f;
    for (int k = 0; k < max_iter; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host tests it to decide what runs next (line 96 branches on it) and keeps it in 'last' (line 98), which the host only tests; to remove the stall, test it every N iterations or on the device
        if (r > last || last - r < tol)
            break;
        last = r;
    }
}

// Returned after the loop: the last value goes to the caller, the test still needs it at once.
float returned(const float *x, float *d_r, float tol, int max_iter)
{
    float r = 0.f;
    for (int k = 0; k < max_iter; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host tests it to decide what runs next (line 109 branches on it) and reads it after the loop (line 112); to remove the stall, test it every N iterations or on the device
        if (r < tol)
            break;
    }
    return r;
}

// Printed in the branch it decides.
void printed(const float *x, float *d_r, float tol, int max_iter)
{
    for (int k = 0; k < max_iter; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host tests it to decide what runs next (line 122 branches on it) and prints it (line 123); to remove the stall, test and print it every N iterations or on the device
        if (r < tol) {
            printf("converged: %g\n", r);
            break;
        }
    }
}

// The address handed to a function (a sum over processes), whose result is tested.
void all_reduce(int *in, int *out, int count); // another unit's
void agreed(int *v, int n, int *d_changed, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        relax<<<1, 64>>>(v, n, d_changed); // expect: SYNC101
        int moved = 0, any = 0;
        cudaMemcpy(&moved, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        all_reduce(&moved, &any, 1);
        if (any == 0)
            break;
    }
}

// Tested through a call.
bool converged(float r, float tol);
void called(const float *x, float *d_r, float tol, int max_iter)
{
    for (int k = 0; k < max_iter; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        float r;
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        if (converged(r, tol))
            break;
    }
}

// Device work between the readback and the test: it could be queued before the readback.
void work_between(int *v, int n, int *d_changed, int *d_w, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        relax<<<1, 64>>>(v, n, d_changed); // expect: SYNC101
        int moved;
        cudaMemcpy(&moved, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        relax<<<1, 64>>>(d_w, n, d_changed); // expect: SYNC101
        if (moved == 0)
            break;
    }
}

// A flag kept in a member: other code may read it.
struct Solver {
    int changed;
    int *d_changed;
    void run(int *v, int n);
};
void Solver::run(int *v, int n)
{
    do {
        relax<<<1, 64>>>(v, n, d_changed); // expect: SYNC101
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    } while (changed);
}

// The wait for the whole device after an asynchronous readback on a stream: it waits for more
// than the value (the readback is the note).
void device_wait(const float *x, float *d_r, float tol, cudaStream_t s)
{
    float r = 1.f;
    while (r > tol) {
        residual<<<1, 64, 0, s>>>(x, d_r);
        cudaMemcpyAsync(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

// A 'for' loop's condition is the loop's exit test too (chooses.c follows it).
void for_condition(const float *x, float *d_r, float tol, int max_iter)
{
    float r = 1.f;
    for (int k = 0; k < max_iter && r > tol; k++) {
        residual<<<1, 64>>>(x, d_r); // expect: SYNC101
        cudaMemcpy(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 199, the loop's condition, tests it before any launch)
    }
}

// Another name for the flag, a reference declared before the loop, reads the value.
int aliased(int *v, int n, int *d_changed, int rounds)
{
    int changed = 0, total = 0;
    int &seen = changed;
    for (int i = 0; i < rounds; i++) {
        relax<<<1, 64>>>(v, n, d_changed); // expect: SYNC101
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        if (changed == 0)
            break;
        total += seen;
    }
    return total;
}

// The count read back bounds a host loop right after it: a trip count, not a test.
void drain(int *v, int *d_count, int steps, float *out)
{
    for (int t = 0; t < steps; t++) {
        relax<<<1, 64>>>(v, t, d_count); // expect: SYNC101
        int pending;
        cudaMemcpy(&pending, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        int j = 0;
        while (j < pending)
            out[j++] *= 0.5f;
    }
}

// Tested by an 'if', then the bound of a loop inside it: the loop's condition is a use.
void fill_slots(int *v, int *d_count, int steps, int *slots)
{
    int next = 0;
    for (int t = 0; t < steps; t++) {
        relax<<<1, 64>>>(v, t, d_count); // expect: SYNC101
        int pending;
        cudaMemcpy(&pending, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        if (pending > 0)
            while (next < pending)
                slots[next++] = t;
    }
}

// A host call between the readback and the test: it could run before the readback.
void report_round(int round);
void reported(int *v, int n, int *d_changed, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        relax<<<1, 64>>>(v, n, d_changed); // expect: SYNC101
        int moved;
        cudaMemcpy(&moved, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        report_round(i);
        if (moved == 0)
            break;
    }
}

// The same after the wait for an asynchronous readback, before the loop's condition.
void reported_async(const float *x, float *d_r, float tol, cudaStream_t s, int *log)
{
    float r = 1.f;
    while (r > tol) {
        residual<<<1, 64, 0, s>>>(x, d_r);
        cudaMemcpyAsync(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-no-message: inherent as written
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        report_round(log[0]);
    }
}

// The wait also makes another copy to the host available, whose value the host uses.
void two_readbacks(const float *x, float *d_r, int *d_slot, float tol, cudaStream_t s, int *hits)
{
    float r = 1.f;
    int slot = 0;
    while (r > tol) {
        residual<<<1, 64, 0, s>>>(x, d_r);
        cudaMemcpyAsync(&slot, d_slot, sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: warning
        cudaMemcpyAsync(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-no-message: inherent as written
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        hits[slot]++;
    }
}

// The same with a whole buffer copied to the host ahead of the value.
void with_buffer(const float *x, float *d_r, float tol, cudaStream_t s, float *h_buf,
                 const float *d_buf, size_t count)
{
    float r = 1.f;
    while (r > tol) {
        residual<<<1, 64, 0, s>>>(x, d_r);
        cudaMemcpyAsync(h_buf, d_buf, count * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaMemcpyAsync(&r, d_r, sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-no-message: inherent as written
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

// A branch that calls nothing between the readback and the loop's test (a safety limit,
// session 46): it cannot overlap the readback.
int limited(int *v, int n, int *d_changed)
{
    int changed = 1, rounds = 0;
    while (changed) {
        relax<<<(n + 255) / 256, 256>>>(v, n, d_changed); // expect: SYNC101
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it to decide whether to go on (line 305, the loop's condition)
        rounds++;
        if (rounds > 100)
            break;
    }
    return rounds;
}

// A branch that calls something there could run before the readback: still a warning.
void log_round(int round);

int limited_logged(int *v, int n, int *d_changed)
{
    int changed = 1, rounds = 0;
    while (changed) {
        relax<<<(n + 255) / 256, 256>>>(v, n, d_changed); // expect: SYNC101
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        rounds++;
        if (rounds % 10 == 0)
            log_round(rounds);
    }
    return rounds;
}

// The value read every round but tested only every eighth ('continue' between, session 46's
// review): seven stalls of eight buy nothing, a warning.
int sparse(int *v, int n, int *d_changed)
{
    int changed = 0, rounds = 0;
    for (;;) {
        relax<<<(n + 255) / 256, 256>>>(v, n, d_changed); // expect: SYNC101
        cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        rounds++;
        if (rounds % 8 != 0)
            continue;
        if (!changed)
            break;
    }
    return rounds;
}

void make_stream(cudaStream_t *s) { cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
