// drained_callee_queues.cu: helpers of the unit that end with a wait for the whole device,
// each called from a loop right after the loop's own wait drained the device. A helper that
// queues work before its wait (a launch, a memset, a launch on one branch) waits for that
// work: its wait is a warning. One that only waits, or clears a buffer after its wait, waits
// for nothing: a "drained" note. tests/cli/callee_queues.sh gives the same verdicts where the
// helpers are another unit's, at their calls.
#include <cuda_runtime.h>

__global__ void wrap_cells(float *c, int n) { c[threadIdx.x % n] = c[n - 1]; }
__global__ void relax(float *c, int n) { c[threadIdx.x % n] *= 0.5f; }

void wrap_halo(float *c, int n)
{
    wrap_cells<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'wrap_halo()' called from the loop at drained_callee_queues.cu:37
}
void settle() { cudaDeviceSynchronize(); } // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_callee_queues.cu:44 drained it
void zero_then_settle(float *c, int n)
{
    cudaMemset(c, 0, n * sizeof(float));
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'zero_then_settle()' called from the loop at drained_callee_queues.cu:47
}
void settle_then_zero(float *c, int n)
{
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_callee_queues.cu:54 drained it
    cudaMemsetAsync(c, 0, n * sizeof(float)); // expect: SYNC102 expect-severity: note
}
void wrap_if_periodic(float *c, int n, bool periodic)
{
    if (periodic)
        wrap_cells<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-message: 'cudaDeviceSynchronize' in 'wrap_if_periodic()' called from the loop at drained_callee_queues.cu:57
}

void advance(float *c, int n, int steps, bool periodic)
{
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        wrap_halo(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        settle();
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        zero_then_settle(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        settle_then_zero(c, n);
    }
    for (int s = 0; s < steps; s++) {
        relax<<<1, 64>>>(c, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        wrap_if_periodic(c, n, periodic);
    }
}
