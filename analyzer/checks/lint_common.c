/* lint_common.c: what several static checks share: whether an argument was written, how a
 * finding names the function it is in, what a constant stream argument is, and the direction
 * of a runtime copy. */
#include "ast.h"
#include "common.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ss_check_is_omitted(CXCursor arg)
{
    CXFile file = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(arg), &file, NULL, NULL, NULL);
    return file == NULL;
}

int ss_check_is_stream_type(CXType type)
{
    CXType t = clang_getCanonicalType(type);
    if (t.kind != CXType_Pointer)
        return 0;
    CXString ts = clang_getCursorSpelling(clang_getTypeDeclaration(clang_getPointeeType(t)));
    int is_stream = strcmp(clang_getCString(ts), "CUstream_st") == 0;
    clang_disposeString(ts);
    return is_stream;
}

int ss_check_stream_creation(CXCursor call, const ss_api *api)
{
    if (api == NULL || api->klass != SS_CLASS_STREAM_CREATE)
        return 0;
    long long flags = 0;
    if (api->flags_arg >= 0 &&
        (clang_Cursor_getNumArguments(call) <= api->flags_arg ||
         ss_ast_eval_int(ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->flags_arg)),
                         &flags) != 0))
        return 2;
    /* cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are both bit 0. */
    return flags == 0 ? 1 : (flags & 1) ? 3 : 2;
}

char *ss_check_where(const ss_check_ctx *ctx)
{
    if (ctx->function_name)
        return ss_xasprintf("in '%s'", ctx->function_name);
    return ss_xstrdup("at file scope");
}

char *ss_check_where_suffix(const ss_check_ctx *ctx)
{
    return ctx->function_name ? ss_xasprintf(" in '%s'", ctx->function_name) : ss_xstrdup("");
}

CXCursor ss_check_stream_arg(CXCursor call, const ss_api *api)
{
    if (ss_scope_is_launch(call)) {
        CXCursor config = ss_ast_child(call, 1);
        if (clang_Cursor_getNumArguments(config) <= SS_CONFIG_STREAM_ARG)
            return clang_getNullCursor();
        return clang_Cursor_getArgument(config, SS_CONFIG_STREAM_ARG);
    }
    if (api == NULL || api->stream_arg < 0 || clang_Cursor_getNumArguments(call) <= api->stream_arg)
        return clang_getNullCursor();
    return clang_Cursor_getArgument(call, (unsigned)api->stream_arg);
}

ss_stream_value ss_stream_constant(CXCursor expr)
{
    long long value;
    if (ss_ast_eval_int(ss_ast_strip(expr), &value) != 0)
        return SS_STREAM_UNKNOWN;
    /* The CUDA headers define cudaStreamLegacy as ((cudaStream_t)0x1) and
     * cudaStreamPerThread as ((cudaStream_t)0x2). */
    if (value == 0)
        return SS_STREAM_NULL;
    if (value == 1)
        return SS_STREAM_LEGACY;
    if (value == 2)
        return SS_STREAM_PER_THREAD;
    return SS_STREAM_OTHER;
}

int ss_stream_is_legacy(ss_stream_value v, int per_thread)
{
    return v == SS_STREAM_LEGACY || (v == SS_STREAM_NULL && !per_thread);
}

int ss_stream_is_default(ss_stream_value v)
{
    return v == SS_STREAM_NULL || v == SS_STREAM_LEGACY || v == SS_STREAM_PER_THREAD;
}

/* How many variables deep "s = t; t = 0;" chains are followed. */
enum { MAX_CHAIN = 4 };

/* What stops a walk over definitions: neither test can hold any more. */
#define SS_STREAM_NEITHER (SS_STREAM_BIT(SS_STREAM_UNKNOWN) | SS_STREAM_BIT(SS_STREAM_OTHER))

static unsigned stream_values(CXCursor function, CXCursor expr, int depth);

static unsigned def_values(CXCursor function, const ss_def *def, int depth)
{
    switch (def->kind) {
    case SS_DEF_VALUE:
        return stream_values(function, def->value, depth + 1);
    case SS_DEF_ZERO:
        return SS_STREAM_BIT(SS_STREAM_NULL);
    case SS_DEF_OUT_ARG: {
        /* Written by a stream-creating API through its destination argument. */
        char *name = ss_ast_callee_name(def->call);
        const ss_api *api = name ? ss_api_find(name) : NULL;
        free(name);
        if (api && api->klass == SS_CLASS_STREAM_CREATE && (int)def->arg_index == api->dst_arg)
            return SS_STREAM_BIT(SS_STREAM_OTHER);
        break;
    }
    case SS_DEF_UNKNOWN:
        break;
    }
    return SS_STREAM_BIT(SS_STREAM_UNKNOWN);
}

