/* waits.c: what a call waited for: the GPU operations pending when it was entered that ended
 * before it returned, and the synchronization an asynchronous copy's thread made next, which
 * the copy's findings join to it (PyTorch's `.item()` and non_blocking=False copies). */
#include "detect_int.h"

#include <stdlib.h>
#include <string.h>

int det_opset_add(det_opset *set, uint32_t op)
{
    if (ss_grow((void **)&set->ops, &set->cap, set->count + 1, sizeof *set->ops) < 0)
        return -1;
    set->ops[set->count++] = op;
    return 0;
}

void det_opset_free(det_opset *set)
{
    free(set->ops);
    memset(set, 0, sizeof *set);
}

/* Adds the operations of 'src' that 'dst' does not hold yet. Returns 0 or -1. */
static int opset_merge(det_opset *dst, const det_opset *src)
{
    for (size_t i = 0; i < src->count; i++) {
        size_t j = 0;
        while (j < dst->count && dst->ops[j] != src->ops[i])
            j++;
        if (j == dst->count && det_opset_add(dst, src->ops[i]) < 0)
            return -1;
    }
    return 0;
}

/* The index in ctx->ops_by_end of the first operation that ends after 'ns'. */
static size_t first_ending_after(const det_ctx *ctx, uint64_t ns)
{
    size_t lo = 0, hi = ctx->op_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ctx->ops[ctx->ops_by_end[mid]].ev->u.gpu.end_ns > ns)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int det_waited(const det_ctx *ctx, uint32_t call, uint32_t stream_id, det_opset *out)
{
    return det_waited_until(ctx, call, stream_id, ctx->calls[call].ev->exit_ns, out);
}

int det_waited_until(const det_ctx *ctx, uint32_t call, uint32_t stream_id, uint64_t until_ns,
                     det_opset *out)
{
    out->count = 0;
    const det_call *c = &ctx->calls[call];
    uint64_t enter = c->ev->enter_ns, limit = until_ns + ctx->opt->slack_ns;
    /* Only the call's own device: a device-wide synchronization on one GPU does not wait for
     * another's work. */
    int device = det_call_device(ctx, c);
    for (size_t i = first_ending_after(ctx, enter); i < ctx->op_count; i++) {
        const det_op *op = &ctx->ops[ctx->ops_by_end[i]];
        const ss_ev_gpu *g = &op->ev->u.gpu;
        if (g->end_ns > limit)
            break;
        if (op->enqueue_ns >= enter || op->call == c->owner)
            continue;
        if (device >= 0 && g->device >= 0 && device != g->device)
            continue;
        if (stream_id != 0 && g->stream_id != stream_id)
            continue;
        if (det_opset_add(out, ctx->ops_by_end[i]) < 0)
            return -1;
    }
    return 0;
}

/* Whether a stream synchronization call waits for the legacy default stream (and so for every
 * blocking stream) rather than for one stream. */
static int syncs_legacy(const det_call *sync)
{
    return sync->ev->stream == SS_STREAM_LEGACY ||
           (sync->ev->stream == SS_STREAM_LEGACY_NULL && !sync->ev->per_thread);
}

/* Whether the work of copy call 'c' runs on a stream the legacy stream synchronizes with: the
 * legacy stream itself, or a blocking one (the per-thread default stream is one). */
static int on_blocking_stream(const det_ctx *ctx, const det_call *c)
{
    if (c->copy_op == DET_NONE)
        return det_call_on_legacy(c);
    const det_stream *st = &ctx->streams[ctx->ops[c->copy_op].stream];
    return st->blocking || st->legacy;
}

/* The next call of the thread of asynchronous copy call 'copy' when it is an explicit
 * synchronization no family has claimed that covers the copy's stream: a device
 * synchronization, a synchronization of that stream, or of the legacy stream when the copy's
 * stream is blocking. Sets '*only' to the stream it waits for (0: not narrowed). DET_NONE when
 * there is none. */
static uint32_t covering_sync(const det_ctx *ctx, uint32_t copy, uint32_t *only)
{
    *only = 0;
    const det_call *c = &ctx->calls[copy];
    /* A synchronous copy's work is done when it returns: nothing is left to wait for. */
    int light = det_call_light(ctx, c);
    if (c->row == NULL || c->row->sync == SS_SYNC_ALWAYS || (c->copy_op == DET_NONE && !light) ||
        c->next == DET_NONE)
        return DET_NONE;
    const det_call *s = &ctx->calls[c->next];
    if (s->claimed || s->row == NULL || s->row->sync != SS_SYNC_EXPLICIT)
        return DET_NONE;
    if (s->row->klass == SS_CLASS_STREAM_SYNC && syncs_legacy(s)) {
        if (!on_blocking_stream(ctx, c))
            return DET_NONE;
    } else if (s->row->klass == SS_CLASS_STREAM_SYNC) {
        uint32_t copy_stream =
            c->copy_op != DET_NONE ? ctx->ops[c->copy_op].ev->u.gpu.stream_id : c->ev->stream_id;
        if (s->ev->stream_id != copy_stream)
            return DET_NONE;
        *only = s->ev->stream_id;
    } else if (s->row->klass != SS_CLASS_DEVICE_SYNC) {
        return DET_NONE;
    }
    return c->next;
}

uint32_t det_covering_sync(const det_ctx *ctx, uint32_t copy, uint32_t *only)
{
    return covering_sync(ctx, copy, only);
}

