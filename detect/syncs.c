/* syncs.c: SYNC401 and SYNC402 at run time: explicit synchronizations that blocked on pending
 * work (and how many of them waited on more streams than one), and allocation/registration
 * calls that synchronized the device. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>

/* Whether 'set' holds operations of two or more streams (streams are (context, stream id):
 * two devices' streams may share an id). */
static int two_streams(const det_ctx *ctx, const det_opset *set)
{
    for (size_t i = 1; i < set->count; i++) {
        if (ctx->ops[set->ops[i]].stream != ctx->ops[set->ops[0]].stream)
            return 1;
    }
    return 0;
}

/* Marks in 'quiet' (a byte per call) the frees that wait for nothing, as measured (H100,
 * docs/studies/validation.md 2026-12-06 23:40): a free of NULL (cudaFree(0), which programs
 * call to create the context) and a free of memory the stream-ordered allocator gave
 * (cudaMallocAsync, cuMemAllocFromPoolAsync, ...: an allocation row with a stream), told
 * from the pointers the log recorded. A free without a record (--no-pointers) is not marked:
 * it counts as synchronizing, as cudaFree of cudaMalloc memory does. Returns 0 or -1. */
static int quiet_frees(det_ctx *ctx, uint8_t *quiet)
{
    ss_map pooled = {0}; /* (address, 0) -> 1 while the allocator's memory is live there */
    const ss_event_log *log = ctx->log;
    int rc = 0;
    for (size_t i = 0; i < log->count && rc == 0; i++) {
        const ss_ev_args *a = &log->events[i].u.args;
        if (log->events[i].type != SS_EV_ARGS || a->count == 0 ||
            (a->kind != SS_ARGS_ALLOC && a->kind != SS_ARGS_FREE))
            continue;
        uint32_t call = det_call_by_correlation(ctx, a->correlation);
        if (call == DET_NONE || ctx->calls[call].row == NULL)
            continue;
        const ss_api *row = ctx->calls[call].row;
        if (a->kind == SS_ARGS_ALLOC) {
            if (row->klass == SS_CLASS_ALLOC)
                rc = ss_map_put(&pooled, a->values[0], 0, row->stream_arg >= 0);
            continue;
        }
        if (row->klass == SS_CLASS_FREE &&
            (a->values[0] == 0 || ss_map_get(&pooled, a->values[0], 0) == 1))
            quiet[call] = 1;
        if (a->values[0] != 0 && ss_map_get(&pooled, a->values[0], 0) != SS_MAP_NONE)
            rc = ss_map_put(&pooled, a->values[0], 0, 0);
    }
    ss_map_free(&pooled);
    return rc;
}

/* SYNC401 and SYNC402: synchronizations that blocked at least min_blocked_ns waiting for
 * device work. Returns 0 or -1. */
static int syncs_run(det_ctx *ctx, const uint8_t *quiet)
{
    det_opset waited = {0};
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        /* A synchronization that waited for its copy's own transfer alone is the copy's. */
        if (c->enclosed || c->claimed || c->own_copy || c->row == NULL || quiet[i])
            continue;
        int explicit_sync = c->row->sync == SS_SYNC_EXPLICIT;
        if (!explicit_sync && c->row->sync != SS_SYNC_DEVICE)
            continue;
        uint64_t blocked = det_blocked_ns(c);
        if (blocked < ctx->opt->min_blocked_ns)
            continue;
        /* A stream synchronization waits for its own stream only (the legacy stream waits
         * for every blocking stream, so it is not narrowed). */
        uint32_t only = 0;
        if (c->row->klass == SS_CLASS_STREAM_SYNC && c->ev->stream != SS_STREAM_LEGACY &&
            !(c->ev->stream == SS_STREAM_LEGACY_NULL && !c->ev->per_thread))
            only = c->ev->stream_id;
        if ((rc = det_waited(ctx, (uint32_t)i, only, &waited)) < 0 ||
            !det_call_waited(ctx, c, &waited))
            continue;
        int over = c->row->klass == SS_CLASS_DEVICE_SYNC && two_streams(ctx, &waited);
        det_hit hit = {
            .rule = explicit_sync ? SS_RULE_SYNC_IN_LOOP : SS_RULE_DEVICE_WIDE_SYNC_CALL,
            .call = (uint32_t)i,
            .ns = blocked,
            .bytes = explicit_sync ? 0 : c->ev->bytes,
            .waited = &waited,
            .stream_id = c->row->klass == SS_CLASS_STREAM_SYNC ? c->ev->stream_id : 0,
            .device = det_call_device(ctx, c),
            .figures.syncs = {.over_synchronized = over,
                              .over_synchronized_ns = over ? blocked : 0},
        };
        rc = det_report(ctx, &hit);
        c->claimed = 1;
    }
    det_opset_free(&waited);
    return rc;
}

/* Whether a call of class 'klass' synchronizes the device every time (frees, host frees,
 * registrations), so that a call that found nothing pending still synchronized. Allocations
 * only sometimes do: they count only when they were seen waiting. */
static int always_synchronizes(ss_api_class klass)
{
    return klass == SS_CLASS_FREE || klass == SS_CLASS_HOST_FREE ||
           klass == SS_CLASS_HOST_REGISTER || klass == SS_CLASS_HOST_UNREGISTER;
}

