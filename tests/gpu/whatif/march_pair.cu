/* march_pair.cu: a ray-marching loop whose alive count, read back after each compaction, is the
 * loop's exit test and the size of the next launch (instant-ngp's NerfTracer::trace), as lint's
 * note "inherent: the value chooses the next device work" describes it (docs/lint.md, "A value
 * that chooses the next device work"), in the form as written (FORM 1: the count read back and
 * waited for every round, 'if (n_alive == 0) break;', the next launches sized with it) and as
 * the warning it used to be said to rewrite it (FORM 2: "synchronize once after the loop": no
 * readback, so every round launches for all the rays, its threads past the device's count
 * return at once, and the loop runs its maximum of rounds, one wait after it), and tested every
 * fourth round (FORM 3: each round launched for the count last read back, the count read back
 * and waited for after every fourth round).
 * Each ray lives a number of rounds drawn from a geometric law (mean 'mean', at most 'max');
 * a round marches each live ray 'work' steps of a hash (GPU time per live ray).
 * Usage: march_pair FORM [rays] [mean rounds] [max rounds] [work] [repeats]
 * Prints, for the last of 'repeats' traces (the first ones warm up):
 *   steady: <us> us per iteration (<rounds> iterations after 0 warm-up)
 *   trace: <us> us, <rounds> rounds, <hits> hits */
#include "whatif_common.h"

/* Compacts the live rays of 'in' (those whose life exceeds 'round') into 'out', counting them
 * in *alive; with 'limit' set, threads past *limit (the device's count of the round before)
 * return at once. */
static __global__ void compact(const unsigned *in, unsigned *out, const unsigned *life,
                               unsigned n, const unsigned *limit, unsigned round,
                               unsigned *alive)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || (limit != NULL && i >= *limit))
        return;
    unsigned ray = in[i];
    if (life[ray] > round)
        out[atomicAdd(alive, 1u)] = ray;
}

/* Marches the 'n' rays of 'rays' (or *limit of them) 'work' steps each, into 'acc'. */
static __global__ void march(const unsigned *rays, unsigned *acc, unsigned n,
                             const unsigned *limit, int work)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || (limit != NULL && i >= *limit))
        return;
    unsigned ray = rays[i], x = acc[ray];
    for (int k = 0; k < work; k++)
        x = x * 1664525u + 1013904223u + (x >> 7);
    acc[ray] = x;
}

static __global__ void start(unsigned *rays, unsigned *life, unsigned *acc, unsigned *hits,
                             unsigned n, float keep, unsigned max)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = i * 2654435761u + 12345u, l = 1;
    for (; l < max; l++) { /* each round, a ray goes on with probability 'keep' */
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        if ((float)(x & 0xffffff) / 16777216.f >= keep)
            break;
    }
    rays[i] = i;
    life[i] = l;
    acc[i] = x;
    if (i == 0)
        *hits = 0;
}

typedef struct rays_t {
    unsigned *a, *b, *life, *acc, *alive;
    unsigned n;
} rays_t;

/* As written: the count read back and waited for every round; the exit test and the next
 * launches need it. Returns the rounds. */