/* Whether light-mode copy call 'c', followed by synchronization 's' of the same stream, found
 * that stream idle at its entry (the light mode's probe, SS_API_PENDING clear; recorded since
 * the metadata probe_pending): then what 's' waited for is the copy's own transfer alone. */
static int light_copy_found_idle(const det_ctx *ctx, const det_call *c, const det_call *s)
{
    uint32_t flags = c->ev->flags;
    return ctx->probe_pending && (flags & SS_API_PROBED) && !(flags & SS_API_PENDING) &&
           s->row->klass == SS_CLASS_STREAM_SYNC && s->ev->stream == c->ev->stream &&
           s->ev->per_thread == c->ev->per_thread;
}

/* Whether synchronization 'sync' covering asynchronous copy call 'copy' waited for earlier work
 * than the copy's own transfer: 'out' (det_waited of 'sync') holds an operation of another call;
 * in the light mode, which sees no operation, the synchronization waited (det_call_waited) and
 * the copy did not find its stream idle. */
static int waited_for_earlier(const det_ctx *ctx, uint32_t copy, uint32_t sync,
                              const det_opset *out)
{
    const det_call *c = &ctx->calls[copy], *s = &ctx->calls[sync];
    if (c->copy_op == DET_NONE)
        return det_call_waited(ctx, s, out) && !light_copy_found_idle(ctx, c, s);
    for (size_t k = 0; k < out->count; k++) {
        if (ctx->ops[out->ops[k]].call != copy)
            return 1;
    }
    return 0;
}

uint32_t det_latent_sync(det_ctx *ctx, uint32_t copy, uint64_t *blocked, int *failed)
{
    *blocked = 0;
    uint32_t only;
    uint32_t sync = covering_sync(ctx, copy, &only);
    if (sync == DET_NONE)
        return DET_NONE;
    det_opset *out = &ctx->joined;
    if (det_waited(ctx, sync, only, out) < 0) {
        *failed = 1;
        return DET_NONE;
    }
    uint64_t ns = det_blocked_ns(&ctx->calls[sync]);
    /* Waiting for the copy's own transfer is the copy, not earlier work, however long. */
    int earlier = waited_for_earlier(ctx, copy, sync, out);
    if (earlier && ns >= ctx->opt->min_blocked_ns)
        return DET_NONE; /* a synchronization that cost time is a finding of its own */
    /* The light mode knows a wait was for earlier work only where it asked at the copy. */
    int known = ctx->calls[copy].copy_op != DET_NONE || ctx->probe_pending;
    *blocked = earlier && known ? ns : 0;
    ctx->calls[sync].claimed = 1;
    return sync;
}

/* Claims synchronization 'next' as the wait of the copy joined to it: its host time added to
 * '*blocked', '*sync' set to it. */
static void join(det_ctx *ctx, uint32_t next, uint64_t *blocked, uint32_t *sync)
{
    *sync = next;
    *blocked += det_blocked_ns(&ctx->calls[next]);
    ctx->calls[next].claimed = 1;
}

/* det_join_sync of a copy whose synchronization 'next' waited for the copy's own transfer
 * alone: joined when that wait is the copy's blocking ('transfer'), else marked as the copy's
 * (det_call.own_copy: no SYNC401; det_latent_sync joins it to a latent occurrence). */
static void join_own_transfer(det_ctx *ctx, uint32_t next, int transfer, uint64_t *blocked,
                              uint32_t *sync)
{
    if (transfer)
        join(ctx, next, blocked, sync);
    else
        ctx->calls[next].own_copy = 1;
}

int det_join_sync(det_ctx *ctx, uint32_t copy, int transfer, det_opset *waited, uint64_t *blocked,
                  uint32_t *sync)
{
    *sync = DET_NONE;
    det_opset *out = &ctx->joined;
    out->count = 0;
    const det_call *c = &ctx->calls[copy];
    uint32_t only;
    uint32_t next = covering_sync(ctx, copy, &only);
    if (next == DET_NONE || det_blocked_ns(&ctx->calls[next]) < ctx->opt->min_blocked_ns)
        return 0;
    const det_call *s = &ctx->calls[next];
    if (c->copy_op == DET_NONE && !det_call_waited(ctx, s, out))
        return 0;
    if (c->copy_op == DET_NONE && light_copy_found_idle(ctx, c, s)) {
        join_own_transfer(ctx, next, transfer, blocked, sync);
        return 0;
    }
    if (c->copy_op == DET_NONE) {
        /* The light mode sees neither the copy's work nor what the synchronization waited
         * for: a covering synchronization that blocked is taken as the copy's wait. */
        join(ctx, next, blocked, sync);
        return 0;
    }
    uint32_t stream = ctx->ops[c->copy_op].stream;
    if (det_waited(ctx, next, only, out) < 0)
        return -1;
    size_t kept = 0;
    for (size_t k = 0; k < out->count; k++) {
        const det_op *op = &ctx->ops[out->ops[k]];
        if (op->stream != stream) {
            out->count = 0; /* it waited for other streams too: a synchronization of its own */
            return 0;
        }
        if (op->call != copy)
            out->ops[kept++] = out->ops[k];
    }
    if (kept == 0 && out->count > 0)
        join_own_transfer(ctx, next, transfer, blocked, sync);
    out->count = kept;
    if (kept == 0)
        return 0;
    if (opset_merge(waited, out) < 0)
        return -1;
    join(ctx, next, blocked, sync);
    return 0;
}
