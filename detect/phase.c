/* phase.c: where a program's startup ends: the first repeated GPU work, found as a kernel-name
 * sequence that repeats back to back at least three times (docs/detectors.md, "Startup
 * phase"). What came only before it (loading, compiling, autotuning, moving the model to the
 * GPU) is told apart from the loop the program spends its time in. */
#include "detect_int.h"

#include <stdlib.h>

#define PHASE_MIN_REPEATS 3
#define PHASE_MAX_PERIOD 4096    /* longest kernel sequence taken for one repetition */
#define PHASE_CANDIDATES 16      /* periods tried per position */
#define PHASE_MISMATCH_PERCENT 5 /* positions that may differ between two repetitions */
/* A region counts when it covers at least this share (percent) of the largest one: a kernel
 * an autotuner ran a few times in a row is not the program's loop. */
#define PHASE_REGION_PERCENT 10
/* Comparisons of kernel names allowed per kernel of the log, so the search stays linear. */
#define PHASE_WORK_PER_KERNEL 256

typedef struct region {
    size_t start;    /* first kernel */
    size_t coverage; /* kernels: period x repetitions */
} region;

/* Whether names[i + j] == names[i + p + j] for j in [0, len) with at most the allowed share of
 * mismatches; counts the comparisons into '*work'. */
static int repeats(const uint32_t *names, size_t i, size_t p, size_t len, uint64_t *work)
{
    size_t allowed = len * PHASE_MISMATCH_PERCENT / 100, missed = 0;
    for (size_t j = 0; j < len; j++) {
        (*work)++;
        if (names[i + j] != names[i + p + j] && ++missed > allowed)
            return 0;
    }
    return 1;
}

/* The repeated regions of one device's kernel-name sequence 'names' ('n' kernels); 'next' is
 * the index of the next kernel of the same name (n when none). Appends to '*out'. Returns 0 or
 * -1. */
static int find_regions(const uint32_t *names, const size_t *next, size_t n, region **out,
                        size_t *count, size_t *cap)
{
    uint64_t work = 0, budget = (uint64_t)n * PHASE_WORK_PER_KERNEL + 100000;
    size_t i = 0;
    while (i < n && work < budget) {
        size_t found = 0;
        size_t j = next[i];
        for (int c = 0; c < PHASE_CANDIDATES && j < n && found == 0; c++, j = next[j]) {
            size_t p = j - i;
            if (p > PHASE_MAX_PERIOD || i + PHASE_MIN_REPEATS * p > n)
                break;
            if (repeats(names, i, p, (PHASE_MIN_REPEATS - 1) * p, &work))
                found = p;
        }
        if (found == 0) {
            i++;
            continue;
        }
        size_t reps = PHASE_MIN_REPEATS;
        while (i + (reps + 1) * found <= n && work < budget &&
               repeats(names, i + (reps - 1) * found, found, found, &work))
            reps++;
        if (ss_grow((void **)out, cap, *count + 1, sizeof **out) < 0)
            return -1;
        (*out)[(*count)++] = (region){i, reps * found};
        i += reps * found;
    }
    return 0;
}

static int cmp_start(const void *pa, const void *pb, void *arg)
{
    const det_ctx *ctx = arg;
    uint64_t a = ctx->ops[*(const uint32_t *)pa].ev->u.gpu.start_ns;
    uint64_t b = ctx->ops[*(const uint32_t *)pb].ev->u.gpu.start_ns;
    if (a != b)
        return a < b ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* The steady start of the kernels of device 'device' (0 when none), with the whole search's
 * memory supplied by the caller. Returns 0 or -1. */
static int device_steady_start(const det_ctx *ctx, int32_t device, uint32_t *kernels,
                               uint32_t *names, size_t *next, uint64_t *start)
{
    *start = 0;
    size_t n = 0;
    for (size_t o = 0; o < ctx->op_count; o++) {
        const ss_event *e = ctx->ops[o].ev;
        if (e->type == SS_EV_KERNEL && e->u.gpu.device == device)
            kernels[n++] = (uint32_t)o;
    }
    if (n < PHASE_MIN_REPEATS)
        return 0;
    qsort_r(kernels, n, sizeof *kernels, cmp_start, (void *)ctx);
    for (size_t k = 0; k < n; k++)
        names[k] = ctx->ops[kernels[k]].ev->u.gpu.name;
    /* next[k]: the next kernel of the same name, found with a map from name to the last index
     * seen, walking backwards. */
    ss_map last = {0};
    for (size_t k = n; k-- > 0;) {
        uint32_t j = ss_map_get(&last, names[k], 0);
        next[k] = j == DET_NONE ? n : j;
        if (ss_map_put(&last, names[k], 0, (uint32_t)k) < 0) {
            ss_map_free(&last);
            return -1;
        }
    }
    ss_map_free(&last);
    region *regions = NULL;
    size_t count = 0, cap = 0;
    if (find_regions(names, next, n, &regions, &count, &cap) < 0) {
        free(regions);
        return -1;
    }
    size_t largest = 0;
    for (size_t r = 0; r < count; r++) {
        if (regions[r].coverage > largest)
            largest = regions[r].coverage;
    }
    for (size_t r = 0; r < count; r++) {
        if (regions[r].coverage * 100 >= largest * PHASE_REGION_PERCENT) {
            *start = ctx->ops[kernels[regions[r].start]].ev->u.gpu.start_ns;
            break;
        }
    }
    free(regions);
    return 0;
}

uint64_t det_steady_start(const det_ctx *ctx)
{
    if (ctx->op_count == 0)
        return 0;
    uint32_t *kernels = malloc(ctx->op_count * sizeof *kernels);
    uint32_t *names = malloc(ctx->op_count * sizeof *names);
    size_t *next = malloc(ctx->op_count * sizeof *next);
    uint64_t steady = 0;
    int32_t done[64];
    size_t ndone = 0;
    for (size_t o = 0; kernels && names && next && o < ctx->op_count; o++) {
        int32_t d = ctx->ops[o].ev->u.gpu.device;
        size_t k = 0;
        while (k < ndone && done[k] != d)
            k++;
        if (k < ndone || ndone == sizeof done / sizeof done[0])
            continue;
        done[ndone++] = d;
        uint64_t start;
        if (device_steady_start(ctx, d, kernels, names, next, &start) < 0)
            break;
        if (start != 0 && (steady == 0 || start < steady))
            steady = start;
    }
    free(kernels);
    free(names);
    free(next);
    return steady;
}

int det_stack_compiles(det_ctx *ctx, uint32_t stack)
{
    if (stack >= ctx->log->stack_count)
        return 0;
    if (ctx->compile_stack[stack] < 0) {
        const ss_stack *st = &ctx->log->stacks[stack];
        int8_t compiles = 0;
        for (uint32_t i = 0; i < st->depth && !compiles; i++) {
            const ss_stack_frame *f = &st->frames[i];
            compiles = (int8_t)ss_compile_frame(ctx->log->strings[f->function],
                                                ctx->log->strings[f->file], (int)f->python);
        }
        ctx->compile_stack[stack] = compiles;
    }
    return ctx->compile_stack[stack];
}
