// inherent_direct_out_param.cu: a one-value readback straight into the caller's variable, through
// a pointer parameter ('cudaMemcpy(count, ...)'), the address of a reference parameter
// or a member of what a pointer parameter points to, which the function names nowhere after the
// copy: the copy hands the value to the caller, as '*count = v;' does right after a copy into a
// local. Inherent, a note, also where each copy is handed to an error check. Warnings stay where
// the function reads the value again or copies into it a second time (the value handed over is
// not this copy's), where it points the parameter elsewhere before the copy, where the parameter
// is taken by value (the function's own copy), and inside a loop that launches work.
#include <cuda_runtime.h>

__device__ unsigned produced, dropped;
const void *const produced_at = &produced, *const dropped_at = &dropped;

__global__ void count_up(unsigned *n) { atomicAdd(n, 1u); }

struct Tally {
    unsigned seen;
    unsigned kept;
};

void report_failure(cudaError_t e); // another unit's error check
#define CHECK(call) report_failure(call)

void fetch_produced(const unsigned *d_made, unsigned *count)
{
    cudaMemcpy(count, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the copy hands it to the caller through 'count' (it reads the value straight into the caller's variable, which the function does not name again)
}

// The same through a local: the rule this one follows.
void fetch_produced_local(const unsigned *d_made, unsigned *count)
{
    unsigned v = 0;
    cudaMemcpy(&v, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 34 hands it to the caller through 'count')
    *count = v;
}

void fetch_by_reference(const unsigned *d_made, unsigned &count)
{
    cudaMemcpy(&count, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: hands it to the caller through 'count'
}

void fetch_member(const unsigned *d_seen, Tally *t)
{
    cudaMemcpy(&t->seen, d_seen, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: hands it to the caller through 't'
}

void fetch_counts(unsigned *made, unsigned *lost)
{
    CHECK(cudaMemcpyFromSymbol(made, produced_at, sizeof(unsigned), 0, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: hands it to the caller through 'made'
    CHECK(cudaMemcpyFromSymbol(lost, dropped_at, sizeof(unsigned), 0, cudaMemcpyDeviceToHost)); // expect: SYNC301 expect-severity: note expect-message: hands it to the caller through 'lost'
}

// The function reads the value itself before the caller gets it.
void fetch_and_offset(const unsigned *d_made, unsigned *count, unsigned base)
{
    cudaMemcpy(count, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    *count += base;
}

// The second copy overwrites what the first read back.
void fetch_twice(const unsigned *d_made, const unsigned *d_lost, unsigned *count)
{
    cudaMemcpy(count, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    cudaMemcpy(count, d_lost, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
}

// The parameter points at the function's own scratch by the time of the copy.
unsigned scratch;

void fetch_into_scratch(const unsigned *d_made, unsigned *count)
{
    count = &scratch;
    cudaMemcpy(count, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
}

// A parameter taken by value is the function's own.
void fetch_by_value(const unsigned *d_made, unsigned count)
{
    cudaMemcpy(&count, d_made, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
}

// Every iteration launches and reads the count back: the loop decides.
void fetch_each_step(unsigned *d_n, unsigned *count, int steps)
{
    for (int i = 0; i < steps; i++) {
        count_up<<<1, 32>>>(d_n); // expect: SYNC101 expect-severity: note
        cudaMemcpy(count, d_n, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
    }
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
