/* whatif.c: the what-if rules, which predict what a restructured program would take rather
 * than observe a stall: SYNC502 launch-bound (the GPU waited for the host to launch short
 * kernels; predicted time as a CUDA graph replay) and SYNC503 serialized-pipeline (copy in,
 * kernel, copy out chunk after chunk with nothing overlapping; predicted double-buffered
 * time). Both are O(n log n) in the number of GPU operations (docs/detectors.md). */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Period search: at most this share (percent) of positions may differ from the position one
 * period later, and at most this many candidate periods are tried per anchor. */
#define PERIOD_MISMATCH_PERCENT 5
#define PERIOD_CANDIDATES 64
#define PERIOD_ANCHORS 4
/* A pinned copy at least this large gives the log's own pinned rate. */
#define PINNED_RATE_MIN_BYTES (1u << 20)
#define CHAIN_STREAMS 16
#define CHUNK_SPANS 16
/* A chain's leading chunk that took more than this many times the median chunk did one-time
 * work (a first use's compilation) and is left out of the prediction. */
#define CHUNK_OUTLIER_FACTOR 4

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The median of the 'n' 'values' (sorted in place; the lower middle one for an even count),
 * 0 for none. */
static uint64_t median(uint64_t *values, size_t n)
{
    if (n == 0)
        return 0;
    qsort(values, n, sizeof *values, cmp_u64);
    return values[(n - 1) / 2];
}

static uint64_t gpu_ns(const ss_ev_gpu *g)
{
    return g->end_ns > g->start_ns ? g->end_ns - g->start_ns : 0;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? (a + b - 1) / b : a;
}

/* ---- SYNC502 launch-bound ---- */

/* The launch call of operation 'o', or NULL unless it is a kernel (not part of a graph)
 * enqueued by a kernel-launch API. */
static const ss_ev_api *launch_of(const det_ctx *ctx, uint32_t o)
{
    const det_op *op = &ctx->ops[o];
    if (op->ev->type != SS_EV_KERNEL || op->ev->u.gpu.graph || op->call == DET_NONE)
        return NULL;
    const det_call *c = &ctx->calls[op->call];
    return c->row != NULL && c->row->klass == SS_CLASS_LAUNCH ? c->ev : NULL;
}

/* Whether the GPU gap between kernels 'a' and 'b' (consecutive on one stream, launched by
 * 'la' and 'lb' on one thread) was spent waiting for the host to launch 'b': the GPU had
 * finished 'a' before the launch call of 'b' returned, and the host spent no longer outside
 * launch calls between the two than inside the call of 'b'. */
static int starved_link(const ss_ev_gpu *a, const ss_ev_gpu *b, const ss_ev_api *la,
                        const ss_ev_api *lb)
{
    if (b->start_ns <= a->end_ns || lb->exit_ns <= a->end_ns)
        return 0;
    uint64_t outside = lb->enter_ns > la->exit_ns ? lb->enter_ns - la->exit_ns : 0;
    return outside <= lb->exit_ns - lb->enter_ns;
}

/* Number of positions i < n - p where names[i] != names[i + p], counting up to limit + 1. */
static size_t mismatches(const uint32_t *names, size_t n, size_t p, size_t limit)
{
    size_t miss = 0;
    for (size_t i = 0; i + p < n; i++) {
        if (names[i] != names[i + p] && ++miss > limit)
            break;
    }
    return miss;
}

/* The smallest period p <= n / 2 of the kernel-name sequence 'names' such that
 * names[i] == names[i + p] for all but PERIOD_MISMATCH_PERCENT of the positions, or n when
 * there is none. Candidates are the distances from an anchor position (the first few) to the
 * later occurrences of its name, PERIOD_CANDIDATES at most per anchor, so the search is
 * linear in n. */
static size_t find_period(const uint32_t *names, size_t n)
{
    size_t best = n;
    for (size_t anchor = 0; anchor < PERIOD_ANCHORS && anchor < n; anchor++) {
        size_t tried = 0;
        for (size_t q = anchor + 1; q - anchor <= n / 2 && q - anchor < best; q++) {
            if (names[q] != names[anchor])
                continue;
            size_t p = q - anchor;
            size_t limit = (n - p) * PERIOD_MISMATCH_PERCENT / 100;
            if (mismatches(names, n, p, limit) <= limit) {
                best = p;
                break;
            }
            if (++tried == PERIOD_CANDIDATES)
                break;
        }
    }
    return best;
}