/* Latent SYNC401 and SYNC402: stream and event synchronizations, and calls that always
 * synchronize the device, that blocked less. Returns 0 or -1. */
static int syncs_latent(det_ctx *ctx, const uint8_t *quiet)
{
    det_opset waited = {0};
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || c->row == NULL || quiet[i])
            continue;
        if (c->ev->result != 0)
            continue; /* a call that failed did not synchronize */
        /* Stream and event synchronizations are how libraries synchronize for the program
         * (PyTorch's copies, Stream.synchronize); a device synchronization is the program's
         * own explicit request and is reported only when it waited (as before). */
        int explicit_sync =
            c->row->sync == SS_SYNC_EXPLICIT &&
            (c->row->klass == SS_CLASS_STREAM_SYNC || c->row->klass == SS_CLASS_EVENT_SYNC);
        int device_sync = c->row->sync == SS_SYNC_DEVICE && always_synchronizes(c->row->klass);
        if (!explicit_sync && !device_sync)
            continue;
        uint32_t only = 0;
        if (c->row->klass == SS_CLASS_STREAM_SYNC && c->ev->stream != SS_STREAM_LEGACY &&
            !(c->ev->stream == SS_STREAM_LEGACY_NULL && !c->ev->per_thread))
            only = c->ev->stream_id;
        if ((rc = det_waited(ctx, (uint32_t)i, only, &waited)) < 0)
            break;
        c->claimed = 1;
        det_hit hit = {
            .rule = explicit_sync ? SS_RULE_SYNC_IN_LOOP : SS_RULE_DEVICE_WIDE_SYNC_CALL,
            .call = (uint32_t)i,
            .ns = det_call_waited(ctx, c, &waited) ? det_blocked_ns(c) : 0,
            .bytes = explicit_sync ? 0 : c->ev->bytes,
            .waited = &waited,
            .stream_id = c->row->klass == SS_CLASS_STREAM_SYNC ? c->ev->stream_id : 0,
            .device = det_call_device(ctx, c),
            .latent = 1,
        };
        rc = det_report(ctx, &hit);
    }
    det_opset_free(&waited);
    return rc;
}

/* Runs 'pass' with the frees that wait for nothing marked (quiet_frees), computed once for the
 * run and the latent pass both. Returns 0 or -1. */
static int with_quiet_frees(det_ctx *ctx, int (*pass)(det_ctx *, const uint8_t *))
{
    if (ctx->quiet_frees == NULL) {
        ctx->quiet_frees = calloc(ctx->call_count ? ctx->call_count : 1, 1);
        if (ctx->quiet_frees == NULL || quiet_frees(ctx, ctx->quiet_frees) < 0)
            return -1;
    }
    return pass(ctx, ctx->quiet_frees);
}

static int syncs_run_all(det_ctx *ctx)
{
    return with_quiet_frees(ctx, syncs_run);
}

static int syncs_latent_all(det_ctx *ctx)
{
    return with_quiet_frees(ctx, syncs_latent);
}

static char *syncs_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    char total[32], max[32], times[32], over[32], text[32];
    ss_format_duration(agg->total_ns, total, sizeof total);
    ss_format_duration(agg->max_ns, max, sizeof max);
    det_times(agg->count, times, sizeof times);
    const char *api = det_call_name(ctx, &ctx->calls[agg->call]);
    if (agg->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL)
        return ss_xasprintf("%s blocked the host %s while device work was pending: %s (%s at "
                            "most)",
                            api, times, total, max);
    uint64_t over_count = agg->figures.syncs.over_synchronized;
    uint64_t over_ns = agg->figures.syncs.over_synchronized_ns;
    snprintf(text, sizeof text, "%" PRIu64, over_count);
    ss_finding_add_extra(finding, "over_synchronized", text);
    snprintf(text, sizeof text, "%" PRIu64, over_ns);
    ss_finding_add_extra(finding, "over_synchronized_ns", text);
    if (over_count == 0)
        return ss_xasprintf("%s blocked the host %s waiting for device work: %s (%s at most)", api,
                            times, total, max);
    return ss_xasprintf("%s blocked the host %s waiting for device work: %s (%s at most); %" PRIu64
                        " of them (%s) waited for work on two or more streams, where waiting "
                        "for one stream or event may suffice",
                        api, times, total, max, over_count,
                        ss_format_duration(over_ns, over, sizeof over));
}

static char *syncs_latent_what(det_ctx *ctx, const det_agg *agg)
{
    const char *api = det_call_name(ctx, &ctx->calls[agg->call]);
    if (agg->rule == SS_RULE_DEVICE_WIDE_SYNC_CALL)
        return ss_xasprintf("%s, which synchronizes the device", api);
    return ss_xstrdup(api);
}

static void syncs_fold(det_figures *sum, const det_figures *one)
{
    sum->syncs.over_synchronized += one->syncs.over_synchronized;
    sum->syncs.over_synchronized_ns += one->syncs.over_synchronized_ns;
}

const det_family det_family_syncs = {
    .run = syncs_run_all,
    .latent = syncs_latent_all,
    .latent_what = syncs_latent_what,
    .message = syncs_message,
    .fold = syncs_fold,
};
