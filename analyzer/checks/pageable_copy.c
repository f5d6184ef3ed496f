/* pageable_copy.c: SYNC201, asynchronous copies whose host buffer is provably pageable (the
 * copy is staged and the call blocks the host, so it overlaps with nothing). */
#include "ast.h"
#include "checks.h"
#include "dataflow.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* cudaMemcpyKind values (driver_types.h). */
enum {
    KIND_H2H = SS_COPY_KIND_H2H,
    KIND_H2D = SS_COPY_KIND_H2D,
    KIND_D2H = SS_COPY_KIND_D2H,
    KIND_D2D = SS_COPY_KIND_D2D,
    KIND_DEFAULT = SS_COPY_KIND_DEFAULT,
    KIND_UNKNOWN = SS_COPY_KIND_UNKNOWN
};

/* One side of a copy that may be host memory. */
typedef struct copy_side {
    CXCursor expr;
    int is_dst;
} copy_side;

/* The value of a cudaMemcpyKind expression, or KIND_UNKNOWN. A variable is followed through
 * its reaching definitions when they all agree. */
static int kind_value(CXCursor function, CXCursor expr, int depth)
{
    long long v;
    CXCursor e = ss_ast_strip(expr);
    if (ss_ast_eval_int(e, &v) == 0)
        return v >= KIND_H2H && v <= KIND_DEFAULT ? (int)v : KIND_UNKNOWN;
    if (depth > 3)
        return KIND_UNKNOWN;
    ss_location loc;
    if (ss_location_of(e, NULL, &loc) != 0)
        return KIND_UNKNOWN;
    ss_defs defs = {0};
    ss_dataflow_reaching(function, &loc, e, &defs);
    int kind = defs.count ? KIND_DEFAULT + 1 : KIND_UNKNOWN;
    for (size_t i = 0; i < defs.count && kind != KIND_UNKNOWN; i++) {
        int k = defs.v[i].kind == SS_DEF_VALUE ? kind_value(function, defs.v[i].value, depth + 1)
                                               : KIND_UNKNOWN;
        kind = (kind == KIND_DEFAULT + 1 || kind == k) ? k : KIND_UNKNOWN;
    }
    ss_defs_free(&defs);
    ss_location_free(&loc);
    return kind;
}

/* The value a field of the local cudaMemcpy3DParms behind '&p' receives, when one definition
 * reaches 'use'; else a null cursor. */
static CXCursor param_field(CXCursor function, CXCursor arg, const char *field, CXCursor use)
{
    CXCursor none = clang_getNullCursor();
    ss_location loc;
    CXCursor e = ss_ast_strip(arg);
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator || ss_location_of(e, field, &loc) != 0)
        return none;
    loc.values = 1; /* 'p.srcPtr = make_cudaPitchedPtr(...)' is a class assignment in C++ */
    ss_defs defs = {0};
    ss_dataflow_reaching(function, &loc, use, &defs);
    CXCursor value = none;
    if (defs.count == 1 && defs.v[0].kind == SS_DEF_VALUE)
        value = defs.v[0].value;
    ss_defs_free(&defs);
    ss_location_free(&loc);
    return value;
}

/* The pointer inside a cudaPitchedPtr value built by a PITCHED_PTR_MAKER call. */
static CXCursor pitched_pointer(CXCursor value)
{
    CXCursor e = ss_ast_strip(value);
    for (int i = 0; i < 2 && clang_getCursorKind(e) == CXCursor_CallExpr; i++) {
        char *name = ss_scope_callee_name(e);
        const ss_host_memory *row =
            name ? ss_host_memory_find(name, SS_HOSTMEM_PITCHED_PTR_MAKER) : NULL;
        free(name);
        if (row && clang_Cursor_getNumArguments(e) > row->arg)
            return clang_Cursor_getArgument(e, (unsigned)row->arg);
        /* A copy of the value: 'cudaPitchedPtr(make_cudaPitchedPtr(...))'. */
        if (clang_Cursor_getNumArguments(e) != 1)
            break;
        e = ss_ast_strip(clang_Cursor_getArgument(e, 0));
    }
    return clang_getNullCursor();
}