static unsigned location_values(CXCursor function, const ss_location *loc, CXCursor use, int depth)
{
    ss_defs defs = {0};
    ss_dataflow_reaching(function, loc, use, &defs);
    unsigned values = defs.count ? 0 : SS_STREAM_BIT(SS_STREAM_UNKNOWN);
    for (size_t i = 0; i < defs.count && !(values & SS_STREAM_NEITHER); i++)
        values |= def_values(function, &defs.v[i], depth);
    ss_defs_free(&defs);
    return values;
}

static unsigned stream_values(CXCursor function, CXCursor expr, int depth)
{
    if (ss_ast_is_null(expr))
        return SS_STREAM_BIT(SS_STREAM_UNKNOWN);
    if (ss_check_is_omitted(expr))
        return SS_STREAM_BIT(SS_STREAM_NULL);
    CXCursor e = ss_ast_strip(expr);
    ss_stream_value constant = ss_stream_constant(e);
    if (constant != SS_STREAM_UNKNOWN)
        return SS_STREAM_BIT(constant);
    if (clang_getCursorKind(e) == CXCursor_CallExpr)
        return SS_STREAM_BIT(SS_STREAM_OTHER);
    ss_location loc;
    if (depth > MAX_CHAIN || ss_location_of(e, NULL, &loc) != 0)
        return SS_STREAM_BIT(SS_STREAM_UNKNOWN);
    unsigned values = location_values(function, &loc, e, depth);
    ss_location_free(&loc);
    return values;
}

unsigned ss_stream_values(CXCursor function, CXCursor expr)
{
    return stream_values(function, expr, 0);
}

unsigned ss_stream_location_values(CXCursor function, const ss_location *loc, CXCursor use)
{
    return location_values(function, loc, use, 0);
}

int ss_stream_all_legacy(unsigned values, int per_thread)
{
    unsigned legacy = SS_STREAM_BIT(SS_STREAM_LEGACY);
    if (!per_thread)
        legacy |= SS_STREAM_BIT(SS_STREAM_NULL);
    return values != 0 && (values & ~legacy) == 0;
}

int ss_stream_all_default(unsigned values)
{
    unsigned defaults = SS_STREAM_BIT(SS_STREAM_NULL) | SS_STREAM_BIT(SS_STREAM_LEGACY) |
                        SS_STREAM_BIT(SS_STREAM_PER_THREAD);
    return values != 0 && (values & ~defaults) == 0;
}

/* The value of a cudaMemcpyKind expression, or SS_COPY_KIND_UNKNOWN. A variable is followed through
 * its reaching definitions when they all agree. */
