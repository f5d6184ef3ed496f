/* copies.c: SYNC201 and SYNC202 at run time: asynchronous copies that became synchronous
 * because the host side was pageable, and synchronous copies/memsets that waited for earlier
 * device work. */
#include "detect_int.h"
#include "log.h"

/* SYNC201 follows the host's own time between copies on this many threads at most. */
#define LAST_COPY_THREADS 64

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Whether a copy of direction 'dir' (det_call_direction) has no host side: device to device,
 * or between two devices (even when a peer copy is staged through host memory). */
static int device_only(const char *dir)
{
    return dir != NULL && (strcmp(dir, "DtoD") == 0 || strcmp(dir, "PtoP") == 0);
}

/* Whether the host side of a call's copy is pageable, as CUPTI reported it; the host side is
 * the source of an HtoD copy and the destination of a DtoH one, by the call's direction
 * (det_call_direction: the API's own when its name fixes it). */
static int host_side_pageable(const det_ctx *ctx, const det_call *call)
{
    uint8_t src, dst;
    if ((call->copy_op == DET_NONE && !det_call_light(ctx, call)) ||
        !det_call_mem_kinds(ctx, call, &src, &dst))
        return 0;
    const char *dir = det_call_direction(ctx, call);
    if (dir == NULL)
        return src == SS_MEM_PAGEABLE || dst == SS_MEM_PAGEABLE;
    if (strcmp(dir, "HtoD") == 0)
        return src == SS_MEM_PAGEABLE;
    if (strcmp(dir, "DtoH") == 0)
        return dst == SS_MEM_PAGEABLE;
    if (device_only(dir))
        return 0;
    return src == SS_MEM_PAGEABLE || dst == SS_MEM_PAGEABLE;
}

static const char *host_kind_word(const det_ctx *ctx, const det_call *call)
{
    uint8_t src, dst;
    if ((call->copy_op == DET_NONE && !det_call_light(ctx, call)) ||
        !det_call_mem_kinds(ctx, call, &src, &dst))
        return NULL;
    const char *dir = det_call_direction(ctx, call);
    if (device_only(dir))
        return NULL;
    return det_mem_kind_word(dir != NULL && strcmp(dir, "DtoH") == 0 ? dst : src);
}

/* Per host thread (the first LAST_COPY_THREADS), when its last SYNC201 copy returned. */
typedef struct last_copies {
    uint32_t thread[LAST_COPY_THREADS];
    uint64_t exit[LAST_COPY_THREADS];
    size_t count;
} last_copies;

/* The host's own time since the previous SYNC201 copy of the thread of copy 'c' returned (0 for
 * its first); records when 'c' returned (with its synchronization 'sync', unless DET_NONE). */
static uint64_t gap_since_last(const det_ctx *ctx, last_copies *last, const det_call *c,
                               uint32_t sync)
{
    uint64_t gap_ns = 0;
    size_t t = 0;
    while (t < last->count && last->thread[t] != c->ev->thread)
        t++;
    if (t < last->count && c->ev->enter_ns > last->exit[t])
        gap_ns = c->ev->enter_ns - last->exit[t];
    if (t == last->count && last->count < LAST_COPY_THREADS)
        last->thread[last->count++] = c->ev->thread;
    if (t < last->count)
        last->exit[t] = sync != DET_NONE ? ctx->calls[sync].ev->exit_ns : c->ev->exit_ns;
    return gap_ns;
}

/* SYNC201's prediction for pageable asynchronous copy 'c': the copy's GPU time, the same at
 * the pinned rate of its direction ('h2d_rate' or 'd2h_rate'), and that rate, into 'f'. */
static void pinned_prediction(const det_ctx *ctx, const det_call *c, uint64_t h2d_rate,
                              uint64_t d2h_rate, struct det_copies_figures *f)
{
    if (c->copy_op == DET_NONE)
        return;
    const ss_ev_gpu *g = &ctx->ops[c->copy_op].ev->u.gpu;
    const char *dir = det_call_direction(ctx, c);
    f->rate = dir != NULL && strcmp(dir, "DtoH") == 0 ? d2h_rate : h2d_rate;
    f->copy_ns = g->end_ns > g->start_ns ? g->end_ns - g->start_ns : 0;
    f->pinned_ns = f->rate ? g->bytes * 1000 / f->rate : f->copy_ns;
    if (f->pinned_ns > f->copy_ns)
        f->pinned_ns = f->copy_ns;
}