/* Scratch arrays for one run, sized for the longest run. */
typedef struct run_scratch {
    uint32_t *names;
    uint64_t *api_ns;
    uint64_t *host_ns;
    uint64_t self_ns;   /* syncscope's own callbacks' time per launch (trace metadata), or 0 */
    uint64_t cupti_low; /* what CUPTI adds to a launch, at least and at most */
    uint64_t cupti_high;
} run_scratch;

/* Fills the scratch arrays for the run of 'n' kernels st->ops[first..first+n) and adds up the
 * kernels' GPU time ('*busy'), the GPU gaps between them ('*idle') and the gaps in which the
 * GPU waited for a launch ('*starved'). Returns the first launch of the run that has a stack,
 * or DET_NONE. */
static uint32_t scan_run(const det_ctx *ctx, const det_stream *st, size_t first, size_t n,
                         run_scratch *scratch, uint64_t *busy, uint64_t *idle, uint64_t *starved)
{
    uint32_t site = DET_NONE;
    *busy = *idle = *starved = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t o = st->ops[first + k];
        const ss_ev_gpu *g = &ctx->ops[o].ev->u.gpu;
        const ss_ev_api *l = launch_of(ctx, o);
        *busy += gpu_ns(g);
        scratch->names[k] = g->name;
        scratch->api_ns[k] = l->exit_ns > l->enter_ns ? l->exit_ns - l->enter_ns : 0;
        if (site == DET_NONE && l->stack != 0)
            site = ctx->ops[o].call;
        if (k == 0)
            continue;
        uint32_t prev = st->ops[first + k - 1];
        const ss_ev_gpu *pg = &ctx->ops[prev].ev->u.gpu;
        const ss_ev_api *pl = launch_of(ctx, prev);
        uint64_t gap = g->start_ns > pg->end_ns ? g->start_ns - pg->end_ns : 0;
        *idle += gap;
        if (starved_link(pg, g, pl, l))
            *starved += gap;
        scratch->host_ns[k - 1] = l->enter_ns > pl->enter_ns ? l->enter_ns - pl->enter_ns : 0;
    }
    return site;
}

/* The site of a run none of whose launches has a stack: the site of another launch of one of
 * its kernels by the same thread (det_site_call), else the first launch (no source line).
 * Returns 0 with '*site' set, or -1. */
static int borrow_run_site(det_ctx *ctx, const det_stream *st, size_t first, size_t n,
                           uint32_t *site)
{
    for (size_t k = 0; k < n; k++) {
        uint32_t call = ctx->ops[st->ops[first + k]].call;
        uint32_t borrowed = det_site_call(ctx, call);
        if (borrowed == DET_NONE)
            return -1;
        if (borrowed != call) {
            *site = borrowed;
            return 0;
        }
    }
    *site = ctx->ops[st->ops[first]].call;
    return 0;
}

/* The time 'n' kernels of 'busy' GPU time, repeating every 'period', would take replayed as
 * CUDA graphs: each graph holds as many iterations as its GPU time needs to cover one graph
 * launch on the host ('*per_graph'), so that the replay is bound by the GPU, and
 * '*graph_launches' graphs are launched. The host's own work splits the run into 'segments'
 * (the launches between two long gaps), which no graph spans: a segment is one graph, or more
 * where it needs more to cover their launches. */
static uint64_t graph_replay_ns(const ss_detect_options *opt, uint64_t busy, size_t n,
                                size_t period, uint64_t segments, uint64_t *per_graph,
                                uint64_t *graph_launches)
{
    uint64_t iteration_gpu = busy * period / n + (period - 1) * opt->graph_kernel_gap_ns;
    *per_graph = iteration_gpu >= opt->graph_launch_host_ns
                     ? 1
                     : ceil_div(opt->graph_launch_host_ns, iteration_gpu ? iteration_gpu : 1);
    uint64_t all_iterations = ceil_div(n, period);
    if (segments > 1 && *per_graph < all_iterations / segments)
        *per_graph = all_iterations / segments;
    if (*per_graph > all_iterations)
        *per_graph = all_iterations;
    *graph_launches = ceil_div(all_iterations, *per_graph);
    if (*graph_launches < segments)
        *graph_launches = segments;
    uint64_t gpu_side = busy + (n - 1) * opt->graph_kernel_gap_ns;
    uint64_t host_side = *graph_launches * opt->graph_launch_host_ns;
    return gpu_side > host_side ? gpu_side : host_side;
}