static int kind_value(CXCursor function, CXCursor expr, int depth)
{
    long long v;
    CXCursor e = ss_ast_strip(expr);
    if (ss_ast_eval_int(e, &v) == 0)
        return v >= SS_COPY_KIND_H2H && v <= SS_COPY_KIND_DEFAULT ? (int)v : SS_COPY_KIND_UNKNOWN;
    if (depth > 3)
        return SS_COPY_KIND_UNKNOWN;
    ss_location loc;
    if (ss_location_of(e, NULL, &loc) != 0)
        return SS_COPY_KIND_UNKNOWN;
    ss_defs defs = {0};
    ss_dataflow_reaching(function, &loc, e, &defs);
    int kind = defs.count ? SS_COPY_KIND_DEFAULT + 1 : SS_COPY_KIND_UNKNOWN;
    for (size_t i = 0; i < defs.count && kind != SS_COPY_KIND_UNKNOWN; i++) {
        int k = defs.v[i].kind == SS_DEF_VALUE ? kind_value(function, defs.v[i].value, depth + 1)
                                               : SS_COPY_KIND_UNKNOWN;
        kind = (kind == SS_COPY_KIND_DEFAULT + 1 || kind == k) ? k : SS_COPY_KIND_UNKNOWN;
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

/* The host pointer of side 'side' ("src" or "dst") of the driver's local CUDA_MEMCPY2D or
 * CUDA_MEMCPY3D behind '&p' (cuMemcpy2D(&p), cuMemcpy3DAsync(&p, stream)): the value its
 * 'srcHost' field receives, when one definition reaches the call and the side's memory type is
 * not set to another than CU_MEMORYTYPE_HOST (1); else a null cursor. */
static CXCursor host_side(CXCursor function, CXCursor params, const char *side, CXCursor call)
{
    char field[16];
    snprintf(field, sizeof field, "%sMemoryType", side);
    CXCursor type = param_field(function, params, field, call);
    long long value;
    if (!ss_ast_is_null(type) && ss_ast_eval_int(ss_ast_strip(type), &value) == 0 && value != 1)
        return clang_getNullCursor();
    snprintf(field, sizeof field, "%sHost", side);
    return param_field(function, params, field, call);
}

int ss_sync_copy_queued(int kind)
{
    return kind != SS_COPY_KIND_H2D && kind != SS_COPY_KIND_D2H && kind != SS_COPY_KIND_H2H;
}

int ss_copy_kind(CXCursor function, CXCursor call, const ss_api *api, CXCursor *dst, CXCursor *src)
{
    int nargs = clang_Cursor_getNumArguments(call);
    *dst = clang_getNullCursor();
    *src = clang_getNullCursor();
    int kind = SS_COPY_KIND_UNKNOWN;
    if (api->dst_arg >= 0 && api->src_arg >= 0) {
        if (nargs <= api->dst_arg || nargs <= api->src_arg)
            return SS_COPY_KIND_UNKNOWN;
        *dst = clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
        *src = clang_Cursor_getArgument(call, (unsigned)api->src_arg);
        if (api->dir == SS_DIR_H2D)
            kind = SS_COPY_KIND_H2D;
        else if (api->dir == SS_DIR_D2H)
            kind = SS_COPY_KIND_D2H;
        else if (api->dir == SS_DIR_D2D)
            kind = SS_COPY_KIND_D2D;
        else if (api->dir == SS_DIR_KIND && api->kind_arg >= 0 && nargs > api->kind_arg)
            kind = kind_value(function, clang_Cursor_getArgument(call, (unsigned)api->kind_arg), 0);
        else if (api->dir == SS_DIR_KIND && api->kind_arg < 0)
            kind = SS_COPY_KIND_DEFAULT; /* cuMemcpy: unified addressing, as cudaMemcpyDefault */
    } else if (nargs >= 1 && api->dir == SS_DIR_KIND && api->domain == SS_DOMAIN_DRV) {
        CXCursor params = clang_Cursor_getArgument(call, 0);
        *dst = host_side(function, params, "dst", call);
        *src = host_side(function, params, "src", call);
        if (!ss_ast_is_null(*dst) || !ss_ast_is_null(*src))
            kind = SS_COPY_KIND_DEFAULT;
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

/* The first explicit non-default stream used in a function. */
typedef struct stream_walk {
    CXCursor function;
    CXCursor found;
} stream_walk;

/* The stream argument of 'call' (a launch or an API call with one), or a null cursor. */
static CXCursor stream_argument(CXCursor call)
{
    if (ss_scope_is_launch(call))
        return ss_check_stream_arg(call, NULL);
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor arg = ss_check_stream_arg(call, api);
    if (ss_ast_is_null(arg))
        return arg;
    /* A stream is a pointer to an opaque struct; a pointer to a complete struct is a launch
     * configuration (cudaLaunchKernelEx), whose stream field is not followed here. */
    CXType t = clang_getCanonicalType(clang_getCursorType(ss_ast_strip(arg)));
    CXType pointee = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind == CXType_Pointer && pointee.kind == CXType_Record &&
        clang_Type_getSizeOf(pointee) > 0)
        return clang_getNullCursor();
    return arg;
}

static enum CXChildVisitResult find_stream(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor arg = stream_argument(c);
    if (!ss_ast_is_null(arg) && !ss_stream_all_default(ss_stream_values(w->function, arg))) {
        w->found = arg;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_check_is_device_pointer(CXCursor function, CXCursor expr)
{
    if (ss_ast_is_null(expr))
        return 0;
    ss_provenance p;
    ss_provenance_of(function, expr, &p);
    int device = p.kind == SS_HOST_DEVICE;
    ss_provenance_free(&p);
    return device;
}

ss_callgraph *ss_check_graph(ss_check_ctx *ctx)
{
    if (ctx->graph == NULL)
        ctx->graph = ss_callgraph_build(ctx->tu);
    return ctx->graph;
}

int ss_check_loop(ss_check_ctx *ctx, CXCursor call, ss_scope_work what, ss_loop_context *out)
{
    memset(out, 0, sizeof *out);
    out->loop = out->work = out->via = out->function = clang_getNullCursor();
    if (ss_ast_is_null(ctx->function))
        return 0;
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor loops[8];
    size_t n = ss_scope_enclosing_loops(ctx->function, call, loops, 8);
    for (size_t i = 0; i < n; i++) {
        if (ss_callgraph_loop_work(graph, loops[i], what, call, &out->work, &out->via)) {
            out->loop = loops[i];
            out->function = ss_scope_outer_function(ctx->function);
            return 1;
        }
    }
    out->work = out->via = clang_getNullCursor();
    if (clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return 0;
    ss_loop_reach reach;
    if (!ss_callgraph_reached_from_loop(graph, ctx->function, what, &reach))
        return 0;
    out->loop = reach.loop;
    out->work = reach.work;
    out->chain = reach.chain;
    out->place = reach.place;
    out->function = reach.function;
    memcpy(out->calls, reach.calls, sizeof out->calls);
    memcpy(out->froms, reach.froms, sizeof out->froms);
    out->call_count = reach.call_count;
    return 1;
}

void ss_loop_context_free(ss_loop_context *loop)
{
    free(loop->chain);
    free(loop->place);
    loop->chain = loop->place = NULL;
}

char *ss_check_loop_where(const ss_check_ctx *ctx, const ss_loop_context *loop)
{
    if (loop->chain == NULL)
        return ss_check_where(ctx);
    return ss_xasprintf("in %s called from the loop at %s", loop->chain, loop->place);
}

char *ss_check_loop_via(const ss_loop_context *loop)
{
    if (ss_ast_is_null(loop->via))
        return ss_xstrdup("");
    char *name = ss_qualified_name(loop->via);
    char *text = ss_xasprintf(", through '%s()'", name);
    free(name);
    return text;
}

int ss_check_pipeline(ss_check_ctx *ctx, CXCursor call, ss_pipeline *out)
{
    memset(out, 0, sizeof *out);
    out->loop = out->work = out->stream = clang_getNullCursor();
    out->in.loop = out->in.work = out->in.via = clang_getNullCursor();
    if (ss_ast_is_null(ctx->function))
        return 0;
    if (ss_check_loop(ctx, call, SS_SCOPE_LAUNCHES, &out->in)) {
        out->loop = out->in.loop;
        out->work = out->in.work;
        return 1;
    }
    CXCursor top = ss_scope_outer_function(ctx->function);
    stream_walk w = {top, clang_getNullCursor()};
    clang_visitChildren(top, find_stream, &w);
    out->stream = w.found;
    return !ss_ast_is_null(w.found);
}

void ss_pipeline_free(ss_pipeline *pipe)
{
    ss_loop_context_free(&pipe->in);
}

char *ss_check_pipeline_loop_words(const ss_pipeline *pipe)
{
    char *launch = ss_check_work_name(pipe->work);
    char *via = ss_check_loop_via(&pipe->in);
    char *text;
    if (pipe->in.chain)
        text = ss_xasprintf("in %s called from the loop at %s, which launches %s (line %u%s)",
                            pipe->in.chain, pipe->in.place, launch, ss_scope_line(pipe->work), via);
    else
        text = ss_xasprintf("inside the loop at line %u, which launches %s (line %u%s)",
                            ss_scope_line(pipe->loop), launch, ss_scope_line(pipe->work), via);
    free(via);
    free(launch);
    return text;
}

char *ss_check_work_name(CXCursor work)
{
    if (ss_scope_is_launch(work)) {
        char *kernel = ss_scope_kernel_name(work);
        char *name = kernel ? ss_xasprintf("kernel '%s'", kernel) : ss_xstrdup("a kernel");
        free(kernel);
        return name;
    }
    char *callee = ss_scope_callee_name(work);
    char *name = ss_xasprintf("'%s'", callee ? callee : "a launch");
    free(callee);
    return name;
}

/* ------------------------------------------------------------------------------------------
 * cuBLAS handles. */

/* The name of the function 'call' calls, where it is a declaration of the system headers whose
 * name starts with "cublas"; malloc'ed, or NULL. */
static char *cublas_callee(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return NULL;
    CXCursor decl = clang_getCursorReferenced(call);
    if (clang_getCursorKind(decl) != CXCursor_FunctionDecl ||
        !clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return NULL;
    CXString s = clang_getCursorSpelling(decl);
    const char *name = clang_getCString(s);
    char *copy = name && strncmp(name, "cublas", 6) == 0 ? ss_xstrdup(name) : NULL;
    clang_disposeString(s);
    return copy;
}

int ss_switches_device(CXCursor call)
{
    if (ss_scope_is_set_device(call))
        return 1;
    char *name = ss_scope_callee_name(call);
    int yes =
        name &&
        (strncmp(name, "cuCtxSetCurrent", 15) == 0 || strncmp(name, "cuCtxPushCurrent", 16) == 0 ||
         strncmp(name, "cuCtxPopCurrent", 15) == 0 || strncmp(name, "cuCtxCreate", 11) == 0 ||
         strncmp(name, "cuCtxDestroy", 12) == 0);
    free(name);
    return yes;
}

enum CXChildVisitResult ss_find_device_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    CXCursor *found = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_DEVICE_SYNC) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_cublas_facts(CXCursor c, CXCursor parent, CXClientData data)
{
    int *facts = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && ss_switches_device(c))
        *facts |= SS_CUBLAS_STREAM_SET; /* the handle's device may not be the current one */
    char *name = cublas_callee(c);
    if (name == NULL)
        return CXChildVisit_Recurse;
    if (ss_readback_find(name, SS_READBACK_CUBLAS_SET_STREAM)) {
        *facts |= SS_CUBLAS_STREAM_SET;
    } else if (ss_readback_find(name, SS_READBACK_CUBLAS_POINTER_MODE)) {
        CXCursor mode = clang_Cursor_getNumArguments(c) > 1
                            ? ss_ast_strip(clang_Cursor_getArgument(c, 1))
                            : clang_getNullCursor();
        CXCursor constant = clang_getCursorReferenced(mode);
        int host = 0;
        if (clang_getCursorKind(mode) == CXCursor_DeclRefExpr &&
            clang_getCursorKind(constant) == CXCursor_EnumConstantDecl) {
            CXString s = clang_getCursorSpelling(constant);
            host = ss_readback_find(clang_getCString(s), SS_READBACK_CUBLAS_HOST_MODE) != NULL;
            clang_disposeString(s);
        }
        if (!host)
            *facts |= SS_CUBLAS_DEVICE_MODE;
    }
    free(name);
    return CXChildVisit_Recurse;
}

int ss_cublas_unit(ss_check_ctx *ctx)
{
    if (ctx->cublas == 0) {
        int facts = SS_CUBLAS_LOOKED | (ctx->per_thread ? SS_CUBLAS_STREAM_SET : 0);
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_cublas_facts, &facts);
        ctx->cublas = facts;
    }
    return ctx->cublas;
}

char *ss_cublas_host_result(int unit, CXCursor call, CXCursor *result)
{
    if (unit & SS_CUBLAS_DEVICE_MODE)
        return NULL;
    char *name = cublas_callee(call);
    int nargs = clang_Cursor_getNumArguments(call);
    if (name == NULL || !ss_readback_find(name, SS_READBACK_CUBLAS_HOST_RESULT) || nargs < 2) {
        free(name);
        return NULL;
    }
    CXType ftype = clang_getCursorType(clang_getCursorReferenced(call));
    CXString ts = clang_getTypeSpelling(clang_getArgType(ftype, 0));
    int handle = strcmp(clang_getCString(ts), "cublasHandle_t") == 0;
    clang_disposeString(ts);
    if (!handle) {
        free(name);
        return NULL;
    }
    if (result)
        *result = clang_Cursor_getArgument(call, (unsigned)(nargs - 1));
    /* cublas_v2.h's macros: cublasSasum is cublasSasum_v2, cublasSasum_64 cublasSasum_v2_64. */
    char *v2 = strstr(name, "_v2");
    if (v2 && (v2[3] == '\0' || strcmp(v2 + 3, "_64") == 0))
        memmove(v2, v2 + 3, strlen(v2 + 3) + 1);
    return name;
}

/* The uses of a handle variable in its function: each a handle argument of a cuBLAS call or
 * the address given to cublasCreate ('allowed', filled as the walk meets those calls, which
 * come before their arguments), or another ('other'). */
typedef struct handle_walk {
    CXCursor var;
    CXCursor allowed[64];
    size_t allowed_count;
    int other;
} handle_walk;

static int names_handle(CXCursor e, CXCursor var)
{
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

static enum CXChildVisitResult find_handle_uses(CXCursor c, CXCursor parent, CXClientData data)
{
    handle_walk *w = data;
    char *name = cublas_callee(c);
    if (name && clang_Cursor_getNumArguments(c) > 0) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, 0));
        if (ss_readback_find(name, SS_READBACK_CUBLAS_CREATE) &&
            clang_getCursorKind(arg) == CXCursor_UnaryOperator)
            arg = ss_ast_strip(ss_ast_child(arg, 0));
        if (names_handle(arg, w->var)) {
            if (w->allowed_count < sizeof w->allowed / sizeof *w->allowed)
                w->allowed[w->allowed_count++] = arg;
            else
                w->other = 1;
        }
    }
    free(name);
    if (names_handle(c, w->var)) {
        int allowed = 0;
        for (size_t i = 0; i < w->allowed_count && !allowed; i++)
            allowed = ss_ast_same_node(c, w->allowed[i]);
        if (!allowed) {
            w->other = 1;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* What is known of a handle variable: whether it is the function's own (ss_cublas_own_handle),
 * and whether its function runs closed (runs_closed; -1 not asked yet). */
typedef struct cublas_fact {
    CXCursor var;
    int own, closed;
} cublas_fact;

struct ss_cublas_memo {
    cublas_fact *rows;
    size_t count, cap;
};

ss_cublas_memo *ss_cublas_memo_new(void)
{
    return ss_xcalloc(1, sizeof(ss_cublas_memo));
}

void ss_cublas_memo_free(ss_cublas_memo *memo)
{
    if (memo)
        free(memo->rows);
    free(memo);
}

/* The row of 'var' in 'memo' (made, with own -1 and closed -1, where missing), or NULL without
 * a memo. */
static cublas_fact *memo_row(ss_cublas_memo *memo, CXCursor var)
{
    if (memo == NULL)
        return NULL;
    for (size_t i = 0; i < memo->count; i++) {
        if (clang_equalCursors(memo->rows[i].var, var))
            return &memo->rows[i];
    }
    if (memo->count == memo->cap) {
        memo->cap = memo->cap ? memo->cap * 2 : 8;
        memo->rows = ss_xreallocarray(memo->rows, memo->cap, sizeof *memo->rows);
    }
    memo->rows[memo->count] = (cublas_fact){var, -1, -1};
    return &memo->rows[memo->count++];
}

/* The handle variable of the cuBLAS call 'call' (its first argument, a variable named), or a
 * null cursor. */
static CXCursor handle_var(CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) < 1)
        return clang_getNullCursor();
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, 0));
    CXCursor var = clang_getCursorReferenced(arg);
    if (clang_getCursorKind(arg) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(var) != CXCursor_VarDecl)
        return clang_getNullCursor();
    return var;
}

static int own_handle(CXCursor var);

int ss_cublas_own_handle(ss_cublas_memo *memo, CXCursor call)
{
    CXCursor var = handle_var(call);
    if (ss_ast_is_null(var))
        return 0;
    cublas_fact *row = memo_row(memo, var);
    if (row == NULL)
        return own_handle(var);
    if (row->own < 0)
        row->own = own_handle(var);
    return row->own;
}

static int own_handle(CXCursor var)
{
    enum CX_StorageClass storage = clang_Cursor_getStorageClass(var);
    CXCursor function = clang_getCursorSemanticParent(var);
    enum CXCursorKind fk = clang_getCursorKind(function);
    if ((storage != CX_SC_None && storage != CX_SC_Auto) ||
        clang_getCanonicalType(clang_getCursorType(var)).kind != CXType_Pointer ||
        (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_Constructor &&
         fk != CXCursor_Destructor && fk != CXCursor_FunctionTemplate &&
         fk != CXCursor_ConversionFunction))
        return 0;
    /* Its initializer, if any, a null constant. */
    for (unsigned i = 0, n = ss_ast_child_count(var); i < n; i++) {
        CXCursor init = ss_ast_child(var, i);
        if (!clang_isExpression(clang_getCursorKind(init)))
            continue;
        enum CXCursorKind k = clang_getCursorKind(ss_ast_strip(init));
        long long value = -1;
        if (k != CXCursor_CXXNullPtrLiteralExpr && k != CXCursor_GNUNullExpr &&
            !(ss_ast_eval_int(init, &value) == 0 && value == 0))
            return 0;
    }
    handle_walk w;
    memset(&w, 0, sizeof w);
    w.var = var;
    clang_visitChildren(function, find_handle_uses, &w);
    return !w.other;
}

int ss_foreign_decl(CXCursor c)
{
    if (ss_ast_in_system_header(c))
        return 1;
    CXFile file = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
    CXString name = clang_getFileName(file);
    const char *path = clang_getCString(name);
    int virtual_file = path && strncmp(path, "/__syncscope__/", 15) == 0;
    clang_disposeString(name);
    return virtual_file;
}

/* Whether the calls of 'function' (a definition) run only code that lint sees to switch no
 * device: cuBLAS functions, the CUDA API of the table, launches, plain C functions of the system
 * headers given no function pointer, constructors of the system headers' types at file scope
 * (dim3), and the unit's own functions that do the same ('depth' of them down, at most three). A
 * function of another unit, a call through a pointer, a method or template of a library (which may
 * call back into any code) may make another device current. */
typedef struct closed_walk {
    int depth, open;
} closed_walk;

static int runs_closed(CXCursor function, int depth);

static enum CXChildVisitResult find_open_call(CXCursor c, CXCursor parent, CXClientData data)
{
    closed_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_scope_is_launch(c) ||
        ss_scope_is_launch_config(c) || ss_scope_callee_api(c) != NULL)
        return CXChildVisit_Recurse;
    char *cublas = cublas_callee(c);
    int library = cublas != NULL;
    free(cublas);
    if (library)
        return CXChildVisit_Recurse;
    CXCursor decl = clang_getCursorReferenced(c);
    int system = ss_foreign_decl(decl);
    enum CXCursorKind scope =
        clang_getCursorKind(clang_getCursorSemanticParent(clang_getCursorSemanticParent(decl)));
    if (clang_getCursorKind(decl) == CXCursor_Constructor && system &&
        (scope == CXCursor_TranslationUnit || scope == CXCursor_LinkageSpec ||
         scope == CXCursor_UnexposedDecl)) {
        /* A constructor of a plain type of the toolkit at file scope: 'dim3(1)' of a launch. */
    } else if (clang_getCursorKind(decl) != CXCursor_FunctionDecl) {
        w->open = 1;
    } else if (system) {
        CXType ftype = clang_getCursorType(decl);
        for (int i = 0, n = clang_getNumArgTypes(ftype); i < n && !w->open; i++) {
            CXType t = clang_getCanonicalType(clang_getArgType(ftype, (unsigned)i));
            CXType pointee = clang_getCanonicalType(clang_getPointeeType(t));
            w->open = t.kind == CXType_Pointer && (pointee.kind == CXType_FunctionProto ||
                                                   pointee.kind == CXType_FunctionNoProto);
        }
        CXCursor parent_decl = clang_getCursorSemanticParent(decl);
        if (clang_getCursorKind(parent_decl) == CXCursor_Namespace ||
            clang_getCursorKind(parent_decl) == CXCursor_ClassDecl ||
            clang_getCursorKind(parent_decl) == CXCursor_StructDecl)
            w->open = 1; /* a C++ library's function: std::for_each, std::thread, ... */
    } else {
        CXCursor def = clang_getCursorDefinition(decl);
        w->open = ss_ast_is_null(def) || w->depth >= 3 || !runs_closed(def, w->depth + 1);
    }
    return w->open ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int runs_closed(CXCursor function, int depth)
{
    closed_walk w = {depth, 0};
    clang_visitChildren(function, find_open_call, &w);
    return !w.open;
}

int ss_cublas_legacy_handle(ss_cublas_memo *memo, int unit, CXCursor call)
{
    if ((unit & SS_CUBLAS_STREAM_SET) || !ss_cublas_own_handle(memo, call))
        return 0;
    /* The handle is on the device that was current when the function made it: the unit switches
     * no device, and the function runs no code that may (runs_closed), so that its device is the
     * current one at the call. */
    CXCursor var = handle_var(call);
    cublas_fact *row = memo_row(memo, var);
    if (row && row->closed >= 0)
        return row->closed;
    int closed = runs_closed(clang_getCursorSemanticParent(var), 0);
    if (row)
        row->closed = closed;
    return closed;
}
