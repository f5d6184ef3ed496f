// free_drains.cu: a free of memory that a synchronizing allocator gave waits for the whole device
// (measured, docs/studies/validation.md 2026-12-06 23:40), and so drains it where it surely
// frees such memory: a local variable its function writes once, as the out-argument of the
// matching allocator ('cudaMalloc' for 'cudaFree', 'cudaMallocHost' for 'cudaFreeHost'), in a
// statement before the free's that runs whenever the free's does, nothing between that may
// switch the device (session 45, held-out-42's AE: gnss_gpu's find_peak_and_snr): what follows
// with nothing queued between is "drained". A free of a parameter, of a local written twice or
// allocated under a branch, of managed or stream-ordered memory, or after a call since the
// allocation that may switch the device (a helper that does, another unit's function, a call
// through a pointer) drains nothing. A switch before the allocation does not matter.
#include <cuda_runtime.h>

__global__ void reduce(const float *in, float *out, int n)
{
    if (threadIdx.x == 0 && n > 0)
        out[blockIdx.x] = in[0];
}

// gnss_gpu's shape: scratch buffers for a reduction, read back, then freed one after another.
static float peak(const float *d_mag, int n, float *host)
{
    float *d_max, *d_sum, *d_idx;
    cudaMalloc(&d_max, 64 * sizeof(float)); // expect: SYNC402 expect-severity: warning
    cudaMalloc(&d_sum, 64 * sizeof(float)); // expect: SYNC402 expect-severity: warning
    cudaMalloc(&d_idx, 64 * sizeof(float)); // expect: SYNC402 expect-severity: warning
    reduce<<<64, 256>>>(d_mag, d_max, n); // expect: SYNC101 expect-severity: note
    cudaMemcpy(host, d_max, 64 * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    float best = host[0];
    cudaFree(d_max); // expect: SYNC402 expect-severity: warning
    cudaFree(d_sum); // expect: SYNC402 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaFree' at free_drains.cu:29 drained it (it frees 'd_max', which 'cudaMalloc' allocated at line 23: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0), and no work is queued between it and this call on any way the unit reaches it: the free waits for nothing else
    cudaFree(d_idx); // expect: SYNC402 expect-severity: note expect-message: 'cudaFree' at free_drains.cu:30 drained it
    return best;
}

void search(const float *d_mag, int n, int bins, float *host)
{
    for (int b = 0; b < bins; b++) {
        reduce<<<1, 1>>>(d_mag, host, n); // expect: SYNC101 expect-severity: note
        host[b] = peak(d_mag, n, host);
    }
}

// A free, then an upload and a wait with nothing queued between: "drained".
void staged(float *d_out, const float *host, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *tmp;
        cudaMallocHost(&tmp, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: 'cudaDeviceSynchronize' at free_drains.cu:56 drained it
        float *scratch;
        cudaMalloc(&scratch, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, scratch, n); // expect: SYNC101 expect-severity: note
        cudaFree(scratch); // expect: SYNC402 expect-severity: warning
        cudaMemcpy(d_out, host, n * sizeof(float), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note expect-message: 'cudaFree' at free_drains.cu:52 drained it (it frees 'scratch', which 'cudaMalloc' allocated at line 50: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0)
        reduce<<<1, 256>>>(d_out, d_out, n); // expect: SYNC101 expect-severity: note
        cudaFreeHost(tmp); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaFreeHost' at free_drains.cu:55 drained it (it frees 'tmp', which 'cudaMallocHost' allocated at line 48: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0), and no work is queued between it and this call on any way the unit reaches it: the wait waits for nothing else
    }
}

// Frees that may free something else: what follows keeps its warning.
void loose(float *given, float *d_out, int n, int steps, bool big)
{
    for (int s = 0; s < steps; s++) {
        reduce<<<1, 256>>>(d_out, d_out, n); // expect: SYNC101 expect-severity: note
        cudaFree(given); // expect: SYNC402 expect-severity: warning
        float *twice;
        cudaMalloc(&twice, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        reduce<<<1, 256>>>(d_out, twice, n); // expect: SYNC101 expect-severity: note
        cudaFree(twice); // expect: SYNC402 expect-severity: warning
        cudaMalloc(&twice, 2 * n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        reduce<<<1, 256>>>(d_out, twice, n); // expect: SYNC101 expect-severity: note
        cudaFree(twice); // expect: SYNC402 expect-severity: warning
        float *maybe = nullptr;
        if (big)
            cudaMalloc(&maybe, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        reduce<<<1, 256>>>(d_out, d_out, n); // expect: SYNC101 expect-severity: note
        cudaFree(maybe); // expect: SYNC402 expect-severity: warning
        float *managed;
        cudaMallocManaged(&managed, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        reduce<<<1, 256>>>(d_out, managed, n); // expect: SYNC101 expect-severity: note
        cudaFree(managed); // expect: SYNC402 expect-severity: warning
        float *ordered;
        cudaMallocAsync(&ordered, n * sizeof(float), 0); // expect: SYNC102 expect-severity: note
        cudaFreeAsync(ordered, 0); // expect: SYNC102 expect-severity: note
        cudaFree(ordered);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

static void on(int dev)
{
    cudaSetDevice(dev);
}

// The device switched between the allocation and the free: the free's memory is another
// device's, and the wait after it may find work on the current one (the allocation at the top
// of the next step follows that wait: drained).
void switched(float *d_out, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *tmp;
        cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: 'cudaDeviceSynchronize' at free_drains.cu:106 drained it
        on(s % 2);
        reduce<<<1, 256>>>(d_out, tmp, n); // expect: SYNC101 expect-severity: note
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void elsewhere(float *p); // another unit's: it may switch the device

// A per-device worker: the switch before the allocation does not matter (the memory is the
// current device's); a call between the allocation and the free that lint cannot follow (a
// function another unit defines, a call through a pointer) may switch: no drain.
void worker(int dev, float *d_out, int n, int steps, void (*hook)(float *))
{
    cudaSetDevice(dev);
    for (int s = 0; s < steps; s++) {
        float *tmp;
        cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: 'cudaDeviceSynchronize' at free_drains.cu:135 drained it
        reduce<<<1, 256>>>(d_out, tmp, n); // expect: SYNC101 expect-severity: note
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: 'cudaFree' at free_drains.cu:122 drained it (it frees 'tmp', which 'cudaMalloc' allocated at line 120: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0)
        float *across;
        cudaMalloc(&across, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, across, n); // expect: SYNC101 expect-severity: note
        elsewhere(across);
        cudaFree(across); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        float *hooked;
        cudaMalloc(&hooked, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, hooked, n); // expect: SYNC101 expect-severity: note
        hook(hooked);
        cudaFree(hooked); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

struct Pool {
    cudaError_t cudaMalloc(float **p, size_t n); // a pool's own allocator, stream-ordered perhaps
};

#define gpuErrchk(ans) { check_error((ans), __FILE__, __LINE__); }
inline void check_error(cudaError_t e, const char *file, int line)
{
    if (e != cudaSuccess && file && line)
        cudaGetLastError();
}

// Frees that free their allocation more than once, memory of a member named like the toolkit's
// allocator: no drain. The allocation in a '{ ... }' block of a checking macro: a drain.
void once_more(float *d_out, int n, int steps, Pool &pool)
{
    float *before;
    cudaMalloc(&before, n * sizeof(float));
    for (int s = 0; s < steps; s++) {
        reduce<<<1, 256>>>(d_out, d_out, n); // expect: SYNC101 expect-severity: note
        cudaFree(before); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        float *pooled;
        pool.cudaMalloc(&pooled, n); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, pooled, n); // expect: SYNC101 expect-severity: note
        cudaFree(pooled); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        float *checked;
        gpuErrchk(cudaMalloc(&checked, n * sizeof(float))); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, checked, n); // expect: SYNC101 expect-severity: note
        gpuErrchk(cudaFree(checked)); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: (it frees 'checked', which 'cudaMalloc' allocated at line
    }
}

#include <device_guard.h>

// A library's switch between the allocation and the free: a guard whose constructor the header
// defines, a function whose name says it sets the device: no drain.
void library_switch(float *d_out, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        float *guarded;
        cudaMalloc(&guarded, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        gpulib::DeviceGuard g(s % 2);
        reduce<<<1, 256>>>(d_out, guarded, n); // expect: SYNC101 expect-severity: note
        cudaFree(guarded); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        float *named;
        cudaMalloc(&named, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        gpulib::SetDevice(s % 2);
        reduce<<<1, 256>>>(d_out, named, n); // expect: SYNC101 expect-severity: note
        cudaFree(named); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

#define SAFE_FREE(p) do { cudaFree(p); (p) = nullptr; } while (0)

// The pointer set to null after its free (written out, or in the freeing macro): a drain; set to
// null before it: no drain (it may free nothing).
void nulled(float *d_out, int n, int steps, bool drop)
{
    for (int s = 0; s < steps; s++) {
        float *after;
        cudaMalloc(&after, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, after, n); // expect: SYNC101 expect-severity: note
        cudaFree(after); // expect: SYNC402 expect-severity: warning
        after = nullptr;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: (it frees 'after', which 'cudaMalloc' allocated at line
        float *wrapped;
        cudaMalloc(&wrapped, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, wrapped, n); // expect: SYNC101 expect-severity: note
        SAFE_FREE(wrapped); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: (it frees 'wrapped', which 'cudaMalloc' allocated at line
        float *before;
        cudaMalloc(&before, n * sizeof(float)); // expect: SYNC402 expect-severity: note
        reduce<<<1, 256>>>(d_out, before, n); // expect: SYNC101 expect-severity: note
        if (drop)
            before = nullptr;
        cudaFree(before); // expect: SYNC402 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
