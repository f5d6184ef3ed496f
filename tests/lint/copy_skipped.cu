// copy_skipped.cu: a callee whose last copy to the host is skipped on some calls: a "break" out
// of a do { } while (0) before it, or a "throw" caught inside the callee. The wait after the call
// then waits for the partition with nothing read back: warnings, not "inherent" notes.
#include <cuda_runtime.h>
struct Split { float gain; int node; };
__global__ void evaluate_kernel(Split *out, int n) { out[threadIdx.x % n].gain = 0.0f; }
__global__ void partition_kernel(int *rows, int level) { rows[threadIdx.x] += level; }
void consume(const Split *begin, const Split *end);

struct ViewA { cudaStream_t stream; void sync() { cudaStreamSynchronize(stream); } }; // expect: SYNC401 expect-severity: warning expect-no-message: inherent
static void evaluate_break(int n, Split *out, Split *d_out, cudaStream_t s)
{
    evaluate_kernel<<<1, 32, 0, s>>>(d_out, n);
    do {
        if (n == 0)
            break;
        cudaMemcpyAsync(out, d_out, n * sizeof(Split), cudaMemcpyDeviceToHost, s);
    } while (0);
}
void grow_break(int levels, int *rows, Split *pinned, Split *d_out, ViewA view)
{
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        int n = level + 1 < levels ? 2 << level : 0;
        evaluate_break(n, pinned, d_out, view.stream);
        view.sync();
        consume(pinned, pinned + n);
    }
}

struct ViewB { cudaStream_t stream; void sync() { cudaStreamSynchronize(stream); } }; // expect: SYNC401 expect-severity: warning expect-no-message: inherent
static void evaluate_caught(int n, Split *out, Split *d_out, cudaStream_t s)
{
    evaluate_kernel<<<1, 32, 0, s>>>(d_out, n);
    try {
        if (n == 0)
            throw 0;
        cudaMemcpyAsync(out, d_out, n * sizeof(Split), cudaMemcpyDeviceToHost, s);
    } catch (int) {
    }
}
void grow_caught(int levels, int *rows, Split *pinned, Split *d_out, ViewB view)
{
    for (int level = 0; level < levels; level++) {
        partition_kernel<<<64, 256, 0, view.stream>>>(rows, level);
        int n = level + 1 < levels ? 2 << level : 0;
        evaluate_caught(n, pinned, d_out, view.stream);
        view.sync();
        consume(pinned, pinned + n);
    }
}
