// inherent_stored_out_param.cu: held-out-24's shape BA. The value a Thrust reduction or a
// one-value readback returns, stored straight into the caller's memory ('hist[b][0] =
// thrust::reduce(...);'): an element of what a pointer parameter points to, a reference
// parameter, a member of what a pointer parameter points to. Where the function names that
// parameter nowhere but as the target of such stores, the statement hands the value to the
// caller as 'hist[b][0] = s;' does right after 's = thrust::reduce(...);': inherent, a note,
// with the same limits. Warnings stay where the local form's would: a member of the method's
// own object (no parameter), a local array, a loop that launches kernels; and where the
// function reads what it stored (a loop condition tests it on the next pass, '+=', a later
// read), or points the parameter elsewhere first.
// lint-args: -std=c++17
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

__global__ void smooth(float *bins, int n) { bins[threadIdx.x] *= 0.5f; }

// Two sums per band, each straight into the caller's table.
void band_totals(const float *bins, int width, int bands, double **hist)
{
    for (int b = 0; b < bands; ++b) {
        const float *row = bins + b * width;
        hist[b][0] = thrust::reduce(thrust::device, row, row + width); // expect: SYNC301 expect-severity: note expect-message: inherent: its statement hands it to the caller through 'hist' (it stores the value straight into the caller's variable, which the function only stores into)
        hist[b][1] = thrust::reduce(thrust::device, row, row + width / 2); // expect: SYNC301 expect-severity: note expect-message: inherent: its statement hands it to the caller through 'hist'
    }
}

// The same through a local: the rule the direct form follows.
void band_totals_local(const float *bins, int width, int bands, double **hist)
{
    for (int b = 0; b < bands; ++b) {
        const float *row = bins + b * width;
        const float whole = thrust::reduce(thrust::device, row, row + width); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 35 hands it to the caller through 'hist')
        hist[b][0] = whole;
    }
}

// A reference parameter, and a loop written without braces. A known limit (the local form's
// too): every pass overwrites the same place, so only the last readback reaches the caller, and
// the note's "hands it to the caller" is true of that one only.
void last_level(const float *levels, int width, int depth, float &coarsest)
{
    for (int d = 0; d < depth; ++d)
        coarsest = thrust::reduce(thrust::device, levels + d * width, levels + (d + 1) * width); // expect: SYNC301 expect-severity: note expect-message: its statement hands it to the caller through 'coarsest'
}

struct Summary {
    float peak;
    float spread;
};

// One element read back into a member of what a pointer parameter points to; the same known
// limit: each pass overwrites 'out->peak'.
void first_of_each(thrust::device_vector<float> &firsts, int rounds, Summary *out)
{
    for (int r = 0; r < rounds; ++r) {
        out->peak = firsts[r]; // expect: SYNC301 expect-severity: note expect-message: its statement hands it to the caller through 'out'
    }
}

// A member of the method's own object: no parameter, a warning, as through a local.
struct Gauge {
    float level;
    void sample(const float *p, int n, int times);
    void sample_local(const float *p, int n, int times);
};

void Gauge::sample(const float *p, int n, int times)
{
    for (int t = 0; t < times; ++t)
        level = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
}

void Gauge::sample_local(const float *p, int n, int times)
{
    for (int t = 0; t < times; ++t) {
        float s = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
        level = s;
    }
}

// A local array that the loop's condition tests on the next pass: the function's own value.
int passes_until_flat(const float *p, int n, float flat)
{
    float seen[16];
    int k = 0;
    while (k < 16 && (k == 0 || seen[k - 1] > flat)) {
        seen[k] = thrust::reduce(thrust::device, p, p + n - k); // expect: SYNC301 expect-severity: warning
        ++k;
    }
    return k;
}

// The caller's variable, read back by the loop's condition on the next pass: a value the loop
// tests, a warning.
void settle(const float *p, int n, float tolerance, float *residual)
{
    while (*residual > tolerance) {
        *residual = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
    }
}

// Added to what the caller had, read after, or stored elsewhere when none is given.
void accumulate(const float *p, int n, int parts, float *total)
{
    for (int i = 0; i < parts; ++i)
        *total += thrust::reduce(thrust::device, p + i * n, p + (i + 1) * n); // expect: SYNC301 expect-severity: warning
}

float halves(const float *p, int n, int rounds, float *both)
{
    for (int i = 0; i < rounds; ++i) {
        both[0] = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
        both[1] = thrust::reduce(thrust::device, p, p + n / 2); // expect: SYNC301 expect-severity: warning
    }
    return both[0] - both[1];
}

void maybe_out(const float *p, int n, int rounds, float *out)
{
    float scratch = 0.f;
    if (out == nullptr)
        out = &scratch;
    for (int i = 0; i < rounds; ++i)
        *out = thrust::reduce(thrust::device, p, p + n); // expect: SYNC301 expect-severity: warning
}

// In a loop that launches kernels only a value that sizes work counts, as through a local.
void smoothed_sums(float *bins, int n, int rounds, float *sums)
{
    for (int i = 0; i < rounds; ++i) {
        smooth<<<1, 64>>>(bins, n); // expect: SYNC101
        sums[i] = thrust::reduce(thrust::device, bins, bins + n); // expect: SYNC301 expect-severity: warning expect-message: it runs on every iteration of the loop at line 132
    }
}
