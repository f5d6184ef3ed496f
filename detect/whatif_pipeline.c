/* whatif_pipeline.c: SYNC503 serialized-pipeline, a what-if rule, which predicts what a
 * restructured program would take rather than observe a stall: copy in, kernel, copy out
 * chunk after chunk with nothing overlapping; the predicted time is double-buffered. O(n log n)
 * in the number of GPU operations (docs/detectors.md). What the what-ifs share is in
 * whatif.c. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_STREAMS 16
#define CHUNK_SPANS 16
/* A chain's leading chunk that took more than this many times the median chunk did one-time
 * work (a first use's compilation) and is left out of the prediction. */
#define CHUNK_OUTLIER_FACTOR 4

enum stage { STAGE_NONE, STAGE_H2D, STAGE_COMPUTE, STAGE_D2H };

/* One chunk: copies in, then compute (kernels, memsets, device copies), then copies out. */
typedef struct chunk {
    uint32_t first_op;
    uint64_t start, end;
    uint64_t stage[4];        /* GPU time per stage (index enum stage) */
    uint64_t stage_pinned[4]; /* the same with pageable copies at the pinned rate */
    uint64_t pageable, bytes; /* pageable copies, bytes copied */
    uint64_t shape;           /* hash of its stages' operations (kinds and kernel names) */
    /* The host intervals of its operations' calls and their synchronizations (the first
     * CHUNK_SPANS): the rest of its time is the host's own work. */
    uint64_t span[CHUNK_SPANS][2];
    size_t spans;
} chunk;

/* A chain of consecutive chunks on one device with no two operations overlapping. */
typedef struct chain {
    chunk *chunks;
    size_t count, cap;
    chunk current; /* being filled */
    enum stage state;
    uint32_t streams[CHAIN_STREAMS];
    size_t stream_count;
} chain;

static enum stage stage_of(const ss_event *e)
{
    if (e->type == SS_EV_MEMCPY && e->u.gpu.copy_kind == SS_COPY_HTOD)
        return STAGE_H2D;
    if (e->type == SS_EV_MEMCPY && e->u.gpu.copy_kind == SS_COPY_DTOH)
        return STAGE_D2H;
    return STAGE_COMPUTE;
}

/* The median of one stage over the chain's chunks ('pinned': the pinned-rate figure). */
static uint64_t stage_median(const chain *c, enum stage s, int pinned, uint64_t *scratch)
{
    for (size_t i = 0; i < c->count; i++)
        scratch[i] = pinned ? c->chunks[i].stage_pinned[s] : c->chunks[i].stage[s];
    return det_median(scratch, c->count);
}

/* How many chunks of the chain have its most common shape ('scratch' holds count values). */
static size_t most_common_shape(const chain *c, uint64_t *scratch)
{
    for (size_t i = 0; i < c->count; i++)
        scratch[i] = c->chunks[i].shape;
    det_sort_u64(scratch, c->count);
    size_t best = 0, run = 0;
    for (size_t i = 0; i < c->count; i++) {
        run = i > 0 && scratch[i] == scratch[i - 1] ? run + 1 : 1;
        if (run > best)
            best = run;
    }
    return best;
}

/* The longest stage of chunk 'k' with its copies at the pinned rate. */
static uint64_t slowest_pinned(const chunk *k)
{
    uint64_t in = k->stage_pinned[STAGE_H2D], kernel = k->stage[STAGE_COMPUTE];
    uint64_t out = k->stage_pinned[STAGE_D2H];
    uint64_t slowest = in > kernel ? in : kernel;
    return out > slowest ? out : slowest;
}

