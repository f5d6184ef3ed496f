// drained_alloc_free.cu: allocations and frees (SYNC402) in loops that launch kernels, in a unit
// that creates no stream, where the device has nothing queued when they run: at the top of a
// step whose predecessor ended with a wait for the whole device, after a free that follows such
// a wait (nothing was queued since the wait), after a synchronous upload that follows such a
// wait, with only a memset queued since, in a helper every call of which follows a wait: notes,
// "drained". The free right after the wait is not "drained" by it: it waits for the same work,
// so the wait is the "drained anyway" note and the free the stall of the two (a warning; session
// 37, wait_then_free.cu). A launch between the wait and the free, a wait on one
// branch only, a call of a function the unit only declares, a device switch (a free after a
// free of a local allocated since that switch is "drained" by it: free_drains.cu, session 45),
// an allocation after a synchronous copy that follows a launch (in a unit with no stream the copy
// waits for the legacy stream only, the allocation for every stream) and a device configuration
// keep their warnings.
#include <cuda_runtime.h>

__global__ void step(float *w, const float *x, float *scratch, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        scratch[i] = x[i] * w[i];
        w[i] -= 0.01f * scratch[i];
    }
}

void log_elsewhere(const float *p); // another unit's: it may queue work on a stream of its own

// Each step allocates, fills and frees its scratch buffers where nothing is queued.
void train(float *w, const float *host, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *x, *scratch, *errors, *more;
        cudaMalloc(&x, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_alloc_free.cu:44 drained it, and no work is queued between it and this call on any way the unit reaches it: the allocation waits for nothing else
        cudaMemcpy(x, host, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        cudaMalloc(&scratch, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: 'cudaMemcpy' at drained_alloc_free.cu:33 drained it (a synchronous copy, which waits for all work: the unit creates no stream and names none but the legacy one, so all its work is queued there), after 'cudaDeviceSynchronize' at drained_alloc_free.cu:44 drained every stream, with nothing queued between
        step<<<(n + 255) / 256, 256>>>(w, x, scratch, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFree' at line 37, a free of device memory
        cudaFree(scratch); // expect: SYNC402 expect-severity: warning
        cudaFree(x); // expect: SYNC402 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:37 drained it (it frees 'scratch', which 'cudaMalloc' allocated at line 34: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0), and no work is queued between it and this call on any way the unit reaches it: the free waits for nothing else
        cudaMalloc(&errors, 1000 * sizeof(float)); // expect: SYNC402 expect-severity: note
        cudaMemset(errors, 0, 1000 * sizeof(float));
        cudaMalloc(&more, 1000 * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: and no work but memsets is queued between it and this call
        cudaFree(more); // expect: SYNC402 expect-severity: note
        cudaFree(errors); // expect: SYNC402 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:43 drained it (it frees 'errors', which 'cudaMalloc' allocated at line 39: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0), and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else
    }
}

// The free is in a helper; every call of it follows a wait.
static void release(float *p)
{
    cudaFree(p); // expect: SYNC402 expect-severity: note expect-message: 'cudaDeviceSynchronize' at drained_alloc_free.cu:60 drained it
}

void train_helper(float *w, float *x, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *scratch;
        cudaMalloc(&scratch, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        step<<<(n + 255) / 256, 256>>>(w, x, scratch, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        release(scratch);
        step<<<(n + 255) / 256, 256>>>(w, x, w, n); // expect: SYNC101 expect-severity: note
    }
}

// Work queued between the wait and the free, or a wait that may not run: warnings.
void train_busy(float *w, float *x, float *host, int n, int steps, bool check)
{
    for (int s = 0; s < steps; s++) {
        float *a, *b, *c, *d, *e;
        cudaMalloc(&a, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        step<<<(n + 255) / 256, 256>>>(w, x, a, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        step<<<(n + 255) / 256, 256>>>(w, a, x, n); // expect: SYNC101 expect-severity: note
        cudaFree(a); // expect: SYNC402 expect-severity: warning
        cudaFree(x); // expect: SYNC402 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:75 drained it (it frees 'a', which 'cudaMalloc' allocated at line 71: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0)
        cudaMalloc(&b, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:75 drained it
        step<<<(n + 255) / 256, 256>>>(w, x, b, n); // expect: SYNC101 expect-severity: note
        if (check)
            cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaFree(b); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&c, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:81 drained it (it frees 'b', which 'cudaMalloc' allocated at line 77: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0)
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:81 drained it
        log_elsewhere(c);
        cudaFree(c); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaSetDevice(1);
        cudaMalloc(&d, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        step<<<(n + 255) / 256, 256>>>(w, x, d, n); // expect: SYNC101 expect-severity: note
        cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaMalloc(&e, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        cudaFree(e); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaFree' at drained_alloc_free.cu:92 drained it (it frees 'e', which 'cudaMalloc' allocated at line 91: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0)
        cudaDeviceSetLimit(cudaLimitStackSize, 1 << 12); // expect: SYNC402 expect-severity: warning
        cudaSetDevice(0);
    }
}

// A wait for the whole device after a readback that follows another such wait: the copy on the
// legacy stream waits for that stream only, but nothing was queued on any stream since the first
// wait, so the second waits for nothing; the first is "drained anyway" by the readback, which is
// the stall (shape Y, session 29). With a launch before the copy the second stays a warning.
void read_twice(float *w, float *host, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        step<<<(n + 255) / 256, 256>>>(w, w, w, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 108
        cudaMemcpy(host, w, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: after 'cudaDeviceSynchronize' at drained_alloc_free.cu:107 drained every stream, with nothing queued between, and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else
        step<<<(n + 255) / 256, 256>>>(w, w, w, n); // expect: SYNC101 expect-severity: note
        cudaMemcpy(host, w, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
