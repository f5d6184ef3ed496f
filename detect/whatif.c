/* whatif.c: what the what-if rules share (whatif_launch_bound.c, SYNC502; whatif_pipeline.c,
 * SYNC503; and the predictions of SYNC201 and SYNC301): the pinned copy rate a copy is
 * predicted at, syncscope's own time per call as the capture measured it, the GPU's idle time
 * after a moment, and the medians the estimates take (docs/detectors.md). */
#include "detect_int.h"

#include <stdlib.h>

/* A pinned copy at least this large gives the log's own pinned rate. */
#define PINNED_RATE_MIN_BYTES (1u << 20)

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

void det_sort_u64(uint64_t *values, size_t n)
{
    qsort(values, n, sizeof *values, cmp_u64);
}

uint64_t det_median(uint64_t *values, size_t n)
{
    if (n == 0)
        return 0;
    det_sort_u64(values, n);
    return values[(n - 1) / 2];
}

uint64_t det_gpu_ns(const ss_ev_gpu *g)
{
    return g->end_ns > g->start_ns ? g->end_ns - g->start_ns : 0;
}

int det_pinned_rate(const det_ctx *ctx, uint8_t kind, uint64_t *rate)
{
    uint64_t *rates = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < ctx->op_count; i++) {
        const ss_event *e = ctx->ops[i].ev;
        const ss_ev_gpu *g = &e->u.gpu;
        uint8_t host = kind == SS_COPY_HTOD ? g->src_kind : g->dst_kind;
        if (e->type != SS_EV_MEMCPY || g->copy_kind != kind || host != SS_MEM_PINNED ||
            g->bytes < PINNED_RATE_MIN_BYTES || det_gpu_ns(g) == 0)
            continue;
        if (ss_grow((void **)&rates, &cap, n + 1, sizeof *rates) < 0) {
            free(rates);
            return -1;
        }
        rates[n++] = g->bytes * 1000 / det_gpu_ns(g);
    }
    *rate = n ? det_median(rates, n) : ctx->opt->pinned_bytes_per_us;
    free(rates);
    return 0;
}

uint64_t det_self_mean(const det_ctx *ctx, const char *total_key, const char *count_key)
{
    const char *total = ss_evlog_get_meta(ctx->log, total_key);
    const char *count = ss_evlog_get_meta(ctx->log, count_key);
    uint64_t n = count != NULL ? strtoull(count, NULL, 10) : 0;
    return total != NULL && n > 0 ? strtoull(total, NULL, 10) / n : 0;
}

uint64_t det_gpu_idle_after(const det_ctx *ctx, int32_t device, uint64_t from_ns, uint64_t cap)
{
    /* The operations are in start order: the first that starts at or after from_ns. */
    size_t lo = 0, hi = ctx->op_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ctx->ops[mid].ev->u.gpu.start_ns < from_ns)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < ctx->op_count; i++) {
        const ss_ev_gpu *g = &ctx->ops[i].ev->u.gpu;
        if (g->start_ns - from_ns >= cap)
            return cap;
        if (g->device == device)
            return g->start_ns - from_ns;
    }
    return 0; /* nothing ran on it later: nothing to overlap */
}
