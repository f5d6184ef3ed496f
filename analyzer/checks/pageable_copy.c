/* pageable_copy.c: SYNC201, asynchronous copies whose host buffer is provably pageable (the
 * copy is staged and the call blocks the host, so it overlaps with nothing). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "dataflow.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

/* One side of a copy that may be host memory. */
typedef struct copy_side {
    CXCursor expr;
    int is_dst;
} copy_side;

/* The fix for a pageable buffer, by where it comes from, in the copy's API (the runtime's or
 * the driver's pinning calls). */
static char *fix_for(const ss_provenance *p, const ss_api *api)
{
    int drv = api->domain == SS_DOMAIN_DRV;
    const char *alloc = drv ? "cuMemAllocHost" : "cudaMallocHost";
    const char *reg = drv ? "cuMemHostRegister" : "cudaHostRegister";
    if (p->source && strncmp(p->source, "the storage of", 14) == 0)
        return ss_xasprintf("copy through a pinned buffer (%s, or a pinned allocator for the "
                            "container), or pin its storage once with %s",
                            alloc, reg);
    if (p->source && (strstr(p->source, " array ") || strstr(p->source, "address of")))
        return ss_xasprintf("stage the data through a pinned buffer from %s, or register it "
                            "with %s",
                            alloc, reg);
    return ss_xasprintf("allocate it with %s or register it with %s", alloc, reg);
}

static void report(ss_check_ctx *ctx, CXCursor call, const ss_api *api, const copy_side *side,
                   const ss_provenance *p)
{
    char *text = ss_expr_text(side->expr);
    char *at = ss_check_where_suffix(ctx);
    char *fix = fix_for(p, api);
    char *message = ss_xasprintf("host buffer '%s' comes from %s at line %u: '%s'%s copies %s "
                                 "pageable memory, so it is staged and blocks the host instead "
                                 "of overlapping",
                                 text ? text : "...", p->source ? p->source : "a pageable source",
                                 p->line, api->name, at, side->is_dst ? "into" : "from");
    ss_check_report(ctx, SS_RULE_PAGEABLE_ASYNC_COPY, call, message, fix);
    free(fix);
    free(message);
    free(at);
    free(text);
}

/* SYNC201 (checks.def): an asynchronous copy, of the runtime or the driver API, whose host side
 * is provably pageable. */
void ss_check_pageable_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->sync != SS_SYNC_PAGEABLE || ss_ast_is_null(ctx->function))
        return;
    CXCursor dst, src;
    int kind = ss_copy_kind(ctx->function, call, api, &dst, &src);
    copy_side sides[2];
    size_t count = 0;
    if ((kind == SS_COPY_KIND_H2D || kind == SS_COPY_KIND_DEFAULT) && !ss_ast_is_null(src))
        sides[count++] = (copy_side){src, 0};
    if ((kind == SS_COPY_KIND_D2H || kind == SS_COPY_KIND_DEFAULT) && !ss_ast_is_null(dst))
        sides[count++] = (copy_side){dst, 1};
    for (size_t i = 0; i < count; i++) {
        ss_provenance p;
        ss_provenance_of(ctx->function, sides[i].expr, &p);
        int pageable = p.kind == SS_HOST_PAGEABLE;
        if (pageable)
            report(ctx, call, api, &sides[i], &p);
        ss_provenance_free(&p);
        if (pageable)
            break; /* one finding per call */
    }
}
