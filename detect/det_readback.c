/* det_readback.c: SYNC301 at run time: small device-to-host copies that held the host until the
 * queued device work had produced the value (the `.item()` pattern). The wait is either in the
 * copy itself (cudaMemcpy, or a copy the driver ran synchronously) or in the synchronization of
 * the copy's stream that the same thread makes next (cudaMemcpyAsync + cudaStreamSynchronize:
 * what PyTorch's `.item()` does). Small device-to-host copies are judged here only: the fix for
 * a scalar readback is to defer it, not to pin its few bytes (docs/detectors.md). */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The prediction reads the value back every READ_EVERY-th time (docs/detectors.md). */
#define READ_EVERY 10

static const char *dst_kind_word(const det_ctx *ctx, const det_call *call)
{
    uint8_t src, dst;
    if ((call->copy_op == DET_NONE && !det_call_light(ctx, call)) ||
        !det_call_mem_kinds(ctx, call, &src, &dst))
        return NULL;
    return det_mem_kind_word(dst);
}

int det_is_readback(const det_ctx *ctx, const det_call *call)
{
    if (call->row == NULL || call->row->klass != SS_CLASS_COPY)
        return 0;
    const char *dir = det_call_direction(ctx, call);
    uint64_t bytes = det_call_bytes(ctx, call);
    return dir != NULL && dir[0] == 'D' && dir[3] == 'H' && bytes != 0 &&
           bytes <= ctx->opt->readback_max_bytes;
}

/* Whether readback 'call' was made on a thread without Python frames while the program's
 * Python thread waited in a native call (its site is that thread's frame: docs/run.md, "Work of
 * other threads"; XLA copies a JAX value back on a thread of its own while the program waits in
 * float()). Then the program waited at least from the copy's enqueue until the value arrived:
 * '*blocked' is that time and 'waited' (filled) the device work pending at the enqueue that
 * ended by then. Returns 1, 0 when the call is not such a readback, or -1. */
static int waited_by_other_thread(det_ctx *ctx, uint32_t call, det_opset *waited, uint64_t *blocked)
{
    const det_call *c = &ctx->calls[call];
    const ss_stack_frame *site = det_call_site(ctx, call);
    if (site == NULL || site->python != SS_FRAME_OTHER_THREAD || c->copy_op == DET_NONE)
        return 0;
    uint64_t arrived = ctx->ops[c->copy_op].ev->u.gpu.end_ns;
    *blocked = arrived > c->ev->enter_ns ? arrived - c->ev->enter_ns : 0;
    return det_waited_until(ctx, call, 0, arrived, waited) < 0 ? -1 : 1;
}

/* SYNC301: readbacks that blocked at least min_blocked_ns waiting for earlier device work, in
 * the copy itself or in the synchronization that followed it. Returns 0 or -1. */
