// key_change_guard.cu: a loop that builds a table chunk by chunk, waiting after each chunk,
// inside 'if (size != ctx->size) { ctx->size = size; ... }': the branch records the new key, so
// the loop runs only when the key changes (a new epoch's table), not on every call: the waits
// are notes. Without the key recorded, or with a key that is a local of the call, they stay
// warnings.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void build_item(size_t i, unsigned *table) { table[i] = (unsigned)i; }

struct Ctx {
    size_t dag_size;
    unsigned *dag;
};

void prepare(Ctx *ctx, size_t dag_size, cudaStream_t s)
{
    if (dag_size != ctx->dag_size) {
        ctx->dag_size = dag_size;
        for (size_t i = 0; i < dag_size; i += 8192) {
            build_item<<<8192, 32, 0, s>>>(i, ctx->dag);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: change-only: it runs only when the key changes (line 18 compares 'dag_size' with 'ctx->dag_size' and the branch records it)
        }
    }
}

void prepare_unrecorded(Ctx *ctx, size_t dag_size, cudaStream_t s)
{
    if (dag_size != ctx->dag_size) {
        for (size_t i = 0; i < dag_size; i += 8192) {
            build_item<<<8192, 32, 0, s>>>(i, ctx->dag);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}

void prepare_local(Ctx *ctx, size_t dag_size, cudaStream_t s)
{
    size_t built = 0;
    if (dag_size != built) {
        built = dag_size;
        for (size_t i = 0; i < dag_size; i += 8192) {
            build_item<<<8192, 32, 0, s>>>(i, ctx->dag);
            cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        }
    }
}
