// inherent_direct_out_param_branch.cu: held-out-23's shape AZ. A one-value readback straight into
// the caller's variable (inherent_direct_out_param.cu) on one branch of an 'if', the variable
// set on the other branch ('else r = 0.0;'): one call runs the copy or the store, never both,
// so whenever the copy runs the caller gets its value: inherent, a note, as without the store.
// Only a plain store through the parameter, standing as a statement, on the other arm of the
// same 'if' (or 'else if' chain) is passed over, before or after the copy in the text. The rest
// keeps its finding: a store after the copy on its own path, a read after it ('return r > 0'),
// a store before it on its path that the copy overwrites, a store whose value reads the
// variable, a store inside an expression, the address taken, the pointer pointed elsewhere, an
// 'if' whose condition holds the copy, a 'switch' that falls through, and an 'if' that one call
// may run twice: inside a loop (one lint does not count as repeating device work), inside a
// lambda, or under a 'goto' or setjmp.
#include <cuda_runtime.h>
#include <setjmp.h>

__global__ void partial_sums(const double *x, double *terms, int n) { terms[threadIdx.x] = x[0] * n; }
__global__ void total(const double *terms, double *out, int n) { out[0] = terms[0] * n; }

struct Tally {
    unsigned seen;
    unsigned kept;
};

void report_failure(cudaError_t e); // another unit's error check
#define CHECK(call) report_failure(call)

// Two sums for the caller; the second is zero when there is nothing to sum.
void pair_energy(const double *d_x, double *d_terms, double *d_sum, int n, bool charged,
                 double &dispersion, double &charge)
{
    partial_sums<<<1, 64>>>(d_x, d_terms, n); // expect: SYNC101 expect-severity: note
    total<<<1, 1>>>(d_terms, d_sum, n); // expect: SYNC101 expect-severity: note
    cudaMemcpy(&dispersion, d_sum, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the copy hands it to the caller through 'dispersion' (it reads the value straight into the caller's variable, which the function does not name again)
    if (charged) {
        total<<<1, 1>>>(d_terms, d_sum + 1, n); // expect: SYNC101 expect-severity: note
        CHECK(cudaMemcpy(&charge, d_sum + 1, sizeof(double), cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: inherent: the copy hands it to the caller through 'charge' (it reads the value straight into the caller's variable, which the function names again only where it sets it on the other branch of the 'if' at line 34)
    } else {
        charge = 0.0;
    }
}

// The store on the first arm, before the copy in the text; braces left out.
void level_or_zero(const double *d_level, bool ready, double &level)
{
    if (!ready)
        level = 0.0;
    else
        cudaMemcpy(&level, d_level, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: names again only where it sets it on the other branch of the 'if' at line 45
}

// Through a pointer parameter.
void count_or_none(const unsigned *d_count, bool empty, unsigned *count)
{
    if (!empty)
        cudaMemcpy(count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: names again only where it sets it on the other branch of the 'if' at line 54
    else
        *count = 0;
}

// The copy on the 'else' branch, the store through the pointer before it in the text.
void count_unless_empty(const unsigned *d_count, bool empty, unsigned *count)
{
    if (empty) {
        *count = 0;
    } else {
        cudaMemcpy(count, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: names again only where it sets it on the other branch of the 'if' at line 63
    }
}

// An 'else if' chain: a member of what a pointer parameter points to, set on two other arms.
void seen_by_mode(const unsigned *d_seen, int mode, Tally *t)
{
    if (mode == 0) {
        t->seen = 0;
    } else if (mode == 1) {
        cudaMemcpy(&t->seen, d_seen, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: names again only where it sets it on the other branch of the 'if' at line 73
    } else {
        t->seen = ~0u;
    }
}

// A store after the copy on its own path: the caller gets the store's value, not the copy's.
void clamped(const double *d_v, bool on, bool clamp, double &v)
{
    if (on) {
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        if (clamp)
            v = 1.0;
    } else {
        v = 0.0;
    }
}

// A read after the copy, past other work: the function uses the value itself.
int over_limit(const double *d_v, double *d_x, int n, bool on, double limit, double &v)
{
    if (on)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = 0.0;
    partial_sums<<<1, 64>>>(d_x, d_x + 64, n); // expect: SYNC101 expect-severity: note
    int over = 0;
    if (v > limit)
        over = 1;
    return over;
}

// A store before the copy on its path, which the copy overwrites.
void preset(const double *d_v, bool on, double &v)
{
    v = 0.0;
    if (on)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
}

// On the other branch: a store whose value reads the variable, a store inside an expression,
// the address given away, the pointer pointed elsewhere.
void halved(const double *d_v, bool on, double &v)
{
    if (on)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = v * 0.5;
}

void summed(const double *d_v, bool on, double &v, double &sum)
{
    if (on)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        sum += (v = 0.0);
}

void reset(double *p);

void zero_tested(const double *d_v, bool on, double &v)
{
    if (on)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else if ((v = 0.0))
        reset(nullptr);
}

void handed_on(const double *d_v, bool on, double &v)
{
    if (on)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        reset(&v);
}

double fallback;

void elsewhere(const double *d_v, bool on, double *v)
{
    if (on) {
        cudaMemcpy(v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    } else {
        v = &fallback;
        *v = 0.0;
    }
}

// The copy in the condition: the branch runs after it.
void fetch_or_zero(const double *d_v, double &v)
{
    if (cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess) // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        v = 0.0;
}

// A 'switch' whose first case falls through into the store.
void by_case(const double *d_v, int mode, double *v)
{
    switch (mode) {
    case 0:
        cudaMemcpy(v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    case 1:
        *v = 0.0;
        break;
    default:
        break;
    }
}

// The 'if' inside a loop that runs its body once, inside a do-while that runs it twice, inside
// a lambda called twice: the second pass may store over what the first copied.
void one_pass(const double *d_v, bool on, double &v)
{
    for (;;) {
        if (on)
            cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        else
            v = 0.0;
        break;
    }
}

void two_passes(const double *d_v, bool on, double &v)
{
    int pass = 0;
    do {
        if (on)
            cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        else
            v = 0.0;
        on = !on;
    } while (++pass < 2);
}

void picked_twice(const double *d_v, double &v)
{
    auto pick = [&](bool on) {
        if (on)
            cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        else
            v = 0.0;
    };
    pick(true);
    pick(false);
}

// A jump back to the 'if', by 'goto' or by longjmp.
void jumped(const double *d_v, int tries, double &v)
{
    int pass = 0;
again:
    if (pass == 0)
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    else
        v = 0.0;
    if (++pass < tries)
        goto again;
}

jmp_buf restart;

void long_jumped(const double *d_v, double &v)
{
    if (setjmp(restart) == 0) {
        cudaMemcpy(&v, d_v, sizeof(double), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        longjmp(restart, 1);
    } else {
        v = 0.0;
    }
}