/* The time a run of 'measured' GPU time would take as a CUDA graph replay of 'replay' when
 * the host no longer spends 'removed' launching it but 'graphs_host' launching the graphs:
 * the run shrinks by the host time removed, and no further than the replay. */
static uint64_t host_bound_ns(uint64_t measured, uint64_t removed, uint64_t graphs_host,
                              uint64_t replay)
{
    uint64_t left = measured > removed ? measured - removed : 0;
    left += graphs_host;
    return left > replay ? left : replay;
}

/* The saving of a run measured 'measured' (GPU time), of which 'starved' the GPU waited for
 * launches, had each of its launches cost the host 'cost' less in all: the GPU's waits for
 * launches and the host time a graph removes both shrink by it (the waits no further than to
 * none), the replay does not. */
static uint64_t saving_without(uint64_t measured, uint64_t removed, uint64_t starved, uint64_t cost,
                               uint64_t graphs_host, uint64_t replay)
{
    uint64_t less = cost < starved ? cost : starved;
    uint64_t shorter = measured > less ? measured - less : 0;
    uint64_t predicted =
        host_bound_ns(shorter, removed > less ? removed - less : 0, graphs_host, replay);
    return shorter > predicted ? shorter - predicted : 0;
}

/* The median of the 'n' 'values', sorted in a copy in 'copy' (room for n). */
static uint64_t median_copy(const uint64_t *values, uint64_t *copy, size_t n)
{
    memcpy(copy, values, n * sizeof *values);
    return median(copy, n);
}

/* Evaluates the run of 'n' kernels st->ops[first..first+n) and reports it when it is
 * launch-bound (docs/detectors.md). Returns 0 or -1. */
static int evaluate_run(det_ctx *ctx, const det_stream *st, size_t first, size_t n,
                        run_scratch *scratch)
{
    const ss_detect_options *opt = ctx->opt;
    if (n < opt->launch_min_kernels || n < 2)
        return 0;
    uint64_t busy, idle, starved_idle;
    uint32_t site = scan_run(ctx, st, first, n, scratch, &busy, &idle, &starved_idle);
    if (site == DET_NONE && borrow_run_site(ctx, st, first, n, &site) < 0)
        return -1;
    /* The GPU waited mostly for launches, not for other host work. */
    if (idle == 0 || starved_idle * 2 < idle)
        return 0;
    size_t period = find_period(scratch->names, n);
    uint64_t iterations = n / period;
    if (iterations < 2)
        return 0;
    const ss_ev_gpu *g0 = &ctx->ops[st->ops[first]].ev->u.gpu;
    const ss_ev_gpu *g1 = &ctx->ops[st->ops[first + n - 1]].ev->u.gpu;
    uint64_t measured = g1->end_ns > g0->start_ns ? g1->end_ns - g0->start_ns : 0;
    /* What a graph removes on the host: the time per launch (from one launch to the next:
     * the call and the loop around it), not the excess over the median of gaps longer than
     * twice the median (the host's other work); at least the time inside each launch call
     * (capped by the time to the next launch). */
    uint64_t per_launch = median_copy(scratch->host_ns, scratch->api_ns + n, n - 1);
    uint64_t calls = 0, per_launch_all = 0, segments = 1;
    for (size_t k = 0; k + 1 < n; k++) {
        uint64_t to_next = scratch->host_ns[k];
        calls += scratch->api_ns[k] < to_next ? scratch->api_ns[k] : to_next;
        /* Up to twice the median a gap is launching (its jitter included); a longer one is
         * the host's own work beyond one launch's time, and ends a segment. */
        if (to_next <= 2 * per_launch) {
            per_launch_all += to_next;
        } else {
            per_launch_all += per_launch;
            segments++;
        }
    }
    uint64_t per_graph, graph_launches;
    uint64_t replay = graph_replay_ns(opt, busy, n, period, segments, &per_graph, &graph_launches);
    uint64_t graphs_host = graph_launches * opt->graph_launch_host_ns;
    uint64_t predicted = host_bound_ns(measured, per_launch_all, graphs_host, replay);
    uint64_t predicted_calls = host_bound_ns(measured, calls, graphs_host, replay);
    if (predicted * 100 > measured * opt->whatif_max_percent)
        return 0;
    /* Without syncscope each launch costs the host less: its own callbacks' measured time and
     * what CUPTI's records add, known only within a range. */
    uint64_t launches = n - 1;
    uint64_t bare_low =
        saving_without(measured, per_launch_all, starved_idle,
                       launches * (scratch->self_ns + scratch->cupti_high), graphs_host, replay);
    uint64_t bare_high =
        saving_without(measured, per_launch_all, starved_idle,
                       launches * (scratch->self_ns + scratch->cupti_low), graphs_host, replay);
    if (bare_high == 0)
        return 0;
    det_hit hit = {
        .rule = SS_RULE_LAUNCH_BOUND,
        .call = site,
        .ns = bare_high,
        .stream_id = st->stream_id,
        .device = st->device,
        .figures.launch_bound =
            {
                .kernels = n,
                .iterations = iterations,
                .period = period,
                .measured_ns = measured,
                .predicted_ns = predicted,
                .predicted_calls_ns = predicted_calls,
                .per_launch_all_ns = per_launch_all,
                .busy_ns = busy,
                .idle_ns = idle,
                .launch_calls_ns = calls,
                .launch_api_ns = median(scratch->api_ns, n),
                .per_launch_ns = per_launch,
                .graph_launches = graph_launches,
                .graph_iterations = per_graph,
                .bare_low_ns = bare_low,
                .bare_high_ns = bare_high,
                .self_launch_ns = scratch->self_ns,
                .cupti_low_ns = scratch->cupti_low,
                .cupti_high_ns = scratch->cupti_high,
            },
    };
    return det_report(ctx, &hit);
}

