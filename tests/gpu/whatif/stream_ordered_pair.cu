/* stream_ordered_pair.cu: the timed loop of cuda-samples' streamOrderedAllocation
 * (streamOrderedAllocationPostSync: per iteration cudaMallocAsync of three 4 MiB buffers, two
 * cudaMemcpyAsync in from malloc memory, a vector add, cudaFreeAsync, a cudaMemcpyAsync out to
 * malloc memory and a cudaStreamSynchronize, on one non-blocking stream, the pool's release
 * threshold at its maximum) as written, and rewritten the way SYNC503's hint says: pinned host
 * buffers, two non-blocking streams, no synchronization but before a slot's output buffer is
 * used again. The written form is the sample's loop, so that its time per iteration can be
 * checked against the sample's own "Total elapsed time" line; the sample's trace gives the
 * prediction (tests/gpu/whatif/samples_run.sh).
 * Usage: stream_ordered_pair written|rewritten [iterations] [warm-up] */
#include "whatif_common.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define SLOTS 2

static __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* One iteration of the sample's loop on 'stream': host a, b in, c out. */
static void iteration(const float *a, const float *b, float *c, int n, cudaStream_t stream)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_a, *d_b, *d_c;
    CHECK(cudaMallocAsync((void **)&d_a, bytes, stream));
    CHECK(cudaMallocAsync((void **)&d_b, bytes, stream));
    CHECK(cudaMallocAsync((void **)&d_c, bytes, stream));
    CHECK(cudaMemcpyAsync(d_a, a, bytes, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(d_b, b, bytes, cudaMemcpyHostToDevice, stream));
    vector_add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaFreeAsync(d_a, stream));
    CHECK(cudaFreeAsync(d_b, stream));
    CHECK(cudaMemcpyAsync(c, d_c, bytes, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaFreeAsync(d_c, stream));
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "written") != 0 && strcmp(argv[1], "rewritten") != 0)) {
        fprintf(stderr, "usage: stream_ordered_pair written|rewritten [iterations] [warm-up]\n");
        return 2;
    }
    int rewritten = strcmp(argv[1], "rewritten") == 0;
    int iterations = arg_or(argc - 1, argv + 1, 1, 20), warmup = arg_or(argc - 1, argv + 1, 2, 2);
    const int n = 1048576;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    float *c[SLOTS] = {(float *)malloc(bytes), NULL};
    if (a == NULL || b == NULL || c[0] == NULL) {
        fprintf(stderr, "stream_ordered_pair: out of memory\n");
        return 1;
    }
    srand(1);
    for (int i = 0; i < n; i++) {
        a[i] = rand() / (float)RAND_MAX;
        b[i] = rand() / (float)RAND_MAX;
    }
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    cudaStream_t streams[SLOTS];
    const float *in_a = a, *in_b = b;
    int slots = rewritten ? SLOTS : 1;
    for (int s = 0; s < slots; s++)
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    if (rewritten) {
        /* Pinned copies of the inputs, made once, and a pinned output per slot. */
        float *pa, *pb;
        CHECK(cudaMallocHost((void **)&pa, bytes));
        CHECK(cudaMallocHost((void **)&pb, bytes));
        memcpy(pa, a, bytes);
        memcpy(pb, b, bytes);
        in_a = pa;
        in_b = pb;
        free(c[0]);
        for (int s = 0; s < SLOTS; s++)
            CHECK(cudaMallocHost((void **)&c[s], bytes));
    }
    double start = 0;
    for (int i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            CHECK(cudaDeviceSynchronize());
            start = now_us();
        }
        int s = i % slots;
        /* The rewritten form waits only before a slot's output is written again. */
        if (rewritten && i >= SLOTS)
            CHECK(cudaStreamSynchronize(streams[s]));
        iteration(in_a, in_b, c[s], n, streams[s]);
        if (!rewritten)
            CHECK(cudaStreamSynchronize(streams[s]));
    }
    for (int s = 0; s < slots; s++)
        CHECK(cudaStreamSynchronize(streams[s]));
    report(start, iterations, warmup);
    double error = 0;
    for (int i = 0; i < n; i++)
        error += fabs((double)c[0][i] - (double)(a[i] + b[i]));
    printf("error %g\n%s\n", error, error < 1e-3 ? "ok" : "wrong");
    return error < 1e-3 ? 0 : 1;
}
