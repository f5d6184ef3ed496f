/* unified_memory_pair.cu: the copy modes of cuda-samples' UnifiedMemoryPerf
 * (matrixMultiplyPerf.cu's runMatrixMultiplyKernel for host pageable and page-locked memory,
 * each with cudaMemcpy and with cudaMemcpyAsync on one stream) as written, and rewritten the way
 * SYNC503's hint says. Per matrix size (32 x 32 to 2048 x 2048, doubling) and mode, 20
 * iterations of: the host fills A and B (copyMatrix), copies them in, multiplies them in a
 * 32 x 32-tiled kernel, copies C out, synchronizes, and checks C against the expected product
 * (verifyMatrixData); the host buffers are zeroed once before the loop, as the sample zeroes
 * them. The rewritten form keeps that work but double-buffers it: pinned buffers
 * and a non-blocking stream per slot, the host filling the next iteration's inputs while the
 * GPU works, and checking an iteration's C once its slot's stream is done. Both print the
 * whole schedule's time per iteration ("steady:") and the host's own work in it ("host:",
 * the time in filling and checking; "host by size:", the same per matrix size); the sample's
 * trace gives the prediction (tests/gpu/whatif/samples_run.sh). A third form, serial, is the
 * rewritten one without the overlap (each iteration waited for and checked before the next
 * is filled): it tells what of a difference in the host's own work between the two forms is
 * the overlap's and what the buffers' and streams'.
 * Usage: unified_memory_pair written|rewritten|serial [runs per size and mode]
 *        [largest dimension]    (and "rounds R ...": main's comment) */
#include "whatif_common.h"

#include <string.h>

#define TILE 32
#define SLOTS 2

/* Microseconds spent in the iterations' loops (allocations and frees left out, as the
 * sample's own timers leave them out), and of them in the host's own work (filling the inputs,
 * checking the product), which the model of SYNC503 takes to stay as it is. */
static double loop_us, host_us;
/* The host's own work per matrix size (index: log2(n / TILE)). */
#define SIZES 16
static double host_at[SIZES];
static int size_at;

static void host_add(double us)
{
    host_us += us;
    host_at[size_at] += us;
}