/* The fix for a pageable buffer, by where it comes from. */
static const char *fix_for(const ss_provenance *p)
{
    if (p->source && strncmp(p->source, "the storage of", 14) == 0)
        return "copy through a pinned buffer (cudaMallocHost, or a pinned allocator for the "
               "container), or pin its storage once with cudaHostRegister";
    if (p->source && (strstr(p->source, " array ") || strstr(p->source, "address of")))
        return "stage the data through a pinned buffer from cudaMallocHost, or register it "
               "with cudaHostRegister";
    return "allocate it with cudaMallocHost or register it with cudaHostRegister";
}

static void report(ss_check_ctx *ctx, CXCursor call, const ss_api *api, const copy_side *side,
                   const ss_provenance *p)
{
    char *text = ss_expr_text(side->expr);
    char *at = ctx->function_name ? ss_asprintf(" in '%s'", ctx->function_name) : ss_strdup("");
    const char *fix = fix_for(p);
    char *message = ss_asprintf("host buffer '%s' comes from %s at line %u: '%s'%s copies %s "
                                "pageable memory, so it is staged and blocks the host instead "
                                "of overlapping",
                                text ? text : "...", p->source ? p->source : "a pageable source",
                                p->line, api->name, at, side->is_dst ? "into" : "from");
    ss_check_report(ctx, SS_RULE_PAGEABLE_ASYNC_COPY, call, message, fix);
    free(message);
    free(at);
    free(text);
}

int ss_copy_kind(CXCursor function, CXCursor call, const ss_api *api, CXCursor *dst, CXCursor *src)
{
    int nargs = clang_Cursor_getNumArguments(call);
    *dst = clang_getNullCursor();
    *src = clang_getNullCursor();
    int kind = KIND_UNKNOWN;
    if (api->dst_arg >= 0 && api->src_arg >= 0) {
        if (nargs <= api->dst_arg || nargs <= api->src_arg)
            return KIND_UNKNOWN;
        *dst = clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
        *src = clang_Cursor_getArgument(call, (unsigned)api->src_arg);
        if (api->dir == SS_DIR_H2D)
            kind = KIND_H2D;
        else if (api->dir == SS_DIR_D2H)
            kind = KIND_D2H;
        else if (api->dir == SS_DIR_D2D)
            kind = KIND_D2D;
        else if (api->dir == SS_DIR_KIND && api->kind_arg >= 0 && nargs > api->kind_arg)
            kind = kind_value(function, clang_Cursor_getArgument(call, (unsigned)api->kind_arg), 0);
    } else if (nargs >= 1 && api->dir == SS_DIR_KIND) {
        /* cudaMemcpy3D(&p) and cudaMemcpy3DAsync(&p, stream): the parameters struct, where it
         * is visible. */
        CXCursor params = clang_Cursor_getArgument(call, 0);
        CXCursor kind_expr = param_field(function, params, "kind", call);
        if (!ss_ast_is_null(kind_expr))
            kind = kind_value(function, kind_expr, 0);
        *dst = pitched_pointer(param_field(function, params, "dstPtr", call));
        *src = pitched_pointer(param_field(function, params, "srcPtr", call));
    }
    return kind;
}

/* SYNC201 (checks.def): an asynchronous copy whose host side is provably pageable. */
void ss_check_pageable_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->domain != SS_DOMAIN_RT || api->sync != SS_SYNC_PAGEABLE ||
        ss_ast_is_null(ctx->function))
        return;
    CXCursor dst, src;
    int kind = ss_copy_kind(ctx->function, call, api, &dst, &src);
    copy_side sides[2];
    size_t count = 0;
    if ((kind == KIND_H2D || kind == KIND_DEFAULT) && !ss_ast_is_null(src))
        sides[count++] = (copy_side){src, 0};
    if ((kind == KIND_D2H || kind == KIND_DEFAULT) && !ss_ast_is_null(dst))
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
