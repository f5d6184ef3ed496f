// wait_then_free.cu: a wait right before a free that waits for the whole device anyway
// (held-out-28's shape CB, ASTRA's cone_fp.cu): cudaFree of memory from cudaMalloc, cudaFreeArray
// and cudaFreeHost return only once all the work on the device is done (measured,
// docs/studies/validation.md 2026-12-06), so the wait adds no stall of its own: a note, "drained
// anyway: the next device call, ...", and the free keeps its SYNC402 warning (it is the stall).
// Texture-object and stream destroys between them wait for nothing and queue nothing. Lint
// says so only where it can be sure the free waits: a local variable, written once before the
// wait and whenever it runs, by a synchronizing allocator of the free's kind, for an array by a
// call whose null result returns, or by a helper through a reference whose false result
// returns, the helper making it on every other way. Warnings stay where the free waits for
// nothing (a null pointer, stream-ordered memory), may (a helper's result not tested, a
// parameter), runs in a branch, or a launch stands between.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s\n", cudaGetErrorString(e_));                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// Stands for a kernel that reads the array through the texture object (tex2D).
__global__ void project(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += (float)(tex + i);
}

// What the arrays' textures are made of, set up once ('res' names the array).
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

static bool make_texture(const float *volume, int n, cudaArray_t &array, cudaTextureObject_t &tex)
{
    if (!check(cudaMallocArray(&array, format, n, 1), "array"))
        return false;
    if (!check(cudaMemcpy2DToArray(array, 0, 0, volume, n * sizeof(float), n * sizeof(float), 1,
                                   cudaMemcpyDeviceToDevice),
               "copy"))
        return false;
    return check(cudaCreateTextureObject(&tex, resource, sampling, NULL), "texture");
}

// ASTRA's fan_fp.cu form: the array made, filled and bound per call by a helper that sets it
// through a reference, tested with 'if (!...) return', the projection launched on the caller's
// stream, the stream waited for and the array freed: make_texture makes the array with
// cudaMallocArray on every way it does not return false, so the free waits: the note (since
// session 41; free_helper_array.cu has the helpers that do not).
static bool forward_one(const float *volume, float *out, int n, cudaStream_t stream)
{
    cudaArray_t array;
    cudaTextureObject_t tex;
    if (!make_texture(volume, n, array, tex))
        return false;
    project<<<(n + 255) / 256, 256, 0, stream>>>(tex, out, n);
    bool ok = check(cudaStreamSynchronize(stream), "forward"); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFreeArray' at line 72, a free of a CUDA array that 'make_texture()' makes with 'cudaMallocArray' (through its argument 3, on every way it does not return false; the 'if' around the call returns otherwise), waits for the whole device
    cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    cudaDestroyTextureObject(tex);
    return ok;
}

void forward(const float *volume, float *out, int n, int angles, cudaStream_t stream)
{
    for (int a = 0; a < angles; a++)
        forward_one(volume, out + a * n, n, stream);
}

// ASTRA's cone_cyl.cu form: the texture object and the stream destroyed between the wait and
// the free, in the loop itself; the array made through a reference, the result not tested: a
// warning.
void cone(const float *volume, float *out, int n, int angles)
{
    for (int a = 0; a < angles; a++) {
        cudaStream_t stream;
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        cudaArray_t array;
        cudaTextureObject_t tex;
        make_texture(volume, n, array, tex);
        project<<<(n + 255) / 256, 256, 0, stream>>>(tex, out + a * n, n);
        bool ok = check(cudaStreamSynchronize(stream), "cone"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaDestroyTextureObject(tex);
        cudaStreamDestroy(stream);
        cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
        if (!ok)
            return;
    }
}

// A wait for the whole device, then cudaFree of memory from cudaMalloc: the free is not
// "drained" by the wait, it is the stall of the two.
void scratch(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *tmp = nullptr;
        cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: drained
        cudaMemsetAsync(tmp, 0, n * sizeof(float), s);
        cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFree' at line 114, a free of device memory from 'cudaMalloc', waits for the whole device before it returns (where the CUDA calls succeed)
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning expect-no-message: drained
    }
}

// Pinned staging freed right after the wait for its copy.
void staging(const float *d, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *h = nullptr;
        cudaMallocHost(&h, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaFreeHost' at wait_then_free.cu:126 drained it (it frees 'h', which 'cudaMallocHost' allocated at line 123: such a free waits for all work on the device, every stream, where that allocation succeeded with a size above 0)
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: 'cudaFreeHost' at line 126, a free of pinned host memory
        cudaFreeHost(h); // expect: SYNC402 expect-severity: warning
    }
}

// cudaFree(nullptr) waits for nothing: the wait before it stays a warning, and the free is no
// finding.
void null_free(cudaTextureObject_t tex, float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, out, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        cudaFree(nullptr);
    }
}

// Stream-ordered memory's cudaFree waits for nothing either.
void ordered_free(cudaTextureObject_t tex, float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *tmp = nullptr;
        cudaMallocAsync(&tmp, n * sizeof(float), s);
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, tmp, n);
        cudaMemcpyAsync(out, tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        cudaFree(tmp);
    }
}

// The free runs in a branch: the wait is what the other way pays.
void branch_free(cudaTextureObject_t tex, float *out, int n, int rounds, bool last,
                 cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *tmp = nullptr;
        cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, tmp, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (last)
            cudaFree(tmp); // expect: SYNC402 expect-severity: warning
    }
}