static int readback_run(det_ctx *ctx)
{
    det_opset waited = {0};
    int rc = 0;
    /* syncscope's own time in the host's time after a read, which the program does not spend
     * bare: the stack of the call that returned with the value, taken after it returned, and
     * the call that puts the next work on the GPU (counted as a launch). 0 when the trace
     * does not say. */
    uint64_t self_after = det_self_mean(ctx, "self_stack_ns", "self_stacks") +
                          det_self_mean(ctx, "self_launch_ns", "self_launches");
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || !det_is_readback(ctx, c))
            continue;
        uint64_t bytes = det_call_bytes(ctx, c);
        uint64_t blocked = det_blocked_ns(c);
        uint32_t sync = DET_NONE;
        if ((rc = det_waited(ctx, (uint32_t)i, 0, &waited)) < 0)
            break;
        if (blocked < ctx->opt->min_blocked_ns || !det_call_waited(ctx, c, &waited)) {
            /* The copy returned at once: the wait, if any, is in the next synchronization. */
            if ((rc = det_join_sync(ctx, (uint32_t)i, 0, &waited, &blocked, &sync)) < 0)
                break;
            if (sync == DET_NONE) {
                int other = waited_by_other_thread(ctx, (uint32_t)i, &waited, &blocked);
                if ((rc = other < 0 ? -1 : 0) < 0)
                    break;
                if (!other || blocked < ctx->opt->min_blocked_ns || waited.count == 0)
                    continue;
            }
        }
        c->claimed = 1;
        /* What deferring it would let overlap: the host's time after the value arrived (the
         * GPU's idle time from the copy's end to its next operation), less syncscope's own
         * time in it, with the device work it waited for, at most the time it blocked. */
        uint64_t arrived =
            c->copy_op != DET_NONE ? ctx->ops[c->copy_op].ev->u.gpu.end_ns : c->ev->exit_ns;
        uint64_t idle = det_gpu_idle_after(ctx, det_call_device(ctx, c), arrived, UINT64_MAX);
        uint64_t self = self_after < idle ? self_after : idle;
        uint64_t overlap = idle - self < blocked ? idle - self : blocked;
        det_hit hit = {
            .rule = SS_RULE_SCALAR_READBACK,
            .call = (uint32_t)i,
            .ns = blocked,
            .bytes = bytes,
            .direction = "DtoH",
            .host_kind = dst_kind_word(ctx, c),
            .waited = &waited,
            .stream_id = det_call_stream(ctx, c),
            .device = det_call_device(ctx, c),
            .figures.readback = {.waited_in_sync = sync != DET_NONE,
                                 .sync_call = sync,
                                 .overlap_ns = overlap,
                                 .self_ns = self},
        };
        rc = det_report(ctx, &hit);
        /* A synchronization of the copy's stream right after a copy that waited by itself
         * found the stream idle: part of this readback, no latent note of its own. */
        int failed = 0;
        uint64_t idle_ns;
        if (rc == 0 && sync == DET_NONE)
            det_latent_sync(ctx, (uint32_t)i, &idle_ns, &failed);
        if (failed)
            rc = -1;
    }
    det_opset_free(&waited);
    return rc;
}

/* Latent SYNC301: readbacks that synchronized but blocked less. Returns 0 or -1. */
static int readback_latent(det_ctx *ctx)
{
    det_opset waited = {0};
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || !det_is_readback(ctx, c))
            continue;
        if (c->ev->result != 0)
            continue; /* a call that failed did not synchronize */
        if ((rc = det_waited(ctx, (uint32_t)i, 0, &waited)) < 0)
            break;
        /* A readback synchronizes when the copy itself does (a synchronous copy, or one into
         * pageable memory), or through the synchronization of its stream that follows it (an
         * asynchronous copy into pinned memory, then cudaStreamSynchronize: `.item()`). */
        int failed = 0;
        uint64_t sync_ns = 0;
        uint32_t sync = det_latent_sync(ctx, (uint32_t)i, &sync_ns, &failed);
        if (failed) {
            rc = -1;
            break;
        }
        const char *dst = dst_kind_word(ctx, c);
        int copy_syncs =
            c->row->sync == SS_SYNC_ALWAYS || (dst != NULL && strcmp(dst, "pageable") == 0);
        const ss_stack_frame *site = det_call_site(ctx, (uint32_t)i);
        int other = site != NULL && site->python == SS_FRAME_OTHER_THREAD &&
                    (c->copy_op != DET_NONE || det_call_light(ctx, c));
        if (sync == DET_NONE && !copy_syncs && !other)
            continue;
        c->claimed = 1;
        det_hit hit = {
            .rule = SS_RULE_SCALAR_READBACK,
            .call = (uint32_t)i,
            .ns = (det_call_waited(ctx, c, &waited) ? det_blocked_ns(c) : 0) + sync_ns,
            .bytes = det_call_bytes(ctx, c),
            .direction = "DtoH",
            .host_kind = dst,
            .waited = &waited,
            .stream_id = det_call_stream(ctx, c),
            .device = det_call_device(ctx, c),
            .figures.readback = {.sync_call = sync},
            .latent = 1,
        };
        rc = det_report(ctx, &hit);
    }
    det_opset_free(&waited);
    return rc;
}

