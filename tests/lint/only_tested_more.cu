// only_tested_more.cu: a value read back in a loop that the host tests at once to decide whether
// the loop goes on, and also prints in the same round, reads after the loop, or keeps in another
// local that only the next round's test reads: still inherent as written, a note (Gardenia's
// PageRank, BC's two flags, cuda-samples' Jacobi). A second synchronous one-value readback may
// stand between the readback and the test: it waits for no more work. Each note has a twin that
// stays a warning: a value printed but not tested (a metric), a print that computes with a call
// or prints no value (host work that could come before the readback), a second readback of
// another API, a branch that copies to the host and goes on with the loop. Also summed, or
// before a second readback into an array: a note of chooses.c (the test chooses what runs).
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#define SAFE_CALL(call)                                                                            \
    {                                                                                              \
        cudaError err = call;                                                                      \
        if (cudaSuccess != err) {                                                                  \
            fprintf(stderr, "error %d: %s.\n", err, cudaGetErrorString(err));                      \
            exit(EXIT_FAILURE);                                                                    \
        }                                                                                          \
    }

__global__ void l1norm(const float *x, float *diff) { *diff = x[threadIdx.x]; }
__global__ void forward(int *depth, bool *changed, int *count)
{
    if (depth[threadIdx.x] > 0) {
        *changed = true;
        *count = 1;
    }
}

// Gardenia's PageRank: printed, then the loop's condition.
int pagerank(const float *x, float *d_diff, int max_iter)
{
    int iter = 0;
    float h_diff;
    do {
        ++iter;
        h_diff = 0;
        SAFE_CALL(cudaMemcpy(d_diff, &h_diff, sizeof(float), cudaMemcpyHostToDevice)); // expect: SYNC202
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop tests it to decide whether to go on (line 46, the loop's condition) and prints it (line 45); to remove the stall, test and print it every N iterations or on the device
        printf(" %2d    %f\n", iter, h_diff);
    } while (h_diff > 1e-4f && iter < max_iter);
    return iter;
}

// Printed through a function of the program: host work that could come before the readback.
void show(float v);
int shown(const float *x, float *d_diff, int max_iter)
{
    int iter = 0;
    float h_diff;
    do {
        ++iter;
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        show(h_diff);
    } while (h_diff > 1e-4f && iter < max_iter);
    return iter;
}

// A print of the round only, between the readback and the test: it could come before.
int round_printed(const float *x, float *d_diff, int max_iter)
{
    int iter = 0;
    float h_diff;
    do {
        ++iter;
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("round %d\n", iter);
    } while (h_diff > 1e-4f && iter < max_iter);
    return iter;
}

// Printed, not tested: a metric the host could read later.
void metric(const float *x, float *d_diff, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        float h_diff;
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        printf("%d %f\n", i, h_diff);
    }
}

// Gardenia's PageRank (delta): printed, then an 'if' that leaves; the residual's square root
// printed through the C library (cuda-samples' CG), to the console.
void delta(const float *x, float *d_diff, int max_iter)
{
    for (int iter = 0; iter < max_iter; iter++) {
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        float h_diff;
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host tests it to decide what runs next (line 100 branches on it) and prints it (line 98); to remove the stall, test and print it every N iterations or on the device
        printf("residual = %e\n", sqrt(h_diff));
        std::cout << iter << " " << h_diff << std::endl;
        if (h_diff < 1e-4f)
            break;
    }
}

// The same printed and also summed: the test still chooses what runs next (chooses.c).
float delta_summed(const float *x, float *d_diff, int max_iter)
{
    float total = 0.f;
    for (int iter = 0; iter < max_iter; iter++) {
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        float h_diff;
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 114's 'if' tests it before any launch)
        printf("residual = %e\n", h_diff);
        if (h_diff < 1e-4f)
            break;
        total += h_diff;
    }
    return total;
}

