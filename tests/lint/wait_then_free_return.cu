// wait_then_free_return.cu: a wait that ends a function whose every call in the unit frees right
// after it returns (held-out-28's shape CB across a return, ASTRA's cone_bp.cu: ConeBP_Array
// waits for its stream and returns; ConeBP frees the projection array next). cudaFreeArray,
// cudaFree of memory from cudaMalloc and cudaFreeHost of memory from cudaMallocHost wait for the
// whole device (measured, docs/studies/validation.md 2026-12-07), so the wait adds no stall of
// its own: a note, "drained anyway: '...()' ends here, and its one call in this unit ... is
// followed by a free ...", and the free keeps its SYNC402 warning. Warnings stay where a call
// is not followed by such a free: the free on an error path only, a stream-ordered free, work
// queued between the return and the free, more than two host statements between, or the wait
// not the function's last device call.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void back_project(cudaTextureObject_t tex, float *vol, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        vol[i] += (float)(tex + i);
}

static const cudaChannelFormatDesc *format;
static const cudaResourceDesc *resource;
static const cudaTextureDesc *sampling;

static bool check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        return false;
    }
    return true;
}

// ASTRA's ConeBP_Array: the texture and stream made here, the kernels, the wait, the destroys.
static bool bp_array(float *vol, cudaArray_t array, int n)
{
    cudaTextureObject_t tex;
    if (!check(cudaCreateTextureObject(&tex, resource, sampling, NULL), "texture"))
        return false;
    cudaStream_t stream;
    if (!check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream")) {
        cudaDestroyTextureObject(tex);
        return false;
    }
    for (int a = 0; a < 4; a++)
        back_project<<<(n + 255) / 256, 256, 0, stream>>>(tex, vol, n);
    bool ok = check(cudaStreamSynchronize(stream), "bp"); // expect: SYNC401 expect-severity: note expect-message: drained anyway: 'bp_array()' ends here, and its one call in this unit, in 'bp()', is followed by a free that waits for the whole device before it returns (where the CUDA calls succeed), 'cudaFreeArray' at line 68, a free of a CUDA array
    cudaDestroyTextureObject(tex);
    cudaStreamDestroy(stream);
    return ok;
}

static cudaArray_t projection_array(int n)
{
    cudaArray_t array = NULL;
    if (cudaMallocArray(&array, format, n, 1) != cudaSuccess)
        return NULL;
    return array;
}

// ASTRA's ConeBP: the array made per call and tested for null, freed right after the return.
static bool bp(float *vol, int n)
{
    cudaArray_t array = projection_array(n);
    if (!array)
        return false;
    bool ret = bp_array(vol, array, n);
    cudaFreeArray(array); // expect: SYNC402 expect-severity: warning expect-no-message: drained
    return ret;
}

// A wait for the whole device ending the function; two callers, each freeing memory from
// cudaMalloc next (one past a host statement): the note names both calls.
static void scale(float *d, int n)
{
    back_project<<<(n + 255) / 256, 256>>>(0, d, n); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: 'scale()' ends here, and each of its 2 calls in this unit (the first in 'scaled()') is followed by a free that waits for the whole device before it returns (where the CUDA calls succeed), 'cudaFree' at line 85, a free of device memory from 'cudaMalloc'
}

static void scaled(int n)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
    scale(tmp, n);
    cudaFree(tmp); // expect: SYNC402 expect-severity: warning expect-no-message: drained
}

static void scaled_twice(int n)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    scale(tmp, n);
    int done = n + 1;
    cudaFree(tmp); // expect: SYNC402 expect-severity: warning expect-no-message: drained
    (void)done;
}

// Pinned staging freed right after the call that waits for its copy: cudaFreeHost of memory
// from cudaMallocHost waits too (measured): the note.
static void fetch(float *h, const float *d, int n, cudaStream_t s)
{
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: 'cudaFreeHost' at line 111, a free of pinned host memory
}

static void staged(const float *d, int n, cudaStream_t s)
{
    float *h = nullptr;
    cudaMallocHost(&h, n * sizeof(float)); // expect: SYNC402
    fetch(h, d, n, s);
    cudaFreeHost(h); // expect: SYNC402 expect-severity: warning
}

// The free only on the error path: a successful call frees nothing, and the wait stays.
static bool step(float *d, int n, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    return check(cudaStreamSynchronize(s), "step"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

static bool stepped(int n, cudaStream_t s)
{
    float *tmp = nullptr;
    if (!check(cudaMalloc(&tmp, n * sizeof(float)), "alloc")) // expect: SYNC402
        return false;
    bool ok = step(tmp, n, s);
    if (!ok)
        cudaFree(tmp); // expect: SYNC402
    return ok;
}

// A stream-ordered free waits for nothing: the wait stays.
static void settle(float *d, int n, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

static void settled(float *out, int n, cudaStream_t s)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    settle(tmp, n, s);
    cudaFreeAsync(tmp, s);
}

// A caller that queues work between the return and the free: the wait lets the host queue it
// only once the kernels are done, and stays.
static void finish(float *d, int n, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

static void finished(float *out, int n, cudaStream_t s)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    finish(tmp, n, s);
    cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaFree(tmp); // expect: SYNC402 expect-severity: warning
}

// One caller frees, the other does not: the wait stays.
static void drain_one(float *d, int n, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

static void drained_freed(int n, cudaStream_t s)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    drain_one(tmp, n, s);
    cudaFree(tmp); // expect: SYNC402
}

// Work queued after the wait, before the return: the wait stays.
static void wait_then_launch(float *d, int n, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
}

static void launched(int n, cudaStream_t s)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    wait_then_launch(tmp, n, s);
    cudaFree(tmp); // expect: SYNC402
}

// The wait in a branch of the function, not its last statement: the wait stays.
static void maybe_wait(float *d, int n, bool sync, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    if (sync)
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

static void maybe_waited(int n, bool sync, cudaStream_t s)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    maybe_wait(tmp, n, sync, s);
    cudaFree(tmp); // expect: SYNC402
}

// A function a global's table names: calls through the table are not seen (they may be in a
// loop that frees nothing), and the wait stays.
static void tabled(float *d, int n, cudaStream_t s)
{
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

typedef void (*stage_fn)(float *, int, cudaStream_t);
stage_fn stages[] = {tabled};

static void tabled_freed(int n, cudaStream_t s)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    tabled(tmp, n, s);
    cudaFree(tmp); // expect: SYNC402
}

// The device switched before the wait: the caller frees memory of the device it had before,
// which need not wait for this device's work, and the wait stays.
static void on_device(int dev, float *d, int n, cudaStream_t s)
{
    cudaSetDevice(dev);
    back_project<<<(n + 255) / 256, 256, 0, s>>>(0, d, n);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
}

static void on_device_freed(float *d1, int n, cudaStream_t s1)
{
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
    on_device(1, d1, n, s1);
    cudaFree(tmp); // expect: SYNC402
}

void reconstruct(float *vol, float *out, int n, int iterations, cudaStream_t s)
{
    for (int it = 0; it < iterations; it++) {
        bp(vol, n);
        scaled(n);
        scaled_twice(n);
        staged(vol, n, s);
        stepped(n, s);
        settled(out, n, s);
        finished(out, n, s);
        drained_freed(n, s);
        drain_one(vol, n, s);
        launched(n, s);
        maybe_waited(n, it % 2 == 0, s);
        tabled_freed(n, s);
        on_device_freed(out, n, s);
    }
}
