// exit_readback.cu: an iterative solver reads its residual back on every sweep to test it, and
// once it has converged reads the final error back in the branch that leaves the loop. The
// final readback runs once per solve (a result, like a metric's final value after a loop): a
// note, with the reason. The readback tested on every sweep stays a warning, and so does a
// readback where the branch goes on with the loop, tests the value to decide whether to leave,
// leaves only an inner loop, sits in a loop nested in another, or where the solver itself is
// called from a loop that enqueues work.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void relax(float *x, double *sum) { sum[0] += x[threadIdx.x]; }
__global__ void residual(const float *x, double *err) { err[0] = x[threadIdx.x]; }

double solve(float *x, double *d_sum, double *h_sum, cudaStream_t s, int max_iter, double tol)
{
    for (int k = 0; k < max_iter; k++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        cudaMemcpyAsync(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (h_sum[0] <= tol) {
            residual<<<1, 32, 0, s>>>(x, d_sum);
            cudaMemcpyAsync(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note expect-message: exit: the branch at line 20 leaves the loop ('break' at line 25): it runs once per run of the loop at line 16, not on every iteration: the value is read once, when the loop ends (its final result)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note
            printf("error %.3e after %d sweeps\n", h_sum[0], k + 1);
            break;
        }
    }
    return h_sum[0];
}

// Leaving by 'return', with a synchronous readback.
int solve_or_fail(float *x, double *d_sum, double *h_err, cudaStream_t s, int max_iter,
                  const int *bad_at)
{
    for (int k = 0; k < max_iter; k++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        if (k == bad_at[0]) {
            cudaMemcpy(h_err, d_sum, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: exit: the branch at line 37 leaves the loop ('return' at line 40)
            printf("diverged: %.3e\n", h_err[0]);
            return -1;
        }
    }
    return 0;
}

// The value read decides whether to leave: read on every iteration the branch is taken.
void read_then_test(float *x, double *d_sum, double *h_sum, cudaStream_t s, int max_iter,
                    int warmup, double tol)
{
    for (int k = 0; k < max_iter; k++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        if (k >= warmup) {
            cudaMemcpyAsync(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
            if (h_sum[0] <= tol)
                break;
        }
    }
}

// The branch goes on with the loop.
void log_each(float *x, double *d_sum, double *h_sum, cudaStream_t s, int max_iter, int quiet)
{
    for (int k = 0; k < max_iter; k++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        if (k > quiet) {
            cudaMemcpy(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
            printf("sum %.3e\n", h_sum[0]);
            continue;
        }
    }
}

// The 'break' leaves the inner loop, which queues nothing: the outer loop goes on.
void inner_break(float *x, double *d_sum, double *h_sum, cudaStream_t s, int max_iter,
                 const int *at)
{
    for (int k = 0; k < max_iter; k++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        for (int j = 0; j < 4; j++) {
            if (j == at[k]) {
                cudaMemcpy(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
                break;
            }
        }
    }
}

// The solver's loop in another loop of its function: once per outer iteration.
void solve_each_frame(float *x, double *d_sum, double *h_sum, cudaStream_t s, int frames,
                      const int *at)
{
    for (int f = 0; f < frames; f++) {
        for (int k = 0; k < 100; k++) {
            relax<<<1, 32, 0, s>>>(x, d_sum);
            if (k == at[f]) {
                cudaMemcpy(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
                break;
            }
        }
    }
}

// Called from a loop that enqueues work: its exit branch runs once per epoch.
static void solve_epoch(float *x, double *d_sum, double *h_sum, cudaStream_t s, const int *at)
{
    for (int k = 0; k < 100; k++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        if (k == at[0]) {
            cudaMemcpy(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
            break;
        }
    }
}

void train(float *x, double *d_sum, double *h_sum, cudaStream_t s, int epochs, const int *at)
{
    for (int e = 0; e < epochs; e++) {
        relax<<<1, 32, 0, s>>>(x, d_sum);
        solve_epoch(x, d_sum, h_sum, s, at);
    }
}
