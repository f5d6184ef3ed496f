// periodic_remainder_moves.cu: a remainder test makes its branch periodic only where the loop
// moves the dividend one way on its iterations and leaves the divisor alone. Still warnings: a
// remainder of a value the loop does not change ('seed % 8 == 0': true on every iteration or on
// none), of an inner loop's counter (0 again on every iteration of the outer loop), of a local
// of the body, of a counter the loop resets, and one whose divisor the loop changes (it may
// become 1). Notes as before: the for's own counter, a counter stepped in a while loop's body
// (by '++' or '+='), one started outside the loop by its for's first part, and a member counter.
#include <cuda_runtime.h>

__global__ void relax(double *x) { x[threadIdx.x] *= 0.5; }

struct Solver {
    double *d_x;
    double err;
    long iter;
};

void invariant_dividend(double *d_x, int n, int seed, cudaStream_t s)
{
    for (int k = 0; k < n; k++) {
        relax<<<1, 32, 0, s>>>(d_x);
        if (seed % 8 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void inner_counter(Solver *st, int m, cudaStream_t s)
{
    while (st->err > 1e-6) {
        for (int j = 0; j < m; j++) {
            if (j % 8 == 0)
                cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
        relax<<<1, 32, 0, s>>>(st->d_x);
    }
}

void inner_counter_local(Solver *st, int m, cudaStream_t s)
{
    while (st->err > 1e-6) {
        bool dirty = false;
        for (int j = 0; j < m; j++)
            dirty = j % 8 == 0;
        relax<<<1, 32, 0, s>>>(st->d_x);
        if (dirty)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void body_local(double *d_x, int n, cudaStream_t s)
{
    for (int k = 0; k < n; k++) {
        int phase = 0;
        relax<<<1, 32, 0, s>>>(d_x);
        phase++;
        if (phase % 16 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void reset_counter(double *d_x, int n, cudaStream_t s)
{
    int since = 0;
    for (int k = 0; k < n; k++) {
        relax<<<1, 32, 0, s>>>(d_x);
        since++;
        if (since % 32 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        since = 0;
    }
}

void changed_divisor(double *d_x, int n, int every, cudaStream_t s)
{
    for (int k = 0; k < n; k++) {
        if (k % every == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        relax<<<1, 32, 0, s>>>(d_x);
        every = 1;
    }
}

void for_counter(double *d_x, int n, int every, cudaStream_t s)
{
    for (int k = 0; k < n; k++) {
        relax<<<1, 32, 0, s>>>(d_x);
        if (k % every == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 87 tests 'k % every == 0')
    }
}

void while_counter(double *d_x, double *err, int every, cudaStream_t s)
{
    long it = 0, done = 0;
    while (*err > 1e-6) {
        relax<<<1, 32, 0, s>>>(d_x);
        it++;
        done += 4;
        if (it % every == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 99 tests 'it % every == 0')
        if (done % 64 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 101 tests 'done % 64 == 0')
    }
}

void started_outside(double *d_x, int n, cudaStream_t s)
{
    int k;
    for (k = 0; k < n; k++) {
        relax<<<1, 32, 0, s>>>(d_x);
        if (k % 100 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 111 tests 'k % 100 == 0')
    }
}

void member_counter(Solver *st, cudaStream_t s)
{
    while (st->err > 1e-6) {
        relax<<<1, 32, 0, s>>>(st->d_x);
        st->iter++;
        if (st->iter % 50 == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 121 tests 'st->iter % 50 == 0')
    }
}