/* SYNC502: runs of short kernels that the GPU waited between for the host to launch. Returns
 * 0 or -1. */
static int launch_bound_run(det_ctx *ctx)
{
    size_t longest = 0;
    for (size_t s = 0; s < ctx->stream_count; s++) {
        if (ctx->streams[s].count > longest)
            longest = ctx->streams[s].count;
    }
    if (longest < 2)
        return 0;
    run_scratch scratch = {
        malloc(longest * sizeof *scratch.names),
        malloc(2 * longest * sizeof *scratch.api_ns), /* the second half: median_copy's */
        malloc(longest * sizeof *scratch.host_ns),
        0,
        ctx->opt->traced_launch_low_ns,
        ctx->opt->traced_launch_high_ns,
    };
    int rc = scratch.names && scratch.api_ns && scratch.host_ns ? 0 : -1;
    /* syncscope's own time per launch, as the capture measured it (0 for a trace without it) */
    scratch.self_ns = det_self_mean(ctx, "self_launch_ns", "self_launches");
    /* CUPTI's synchronization records (every trace of syncscope run has them) cost each launch
     * more. */
    const char *sync_records = ss_evlog_get_meta(ctx->log, "sync_records");
    if (sync_records != NULL && strcmp(sync_records, "1") == 0) {
        scratch.cupti_low += ctx->opt->traced_sync_low_ns;
        scratch.cupti_high += ctx->opt->traced_sync_high_ns;
    }
    for (size_t s = 0; s < ctx->stream_count && rc == 0; s++) {
        const det_stream *st = &ctx->streams[s];
        size_t start = 0;
        for (size_t k = 0; k < st->count && rc == 0; k++) {
            uint32_t o = st->ops[k];
            const ss_ev_api *l = launch_of(ctx, o);
            if (l == NULL || ctx->ops[o].ev->u.gpu.end_ns < ctx->steady_ns) {
                /* A copy, a memset, a graph's kernel, an unknown launch or a kernel of the
                 * startup phase ends the run. */
                rc = evaluate_run(ctx, st, start, k - start, &scratch);
                start = k + 1;
                continue;
            }
            if (k == start)
                continue;
            uint32_t prev = st->ops[k - 1];
            const ss_ev_api *pl = launch_of(ctx, prev);
            const ss_ev_gpu *pg = &ctx->ops[prev].ev->u.gpu, *g = &ctx->ops[o].ev->u.gpu;
            uint64_t gap = g->start_ns > pg->end_ns ? g->start_ns - pg->end_ns : 0;
            /* Another thread's launch, or a long gap the host spent elsewhere, starts a new
             * run. */
            if (pl->thread != l->thread ||
                (gap >= ctx->opt->launch_split_gap_ns && !starved_link(pg, g, pl, l))) {
                rc = evaluate_run(ctx, st, start, k - start, &scratch);
                start = k;
            }
        }
        if (rc == 0 && start < st->count)
            rc = evaluate_run(ctx, st, start, st->count - start, &scratch);
    }
    free(scratch.names);
    free(scratch.api_ns);
    free(scratch.host_ns);
    return rc;
}