/* Reports copy call 'i', which blocked 'blocked' and waited for 'waited' (joined to its
 * synchronization 'sync' unless DET_NONE), with its figures 'f', and claims it; for a pageable
 * asynchronous copy without a synchronization, the latent pass's look at the synchronization
 * that found its stream idle. Returns 0 or -1. */
static int report_copy(det_ctx *ctx, uint32_t i, int pageable_async, uint64_t blocked,
                       const det_opset *waited, uint32_t sync, struct det_copies_figures f)
{
    det_call *c = &ctx->calls[i];
    f.waited = waited->count > 0;
    f.waited_in_sync = waited->count > 0 && sync != DET_NONE;
    f.sync_call = sync;
    det_hit hit = {
        .rule = pageable_async ? SS_RULE_PAGEABLE_ASYNC_COPY : SS_RULE_SYNC_COPY_IN_PIPELINE,
        .call = i,
        .ns = blocked,
        .bytes = det_call_bytes(ctx, c),
        .direction = c->row->klass == SS_CLASS_COPY ? det_call_direction(ctx, c) : NULL,
        .host_kind = host_kind_word(ctx, c),
        .waited = waited,
        .stream_id = det_call_stream(ctx, c),
        .device = det_call_device(ctx, c),
        .figures.copies = f,
    };
    int rc = det_report(ctx, &hit);
    c->claimed = 1;
    /* The copy's own synchronization, when it found the copy's stream idle, is part of
     * the finding and no latent note of its own. */
    int failed = 0;
    uint64_t idle_ns;
    if (rc == 0 && pageable_async && sync == DET_NONE)
        det_latent_sync(ctx, i, &idle_ns, &failed);
    return failed ? -1 : rc;
}

/* SYNC201 and SYNC202: copies that blocked at least min_blocked_ns (a pageable asynchronous
 * copy, with the synchronization joined to it; a synchronous copy or memset that waited for
 * earlier work). Returns 0 or -1. */
static int copies_run(det_ctx *ctx)
{
    det_opset waited = {0};
    uint64_t h2d_rate, d2h_rate;
    if (det_pinned_rate(ctx, SS_COPY_HTOD, &h2d_rate) < 0 ||
        det_pinned_rate(ctx, SS_COPY_DTOH, &d2h_rate) < 0)
        return -1;
    int rc = 0;
    last_copies last = {.count = 0};
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || c->row == NULL || det_is_readback(ctx, c))
            continue;
        ss_api_class klass = c->row->klass;
        int pageable_async = c->row->sync == SS_SYNC_PAGEABLE && klass == SS_CLASS_COPY;
        int sync_copy =
            c->row->sync == SS_SYNC_ALWAYS && (klass == SS_CLASS_COPY || klass == SS_CLASS_MEMSET);
        if (!pageable_async && !sync_copy)
            continue;
        if (pageable_async && !host_side_pageable(ctx, c))
            continue;
        uint64_t blocked = det_blocked_ns(c);
        if ((rc = det_waited(ctx, (uint32_t)i, 0, &waited)) < 0)
            break;
        /* A pageable copy and the synchronization of its stream that its thread makes next
         * are one operation (PyTorch's non_blocking=False copies): the wait in the
         * synchronization is the copy's. */
        uint32_t sync = DET_NONE;
        if (pageable_async &&
            (rc = det_join_sync(ctx, (uint32_t)i, 1, &waited, &blocked, &sync)) < 0)
            break;
        if (blocked < ctx->opt->min_blocked_ns)
            continue;
        /* A pageable asynchronous copy is a finding by itself (it blocked the host for its
         * own transfer); a synchronous one only when it waited for earlier work. */
        if (sync_copy && !det_call_waited(ctx, c, &waited))
            continue;
        /* SYNC201's prediction: the same copy at the pinned rate; and the host's own time
         * since its thread's previous such copy returned. */
        struct det_copies_figures f = {0};
        if (pageable_async) {
            f.gap_ns = gap_since_last(ctx, &last, c, sync);
            pinned_prediction(ctx, c, h2d_rate, d2h_rate, &f);
        }
        rc = report_copy(ctx, (uint32_t)i, pageable_async, blocked, &waited, sync, f);
    }
    det_opset_free(&waited);
    return rc;
}