static int cmp_span(const void *pa, const void *pb)
{
    const uint64_t *a = pa, *b = pb;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The time in [from, until) the host spent outside chunk 'k''s calls: its own work, which
 * stays when the stages overlap (what already ran beside the GPU's stages included). */
static uint64_t own_work(const chunk *k, uint64_t from, uint64_t until)
{
    uint64_t spans[CHUNK_SPANS][2];
    memcpy(spans, k->span, k->spans * sizeof spans[0]);
    qsort(spans, k->spans, sizeof spans[0], cmp_span);
    uint64_t covered = 0, at = from;
    for (size_t i = 0; i < k->spans; i++) {
        uint64_t a = spans[i][0] > at ? spans[i][0] : at;
        uint64_t b = spans[i][1] < until ? spans[i][1] : until;
        if (b > a) {
            covered += b - a;
            at = b;
        }
    }
    return until > from + covered ? until - from - covered : 0;
}

/* When chunk 'k' began: its first call's entry or its first operation's start. */
static uint64_t first_touch(const chunk *k)
{
    uint64_t t = k->start;
    for (size_t i = 0; i < k->spans; i++) {
        if (k->span[i][0] < t)
            t = k->span[i][0];
    }
    return t;
}

/* syncscope's own time in chunk 'k' on its thread, from its first operation's call to 'until'
 * (the next chunk's first call or operation): the capture's mean own time after a call whose
 * stack it took ('self_stack') for each such call, and its mean own time per launch
 * ('self_launch') for each launch. */
static uint64_t chunk_self_ns(const det_ctx *ctx, const chunk *k, uint64_t until,
                              uint64_t self_stack, uint64_t self_launch)
{
    uint64_t self = 0;
    if (self_stack == 0 && self_launch == 0)
        return 0;
    for (uint32_t call = ctx->ops[k->first_op].call;
         call != DET_NONE && ctx->calls[call].ev->enter_ns < until; call = ctx->calls[call].next) {
        const det_call *dc = &ctx->calls[call];
        if (dc->enclosed)
            continue;
        if (dc->ev->stack != 0)
            self += self_stack;
        if (dc->row != NULL && dc->row->klass == SS_CLASS_LAUNCH)
            self += self_launch;
    }
    return self;
}

/* The figures of chunks c->chunks[first..count) at the pinned copy rates 'rates' (a
 * double-buffered prediction, docs/detectors.md); 'scratch' holds count values. Sets '*bytes'
 * to the bytes their copies moved.
 * The model: double-buffered, a chunk's stages overlap the host's own work and the other
 * chunks' stages, so each chunk takes the longer of the GPU's idle time around it as observed
 * (the host's own work between the stages, which stays) and its slowest stage with pinned
 * buffers; the pipeline fills once (the median chunk's stages but the slowest). The saving is
 * at most the GPU time of the stages, which is what overlap hides. */
static struct det_pipeline_figures chain_figures(const det_ctx *ctx, const chain *c, size_t first,
                                                 const uint64_t *rates, uint64_t *scratch,
                                                 uint64_t *bytes)
{
    uint64_t self_stack = det_self_mean(ctx, "self_stack_ns", "self_stacks");
    uint64_t self_launch = det_self_mean(ctx, "self_launch_ns", "self_launches");
    struct det_pipeline_figures pl = {0};
    chain steady = *c;
    steady.chunks = c->chunks + first;
    steady.count = c->count - first;
    size_t n = steady.count;
    pl.chunks = n;
    pl.h2d_ns = stage_median(&steady, STAGE_H2D, 0, scratch);
    pl.kernel_ns = stage_median(&steady, STAGE_COMPUTE, 0, scratch);
    pl.d2h_ns = stage_median(&steady, STAGE_D2H, 0, scratch);
    pl.h2d_pinned_ns = stage_median(&steady, STAGE_H2D, 1, scratch);
    pl.d2h_pinned_ns = stage_median(&steady, STAGE_D2H, 1, scratch);
    pl.h2d_rate = rates[STAGE_H2D];
    pl.d2h_rate = rates[STAGE_D2H];
    *bytes = 0;
    uint64_t overlapped = 0, own_total = 0;
    for (size_t i = 0; i < n; i++) {
        const chunk *k = &steady.chunks[i];
        pl.pageable += k->pageable;
        *bytes += k->bytes;
        uint64_t stages = k->stage[STAGE_H2D] + k->stage[STAGE_COMPUTE] + k->stage[STAGE_D2H];
        uint64_t from = first_touch(k), until = i + 1 < n ? first_touch(k + 1) : k->end;
        uint64_t idle = own_work(k, from, until);
        /* syncscope's own time in it, which the host's own work holds: the program does not
         * spend it bare. */
        uint64_t self = chunk_self_ns(ctx, k, until, self_stack, self_launch);
        self = self < idle ? self : idle;
        idle -= self;
        pl.self_ns += self;
        uint64_t slowest = slowest_pinned(k);
        pl.gpu_ns += stages;
        own_total += idle;
        overlapped += idle > slowest ? idle : slowest;
        scratch[i] = idle;
    }
    pl.idle_ns = det_median(scratch, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t until = i + 1 < n ? steady.chunks[i + 1].start : steady.chunks[i].end;
        scratch[i] = until > steady.chunks[i].start ? until - steady.chunks[i].start : 0;
    }
    pl.period_ns = det_median(scratch, n);
    uint64_t in = pl.h2d_pinned_ns, kernel = pl.kernel_ns, out = pl.d2h_pinned_ns;
    uint64_t slowest = in > kernel ? in : kernel;
    slowest = out > slowest ? out : slowest;
    pl.predicted_ns = overlapped + in + kernel + out - slowest;
    const chunk *head = &steady.chunks[0], *last = &steady.chunks[n - 1];
    pl.measured_ns = last->end > head->start ? last->end - head->start : 0;
    /* What the fix can remove: the stages' GPU time and the host's time inside their calls
     * (a pageable copy's staging); the host's own work stays. */
    uint64_t bare = pl.measured_ns - pl.self_ns;
    pl.removable_ns = bare > own_total ? bare - own_total : 0;
    if (pl.predicted_ns + pl.removable_ns < bare)
        pl.predicted_ns = bare - pl.removable_ns;
    return pl;
}

/* Reports chain 'c' when double buffering would pay, leaving out its chunks that ended before
 * the program's startup phase did (ctx->steady_ns). Returns 0 or -1. */
static int report_chain(det_ctx *ctx, const chain *c, const uint64_t *rates)
{
    size_t first = 0;
    while (ctx->steady_ns != 0 && first < c->count && c->chunks[first].end < ctx->steady_ns)
        first++;
    if (c->count - first < 3 || c->count - first < ctx->opt->pipeline_min_chunks)
        return 0;
    uint64_t *scratch = malloc(c->count * sizeof *scratch);
    if (scratch == NULL)
        return -1;
    /* Leading chunks far longer than the median one did one-time work (a first use's
     * compilation, which the startup phase, found from kernels, does not see). */
    for (size_t i = first; i + 1 < c->count; i++)
        scratch[i - first] = c->chunks[i + 1].start - c->chunks[i].start;
    uint64_t typical = det_median(scratch, c->count - 1 - first);
    while (c->count - first > 3 && c->count - first > ctx->opt->pipeline_min_chunks &&
           c->chunks[first + 1].start - c->chunks[first].start > CHUNK_OUTLIER_FACTOR * typical)
        first++;
    uint64_t bytes;
    struct det_pipeline_figures pl = chain_figures(ctx, c, first, rates, scratch, &bytes);
    uint64_t bare = pl.measured_ns - pl.self_ns;
    free(scratch);
    uint32_t call = DET_NONE;
    for (size_t i = first; i < c->count && call == DET_NONE; i++)
        call = ctx->ops[c->chunks[i].first_op].call;
    if (call == DET_NONE || pl.predicted_ns * 100 > bare * ctx->opt->whatif_max_percent)
        return 0;
    const det_op *op = &ctx->ops[c->chunks[first].first_op];
    det_hit hit = {
        .rule = SS_RULE_SERIALIZED_PIPELINE,
        .call = call,
        .ns = bare - pl.predicted_ns,
        .bytes = bytes,
        .stream_id = op->ev->u.gpu.stream_id,
        .other_streams = c->streams + 1,
        .other_count = c->stream_count > 0 ? c->stream_count - 1 : 0,
        .device = op->ev->u.gpu.device,
        .figures.pipeline = pl,
    };
    return det_report(ctx, &hit);
}

/* Reports the chain when it is long enough, repeats one shape of chunk at least
 * pipeline_min_chunks (and 3) times, and double buffering would pay (docs/detectors.md), then
 * empties it. Returns 0 or -1. */
static int flush_chain(det_ctx *ctx, chain *c, const uint64_t *rates)
{
    uint64_t *shapes = c->count >= 3 ? malloc(c->count * sizeof *shapes) : NULL;
    if (c->count >= 3 && shapes == NULL)
        return -1;
    /* A pipeline repeats one copy-in, compute, copy-out shape; copies around different kernels
     * one after another (an autotuner trying candidates) are not one. */
    size_t same = shapes != NULL ? most_common_shape(c, shapes) : 0;
    free(shapes);
    int rc = 0;
    if (same >= ctx->opt->pipeline_min_chunks && same >= 3)
        rc = report_chain(ctx, c, rates);
    c->count = 0;
    c->state = STAGE_NONE;
    c->stream_count = 0;
    return rc;
}

/* Closes the chunk being filled into the chain. Returns 0 or -1. */
static int close_chunk(chain *c)
{
    if (ss_grow((void **)&c->chunks, &c->cap, c->count + 1, sizeof *c->chunks) < 0)
        return -1;
    c->chunks[c->count++] = c->current;
    return 0;
}

static void add_to_chunk(chain *c, const det_ctx *ctx, uint32_t o, enum stage s,
                         const uint64_t *rates)
{
    const ss_ev_gpu *g = &ctx->ops[o].ev->u.gpu;
    chunk *k = &c->current;
    if (c->state == STAGE_NONE || (s == STAGE_H2D && c->state != STAGE_H2D)) {
        memset(k, 0, sizeof *k);
        k->first_op = o;
        k->start = g->start_ns;
    }
    uint64_t ns = det_gpu_ns(g), pinned = ns;
    int staged = 0; /* a copy from or to pageable memory */
    if (s != STAGE_COMPUTE) {
        uint8_t host = s == STAGE_H2D ? g->src_kind : g->dst_kind;
        staged = host == SS_MEM_PAGEABLE;
        if (host == SS_MEM_PAGEABLE && rates[s] != 0) {
            uint64_t estimate = g->bytes * 1000 / rates[s];
            pinned = estimate < ns ? estimate : ns;
            k->pageable++;
        }
        k->bytes += g->bytes;
    }
    k->stage[s] += ns;
    k->stage_pinned[s] += pinned;
    /* The host's time the fix can remove: its operations' calls that held it (a synchronous
     * copy, or one staged through pageable memory) and a synchronization its thread made
     * right after one (the wait of an asynchronous copy). Enqueueing, which stays, is the
     * host's own. */
    uint32_t call = ctx->ops[o].call;
    for (int j = 0; j < 2 && call != DET_NONE && k->spans < CHUNK_SPANS; j++) {
        const det_call *dc = &ctx->calls[call];
        int held = dc->row != NULL && (j == 0 ? dc->row->sync == SS_SYNC_ALWAYS ||
                                                    (dc->row->sync == SS_SYNC_PAGEABLE && staged)
                                              : dc->row->klass == SS_CLASS_STREAM_SYNC ||
                                                    dc->row->klass == SS_CLASS_DEVICE_SYNC ||
                                                    dc->row->klass == SS_CLASS_EVENT_SYNC);
        if (held) {
            k->span[k->spans][0] = dc->ev->enter_ns;
            k->span[k->spans++][1] = dc->ev->exit_ns;
        }
        call = dc->next;
    }
    /* The shape: each operation's stage, type and kernel name, in order (bytes aside: the
     * last chunk of a pipeline is often shorter). */
    uint64_t item = (uint64_t)s << 40 | (uint64_t)ctx->ops[o].ev->type << 32 |
                    (ctx->ops[o].ev->type == SS_EV_KERNEL ? g->name : 0);
    k->shape = (k->shape ^ item) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    if (g->end_ns > k->end)
        k->end = g->end_ns;
    c->state = s;
    size_t i = 0;
    while (i < c->stream_count && c->streams[i] != g->stream_id)
        i++;
    if (i == c->stream_count && c->stream_count < CHAIN_STREAMS)
        c->streams[c->stream_count++] = g->stream_id;
}

/* Feeds operation 'o' (the next on its device in start order) to the chain. Returns 0 or -1. */
static int feed(det_ctx *ctx, chain *c, uint32_t o, const uint64_t *rates)
{
    enum stage s = stage_of(ctx->ops[o].ev);
    switch (c->state) {
    case STAGE_NONE:
        if (s == STAGE_H2D)
            add_to_chunk(c, ctx, o, s, rates);
        return 0;
    case STAGE_H2D:
        if (s == STAGE_D2H) /* no compute stage: not a chunk */
            return flush_chain(ctx, c, rates);
        add_to_chunk(c, ctx, o, s, rates);
        return 0;
    case STAGE_COMPUTE:
        if (s == STAGE_H2D) { /* no copy out: not a chunk; this copy may start one */
            if (flush_chain(ctx, c, rates) < 0)
                return -1;
        }
        add_to_chunk(c, ctx, o, s, rates);
        return 0;
    case STAGE_D2H:
        if (s == STAGE_D2H) {
            add_to_chunk(c, ctx, o, s, rates);
            return 0;
        }
        if (close_chunk(c) < 0)
            return -1;
        if (s == STAGE_H2D) {
            add_to_chunk(c, ctx, o, s, rates);
            return 0;
        }
        return flush_chain(ctx, c, rates); /* compute right after a copy out */
    }
    return 0;
}

/* Ends the chain at the end of the log or at an overlap: a chunk whose copy out has begun is
 * complete; a chunk still short of its copy out is dropped. Returns 0 or -1. */
static int end_chain(det_ctx *ctx, chain *c, const uint64_t *rates)
{
    if (c->state == STAGE_D2H && close_chunk(c) < 0)
        return -1;
    return flush_chain(ctx, c, rates);
}

/* SYNC503: chains of copy in, kernel, copy out that nothing overlapped. Returns 0 or -1. */
static int pipeline_run(det_ctx *ctx)
{
    uint64_t rates[4] = {0};
    if (det_pinned_rate(ctx, SS_COPY_HTOD, &rates[STAGE_H2D]) < 0 ||
        det_pinned_rate(ctx, SS_COPY_DTOH, &rates[STAGE_D2H]) < 0)
        return -1;
    /* The devices, in order of first appearance; each is scanned once. */
    int32_t devices[64];
    size_t ndev = 0;
    for (size_t i = 0; i < ctx->op_count; i++) {
        int32_t d = ctx->ops[i].ev->u.gpu.device;
        size_t j = 0;
        while (j < ndev && devices[j] != d)
            j++;
        if (j == ndev && ndev < sizeof devices / sizeof devices[0])
            devices[ndev++] = d;
    }
    chain c;
    memset(&c, 0, sizeof c);
    int rc = 0;
    for (size_t d = 0; d < ndev && rc == 0; d++) {
        uint64_t max_end = 0;
        for (size_t i = 0; i < ctx->op_count && rc == 0; i++) {
            const ss_ev_gpu *g = &ctx->ops[i].ev->u.gpu;
            if (g->device != devices[d])
                continue;
            /* Overlap with earlier work on the device: this part is already concurrent. */
            if (g->start_ns < max_end)
                rc = end_chain(ctx, &c, rates);
            if (rc == 0)
                rc = feed(ctx, &c, (uint32_t)i, rates);
            if (g->end_ns > max_end)
                max_end = g->end_ns;
        }
        if (rc == 0)
            rc = end_chain(ctx, &c, rates);
    }
    free(c.chunks);
    return rc;
}

/* ---- the message ---- */

/* The finding's figures of the chain(s) 'agg' folded ('runs' of them). */
static void add_pipeline_figures(ss_finding *finding, const det_agg *agg, uint64_t runs)
{
    const struct det_pipeline_figures *f = &agg->figures.pipeline;
    uint64_t period = f->period_ns / runs;
    det_add_figure(finding, "chunks", f->chunks);
    det_add_figure(finding, "measured_ns", f->measured_ns);
    det_add_figure(finding, "gpu_ns", f->gpu_ns);
    det_add_figure(finding, "removable_ns", f->removable_ns);
    det_add_figure(finding, "predicted_ns", f->predicted_ns);
    det_add_figure(finding, "stage_h2d_ns", f->h2d_ns / runs);
    det_add_figure(finding, "stage_kernel_ns", f->kernel_ns / runs);
    det_add_figure(finding, "stage_d2h_ns", f->d2h_ns / runs);
    det_add_figure(finding, "chunk_idle_ns", f->idle_ns / runs);
    det_add_figure(finding, "chunk_period_ns", period);
    det_add_figure(finding, "saving_ns", agg->total_ns);
    det_add_figure(finding, "pageable_copies", f->pageable);
    if (f->self_ns > 0)
        det_add_figure(finding, "self_ns", f->self_ns);
    if (f->pageable) {
        det_add_figure(finding, "stage_h2d_pinned_ns", f->h2d_pinned_ns / runs);
        det_add_figure(finding, "stage_d2h_pinned_ns", f->d2h_pinned_ns / runs);
        det_add_figure(finding, "pinned_h2d_bytes_per_us", f->h2d_rate / runs);
        det_add_figure(finding, "pinned_d2h_bytes_per_us", f->d2h_rate / runs);
    }
}

/* The message's end after 'text' (which it frees): the saving, or the bound on it where the
 * GPU was idle at least half of each chunk's time ('idle_percent') waiting for the host; and
 * for pageable copies, the pinned rates the prediction assumes. */
static char *pipeline_saving_text(char *text, const det_agg *agg, uint64_t runs,
                                  uint64_t idle_percent)
{
    const struct det_pipeline_figures *f = &agg->figures.pipeline;
    char saving[32], removable[32];
    char *more;
    ss_format_duration(agg->total_ns, saving, sizeof saving);
    if (idle_percent >= 50)
        more = ss_xasprintf("%s. The GPU was idle %" PRIu64 "%% of this loop waiting for the "
                            "host's own work: overlap would save at most %s (of the %s that "
                            "is not the host's own work)",
                            text, idle_percent, saving,
                            ss_format_duration(f->removable_ns, removable, sizeof removable));
    else
        more = ss_xasprintf("%s, a saving of %s", text, saving);
    free(text);
    if (f->pageable == 0)
        return more;
    char r_in[32], r_out[32], t_in[32], t_out[32];
    text = ss_xasprintf("%s. The copies used pageable host memory, which cannot overlap: with "
                        "pinned buffers (at %s in and %s out) copy in would take %s and copy out "
                        "%s, as the prediction assumes",
                        more, det_rate_text(f->h2d_rate / runs, r_in, sizeof r_in),
                        det_rate_text(f->d2h_rate / runs, r_out, sizeof r_out),
                        ss_format_duration(f->h2d_pinned_ns / runs, t_in, sizeof t_in),
                        ss_format_duration(f->d2h_pinned_ns / runs, t_out, sizeof t_out));
    free(more);
    return text;
}

static char *pipeline_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    (void)ctx;
    const struct det_pipeline_figures *f = &agg->figures.pipeline;
    uint64_t runs = agg->count ? agg->count : 1;
    uint64_t in = f->h2d_ns / runs, kernel = f->kernel_ns / runs, out = f->d2h_ns / runs;
    uint64_t in_pinned = f->h2d_pinned_ns / runs, out_pinned = f->d2h_pinned_ns / runs;
    uint64_t idle = f->idle_ns / runs, period = f->period_ns / runs;
    uint64_t idle_percent = period ? idle * 100 / period : 0;
    add_pipeline_figures(finding, agg, runs);

    uint64_t slowest = in_pinned > kernel ? in_pinned : kernel;
    slowest = out_pinned > slowest ? out_pinned : slowest;
    char measured[32], predicted[32], t_in[32], t_k[32], t_out[32], t_slow[32], gpu[32];
    char t_idle[32], chains[48] = "", idle_text[128] = "", own[96] = "", t_own[32];
    if (f->self_ns > 0)
        snprintf(own, sizeof own, " (syncscope's own time in it, taken off: %s)",
                 ss_format_duration(f->self_ns, t_own, sizeof t_own));
    if (runs > 1)
        snprintf(chains, sizeof chains, " (in %" PRIu64 " loops)", runs);
    if (idle_percent > 0)
        snprintf(idle_text, sizeof idle_text,
                 " and was idle %" PRIu64 "%% of each chunk's time waiting for the host's own "
                 "work (%s per chunk)",
                 idle_percent, ss_format_duration(idle, t_idle, sizeof t_idle));
    char *text = ss_xasprintf(
        "%" PRIu64 " chunks%s of copy in, kernel, copy out ran one after another with nothing "
        "overlapping them: %s%s, of which the GPU worked %s (per chunk, median: copy in %s, "
        "kernel %s, copy out %s)%s. Model: double-buffered, a chunk takes the longer of the "
        "host's own work, which stays, and its slowest stage with pinned buffers (%s), plus one "
        "pipeline fill: about %s",
        f->chunks, chains, ss_format_duration(f->measured_ns, measured, sizeof measured), own,
        ss_format_duration(f->gpu_ns, gpu, sizeof gpu), ss_format_duration(in, t_in, sizeof t_in),
        ss_format_duration(kernel, t_k, sizeof t_k), ss_format_duration(out, t_out, sizeof t_out),
        idle_text, ss_format_duration(slowest, t_slow, sizeof t_slow),
        ss_format_duration(f->predicted_ns, predicted, sizeof predicted));
    return pipeline_saving_text(text, agg, runs, idle_percent);
}

static void pipeline_fold(det_figures *sum, const det_figures *one)
{
    struct det_pipeline_figures *s = &sum->pipeline;
    const struct det_pipeline_figures *o = &one->pipeline;
    s->chunks += o->chunks;
    s->measured_ns += o->measured_ns;
    s->gpu_ns += o->gpu_ns;
    s->removable_ns += o->removable_ns;
    s->predicted_ns += o->predicted_ns;
    s->idle_ns += o->idle_ns;
    s->period_ns += o->period_ns;
    s->h2d_ns += o->h2d_ns;
    s->kernel_ns += o->kernel_ns;
    s->d2h_ns += o->d2h_ns;
    s->h2d_pinned_ns += o->h2d_pinned_ns;
    s->d2h_pinned_ns += o->d2h_pinned_ns;
    s->pageable += o->pageable;
    s->h2d_rate += o->h2d_rate;
    s->d2h_rate += o->d2h_rate;
    s->self_ns += o->self_ns;
}

/* A what-if family: its figures are summed over the runs or chains of a finding (the
 * messages divide by the count where they mean one run's), and it reads repeated work by
 * definition, so its findings are never startup work. */
const det_family det_family_pipeline = {
    .run = pipeline_run,
    .message = pipeline_message,
    .fold = pipeline_fold,
    .repeated_work = 1,
};
