// inherent_copied_return.cu: a one-value readback into a local struct whose member the rest of
// its 'if' block copies into a local that the statement after the 'if' returns: the caller
// asked for the value now, so the readback is inherent (a note), as for the branch that reads
// straight into the returned local. Kept in a global instead, it stays a warning.
#include <cuda_runtime.h>

struct Vec4 {
    float x, y, z, w;
};

__global__ void reduce_max(const Vec4 *data, float *res, unsigned n) { res[0] = data[n - 1].w; }

float max_w(const Vec4 *data, float *res, unsigned n, cudaStream_t s)
{
    reduce_max<<<1, 1, 0, s>>>(data, res, n);
    float resf;
    if (n > 1)
        cudaMemcpy(&resf, res, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
    else {
        Vec4 resf4;
        cudaMemcpy(&resf4, data, sizeof(Vec4), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 24 returns it)
        resf = resf4.w;
    }
    return (resf);
}

float last_w;

void keep_w(const Vec4 *data, float *res, unsigned n, cudaStream_t s)
{
    reduce_max<<<1, 1, 0, s>>>(data, res, n);
    if (n > 1) {
        Vec4 resf4;
        cudaMemcpy(&resf4, data, sizeof(Vec4), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
        last_w = resf4.w;
    }
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