/* Whether a synchronous copy or memset holds the host at all (CUDA's "API synchronization
 * behavior"): a device-to-device or peer copy does not, nor does a memset of device memory; a
 * memset does only when CUPTI saw its target in host memory (pinned, pageable or managed).
 * An unknown direction counts as blocking, an unseen memset target as not. */
static int sync_call_holds_host(const det_ctx *ctx, const det_call *c)
{
    if (c->row->klass == SS_CLASS_COPY)
        return !device_only(det_call_direction(ctx, c));
    uint8_t src, kind;
    if ((c->first_op == DET_NONE && !det_call_light(ctx, c)) ||
        !det_call_mem_kinds(ctx, c, &src, &kind))
        return 0;
    return kind == SS_MEM_PINNED || kind == SS_MEM_PAGEABLE || kind == SS_MEM_MANAGED;
}

/* Latent SYNC201 and SYNC202: copies that synchronized but blocked less. Returns 0 or -1. */
static int copies_latent(det_ctx *ctx)
{
    det_opset waited = {0};
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || c->row == NULL || det_is_readback(ctx, c))
            continue;
        if (c->ev->result != 0)
            continue; /* a call that failed did not synchronize */
        ss_api_class klass = c->row->klass;
        int pageable_async = c->row->sync == SS_SYNC_PAGEABLE && klass == SS_CLASS_COPY &&
                             host_side_pageable(ctx, c);
        int sync_copy = c->row->sync == SS_SYNC_ALWAYS &&
                        (klass == SS_CLASS_COPY || klass == SS_CLASS_MEMSET) &&
                        sync_call_holds_host(ctx, c);
        if (!pageable_async && !sync_copy)
            continue;
        if ((rc = det_waited(ctx, (uint32_t)i, 0, &waited)) < 0)
            break;
        /* A pageable copy and the synchronization of its stream that follows it are one
         * operation, as for SYNC201. */
        int failed = 0;
        uint64_t sync_ns = 0;
        uint32_t sync =
            pageable_async ? det_latent_sync(ctx, (uint32_t)i, &sync_ns, &failed) : DET_NONE;
        if (failed) {
            rc = -1;
            break;
        }
        c->claimed = 1;
        det_hit hit = {
            .rule = pageable_async ? SS_RULE_PAGEABLE_ASYNC_COPY : SS_RULE_SYNC_COPY_IN_PIPELINE,
            .call = (uint32_t)i,
            .ns = (det_call_waited(ctx, c, &waited) ? det_blocked_ns(c) : 0) + sync_ns,
            .bytes = det_call_bytes(ctx, c),
            .direction = klass == SS_CLASS_COPY ? det_call_direction(ctx, c) : NULL,
            .host_kind = host_kind_word(ctx, c),
            .waited = &waited,
            .stream_id = det_call_stream(ctx, c),
            .device = det_call_device(ctx, c),
            .figures.copies = {.sync_call = sync},
            .latent = 1,
        };
        rc = det_report(ctx, &hit);
    }
    det_opset_free(&waited);
    return rc;
}

/* SYNC201's message after 'text' (which it frees), where the copies' GPU time is known: the
 * prediction (docs/detectors.md), the same copies in the same order at the pinned rate, the
 * host no longer held in them; and its figures. */
