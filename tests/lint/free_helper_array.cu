// free_helper_array.cu: a wait right before a free of memory that a helper of the unit makes
// through a reference parameter (held-out-28's shape CB, ASTRA's fan_fp.cu with util.cu's
// createArrayAndTextureObject2D; tests/cli/free_helper_elsewhere.sh has the helper in another
// unit). The call is tested, 'if (!make(...)) return false;': the free waits for the whole
// device where the helper makes the memory with an allocator of the free's kind on every way it
// does not return false (a failed check returns false; a free of it fails next): a note,
// "drained anyway". Warnings stay where the helper may return true without making it, frees it
// and goes on, writes it again, makes memory of another kind, or the call is tested otherwise.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 1.0f;
}

static bool check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        return false;
    }
    return true;
}

// Scratch made with cudaMalloc, zeroed; freed when the zeroing fails.
static bool make_scratch(float *&p, int n)
{
    p = nullptr;
    if (!check(cudaMalloc(&p, n * sizeof(float)), "scratch")) // expect: SYNC402
        return false;
    if (!check(cudaMemset(p, 0, n * sizeof(float)), "zero")) {
        cudaFree(p); // expect: SYNC402
        return false;
    }
    return true;
}

static bool step(float *out, int n, cudaStream_t s)
{
    float *tmp;
    if (!make_scratch(tmp, n))
        return false;
    fill<<<(n + 255) / 256, 256, 0, s>>>(tmp, n);
    cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
    bool ok = check(cudaStreamSynchronize(s), "step"); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFree' at line 49, a free of device memory from 'cudaMalloc' that 'make_scratch()' makes with 'cudaMalloc' (through its argument 1
    cudaFree(tmp); // expect: SYNC402 expect-severity: warning
    return ok;
}

// Returns true without making it for an empty buffer: the free may wait for nothing.
static bool make_maybe(float *&p, int n)
{
    if (n == 0)
        return true;
    return check(cudaMalloc(&p, n * sizeof(float)), "scratch"); // expect: SYNC402
}

static bool step_maybe(float *out, int n, cudaStream_t s)
{
    float *tmp = nullptr;
    if (!make_maybe(tmp, n))
        return false;
    fill<<<(n + 255) / 256, 256, 0, s>>>(out, n);
    bool ok = check(cudaStreamSynchronize(s), "maybe"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaFree(tmp); // expect: SYNC402
    return ok;
}

// Frees it when the zeroing fails, and goes on to return true.
static bool make_lenient(float *&p, int n)
{
    if (!check(cudaMalloc(&p, n * sizeof(float)), "scratch")) // expect: SYNC402
        return false;
    if (!check(cudaMemset(p, 0, n * sizeof(float)), "zero"))
        cudaFree(p); // expect: SYNC402
    return true;
}

static bool step_lenient(float *out, int n, cudaStream_t s)
{
    float *tmp;
    if (!make_lenient(tmp, n))
        return false;
    fill<<<(n + 255) / 256, 256, 0, s>>>(out, n);
    bool ok = check(cudaStreamSynchronize(s), "lenient"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaFree(tmp); // expect: SYNC402
    return ok;
}

// Writes it again after the allocation (here with a pool's pointer).
static float *pool;

static bool make_pooled(float *&p, int n)
{
    if (!check(cudaMalloc(&p, n * sizeof(float)), "scratch")) // expect: SYNC402
        return false;
    if (n < 64)
        p = pool;
    return true;
}

static bool step_pooled(float *out, int n, cudaStream_t s)
{
    float *tmp;
    if (!make_pooled(tmp, n))
        return false;
    fill<<<(n + 255) / 256, 256, 0, s>>>(out, n);
    bool ok = check(cudaStreamSynchronize(s), "pooled"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaFree(tmp); // expect: SYNC402
    return ok;
}

// Makes device memory, which the caller hands to cudaFreeHost: not the free's kind.
static bool step_host(float *out, int n, cudaStream_t s)
{
    float *tmp;
    if (!make_scratch(tmp, n))
        return false;
    fill<<<(n + 255) / 256, 256, 0, s>>>(out, n);
    bool ok = check(cudaStreamSynchronize(s), "host"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaFreeHost(tmp); // expect: SYNC402
    return ok;
}

// The result tested the other way round: the free may run after a failed helper.
static bool step_inverted(float *out, int n, cudaStream_t s)
{
    float *tmp = nullptr;
    bool made = make_scratch(tmp, n);
    fill<<<(n + 255) / 256, 256, 0, s>>>(out, n);
    bool ok = check(cudaStreamSynchronize(s), "inverted"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaFree(tmp); // expect: SYNC402
    return ok && made;
}

// A wait for the whole device before the free: the wait's note names the free, which is the
// stall of the two and is not "drained" by the wait.
static bool step_device(float *out, int n, cudaStream_t s)
{
    float *tmp;
    if (!make_scratch(tmp, n))
        return false;
    fill<<<(n + 255) / 256, 256, 0, s>>>(tmp, n);
    cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFree' at line 149
    cudaFree(tmp); // expect: SYNC402 expect-severity: warning expect-no-message: drained
    return true;
}

void run(float *out, int n, int steps, cudaStream_t s)
{
    for (int i = 0; i < steps; i++) {
        step(out, n, s);
        step_maybe(out, n, s);
        step_lenient(out, n, s);
        step_pooled(out, n, s);
        step_host(out, n, s);
        step_inverted(out, n, s);
        step_device(out, n, s);
    }
}
