// exit_branch.cu: a call in a branch of a loop that ends by leaving the loop ('break' out of it,
// or 'return') runs once per run of the loop, not on every iteration (an iterative solver reads
// its final error back when it has converged): it gets the rule's own severity, as outside the
// loop (a note for a stream wait; a one-value readback, exit_readback.cu), with the reason.
// It stays per iteration where the 'break' leaves only an inner loop, where the branch goes on
// with the loop, or where the function itself is called from a loop that enqueues work.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void sweep(float *x, double *sum) { sum[0] += x[threadIdx.x]; }

double solve(float *x, double *d_sum, cudaStream_t s, int max_iter, const int *converged_at)
{
    double sum = 0.0;
    for (int k = 0; k < max_iter; k++) {
        sweep<<<1, 32, 0, s>>>(x, d_sum);
        if (k == converged_at[0]) {
            sweep<<<1, 32, 0, s>>>(x, d_sum);
            cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC301, SYNC201
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: exit: the branch at line 17 leaves the loop ('break' at line 22): it runs once per run of the loop at line 15, not on every iteration
            printf("error %.3e\n", sum);
            break;
        }
    }
    return sum;
}

int solve_or_fail(float *x, double *d_sum, cudaStream_t s, int max_iter, const int *bad_at)
{
    for (int k = 0; k < max_iter; k++) {
        sweep<<<1, 32, 0, s>>>(x, d_sum);
        if (k == bad_at[0]) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: exit: the branch at line 32 leaves the loop ('return' at line 34)
            return -1;
        }
    }
    return 0;
}

// The branch goes on with the loop: every iteration may take it.
void check_each(float *x, double *d_sum, cudaStream_t s, int max_iter, const int *at)
{
    for (int k = 0; k < max_iter; k++) {
        sweep<<<1, 32, 0, s>>>(x, d_sum);
        if (k >= at[0]) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

// The 'break' leaves the inner loop only, which queues nothing: the outer loop goes on.
void inner_break(float *x, double *d_sum, cudaStream_t s, int max_iter, const int *at)
{
    for (int k = 0; k < max_iter; k++) {
        sweep<<<1, 32, 0, s>>>(x, d_sum);
        for (int j = 0; j < 4; j++) {
            if (j == at[k]) {
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
                break;
            }
        }
    }
}

// Called from a loop that enqueues work: its exit branch runs once per epoch.
static void solve_epoch(float *x, double *d_sum, cudaStream_t s, int max_iter, const int *at)
{
    for (int k = 0; k < max_iter; k++) {
        sweep<<<1, 32, 0, s>>>(x, d_sum);
        if (k == at[0]) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            break;
        }
    }
}

void train(float *x, double *d_sum, cudaStream_t s, int epochs, const int *at)
{
    for (int e = 0; e < epochs; e++) {
        sweep<<<1, 32, 0, s>>>(x, d_sum);
        solve_epoch(x, d_sum, s, 100, at);
    }
}
