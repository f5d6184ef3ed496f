/* whatif_launch_bound.c: SYNC502 launch-bound, a what-if rule, which predicts what a
 * restructured program would take rather than observe a stall: the GPU waited for the host to
 * launch short kernels; the predicted time is a CUDA graph replay's. O(n log n) in the number
 * of GPU operations (docs/detectors.md). What the what-ifs share is in whatif.c. */
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

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? (a + b - 1) / b : a;
}

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
        *busy += det_gpu_ns(g);
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
    return det_median(copy, n);
}

/* The host's time per launch of a run of 'n' kernels from its scratch arrays, into 'f': what a
 * graph removes on the host is the time per launch (from one launch to the next: the call and
 * the loop around it), not the excess over the median of gaps longer than twice the median
 * (the host's other work); at least the time inside each launch call (capped by the time to
 * the next launch). Returns the segments the host's own work splits the run into. */
static uint64_t launch_host_time(const run_scratch *scratch, size_t n,
                                 struct det_launch_bound_figures *f)
{
    uint64_t segments = 1;
    f->per_launch_ns = median_copy(scratch->host_ns, scratch->api_ns + n, n - 1);
    for (size_t k = 0; k + 1 < n; k++) {
        uint64_t to_next = scratch->host_ns[k];
        f->launch_calls_ns += scratch->api_ns[k] < to_next ? scratch->api_ns[k] : to_next;
        /* Up to twice the median a gap is launching (its jitter included); a longer one is
         * the host's own work beyond one launch's time, and ends a segment. */
        if (to_next <= 2 * f->per_launch_ns) {
            f->per_launch_all_ns += to_next;
        } else {
            f->per_launch_all_ns += f->per_launch_ns;
            segments++;
        }
    }
    return segments;
}

/* The prediction for a run of 'n' kernels whose kernels, iterations, period, measured, busy and
 * idle times 'f' holds, of which the GPU waited 'starved' for launches: the graph replay, the
 * time predicted, and the saving without syncscope's own time per launch, into 'f'. Returns
 * whether it is reported: the prediction within whatif_max_percent of the measured time and a
 * saving left bare. */
static int predict_replay(const ss_detect_options *opt, run_scratch *scratch, size_t n,
                          uint64_t starved, struct det_launch_bound_figures *f)
{
    uint64_t segments = launch_host_time(scratch, n, f);
    uint64_t replay = graph_replay_ns(opt, f->busy_ns, n, f->period, segments, &f->graph_iterations,
                                      &f->graph_launches);
    uint64_t graphs_host = f->graph_launches * opt->graph_launch_host_ns;
    f->predicted_ns = host_bound_ns(f->measured_ns, f->per_launch_all_ns, graphs_host, replay);
    f->predicted_calls_ns = host_bound_ns(f->measured_ns, f->launch_calls_ns, graphs_host, replay);
    if (f->predicted_ns * 100 > f->measured_ns * opt->whatif_max_percent)
        return 0;
    /* Without syncscope each launch costs the host less: its own callbacks' measured time and
     * what CUPTI's records add, known only within a range. */
    uint64_t launches = n - 1;
    f->bare_low_ns =
        saving_without(f->measured_ns, f->per_launch_all_ns, starved,
                       launches * (scratch->self_ns + scratch->cupti_high), graphs_host, replay);
    f->bare_high_ns =
        saving_without(f->measured_ns, f->per_launch_all_ns, starved,
                       launches * (scratch->self_ns + scratch->cupti_low), graphs_host, replay);
    f->launch_api_ns = det_median(scratch->api_ns, n);
    f->self_launch_ns = scratch->self_ns;
    f->cupti_low_ns = scratch->cupti_low;
    f->cupti_high_ns = scratch->cupti_high;
    return f->bare_high_ns != 0;
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
    struct det_launch_bound_figures f = {
        .kernels = n,
        .iterations = iterations,
        .period = period,
        .measured_ns = g1->end_ns > g0->start_ns ? g1->end_ns - g0->start_ns : 0,
        .busy_ns = busy,
        .idle_ns = idle,
    };
    if (!predict_replay(opt, scratch, n, starved_idle, &f))
        return 0;
    det_hit hit = {
        .rule = SS_RULE_LAUNCH_BOUND,
        .call = site,
        .ns = f.bare_high_ns,
        .stream_id = st->stream_id,
        .device = st->device,
        .figures.launch_bound = f,
    };
    return det_report(ctx, &hit);
}

/* Evaluates the runs of kernels of stream 'st': a run ends at an operation other than a launched
 * kernel or one of the startup phase, at another thread's launch, and at a long gap the host
 * spent elsewhere. Returns 0 or -1. */
static int stream_runs(det_ctx *ctx, const det_stream *st, run_scratch *scratch)
{
    int rc = 0;
    size_t start = 0;
    for (size_t k = 0; k < st->count && rc == 0; k++) {
        uint32_t o = st->ops[k];
        const ss_ev_api *l = launch_of(ctx, o);
        if (l == NULL || ctx->ops[o].ev->u.gpu.end_ns < ctx->steady_ns) {
            /* A copy, a memset, a graph's kernel, an unknown launch or a kernel of the
             * startup phase ends the run. */
            rc = evaluate_run(ctx, st, start, k - start, scratch);
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
            rc = evaluate_run(ctx, st, start, k - start, scratch);
            start = k;
        }
    }
    if (rc == 0 && start < st->count)
        rc = evaluate_run(ctx, st, start, st->count - start, scratch);
    return rc;
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
    for (size_t s = 0; s < ctx->stream_count && rc == 0; s++)
        rc = stream_runs(ctx, &ctx->streams[s], &scratch);
    free(scratch.names);
    free(scratch.api_ns);
    free(scratch.host_ns);
    return rc;
}

