/* streams.c: SYNC101/102/103 at run time: legacy-default-stream work serializing other blocking
 * streams, measured on the GPU timeline. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Index of the last operation of 'st' whose running end maximum is <= 't', or -1. */
static long last_ended_by(const det_stream *st, uint64_t t)
{
    size_t lo = 0, hi = st->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->max_end[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}

/* Index of the first operation of 'st' that starts at or after 't' (count when none). */
static size_t first_started_from(const det_ctx *ctx, const det_stream *st, uint64_t t)
{
    size_t lo = 0, hi = st->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ctx->ops[st->ops[mid]].ev->u.gpu.start_ns >= t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int cmp_handle(const void *pa, const void *pb, void *arg)
{
    const det_ctx *ctx = arg;
    uint64_t a = ctx->streams[*(const uint32_t *)pa].handle;
    uint64_t b = ctx->streams[*(const uint32_t *)pb].handle;
    if (a != b)
        return a < b ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* Fills 'create_calls' (one per stream) with the stream-create call of each recorded blocking
 * stream: a call whose created handle is the stream's, the last one entered before the
 * stream's first operation; DET_NONE when there is none. Returns 0 or -1. */
static int find_create_calls(const det_ctx *ctx, uint32_t *create_calls)
{
    uint32_t *by_handle = malloc((ctx->stream_count ? ctx->stream_count : 1) * sizeof *by_handle);
    if (by_handle == NULL)
        return -1;
    size_t n = 0;
    for (size_t s = 0; s < ctx->stream_count; s++) {
        create_calls[s] = DET_NONE;
        if (ctx->streams[s].has_record && ctx->streams[s].blocking && ctx->streams[s].count)
            by_handle[n++] = (uint32_t)s;
    }
    qsort_r(by_handle, n, sizeof *by_handle, cmp_handle, (void *)ctx);
    for (size_t i = 0; i < ctx->call_count && n > 0; i++) {
        const det_call *c = &ctx->calls[i];
        if (c->enclosed || c->row == NULL || c->row->klass != SS_CLASS_STREAM_CREATE)
            continue;
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ctx->streams[by_handle[mid]].handle < c->ev->stream)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < n && ctx->streams[by_handle[lo]].handle == c->ev->stream; lo++) {
            const det_stream *st = &ctx->streams[by_handle[lo]];
            uint64_t first = ctx->ops[st->ops[0]].ev->u.gpu.start_ns;
            if (c->ev->enter_ns <= first &&
                (c->ev->stream_id == 0 || c->ev->stream_id == st->stream_id) &&
                (c->ev->device < 0 || st->device < 0 || c->ev->device == st->device))
                create_calls[by_handle[lo]] = (uint32_t)i;
        }
    }
    free(by_handle);
    return 0;
}

static const char *host_kind_of(const ss_ev_gpu *g)
{
    return det_mem_kind_word(g->copy_kind == SS_COPY_DTOH ? g->dst_kind : g->src_kind);
}

/* Per-stream figures of one legacy operation. */
typedef struct involvement {
    uint32_t stream; /* det_stream index */
    uint64_t ns;
} involvement;

/* Whether stream 's' is a blocking stream other than the legacy one, with work, on the legacy
 * operation's device and context: the legacy stream of a context serializes only that
 * context's streams, and work on another device (or in another context) runs on regardless. */
static int serializes_with(const det_ctx *ctx, const det_op *legacy, size_t s)
{
    const det_stream *st = &ctx->streams[s];
    const ss_ev_gpu *l = &legacy->ev->u.gpu;
    if (s == legacy->stream || st->legacy || !st->blocking || st->count == 0)
        return 0;
    if (st->device >= 0 && l->device >= 0 && st->device != l->device)
        return 0;
    return st->context == 0 || l->context == 0 || st->context == l->context;
}

/* Whether a blocking stream other than the legacy one, on the legacy operation's device and
 * context, had work queued around it: the operation could have serialized with that work. */
static int blocking_work_around(const det_ctx *ctx, const det_op *legacy)
{
    const ss_ev_gpu *l = &legacy->ev->u.gpu;
    for (size_t s = 0; s < ctx->stream_count; s++) {
        const det_stream *st = &ctx->streams[s];
        if (!serializes_with(ctx, legacy, s))
            continue;
        uint64_t first = ctx->ops[st->ops[0]].ev->u.gpu.start_ns;
        if (first < l->end_ns && st->max_end[st->count - 1] > l->start_ns)
            return 1;
    }
    return 0;
}

/* (a) Whether the legacy operation started only when the work of stream 'st' finished (within
 * serial_gap_ns), work enqueued before it: legacy semantics make it wait for blocking-stream
 * work enqueued before it. Adds that work to 'set'. Returns 1, 0, or -1. */
static int waited_for(const det_ctx *ctx, const det_op *legacy, const det_stream *st,
                      det_opset *set)
{
    const ss_ev_gpu *l = &legacy->ev->u.gpu;
    long a = last_ended_by(st, l->start_ns);
    if (a < 0)
        return 0;
    uint64_t end = st->max_end[a];
    long w = a;
    while (w > 0 && ctx->ops[st->ops[w]].ev->u.gpu.end_ns != end)
        w--;
    if (l->start_ns - end > ctx->opt->serial_gap_ns || legacy->ready_ns >= end ||
        ctx->ops[st->ops[w]].enqueue_ns >= legacy->enqueue_ns)
        return 0;
    return det_opset_add(set, st->ops[w]) < 0 ? -1 : 1;
}

/* (b) Whether the next operation of stream 'st' was ready but started only when the legacy
 * operation ended (within serial_gap_ns), an operation enqueued after it: blocking-stream work
 * enqueued after a legacy operation waits for it. Sets '*held' to how long it was held back
 * and adds it to 'set'. Returns 1, 0, or -1. */
static int held_back(const det_ctx *ctx, const det_op *legacy, const det_stream *st, det_opset *set,
                     uint64_t *held)
{
    const ss_ev_gpu *l = &legacy->ev->u.gpu;
    size_t b = first_started_from(ctx, st, l->start_ns);
    if (b == st->count)
        return 0;
    const det_op *next = &ctx->ops[st->ops[b]];
    const ss_ev_gpu *g = &next->ev->u.gpu;
    if (g->start_ns < l->end_ns || g->start_ns - l->end_ns > ctx->opt->serial_gap_ns ||
        next->ready_ns >= l->end_ns || next->enqueue_ns <= legacy->enqueue_ns)
        return 0;
    uint64_t from = next->ready_ns > l->start_ns ? next->ready_ns : l->start_ns;
    *held = g->start_ns - from;
    return det_opset_add(set, st->ops[b]) < 0 ? -1 : 1;
}

/* Measures how legacy operation 'legacy' serialized the other blocking streams: fills 'set'
 * with the operations it waited for or held back, 'inv' with the streams involved and
 * '*figure' with the time lost (how long it waited itself, ready to start, plus how long it
 * held the others' next operations back). Returns the number of streams involved, or -1. */
static long measure_serialization(const det_ctx *ctx, const det_op *legacy, det_opset *set,
                                  involvement *inv, uint64_t *figure)
{
    /* How long the legacy operation itself waited: ready (enqueued, its stream idle) to start. */
    uint64_t own = legacy->ev->u.gpu.start_ns - legacy->ready_ns;
    uint64_t own_wait = 0, held_total = 0;
    long ninv = 0;
    set->count = 0;
    for (size_t s = 0; s < ctx->stream_count; s++) {
        if (!serializes_with(ctx, legacy, s))
            continue;
        const det_stream *st = &ctx->streams[s];
        uint64_t held = 0;
        int waited = waited_for(ctx, legacy, st, set);
        int was_held = waited < 0 ? -1 : held_back(ctx, legacy, st, set, &held);
        if (was_held < 0)
            return -1;
        if (waited)
            own_wait = own;
        held_total += held;
        if (waited || was_held)
            inv[ninv++] = (involvement){(uint32_t)s, was_held ? held : own};
    }
    *figure = own_wait + held_total;
    return ninv;
}

/* SYNC103: each blocking stream 'inv' names, at its creation site when it was recorded, for
 * the time legacy operation 'legacy' cost it. Returns 0 or -1. */
static int report_creations(det_ctx *ctx, const det_op *legacy, const involvement *inv, size_t ninv,
                            const uint32_t *create_calls)
{
    for (size_t i = 0; i < ninv; i++) {
        uint32_t create = create_calls[inv[i].stream];
        if (create == DET_NONE || ctx->calls[create].ev->stack == 0)
            continue;
        const det_stream *st = &ctx->streams[inv[i].stream];
        det_hit h = {
            .rule = SS_RULE_BLOCKING_STREAM_CREATE,
            .call = create,
            .ns = inv[i].ns,
            .stream_id = st->stream_id,
            .other_streams = &legacy->ev->u.gpu.stream_id,
            .other_count = 1,
            .device = st->device,
            .at_ns = ctx->calls[legacy->call].ev->enter_ns,
        };
        if (det_report(ctx, &h) < 0)
            return -1;
    }
    return 0;
}

/* Checks legacy operation 'o'; 'latent' 0: reports it when it serialized other streams for at
 * least min_blocked_ns (SYNC101/102, and SYNC103 at the streams' creation); 1: reports a latent
 * occurrence when it did not but other blocking streams had work around it. */
static int check_legacy_op(det_ctx *ctx, uint32_t o, det_opset *set, involvement *inv,
                           uint32_t *create_calls, int latent)
{
    const det_op *legacy = &ctx->ops[o];
    const ss_ev_gpu *l = &legacy->ev->u.gpu;
    uint64_t figure;
    long ninv = measure_serialization(ctx, legacy, set, inv, &figure);
    if (ninv < 0)
        return -1;
    int reported = ninv > 0 && figure >= ctx->opt->min_blocked_ns;
    if (legacy->call == DET_NONE || reported == latent)
        return 0;
    if (latent && !blocking_work_around(ctx, legacy))
        return 0;
    uint32_t others[64];
    size_t nothers = 0;
    for (long i = 0; i < ninv && nothers < 64; i++)
        others[nothers++] = ctx->streams[inv[i].stream].stream_id;
    int is_kernel = legacy->ev->type == SS_EV_KERNEL, is_copy = legacy->ev->type == SS_EV_MEMCPY;
    uint32_t site = det_site_call(ctx, legacy->call);
    if (site == DET_NONE)
        return -1;
    det_hit hit = {
        .rule = is_kernel ? SS_RULE_DEFAULT_STREAM_LAUNCH : SS_RULE_DEFAULT_STREAM_ASYNC_CALL,
        .call = site,
        .ns = latent && ninv == 0 ? 0 : figure,
        .bytes = is_kernel ? 0 : l->bytes,
        .direction = is_copy ? det_copy_kind_word(l->copy_kind) : NULL,
        .host_kind = is_copy ? host_kind_of(l) : NULL,
        .waited = set,
        .stream_id = l->stream_id,
        .other_streams = others,
        .other_count = nothers,
        .device = l->device,
        .latent = latent,
        .at_ns = ctx->calls[legacy->call].ev->enter_ns,
    };
    if (latent)
        return det_report(ctx, &hit);
    ctx->calls[legacy->call].serialized = 1;
    if (det_report(ctx, &hit) < 0)
        return -1;
    return report_creations(ctx, legacy, inv, (size_t)ninv, create_calls);
}

/* SYNC101/102 for legacy-stream operations that serialized other blocking streams for at least
 * min_blocked_ns, and SYNC103 at those streams' creation. Returns 0 or -1. */
static int streams_run(det_ctx *ctx)
{
    det_opset set = {0};
    involvement *inv = malloc((ctx->stream_count ? ctx->stream_count : 1) * sizeof *inv);
    uint32_t *create_calls =
        malloc((ctx->stream_count ? ctx->stream_count : 1) * sizeof *create_calls);
    int rc = inv && create_calls ? find_create_calls(ctx, create_calls) : -1;
    for (size_t o = 0; o < ctx->op_count && rc == 0; o++) {
        const det_op *op = &ctx->ops[o];
        /* A call that a host-blocking rule reported (SYNC202/301 for a synchronous copy on the
         * legacy stream) is not reported again: one call, one finding. */
        if (op->call == DET_NONE || ctx->calls[op->call].claimed ||
            !det_call_on_legacy(&ctx->calls[op->call]))
            continue;
        rc = check_legacy_op(ctx, (uint32_t)o, &set, inv, create_calls, 0);
    }
    det_opset_free(&set);
    free(inv);
    free(create_calls);
    return rc;
}

/* Latent SYNC101/102: legacy-stream operations that serialized less, or nothing, while other
 * blocking streams had work around them. Returns 0 or -1. */
static int streams_latent(det_ctx *ctx)
{
    det_opset set = {0};
    involvement *inv = malloc((ctx->stream_count ? ctx->stream_count : 1) * sizeof *inv);
    int rc = inv ? 0 : -1;
    for (size_t o = 0; o < ctx->op_count && rc == 0; o++) {
        const det_op *op = &ctx->ops[o];
        if (op->call == DET_NONE || ctx->calls[op->call].claimed ||
            ctx->calls[op->call].serialized || !det_call_on_legacy(&ctx->calls[op->call]))
            continue;
        rc = check_legacy_op(ctx, (uint32_t)o, &set, inv, NULL, 1);
    }
    det_opset_free(&set);
    free(inv);
    return rc;
}

/* The kernel a call launched (its first operation), or NULL when it launched none. */
static const char *launched_kernel(const det_ctx *ctx, const det_call *call)
{
    if (call->first_op == DET_NONE || ctx->ops[call->first_op].ev->type != SS_EV_KERNEL)
        return NULL;
    return ctx->log->strings[ctx->ops[call->first_op].ev->u.gpu.name];
}

static char *streams_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    char total[32], max[32], times[32];
    ss_format_duration(agg->total_ns, total, sizeof total);
    ss_format_duration(agg->max_ns, max, sizeof max);
    det_times(agg->count, times, sizeof times);
    const det_call *call = &ctx->calls[agg->call];
    if (agg->rule == SS_RULE_BLOCKING_STREAM_CREATE)
        return ss_xasprintf("stream %" PRIu32 " was created blocking here, and legacy default "
                            "stream work serialized with it %s: %s of GPU time lost (%s at most)",
                            agg->stream_id, times, total, max);
    const char *kernel = launched_kernel(ctx, call);
    if (agg->rule == SS_RULE_DEFAULT_STREAM_LAUNCH && kernel != NULL)
        return ss_xasprintf("kernel '%s' ran on the legacy default stream and serialized with "
                            "other blocking streams %s: %s of GPU time lost (%s at most)",
                            kernel, times, total, max);
    return ss_xasprintf("%s on the legacy default stream serialized with other blocking streams "
                        "%s: %s of GPU time lost (%s at most)",
                        det_call_name(ctx, call), times, total, max);
}

static char *streams_latent_what(det_ctx *ctx, const det_agg *agg)
{
    const det_call *call = &ctx->calls[agg->call];
    const char *kernel = launched_kernel(ctx, call);
    if (agg->rule == SS_RULE_DEFAULT_STREAM_LAUNCH && kernel != NULL)
        return ss_xasprintf("kernel '%s' on the legacy default stream while other blocking "
                            "streams had work",
                            kernel);
    if (agg->rule == SS_RULE_DEFAULT_STREAM_LAUNCH ||
        agg->rule == SS_RULE_DEFAULT_STREAM_ASYNC_CALL)
        return ss_xasprintf("%s on the legacy default stream while other blocking streams had "
                            "work",
                            det_call_name(ctx, call));
    return ss_xstrdup(det_call_name(ctx, call));
}

/* SYNC101-103 carry no figures of their own (no fold). */
const det_family det_family_streams = {
    .run = streams_run,
    .latent = streams_latent,
    .latent_what = streams_latent_what,
    .message = streams_message,
};
