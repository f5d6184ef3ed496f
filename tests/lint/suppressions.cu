// suppressions.cu: every suppression comment form hides the finding it names; a comment that
// names another rule hides nothing.
#include <cuda_runtime.h>

// syncscope-ignore-file: blocking-stream-create

__global__ void k(int *p) { p[0] = 1; }

void suppressed(int *p, cudaStream_t s, int n)
{
    cudaStream_t created;
    cudaStreamCreate(&created); /* file-wide suppression */
    k<<<1, 1>>>(p); // syncscope-ignore: SYNC101 -- measured: the kernel is tiny
    // syncscope-ignore: default-stream-launch
    k<<<1, 1>>>(p);
    k<<<1, 1>>>(p); // NOLINT(bugprone-foo, syncscope-SYNC101)
    // NOLINTNEXTLINE(syncscope-default-stream-launch)
    k<<<1, 1>>>(p);
    // NOLINTBEGIN(syncscope-SYNC401)
    for (int i = 0; i < n; i++) {
        k<<<1, 1, 0, s>>>(p);
        cudaStreamSynchronize(s);
    }
    // NOLINTEND(syncscope-SYNC401)
    /* syncscope-ignore: SYNC402, SYNC101 */
    for (int i = 0; i < n; i++) { cudaFree(p); k<<<1, 1>>>(p); }
    k<<<1, 1>>>(p); // NOLINT(syncscope-*)
}

void not_suppressed(int *p, cudaStream_t s)
{
    k<<<1, 1>>>(p); // NOLINT -- a bare NOLINT is for other tools // expect: SYNC101
    k<<<1, 1>>>(p); // syncscope-ignore: SYNC102 // expect: SYNC101
    const char *text = "// syncscope-ignore: SYNC101"; k<<<1, 1>>>(p); // expect: SYNC101
    (void)text;
}
