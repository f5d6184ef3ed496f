/* readback.c: SYNC301 at run time: small device-to-host copies that held the host until the
 * queued device work had produced the value (the `.item()` pattern). */
#include "detect_int.h"

#include <inttypes.h>

static const char *dst_kind_word(const det_ctx *ctx, const det_call *call)
{
    if (call->copy_op == DET_NONE)
        return NULL;
    return det_mem_kind_word(ctx->ops[call->copy_op].ev->u.gpu.dst_kind);
}

int det_readback_run(det_ctx *ctx)
{
    det_opset waited = {0};
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        det_call *c = &ctx->calls[i];
        if (c->enclosed || c->claimed || c->row == NULL || c->row->klass != SS_CLASS_COPY)
            continue;
        uint64_t blocked = det_blocked_ns(c);
        if (blocked < ctx->opt->min_blocked_ns)
            continue;
        const char *dir = det_call_direction(ctx, c);
        uint64_t bytes = det_call_bytes(ctx, c);
        if (dir == NULL || dir[0] != 'D' || dir[3] != 'H' || bytes == 0 ||
            bytes > ctx->opt->readback_max_bytes)
            continue;
        if ((rc = det_waited(ctx, (uint32_t)i, 0, &waited)) < 0 || waited.count == 0)
            continue;
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
            .aux_call = DET_NONE,
        };
        rc = det_report(ctx, &hit);
        c->claimed = 1;
    }
    det_opset_free(&waited);
    return rc;
}

char *det_readback_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    char total[32], max[32];
    det_format_ns(agg->total_ns, total, sizeof total);
    det_format_ns(agg->max_ns, max, sizeof max);
    return ss_asprintf("%s read back %" PRIu64 " byte%s to the host in %" PRIu64 " cop%s and "
                       "blocked it %s (%s at most) until earlier device work finished",
                       det_call_name(ctx, &ctx->calls[agg->call]), agg->bytes,
                       agg->bytes == 1 ? "" : "s", agg->count, agg->count == 1 ? "y" : "ies", total,
                       max);
}