// A launch between the wait and the free: the wait lets the host queue it only once the first
// kernel is done.
void launch_between(cudaTextureObject_t tex, float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *tmp = nullptr;
        cudaMalloc(&tmp, n * sizeof(float)); // expect: SYNC402
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, tmp, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, out, n);
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning
    }
}

// Checked with a macro, a pointer handed in, after a wait for the whole device: lint cannot tell
// what memory it is (it may be stream-ordered, or null), and the wait stays a warning; the
// free itself is drained by the wait.
void checked(float *d, cudaTextureObject_t tex, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, d, n);
        CHECK(cudaDeviceSynchronize()); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        CHECK(cudaGetLastError());
        CHECK(cudaFree(d)); // expect: SYNC402 expect-severity: note expect-message: drained: the device has nothing queued here
    }
}

// A member's memory: lint does not follow where a member was allocated, and the wait stays.
struct Buffers {
    float *d;
};

void member_free(Buffers &b, cudaTextureObject_t tex, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        cudaMalloc(&b.d, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, b.d, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        cudaFree(b.d); // expect: SYNC402 expect-severity: warning
    }
}

// Three statements between the wait and the free, as after a wait before a readback.
void three_between(cudaTextureObject_t tex, float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        cudaArray_t array;
        make_texture(out, n, array, tex);
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, out, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        int done = r + 1;
        cudaDestroyTextureObject(tex);
        done *= 2;
        cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    }
}

// The array made with cudaMallocArray, checked with a macro, in the loop's own block: the note.
void made_here(const float *volume, float *out, int n, int angles, cudaStream_t s)
{
    for (int a = 0; a < angles; a++) {
        cudaArray_t array;
        CHECK(cudaMallocArray(&array, format, n, 1));
        cudaTextureObject_t tex;
        cudaCreateTextureObject(&tex, resource, sampling, NULL);
        project<<<(n + 255) / 256, 256, 0, s>>>(tex, out + a * n, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFreeArray' at line 236, a free of a CUDA array
        cudaDestroyTextureObject(tex);
        cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    }
}

// The same where the array is made only on one way: it may be null, and the wait stays.
void made_if(const float *volume, float *out, int n, int angles, bool tex_path, cudaStream_t s)
{
    for (int a = 0; a < angles; a++) {
        cudaArray_t array = NULL;
        if (tex_path)
            cudaMallocArray(&array, format, n, 1);
        project<<<(n + 255) / 256, 256, 0, s>>>(0, out + a * n, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    }
}

static cudaArray_t volume_array(int n)
{
    cudaArray_t array = NULL;
    if (cudaMallocArray(&array, format, n, 1) != cudaSuccess)
        return NULL;
    return array;
}

// ASTRA's cone_fp.cu form: the array from a helper, tested for null with a return, the stream
// waited for at the end and the array freed: the free waits for the whole device, the note.
static bool cone_fp(float *out, int n, int angles, cudaStream_t stream)
{
    cudaArray_t array = volume_array(n);
    if (!array) {
        fprintf(stderr, "no array\n");
        return false;
    }
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, resource, sampling, NULL);
    for (int a = 0; a < angles; a++)
        project<<<(n + 255) / 256, 256, 0, stream>>>(tex, out + a * n, n);
    bool ok = check(cudaStreamSynchronize(stream), "cone_fp"); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFreeArray' at line 276, a free of a CUDA array
    cudaDestroyTextureObject(tex);
    cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    return ok;
}

// The same without the test for null: the array may be null, and the wait stays.
static bool cone_fp_untested(float *out, int n, int angles, cudaStream_t stream)
{
    cudaArray_t array = volume_array(n);
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, resource, sampling, NULL);
    for (int a = 0; a < angles; a++)
        project<<<(n + 255) / 256, 256, 0, stream>>>(tex, out + a * n, n);
    bool ok = check(cudaStreamSynchronize(stream), "cone_fp"); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
    cudaDestroyTextureObject(tex);
    cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    return ok;
}

void cone_volumes(float *out, int n, int angles, int volumes, cudaStream_t stream)
{
    for (int v = 0; v < volumes; v++) {
        cone_fp(out, n, angles, stream);
        cone_fp_untested(out, n, angles, stream);
    }
}

// Allocated in an 'if's condition, which runs whenever the 'if' does: the note.
void tested_alloc(float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *tmp = nullptr;
        if (cudaMalloc(&tmp, n * sizeof(float)) != cudaSuccess) // expect: SYNC402 expect-severity: note expect-message: 'cudaFree' at wait_then_free.cu:311 drained it
            return;
        cudaMemcpyAsync(tmp, out, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaFree' at line 311, a free of device memory from 'cudaMalloc'
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning
    }
}

// Allocated on the right of '&&': it may not run, and the wait stays.
void maybe_alloc(float *out, int n, int rounds, bool big, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        float *tmp = nullptr;
        bool ok = big && cudaMalloc(&tmp, n * sizeof(float)) == cudaSuccess; // expect: SYNC402 expect-severity: warning
        cudaMemcpyAsync(out, out, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: drained anyway
        cudaFree(tmp); // expect: SYNC402 expect-severity: warning
        (void)ok;
    }
}