/* ---- the message ---- */

/* The finding's figures of the launch-bound run(s) 'agg' folded. */
static void add_launch_bound_figures(ss_finding *finding, const det_agg *agg)
{
    const struct det_launch_bound_figures *f = &agg->figures.launch_bound;
    uint64_t runs = agg->count ? agg->count : 1;
    uint64_t kernels = f->kernels ? f->kernels : 1;
    uint64_t period = f->period / runs;
    det_add_figure(finding, "kernels", f->kernels);
    det_add_figure(finding, "iterations", f->iterations);
    det_add_figure(finding, "kernels_per_iteration", period);
    det_add_figure(finding, "measured_ns", f->measured_ns);
    det_add_figure(finding, "predicted_ns", f->predicted_ns);
    det_add_figure(finding, "predicted_calls_ns", f->predicted_calls_ns);
    det_add_figure(finding, "measured_iteration_ns", f->measured_ns * period / kernels);
    det_add_figure(finding, "predicted_iteration_ns", f->predicted_ns * period / kernels);
    det_add_figure(finding, "gpu_busy_ns", f->busy_ns);
    det_add_figure(finding, "gpu_idle_ns", f->idle_ns);
    det_add_figure(finding, "launch_host_ns", f->per_launch_all_ns);
    det_add_figure(finding, "launch_calls_ns", f->launch_calls_ns);
    det_add_figure(finding, "launch_api_ns", f->launch_api_ns / runs);
    det_add_figure(finding, "per_launch_host_ns", f->per_launch_ns / runs);
    det_add_figure(finding, "graph_launches", f->graph_launches);
    det_add_figure(finding, "iterations_per_graph", f->graph_iterations / runs);
    det_add_figure(finding, "saving_traced_ns", f->measured_ns - f->predicted_ns);
    det_add_figure(finding, "saving_calls_ns",
                   f->measured_ns > f->predicted_calls_ns ? f->measured_ns - f->predicted_calls_ns
                                                          : 0);
    det_add_figure(finding, "self_launch_ns", f->self_launch_ns / runs);
    det_add_figure(finding, "saving_low_ns", f->bare_low_ns);
    det_add_figure(finding, "saving_ns", agg->total_ns);
}

/* What syncscope's own work added to each launch, for the message: its callbacks' time
 * ('own') and CUPTI's part, which the process cannot time ('cupti': "up to X" or "about X to
 * Y"). */
static void overhead_text(const struct det_launch_bound_figures *f, uint64_t runs, char *own,
                          size_t own_size, char *cupti, size_t cupti_size)
{
    char self[32], low[32], high[32];
    if (f->self_launch_ns == 0)
        snprintf(own, own_size, "its callbacks' time not recorded");
    else
        snprintf(own, own_size, "its callbacks by %s",
                 ss_format_duration(f->self_launch_ns / runs, self, sizeof self));
    ss_format_duration(f->cupti_high_ns / runs, high, sizeof high);
    if (f->cupti_low_ns == 0)
        snprintf(cupti, cupti_size, "up to %s", high);
    else
        snprintf(cupti, cupti_size, "about %s to %s",
                 ss_format_duration(f->cupti_low_ns / runs, low, sizeof low), high);
}

static char *launch_bound_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    const struct det_launch_bound_figures *f = &agg->figures.launch_bound;
    uint64_t runs = agg->count ? agg->count : 1;
    uint64_t kernels = f->kernels ? f->kernels : 1;
    uint64_t period = f->period / runs;
    uint64_t saving_low =
        f->measured_ns > f->predicted_calls_ns ? f->measured_ns - f->predicted_calls_ns : 0;
    uint64_t other =
        f->measured_ns > f->per_launch_all_ns ? f->measured_ns - f->per_launch_all_ns : 0;
    add_launch_bound_figures(finding, agg);

    char idle[32], measured[32], predicted[32], host[32], api[32], it_m[32], it_p[32];
    char launching[32], busy[32], saving[32], low[32], rest[32], own[64], cupti[96];
    char bare_low[32], bare_high[32];
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
    overhead_text(f, runs, own, sizeof own, cupti, sizeof cupti);
    return ss_xasprintf(
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
        ss_format_duration(f->measured_ns * period / kernels, it_m, sizeof it_m), f->graph_launches,
        f->graph_launches == 1 ? "" : "es",
        ss_format_duration(f->per_launch_all_ns, launching, sizeof launching),
        ss_format_duration(other, rest, sizeof rest),
        ss_format_duration(f->busy_ns, busy, sizeof busy),
        ss_format_duration(f->predicted_ns, predicted, sizeof predicted),
        ss_format_duration(f->predicted_ns * period / kernels, it_p, sizeof it_p),
        ss_format_duration(traced, saving, sizeof saving), range, own, cupti,
        ss_format_duration(f->bare_low_ns, bare_low, sizeof bare_low),
        ss_format_duration(agg->total_ns, bare_high, sizeof bare_high));
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

/* A what-if family: its figures are summed over the runs or chains of a finding (the
 * messages divide by the count where they mean one run's), and it reads repeated work by
 * definition, so its findings are never startup work. */
const det_family det_family_launch_bound = {
    .run = launch_bound_run,
    .message = launch_bound_message,
    .fold = launch_bound_fold,
    .repeated_work = 1,
};