static char *readback_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    uint64_t waited_in_sync = agg->figures.readback.waited_in_sync;
    uint32_t sync = agg->figures.readback.sync_call;
    char total[32], max[32], then[96] = "";
    ss_format_duration(agg->total_ns, total, sizeof total);
    ss_format_duration(agg->max_ns, max, sizeof max);
    if (waited_in_sync > 0 && sync != DET_NONE) {
        char count[32];
        snprintf(count, sizeof count, "%" PRIu64, waited_in_sync);
        ss_finding_add_extra(finding, "waited_in_sync", count);
        snprintf(then, sizeof then, " (%s%s waited in the %s that followed)",
                 waited_in_sync == agg->count ? "each" : count,
                 waited_in_sync == agg->count ? "" : " of them",
                 det_call_name(ctx, &ctx->calls[sync]));
    }
    char *text = ss_xasprintf("%s read back %" PRIu64 " byte%s to the host in %" PRIu64
                              " cop%s and blocked it %s (%s at most) until earlier device work "
                              "finished%s",
                              det_call_name(ctx, &ctx->calls[agg->call]), agg->bytes,
                              agg->bytes == 1 ? "" : "s", agg->count, agg->count == 1 ? "y" : "ies",
                              total, max, then);
    uint64_t overlap = agg->figures.readback.overlap_ns;
    if (text == NULL || agg->count < READ_EVERY)
        return text;
    /* The prediction (docs/detectors.md): read every READ_EVERY-th time, the other reads no
     * longer hold the host, so its own work after each overlaps the device work it waited
     * for. */
    uint64_t saving = overlap * (READ_EVERY - 1) / READ_EVERY;
    uint64_t self = agg->figures.readback.self_ns;
    char o_text[32], s_text[32], self_text[32], own[96] = "";
    det_add_figure(finding, "overlap_ns", overlap);
    det_add_figure(finding, "saving_ns", saving);
    if (self > 0) {
        det_add_figure(finding, "self_ns", self);
        snprintf(own, sizeof own, " (syncscope's own time in it taken off: %s)",
                 ss_format_duration(self, self_text, sizeof self_text));
    }
    char *more = ss_xasprintf(
        "%s. Model: kept on the device and read every %dth time, the other reads no longer "
        "hold the host, and its own work after each (the GPU's idle time after the value "
        "arrived) overlaps the device work the read waited for, the lesser of the two: %s in "
        "all%s, %d of %d of it saved, about %s",
        text, READ_EVERY, ss_format_duration(overlap, o_text, sizeof o_text), own, READ_EVERY - 1,
        READ_EVERY, ss_format_duration(saving, s_text, sizeof s_text));
    free(text);
    return more;
}

static char *readback_latent_what(det_ctx *ctx, const det_agg *agg)
{
    const char *api = det_call_name(ctx, &ctx->calls[agg->call]);
    uint32_t sync = agg->figures.readback.sync_call;
    if (sync != DET_NONE)
        return ss_xasprintf("%s read %" PRIu64 " bytes back to the host and %s waited for the "
                            "device",
                            api, agg->bytes, det_call_name(ctx, &ctx->calls[sync]));
    return ss_xasprintf("%s read %" PRIu64 " bytes back to the host", api, agg->bytes);
}

static void readback_fold(det_figures *sum, const det_figures *one)
{
    sum->readback.waited_in_sync += one->readback.waited_in_sync;
    sum->readback.overlap_ns += one->readback.overlap_ns;
    sum->readback.self_ns += one->readback.self_ns;
    if (sum->readback.sync_call == DET_NONE)
        sum->readback.sync_call = one->readback.sync_call;
}

const det_family det_family_readback = {
    .run = readback_run,
    .latent = readback_latent,
    .latent_what = readback_latent_what,
    .message = readback_message,
    .fold = readback_fold,
};