/* ---- SYNC503 serialized-pipeline ---- */

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
    return median(scratch, c->count);
}

/* How many chunks of the chain have its most common shape ('scratch' holds count values). */
static size_t most_common_shape(const chain *c, uint64_t *scratch)
{
    for (size_t i = 0; i < c->count; i++)
        scratch[i] = c->chunks[i].shape;
    qsort(scratch, c->count, sizeof *scratch, cmp_u64);
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
    pl.idle_ns = median(scratch, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t until = i + 1 < n ? steady.chunks[i + 1].start : steady.chunks[i].end;
        scratch[i] = until > steady.chunks[i].start ? until - steady.chunks[i].start : 0;
    }
    pl.period_ns = median(scratch, n);
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
    uint64_t typical = median(scratch, c->count - 1 - first);
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
    uint64_t ns = gpu_ns(g), pinned = ns;
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

int det_pinned_rate(const det_ctx *ctx, uint8_t kind, uint64_t *rate)
{
    uint64_t *rates = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < ctx->op_count; i++) {
        const ss_event *e = ctx->ops[i].ev;
        const ss_ev_gpu *g = &e->u.gpu;
        uint8_t host = kind == SS_COPY_HTOD ? g->src_kind : g->dst_kind;
        if (e->type != SS_EV_MEMCPY || g->copy_kind != kind || host != SS_MEM_PINNED ||
            g->bytes < PINNED_RATE_MIN_BYTES || gpu_ns(g) == 0)
            continue;
        if (ss_grow((void **)&rates, &cap, n + 1, sizeof *rates) < 0) {
            free(rates);
            return -1;
        }
        rates[n++] = g->bytes * 1000 / gpu_ns(g);
    }
    *rate = n ? median(rates, n) : ctx->opt->pinned_bytes_per_us;
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

/* ---- messages ---- */

static char *launch_bound_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    const struct det_launch_bound_figures *f = &agg->figures.launch_bound;
    uint64_t runs = agg->count ? agg->count : 1;
    uint64_t kernels = f->kernels ? f->kernels : 1;
    uint64_t period = f->period / runs;
    uint64_t measured_iteration = f->measured_ns * period / kernels;
    uint64_t predicted_iteration = f->predicted_ns * period / kernels;
    uint64_t saving_low =
        f->measured_ns > f->predicted_calls_ns ? f->measured_ns - f->predicted_calls_ns : 0;
    uint64_t other =
        f->measured_ns > f->per_launch_all_ns ? f->measured_ns - f->per_launch_all_ns : 0;
    det_add_figure(finding, "kernels", f->kernels);
    det_add_figure(finding, "iterations", f->iterations);
    det_add_figure(finding, "kernels_per_iteration", period);
    det_add_figure(finding, "measured_ns", f->measured_ns);
    det_add_figure(finding, "predicted_ns", f->predicted_ns);
    det_add_figure(finding, "predicted_calls_ns", f->predicted_calls_ns);
    det_add_figure(finding, "measured_iteration_ns", measured_iteration);
    det_add_figure(finding, "predicted_iteration_ns", predicted_iteration);
    det_add_figure(finding, "gpu_busy_ns", f->busy_ns);
    det_add_figure(finding, "gpu_idle_ns", f->idle_ns);
    det_add_figure(finding, "launch_host_ns", f->per_launch_all_ns);
    det_add_figure(finding, "launch_calls_ns", f->launch_calls_ns);
    det_add_figure(finding, "launch_api_ns", f->launch_api_ns / runs);
    det_add_figure(finding, "per_launch_host_ns", f->per_launch_ns / runs);
    det_add_figure(finding, "graph_launches", f->graph_launches);
    det_add_figure(finding, "iterations_per_graph", f->graph_iterations / runs);
    det_add_figure(finding, "saving_traced_ns", f->measured_ns - f->predicted_ns);
    det_add_figure(finding, "saving_calls_ns", saving_low);
    det_add_figure(finding, "self_launch_ns", f->self_launch_ns / runs);
    det_add_figure(finding, "saving_low_ns", f->bare_low_ns);
    det_add_figure(finding, "saving_ns", agg->total_ns);

    char idle[32], measured[32], predicted[32], host[32], api[32], it_m[32], it_p[32];
    char launching[32], busy[32], saving[32], low[32], rest[32], own[64], cupti_low[32];
    char cupti_high[32], bare_low[32], bare_high[32];
    uint64_t traced = f->measured_ns - f->predicted_ns;
    uint64_t idle_percent = f->measured_ns ? f->idle_ns * 100 / f->measured_ns : 0;
    const char *name = ctx->log->strings[ctx->ops[ctx->calls[agg->call].first_op].ev->u.gpu.name];
    /* Where the host spent much more per launch than inside the call, that time may be work
     * of its own a graph keeps: a range down to the launch calls alone. */
    char range[96] = "";
    if (saving_low * 6 < traced * 5)
        snprintf(range, sizeof range,
                 " (at least %s if only the time inside the launch calls goes)",
                 ss_format_duration(saving_low, low, sizeof low));
    if (f->self_launch_ns == 0) {
        snprintf(own, sizeof own, "its callbacks' time not recorded");
    } else {
        char self[32];
        snprintf(own, sizeof own, "its callbacks by %s",
                 ss_format_duration(f->self_launch_ns / runs, self, sizeof self));
    }
    /* CUPTI's part, which the process cannot time: "up to X" or "about X to Y". */
    char cupti[96];
    ss_format_duration(f->cupti_high_ns / runs, cupti_high, sizeof cupti_high);
    if (f->cupti_low_ns == 0)
        snprintf(cupti, sizeof cupti, "up to %s", cupti_high);
    else
        snprintf(cupti, sizeof cupti, "about %s to %s",
                 ss_format_duration(f->cupti_low_ns / runs, cupti_low, sizeof cupti_low),
                 cupti_high);
    char *text = ss_xasprintf(
        "%" PRIu64 " kernels (first '%s') were launched one by one and the GPU sat idle %s "
        "(%" PRIu64 "%% of %s) between them: the host took %s per launch, %s of it inside the "
        "launch call. The kernel sequence repeats every %" PRIu64 " kernel%s (%" PRIu64
        " iterations, %s each). Model: a CUDA graph replay (%" PRIu64 " graph launch%s) removes "
        "the host's time per launch (%s in all) but not its other work (%s), and the GPU still "
        "runs its %s of kernels: about %s (%s per iteration), a saving of %s%s in this run. "
        "syncscope's own work lengthened each launch (%s, CUPTI %s more): without it the "
        "saving would be between %s and %s",
        f->kernels, name[0] ? name : "unknown", ss_format_duration(f->idle_ns, idle, sizeof idle),
        idle_percent, ss_format_duration(f->measured_ns, measured, sizeof measured),
        ss_format_duration(f->per_launch_ns / runs, host, sizeof host),
        ss_format_duration(f->launch_api_ns / runs, api, sizeof api), period,
        period == 1 ? "" : "s", f->iterations,
        ss_format_duration(measured_iteration, it_m, sizeof it_m), f->graph_launches,
        f->graph_launches == 1 ? "" : "es",
        ss_format_duration(f->per_launch_all_ns, launching, sizeof launching),
        ss_format_duration(other, rest, sizeof rest),
        ss_format_duration(f->busy_ns, busy, sizeof busy),
        ss_format_duration(f->predicted_ns, predicted, sizeof predicted),
        ss_format_duration(predicted_iteration, it_p, sizeof it_p),
        ss_format_duration(traced, saving, sizeof saving), range, own, cupti,
        ss_format_duration(f->bare_low_ns, bare_low, sizeof bare_low),
        ss_format_duration(agg->total_ns, bare_high, sizeof bare_high));
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
    det_add_figure(finding, "chunks", f->chunks);
    det_add_figure(finding, "measured_ns", f->measured_ns);
    det_add_figure(finding, "gpu_ns", f->gpu_ns);
    det_add_figure(finding, "removable_ns", f->removable_ns);
    det_add_figure(finding, "predicted_ns", f->predicted_ns);
    det_add_figure(finding, "stage_h2d_ns", in);
    det_add_figure(finding, "stage_kernel_ns", kernel);
    det_add_figure(finding, "stage_d2h_ns", out);
    det_add_figure(finding, "chunk_idle_ns", idle);
    det_add_figure(finding, "chunk_period_ns", period);
    det_add_figure(finding, "saving_ns", agg->total_ns);
    det_add_figure(finding, "pageable_copies", f->pageable);
    if (f->self_ns > 0)
        det_add_figure(finding, "self_ns", f->self_ns);
    if (f->pageable) {
        det_add_figure(finding, "stage_h2d_pinned_ns", in_pinned);
        det_add_figure(finding, "stage_d2h_pinned_ns", out_pinned);
        det_add_figure(finding, "pinned_h2d_bytes_per_us", f->h2d_rate / runs);
        det_add_figure(finding, "pinned_d2h_bytes_per_us", f->d2h_rate / runs);
    }

    uint64_t slowest = in_pinned > kernel ? in_pinned : kernel;
    slowest = out_pinned > slowest ? out_pinned : slowest;
    char measured[32], predicted[32], t_in[32], t_k[32], t_out[32], t_slow[32], gpu[32];
    char t_idle[32], saving[32], chains[48] = "", idle_text[128] = "", own[96] = "", t_own[32];
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
    char *more;
    ss_format_duration(agg->total_ns, saving, sizeof saving);
    if (idle_percent >= 50)
        more = ss_xasprintf("%s. The GPU was idle %" PRIu64 "%% of this loop waiting for the "
                            "host's own work: overlap would save at most %s (of the %s that "
                            "is not the host's own work)",
                            text, idle_percent, saving,
                            ss_format_duration(f->removable_ns, gpu, sizeof gpu));
    else
        more = ss_xasprintf("%s, a saving of %s", text, saving);
    free(text);
    if (more == NULL || f->pageable == 0)
        return more;
    char r_in[32], r_out[32];
    text = ss_xasprintf("%s. The copies used pageable host memory, which cannot overlap: with "
                        "pinned buffers (at %s in and %s out) copy in would take %s and copy out "
                        "%s, as the prediction assumes",
                        more, det_rate_text(f->h2d_rate / runs, r_in, sizeof r_in),
                        det_rate_text(f->d2h_rate / runs, r_out, sizeof r_out),
                        ss_format_duration(in_pinned, t_in, sizeof t_in),
                        ss_format_duration(out_pinned, t_out, sizeof t_out));
    free(more);
    return text;
}

