// periodic_disjunction.cu: an 'if' is periodic only when its whole condition holds once in a
// while, as for a local that holds the test. A disjunction ('||') holds whenever one of its
// sides does: it is periodic when one side is a remainder test and every other side holds
// periodically too or on one iteration only, the loop's last ('step % every == 0 || step ==
// steps - 1', also through a local 'last'), a note; not when a side may hold on every iteration
// ('step % every == 0 || verbose', a flag read on every iteration, a counter the loop changes),
// a warning, as 'step % every == 0' negated, given to a function, or compared again. A test of
// the last iteration alone is not periodic either.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void train_step(float *w) { w[threadIdx.x] -= 0.1f; }

static int ready(int at_period) { return at_period; }

void train(float *w, int steps, int every, int verbose, const int *done, cudaStream_t s)
{
    int limit = steps;
    for (int step = 0; step < steps; step++) {
        train_step<<<1, 32, 0, s>>>(w);
        printf("step %d of %d\n", step, steps); // a variadic call: by value, changes neither
        int last = step == steps - 1;
        if (step % every == 0 || step == steps - 1)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 23 tests 'step % every == 0')
        if ((step > 0 && step % every == 0) || last) {
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 25 tests 'step % every == 0')
        }
        if (step % 100 == 0 || step % every == 0)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: periodic: it runs once in a while (line 28 tests 'step % 100 == 0')
        if (step % every == 0 || verbose)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (step % every == 0 || done[step])
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (step % every == 0 || step == limit)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (!(step % every == 0))
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (ready(step % every == 0))
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if ((step % every == 0) == verbose)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (last)
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        limit -= verbose;
    }
}