// Gardenia's BC forward loop: the flag, then at once the count of the same work, read back the
// same way; the count is summed into the next round's offset.
int topo(int *depth, bool *d_changed, int *d_count, int *offsets)
{
    bool changed;
    int count = 0, total = 0, level = 0;
    do {
        total += count;
        offsets[level++] = total;
        changed = false;
        SAFE_CALL(cudaMemcpy(d_changed, &changed, sizeof(bool), cudaMemcpyHostToDevice)); // expect: SYNC202
        forward<<<1, 64>>>(depth, d_changed, d_count); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&changed, d_changed, sizeof(bool), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop only tests it to decide whether to go on (line 135, the loop's condition); to remove the stall, test it every N iterations or on the device
        SAFE_CALL(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
    } while (changed);
    return total;
}

// Both values only tested: two notes.
int topo_tested(int *depth, bool *d_changed, int *d_count)
{
    bool changed;
    int count = 0, level = 0;
    do {
        level++;
        forward<<<1, 64>>>(depth, d_changed, d_count); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&changed, d_changed, sizeof(bool), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note
        SAFE_CALL(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note
    } while (changed && count > 0);
    return level;
}

// The count read back into an array, kept: a warning; the flag a note of chooses.c.
void topo_array(int *depth, bool *d_changed, int *d_count, int *counts)
{
    bool changed;
    int level = 0;
    do {
        forward<<<1, 64>>>(depth, d_changed, d_count); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&changed, d_changed, sizeof(bool), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 163, the loop's condition, tests it before any launch)
        SAFE_CALL(cudaMemcpy(&counts[level], d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning expect-no-message: inherent as written
        level++;
    } while (changed);
}

// The count copied asynchronously on a stream: another kind of copy, which does not wait.
int topo_async(int *depth, bool *d_changed, int *d_count, cudaStream_t s)
{
    bool changed;
    int count = 0;
    do {
        forward<<<1, 64>>>(depth, d_changed, d_count); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&changed, d_changed, sizeof(bool), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: warning
        SAFE_CALL(cudaMemcpyAsync(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost, s)); // expect: SYNC201
    } while (changed);
    return count;
}

// Gardenia's BC bottom-up loop: the last round's count kept in 'old', which only the loop's
// condition reads.
int bottom_up(int *depth, bool *d_changed, int *d_count, int m)
{
    int awake = m, old, rounds = 0;
    do {
        old = awake;
        rounds++;
        forward<<<1, 64>>>(depth, d_changed, d_count); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&awake, d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the loop tests it to decide whether to go on (line 189, the loop's condition) and keeps it in 'old' (line 185), which the host only tests; to remove the stall, test it every N iterations or on the device
    } while (awake >= old || awake > m / 18);
    return rounds;
}

// The same with 'old' also summed: the loop's condition still tests the value (chooses.c).
int bottom_up_summed(int *depth, bool *d_changed, int *d_count, int m)
{
    int awake = m, old, seen = 0;
    do {
        old = awake;
        seen += old;
        forward<<<1, 64>>>(depth, d_changed, d_count); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&awake, d_count, sizeof(int), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent: the value chooses the next device work (line 202, the loop's condition, tests it before any launch)
    } while (awake >= old || awake > m / 18);
    return seen;
}

// cuda-samples' Jacobi: an asynchronous readback, the wait for its stream, an 'if' that computes
// the final error, reads it back again and leaves; the value returned after the loop.
__global__ void jacobi(const float *x, double *sum) { *sum = x[threadIdx.x]; }
double jacobi_gpu(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    for (int k = 0; k < max_iter; k++) {
        cudaMemsetAsync(d_sum, 0, sizeof(double), s);
        jacobi<<<1, 64, 0, s>>>(x, d_sum);
        cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent as written: the host tests it to decide what runs next (line 217 branches on it) and reads it after the loop (line 226); to remove the stall, test it every N iterations or on the device
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for the value read back at line 215; the host tests it to decide what runs next (line 217 branches on it) and reads it after the loop (line 226); to remove the stall, test it every N iterations or on the device
        if (sum <= tol) {
            cudaMemsetAsync(d_sum, 0, sizeof(double), s);
            jacobi<<<1, 64, 0, s>>>(x, d_sum);
            cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-no-message: inherent as written
            printf("GPU error : %.3e\n", sum);
            break;
        }
    }
    return sum;
}

// The same where the branch goes on with the loop: the next round's wait also waits for the
// branch's copy to the host.
double jacobi_on(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s,
                 double *h_err)
{
    double sum = 0.0;
    for (int k = 0; k < max_iter; k++) {
        jacobi<<<1, 64, 0, s>>>(x, d_sum);
        cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-no-message: inherent as written
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (sum <= tol) {
            jacobi<<<1, 64, 0, s>>>(x, d_sum);
            cudaMemcpyAsync(h_err, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s);
        }
    }
    return sum;
}

// Kept after the loop in another local, whatever that local does: a read after the loop.
float kept_after(const float *x, float *d_diff, int max_iter)
{
    float h_diff = 1.f;
    for (int iter = 0; iter < max_iter; iter++) {
        l1norm<<<1, 64>>>(x, d_diff); // expect: SYNC101
        SAFE_CALL(cudaMemcpy(&h_diff, d_diff, sizeof(float), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent as written: the host tests it to decide what runs next (line 254 branches on it) and reads it after the loop (line 257); to remove the stall, test it every N iterations or on the device
        if (h_diff < 1e-4f)
            break;
    }
    float last = h_diff;
    return last * 2.f;
}

void make_stream(cudaStream_t *s) { cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