static char *pinned_prediction_text(char *text, ss_finding *finding,
                                    const struct det_copies_figures *f)
{
    if (f->copy_ns == 0)
        return text;
    uint64_t saving = f->copy_ns - f->pinned_ns;
    char r[32], gpu[32], pinned[32], s_text[32];
    det_add_figure(finding, "copy_gpu_ns", f->copy_ns);
    det_add_figure(finding, "copy_pinned_ns", f->pinned_ns);
    det_add_figure(finding, "pinned_bytes_per_us", f->rate);
    det_add_figure(finding, "saving_ns", saving);
    det_add_figure(finding, "host_between_ns", f->gap_ns);
    char *more = ss_xasprintf(
        "%s. Model: from pinned memory the same copies run in the same order at the pinned "
        "rate (%s) and do not hold the host: %s on the GPU instead of %s, a saving of about "
        "%s",
        text, det_rate_text(f->rate, r, sizeof r),
        ss_format_duration(f->pinned_ns, pinned, sizeof pinned),
        ss_format_duration(f->copy_ns, gpu, sizeof gpu),
        ss_format_duration(saving, s_text, sizeof s_text));
    free(text);
    /* The host's own time between the copies at least as long as the saving: if that time
     * is a wait for the data (a loader's workers), a shorter copy only lengthens it. */
    if (f->gap_ns < saving)
        return more;
    char between[32];
    text = ss_xasprintf("%s if the copies bound the loop; the host's own time between them "
                        "is as long (%s in all), and where it waits for the data (a data "
                        "loader's workers) the saving is smaller, down to none",
                        more, ss_format_duration(f->gap_ns, between, sizeof between));
    free(more);
    return text;
}

static char *copies_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    char total[32], max[32], times[32], waited[32];
    ss_format_duration(agg->total_ns, total, sizeof total);
    ss_format_duration(agg->max_ns, max, sizeof max);
    det_times(agg->count, times, sizeof times);
    const char *api = det_call_name(ctx, &ctx->calls[agg->call]);
    if (agg->rule == SS_RULE_PAGEABLE_ASYNC_COPY) {
        uint64_t waited_in_sync = agg->figures.copies.waited_in_sync;
        uint32_t sync = agg->figures.copies.sync_call;
        char then[96] = "";
        snprintf(waited, sizeof waited, "%" PRIu64, agg->figures.copies.waited);
        ss_finding_add_extra(finding, "waited_for_earlier_work", waited);
        if (waited_in_sync > 0 && sync != DET_NONE) {
            snprintf(waited, sizeof waited, "%" PRIu64, waited_in_sync);
            ss_finding_add_extra(finding, "waited_in_sync", waited);
            snprintf(then, sizeof then, " (%" PRIu64 " in the %s that followed)", waited_in_sync,
                     det_call_name(ctx, &ctx->calls[sync]));
        }
        char *text = ss_xasprintf(
            "%s %s with pageable host memory blocked the host %s: %s (%s at most) for %" PRIu64
            " bytes; %" PRIu64 " of %" PRIu64 " waited for earlier device work%s",
            api, agg->direction ? agg->direction : "(direction unknown)", times, total, max,
            agg->bytes, agg->figures.copies.waited, agg->count, then);
        return pinned_prediction_text(text, finding, &agg->figures.copies);
    }
    return ss_xasprintf("synchronous %s blocked the host %s while earlier device work was "
                        "pending: %s (%s at most)",
                        api, times, total, max);
}

static char *copies_latent_what(det_ctx *ctx, const det_agg *agg)
{
    const char *api = det_call_name(ctx, &ctx->calls[agg->call]);
    if (agg->rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        return ss_xasprintf("%s %s with pageable host memory, %" PRIu64 " bytes", api,
                            agg->direction ? agg->direction : "(direction unknown)", agg->bytes);
    return ss_xasprintf("synchronous %s", api);
}

static void copies_fold(det_figures *sum, const det_figures *one)
{
    sum->copies.waited += one->copies.waited;
    sum->copies.waited_in_sync += one->copies.waited_in_sync;
    if (sum->copies.sync_call == DET_NONE)
        sum->copies.sync_call = one->copies.sync_call;
    sum->copies.copy_ns += one->copies.copy_ns;
    sum->copies.gap_ns += one->copies.gap_ns;
    sum->copies.pinned_ns += one->copies.pinned_ns;
    if (one->copies.rate > sum->copies.rate)
        sum->copies.rate = one->copies.rate;
}

const det_family det_family_copies = {
    .run = copies_run,
    .latent = copies_latent,
    .latent_what = copies_latent_what,
    .message = copies_message,
    .fold = copies_fold,
};
