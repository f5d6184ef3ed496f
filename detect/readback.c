/* readback.c: SYNC301 at run time: small device-to-host copies that held the host until the
 * queued device work had produced the value (the `.item()` pattern). The wait is either in the
 * copy itself (cudaMemcpy, or a copy the driver ran synchronously) or in the synchronization of
 * the copy's stream that the same thread makes next (cudaMemcpyAsync + cudaStreamSynchronize:
 * what PyTorch's `.item()` does). Small device-to-host copies are judged here only: the fix for
 * a scalar readback is to defer it, not to pin its few bytes (docs/detectors.md). */
#include "detect_int.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *dst_kind_word(const det_ctx *ctx, const det_call *call)
{
    if (call->copy_op == DET_NONE)
        return NULL;
    return det_mem_kind_word(ctx->ops[call->copy_op].ev->u.gpu.dst_kind);
}

typedef struct thread_key {
    uint32_t thread;
    uint64_t enter;
    uint32_t index;
} thread_key;

static int cmp_thread_key(const void *pa, const void *pb)
{
    const thread_key *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->enter != b->enter)
        return a->enter < b->enter ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* For every call, the next call (not a nested driver call) that its thread made, DET_NONE for
 * the last one. Returns the array (the caller frees it) or NULL when memory is exhausted. */
static uint32_t *next_of_thread(const det_ctx *ctx)
{
    uint32_t *next = malloc((ctx->call_count ? ctx->call_count : 1) * sizeof *next);
    thread_key *keys = malloc((ctx->call_count ? ctx->call_count : 1) * sizeof *keys);
    if (next == NULL || keys == NULL) {
        free(next);
        free(keys);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < ctx->call_count; i++) {
        next[i] = DET_NONE;
        if (!ctx->calls[i].enclosed)
            keys[n++] =
                (thread_key){ctx->calls[i].ev->thread, ctx->calls[i].ev->enter_ns, (uint32_t)i};
    }
    qsort(keys, n, sizeof *keys, cmp_thread_key);
    for (size_t k = 0; k + 1 < n; k++) {
        if (keys[k].thread == keys[k + 1].thread)
            next[keys[k].index] = keys[k + 1].index;
    }
    free(keys);
    return next;
}

/* Whether 'sync' is a synchronization that waits for the work of 'copy' (the device, the
 * legacy stream, or the copy's own stream). */
static int syncs_copy(const det_ctx *ctx, const det_call *copy, const det_call *sync)
{
    if (sync->claimed || sync->row == NULL || sync->row->sync != SS_SYNC_EXPLICIT)
        return 0;
    if (sync->row->klass == SS_CLASS_DEVICE_SYNC)
        return 1;
    if (sync->row->klass != SS_CLASS_STREAM_SYNC)
        return 0;
    if (sync->ev->stream == SS_STREAM_LEGACY ||
        (sync->ev->stream == SS_STREAM_LEGACY_NULL && !sync->ev->per_thread))
        return 1;
    uint32_t stream = det_call_stream(ctx, copy);
    return stream != 0 && sync->ev->stream_id == stream;
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

int det_readback_run(det_ctx *ctx)
{
    det_opset waited = {0};
    uint32_t *next = next_of_thread(ctx);
    if (next == NULL)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || !det_is_readback(ctx, c))
            continue;
        uint64_t bytes = det_call_bytes(ctx, c);
        uint64_t blocked = det_blocked_ns(c);
        uint32_t sync = DET_NONE;
        if ((rc = det_waited(ctx, (uint32_t)i, 0, &waited)) < 0)
            break;
        if (blocked < ctx->opt->min_blocked_ns || waited.count == 0) {
            /* The copy returned at once: the wait, if any, is in the next synchronization. */
            uint32_t n = next[i];
            if (n == DET_NONE || !syncs_copy(ctx, c, &ctx->calls[n]))
                continue;
            const det_call *s = &ctx->calls[n];
            uint64_t sync_blocked = det_blocked_ns(s);
            if (sync_blocked < ctx->opt->min_blocked_ns)
                continue;
            uint32_t only = s->row->klass == SS_CLASS_STREAM_SYNC ? s->ev->stream_id : 0;
            if (s->ev->stream == SS_STREAM_LEGACY ||
                (s->ev->stream == SS_STREAM_LEGACY_NULL && !s->ev->per_thread))
                only = 0;
            if ((rc = det_waited(ctx, n, only, &waited)) < 0)
                break;
            /* The readback's own copy is not what it waited for. */
            size_t kept = 0;
            for (size_t k = 0; k < waited.count; k++) {
                if (ctx->ops[waited.ops[k]].call != (uint32_t)i)
                    waited.ops[kept++] = waited.ops[k];
            }
            waited.count = kept;
            if (waited.count == 0)
                continue;
            sync = n;
            blocked += sync_blocked;
            ctx->calls[n].claimed = 1;
        }
        c->claimed = 1;
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
            .flag = sync != DET_NONE,
            .aux_call = sync,
        };
        rc = det_report(ctx, &hit);
    }
    free(next);
    det_opset_free(&waited);
    return rc;
}

char *det_readback_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    char total[32], max[32], then[96] = "";
    det_format_ns(agg->total_ns, total, sizeof total);
    det_format_ns(agg->max_ns, max, sizeof max);
    if (agg->flag_count > 0 && agg->aux_call != DET_NONE) {
        char count[32];
        snprintf(count, sizeof count, "%" PRIu64, agg->flag_count);
        ss_finding_add_extra(finding, "waited_in_sync", count);
        snprintf(then, sizeof then, " (%s%s waited in the %s that followed)",
                 agg->flag_count == agg->count ? "each" : count,
                 agg->flag_count == agg->count ? "" : " of them",
                 det_call_name(ctx, &ctx->calls[agg->aux_call]));
    }
    return ss_asprintf("%s read back %" PRIu64 " byte%s to the host in %" PRIu64 " cop%s and "
                       "blocked it %s (%s at most) until earlier device work finished%s",
                       det_call_name(ctx, &ctx->calls[agg->call]), agg->bytes,
                       agg->bytes == 1 ? "" : "s", agg->count, agg->count == 1 ? "y" : "ies", total,
                       max, then);
}