static int trace_written(rays_t *r, unsigned max, int work, cudaStream_t s)
{
    unsigned n_alive = r->n, round = 0;
    unsigned *in = r->a, *out = r->b;
    while (round < max) {
        CHECK(cudaMemsetAsync(r->alive, 0, sizeof(unsigned), s));
        compact<<<(n_alive + 255) / 256, 256, 0, s>>>(in, out, r->life, n_alive, NULL, round,
                                                      r->alive);
        CHECK(cudaMemcpyAsync(&n_alive, r->alive, sizeof(unsigned), cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        round++;
        if (n_alive == 0)
            break;
        march<<<(n_alive + 255) / 256, 256, 0, s>>>(out, r->acc, n_alive, NULL, work);
        unsigned *t = in;
        in = out;
        out = t;
    }
    return (int)round;
}

/* As the old warning said: no readback, so each round launches for every ray and reads the
 * count on the device; the loop runs all 'max' rounds, one wait after it. */
static int trace_once(rays_t *r, unsigned max, int work, cudaStream_t s)
{
    unsigned *in = r->a, *out = r->b, *counts = r->alive; /* counts[0..1]: this round's, the last */
    unsigned blocks = (r->n + 255) / 256;
    CHECK(cudaMemcpyAsync(counts + 1, &r->n, sizeof(unsigned), cudaMemcpyHostToDevice, s));
    for (unsigned round = 0; round < max; round++) {
        unsigned *now = counts + (round & 1), *before = counts + ((round + 1) & 1);
        CHECK(cudaMemsetAsync(now, 0, sizeof(unsigned), s));
        compact<<<blocks, 256, 0, s>>>(in, out, r->life, r->n, before, round, now);
        march<<<blocks, 256, 0, s>>>(out, r->acc, r->n, now, work);
        unsigned *t = in;
        in = out;
        out = t;
    }
    CHECK(cudaStreamSynchronize(s));
    return (int)max;
}

/* Tested every fourth round (instant-ngp's render_volume): each round is launched for the count
 * last read back (the count only falls) and its threads past the device's count return at once;
 * the count is read back and waited for after every fourth round. Returns the rounds. */
static int trace_every4(rays_t *r, unsigned max, int work, cudaStream_t s)
{
    unsigned *in = r->a, *out = r->b, *counts = r->alive, known = r->n, round = 0;
    CHECK(cudaMemcpyAsync(counts + 1, &r->n, sizeof(unsigned), cudaMemcpyHostToDevice, s));
    while (round < max && known > 0) {
        unsigned *now = counts + (round & 1), *before = counts + ((round + 1) & 1);
        unsigned blocks = (known + 255) / 256;
        CHECK(cudaMemsetAsync(now, 0, sizeof(unsigned), s));
        compact<<<blocks, 256, 0, s>>>(in, out, r->life, known, before, round, now);
        march<<<blocks, 256, 0, s>>>(out, r->acc, known, now, work);
        unsigned *t = in;
        in = out;
        out = t;
        if (++round % 4 == 0) {
            CHECK(cudaMemcpyAsync(&known, now, sizeof(unsigned), cudaMemcpyDeviceToHost, s));
            CHECK(cudaStreamSynchronize(s));
        }
    }
    CHECK(cudaStreamSynchronize(s));
    return (int)round;
}

int main(int argc, char **argv)
{
    int form = (int)arg_or(argc, argv, 1, 1);
    unsigned n = (unsigned)arg_or(argc, argv, 2, 1 << 20);
    unsigned mean = (unsigned)arg_or(argc, argv, 3, 16), max = (unsigned)arg_or(argc, argv, 4, 128);
    int work = (int)arg_or(argc, argv, 5, 64), repeats = (int)arg_or(argc, argv, 6, 3);
    if (form > 3 || n < 256 || mean < 1 || max < mean || work < 0 || repeats < 1) {
        fprintf(stderr, "usage: march_pair FORM [rays] [mean rounds] [max rounds] [work] "
                        "[repeats]\n");
        return 2;
    }
    rays_t r = {NULL, NULL, NULL, NULL, NULL, n};
    CHECK(cudaMalloc(&r.a, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&r.b, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&r.life, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&r.acc, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&r.alive, 2 * sizeof(unsigned)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float keep = 1.f - 1.f / (float)mean;
    double us = 0;
    int rounds = 0;
    for (int k = 0; k < repeats; k++) {
        start<<<(n + 255) / 256, 256, 0, s>>>(r.a, r.life, r.acc, r.alive, n, keep, max);
        CHECK(cudaStreamSynchronize(s));
        double t0 = now_us();
        rounds = form == 1   ? trace_written(&r, max, work, s)
                 : form == 2 ? trace_once(&r, max, work, s)
                             : trace_every4(&r, max, work, s);
        us = now_us() - t0;
    }
    unsigned sample = 0;
    CHECK(cudaMemcpy(&sample, r.acc, sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("steady: %.3f us per iteration (%d iterations after 0 warm-up)\n", us / rounds, rounds);
    printf("trace: %.1f us, %d rounds, acc0 %u\nok\n", us, rounds, sample);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(r.a));
    CHECK(cudaFree(r.b));
    CHECK(cudaFree(r.life));
    CHECK(cudaFree(r.acc));
    CHECK(cudaFree(r.alive));
    return 0;
}