static __global__ void multiply(float *c, const float *a, const float *b, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TILE + ty,
        col = blockIdx.x * TILE + tx;
    float sum = 0;
    for (int k = 0; k < n; k += TILE) {
        as[ty][tx] = a[row * n + k + tx];
        bs[ty][tx] = b[(k + ty) * n + col];
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            sum += as[ty][j] * bs[j][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

static void fill(float *dst, const float *src, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            dst[j + i * n] = src[j + i * n];
}

/* The mismatches of 'c' against 'want' (the sample's check: a relative error over 1e-4). */
static int check(const float *want, const float *c, int n)
{
    int wrong = 0;
    for (int i = 0; i < n * n; i++) {
        float d = want[i] - c[i];
        if (d * d > 1e-8f * want[i] * want[i])
            wrong++;
    }
    return wrong;
}

/* The expected product of 'a' and 'b', made once per size on the GPU. Its copies and kernel
 * have the loop's shape but lie outside the loop's timer and are no part of the rewrite, so a
 * memset before and after them keeps them out of the chain of chunks SYNC503 predicts from
 * (a compute operation right after a copy out ends a chain): the prediction then covers the
 * timed iterations only, as the measured saving does. */
static void expected(float *out, const float *a, const float *b, int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    CHECK(cudaMemset(dc, 0, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    multiply<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(dc, da, db, n);
    CHECK(cudaMemcpy(out, dc, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemset(dc, 0, bytes));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
}

/* The sample's loop for one size and mode: host memory pageable or pinned, copies synchronous
 * or asynchronous on 'stream'. Returns the mismatches. */
static int written(const float *x, const float *want, int n, int runs, int pinned, int async,
                   cudaStream_t stream)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *ha, *hb, *hc, *da, *db, *dc;
    if (pinned) {
        CHECK(cudaMallocHost((void **)&ha, bytes));
        CHECK(cudaMallocHost((void **)&hb, bytes));
        CHECK(cudaMallocHost((void **)&hc, bytes));
    } else {
        ha = (float *)malloc(bytes);
        hb = (float *)malloc(bytes);
        hc = (float *)malloc(bytes);
    }
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    /* As the sample does before its loop, "to avoid any first access page-fault overheads":
     * fresh pageable buffers first touched inside the loop would add host work there that
     * no change of the copies removes. */
    memset(ha, 0, bytes);
    memset(hb, 0, bytes);
    memset(hc, 0, bytes);
    int wrong = 0;
    double start = now_us();
    for (int i = 0; i < runs; i++) {
        double h = now_us();
        fill(ha, x, n);
        fill(hb, x, n);
        host_add(now_us() - h);
        if (async) {
            CHECK(cudaMemcpyAsync(da, ha, bytes, cudaMemcpyHostToDevice, stream));
            CHECK(cudaMemcpyAsync(db, hb, bytes, cudaMemcpyHostToDevice, stream));
        } else {
            CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
            CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
        }
        multiply<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE), 0, stream>>>(dc, da, db, n);
        if (!async)
            CHECK(cudaStreamSynchronize(stream));
        if (async)
            CHECK(cudaMemcpyAsync(hc, dc, bytes, cudaMemcpyDeviceToHost, stream));
        else
            CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
        if (async)
            CHECK(cudaStreamSynchronize(stream));
        double h2 = now_us();
        wrong += check(want, hc, n);
        host_add(now_us() - h2);
    }
    loop_us += now_us() - start;
    if (pinned) {
        CHECK(cudaFreeHost(ha));
        CHECK(cudaFreeHost(hb));
        CHECK(cudaFreeHost(hc));
    } else {
        free(ha);
        free(hb);
        free(hc);
    }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    return wrong;
}

/* The same work double-buffered: pinned buffers and a stream per slot; iteration i + 1's
 * inputs are filled while the GPU works on iteration i, whose C is checked once its slot's
 * stream is done. With 'overlap' 0 (the serial form), each iteration is waited for and
 * checked before the next is filled. Returns the mismatches. */
static int rewritten(const float *x, const float *want, int n, int runs, cudaStream_t *streams,
                     int overlap)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *ha[SLOTS], *hb[SLOTS], *hc[SLOTS], *da[SLOTS], *db[SLOTS], *dc[SLOTS];
    int pending[SLOTS] = {0, 0}, wrong = 0;
    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaMallocHost((void **)&ha[s], bytes));
        CHECK(cudaMallocHost((void **)&hb[s], bytes));
        CHECK(cudaMallocHost((void **)&hc[s], bytes));
        CHECK(cudaMalloc((void **)&da[s], bytes));
        CHECK(cudaMalloc((void **)&db[s], bytes));
        CHECK(cudaMalloc((void **)&dc[s], bytes));
        memset(ha[s], 0, bytes);
        memset(hb[s], 0, bytes);
        memset(hc[s], 0, bytes);
    }
    double start = now_us();
    for (int i = 0; i < runs; i++) {
        int s = i % SLOTS;
        if (pending[s]) {
            CHECK(cudaStreamSynchronize(streams[s]));
            double h = now_us();
            wrong += check(want, hc[s], n);
            host_add(now_us() - h);
            pending[s] = 0;
        }
        double h = now_us();
        fill(ha[s], x, n);
        fill(hb[s], x, n);
        host_add(now_us() - h);
        CHECK(cudaMemcpyAsync(da[s], ha[s], bytes, cudaMemcpyHostToDevice, streams[s]));
        CHECK(cudaMemcpyAsync(db[s], hb[s], bytes, cudaMemcpyHostToDevice, streams[s]));
        multiply<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE), 0, streams[s]>>>(dc[s], da[s], db[s],
                                                                                n);
        CHECK(cudaMemcpyAsync(hc[s], dc[s], bytes, cudaMemcpyDeviceToHost, streams[s]));
        pending[s] = 1;
        if (!overlap) {
            CHECK(cudaStreamSynchronize(streams[s]));
            double h2 = now_us();
            wrong += check(want, hc[s], n);
            host_add(now_us() - h2);
            pending[s] = 0;
        }
    }
    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaStreamSynchronize(streams[s]));
        double h = now_us();
        if (pending[s])
            wrong += check(want, hc[s], n);
        host_add(now_us() - h);
    }
    loop_us += now_us() - start;
    for (int s = 0; s < SLOTS; s++) {
        CHECK(cudaFreeHost(ha[s]));
        CHECK(cudaFreeHost(hb[s]));
        CHECK(cudaFreeHost(hc[s]));
        CHECK(cudaFree(da[s]));
        CHECK(cudaFree(db[s]));
        CHECK(cudaFree(dc[s]));
    }
    return wrong;
}

enum form { WRITTEN, REWRITTEN, SERIAL, FORMS };
static const char *const form_names[FORMS] = {"written", "rewritten", "serial"};

/* One form's iterations at matrix size 'n': the sample's four copy modes (pageable, pageable
 * async, pinned, pinned async; the rewritten and serial forms run the same iterations
 * double-buffered), 'runs' iterations each, added to loop_us and host_us (at size_at).
 * Returns the mismatches. */
static int size_block(enum form form, const float *x, const float *want, int n, int runs,
                      cudaStream_t *streams)
{
    int wrong = 0;
    for (int mode = 0; mode < 4; mode++)
        wrong += form == WRITTEN ? written(x, want, n, runs, mode >= 2, mode % 2, streams[0])
                                 : rewritten(x, want, n, runs, streams + 1, form == REWRITTEN);
    return wrong;
}

/* One form's whole schedule: per matrix size (TILE to 'largest', doubling) its expected product,
 * then its iterations at that size (size_block). Sets loop_us, host_us and host_at afresh.
 * Returns the mismatches; '*iterations' the count. */
static int schedule(enum form form, const float *x, float *want, int runs, int largest,
                    cudaStream_t *streams, int *iterations)
{
    int wrong = 0;
    loop_us = host_us = 0;
    memset(host_at, 0, sizeof host_at);
    *iterations = 0;
    for (int n = TILE, at = 0; n <= largest && at < SIZES; n *= 2, at++) {
        size_at = at;
        expected(want, x, x, n);
        wrong += size_block(form, x, want, n, runs, streams);
        *iterations += 4 * runs;
    }
    size_at = 0;
    for (int n = TILE; n <= largest && size_at < SIZES; n *= 2)
        size_at++;
    return wrong;
}