static void launch_bound_fold(det_figures *sum, const det_figures *one)
{
    struct det_launch_bound_figures *s = &sum->launch_bound;
    const struct det_launch_bound_figures *o = &one->launch_bound;
    s->kernels += o->kernels;
    s->iterations += o->iterations;
    s->period += o->period;
    s->measured_ns += o->measured_ns;
    s->predicted_ns += o->predicted_ns;
    s->predicted_calls_ns += o->predicted_calls_ns;
    s->per_launch_all_ns += o->per_launch_all_ns;
    s->launch_calls_ns += o->launch_calls_ns;
    s->busy_ns += o->busy_ns;
    s->idle_ns += o->idle_ns;
    s->launch_api_ns += o->launch_api_ns;
    s->per_launch_ns += o->per_launch_ns;
    s->graph_launches += o->graph_launches;
    s->graph_iterations += o->graph_iterations;
    s->bare_low_ns += o->bare_low_ns;
    s->bare_high_ns += o->bare_high_ns;
    s->self_launch_ns += o->self_launch_ns;
    s->cupti_low_ns += o->cupti_low_ns;
    s->cupti_high_ns += o->cupti_high_ns;
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

/* The what-if families: their figures are summed over the runs or chains of a finding (the
 * messages divide by the count where they mean one run's), and they read repeated work by
 * definition, so their findings are never startup work. */
const det_family det_family_launch_bound = {
    .run = launch_bound_run,
    .message = launch_bound_message,
    .fold = launch_bound_fold,
    .repeated_work = 1,
};

const det_family det_family_pipeline = {
    .run = pipeline_run,
    .message = pipeline_message,
    .fold = pipeline_fold,
    .repeated_work = 1,
};
