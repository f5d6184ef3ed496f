// legacy_convention_kept.cu: a file that queues at least as much of its work on streams as on
// the legacy stream: its legacy-stream launch and copy look like a stream argument left out,
// and stay warnings (a tie counts as streams: two and two).
#include <cuda_runtime.h>

__global__ void gemv(float *y, const float *x) { y[threadIdx.x] += x[threadIdx.x]; }

static cudaStream_t current_stream()
{
    static cudaStream_t s;
    if (s == nullptr)
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
    return s;
}

void compute_gemv(float *y, const float *x)
{
    gemv<<<1, 32, 0, current_stream()>>>(y, x);
    gemv<<<1, 32, 0, current_stream()>>>(y + 32, x);
}

void compute_gemv2(float *y, const float *x, float *shadow)
{
    cudaStream_t unused = current_stream();
    (void)unused;
    gemv<<<1, 32>>>(y, x); // expect: SYNC101 expect-severity: note expect-no-message: convention:
    cudaMemcpyAsync(shadow, y, 128, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: how often it runs is not shown
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