/* One round of the forms 0 to 'forms' - 1 interleaved by matrix size: per size its expected
 * product, then each form's iterations at that size, their order turning with the round and
 * the size, so that a drift of the machine's state (the host's own work moved by up to a
 * third between stretches of a few seconds) falls on every form alike. Prints per form its
 * time and host work per iteration ("round <r> <form> <us> host <us>") and per size ("size
 * <r> <form> <n> <us> host <us>"). Returns the mismatches. */
static int interleaved_round(int round, int forms, const float *x, float *want, int runs,
                             int largest, cudaStream_t *streams)
{
    double loop[FORMS] = {0}, host[FORMS] = {0};
    int wrong = 0, iterations = 0;
    for (int n = TILE, at = 0; n <= largest && at < SIZES; n *= 2, at++) {
        expected(want, x, x, n);
        for (int i = 0; i < forms; i++) {
            enum form f = (enum form)((round + at + i) % forms);
            loop_us = host_us = 0;
            size_at = at;
            wrong += size_block(f, x, want, n, runs, streams);
            loop[f] += loop_us;
            host[f] += host_us;
            printf("size %d %s %d %.3f host %.3f\n", round + 1, form_names[f], n,
                   loop_us / (4 * runs), host_us / (4 * runs));
        }
        iterations += 4 * runs;
    }
    for (int f = 0; f < forms; f++)
        printf("round %d %s %.3f host %.3f\n", round + 1, form_names[f],
               iterations > 0 ? loop[f] / iterations : 0.0,
               iterations > 0 ? host[f] / iterations : 0.0);
    fflush(stdout); /* a run cut short keeps its rounds */
    return wrong;
}

/* "rounds R [runs] [largest] [forms]" runs the forms (2: written and rewritten; 3, the
 * default: the serial one too) R times in this one process, interleaved by matrix size
 * (interleaved_round): the forms then share the process's memory and the same stretch of time,
 * where separate processes' host work differs by more than the saving. */
int main(int argc, char **argv)
{
    int form = 0;
    while (form < FORMS && (argc < 2 || strcmp(argv[1], form_names[form]) != 0))
        form++;
    int in_rounds = form == FORMS && argc >= 3 && strcmp(argv[1], "rounds") == 0;
    int forms = in_rounds ? (int)arg_or(argc, argv, 5, FORMS) : 1;
    if ((form == FORMS && !in_rounds) || (in_rounds && (forms < 2 || forms > FORMS))) {
        fprintf(stderr, "usage: unified_memory_pair written|rewritten|serial [runs] [largest "
                        "dimension]\n       unified_memory_pair rounds R [runs] [largest "
                        "dimension] [forms: 2 or 3]\n");
        return 2;
    }
    int first = in_rounds ? 2 : 1, rounds = in_rounds ? (int)arg_or(argc, argv, 2, 0) : 1;
    int runs = arg_or(argc - first + 1, argv + first - 1, 2, 20);
    int largest = arg_or(argc - first + 1, argv + first - 1, 3, 2048);
    size_t most = (size_t)largest * largest;
    float *x = (float *)malloc(most * sizeof(float)), *want = (float *)malloc(most * sizeof(float));
    if (x == NULL || want == NULL || largest < TILE || largest % TILE != 0) {
        fprintf(stderr, "unified_memory_pair: largest dimension a multiple of %d\n", TILE);
        return 2;
    }
    srand(1);
    for (size_t i = 0; i < most; i++)
        x[i] = (float)rand() / (float)RAND_MAX * 10.0f;
    /* The written form's stream, then the rewritten forms' two non-blocking ones. */
    cudaStream_t streams[1 + SLOTS];
    CHECK(cudaStreamCreate(&streams[0]));
    for (int s = 1; s <= SLOTS; s++)
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    CHECK(cudaDeviceSynchronize());
    int wrong = 0, iterations = 0;
    if (in_rounds) {
        for (int r = 0; r < rounds; r++)
            wrong += interleaved_round(r, forms, x, want, runs, largest, streams);
    } else {
        wrong = schedule((enum form)form, x, want, runs, largest, streams, &iterations);
        printf("steady: %.3f us per iteration (%d iterations after 0 warm-up)\n",
               iterations > 0 ? loop_us / iterations : 0.0, iterations);
        printf("host: %.3f us per iteration filling the inputs and checking the product\n",
               iterations > 0 ? host_us / iterations : 0.0);
        printf("host by size:");
        for (int i = 0, n = TILE; i < size_at; i++, n *= 2)
            printf(" %d %.1f", n, iterations > 0 ? host_at[i] * size_at / iterations : 0.0);
        printf(" (us per iteration of that size)\n");
    }
    printf("mismatches %d\n%s\n", wrong, wrong == 0 ? "ok" : "wrong");
    return wrong == 0 ? 0 : 1;
}
