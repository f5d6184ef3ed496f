/* default_stream.c: SYNC101 (kernel launches on the legacy default stream) and SYNC102
 * (asynchronous calls on the legacy default stream). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "dataflow.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How deep "s = t; t = 0;" chains are followed. */
enum { MAX_CHAIN = 4 };

static ss_stream_value classify(ss_check_ctx *ctx, CXCursor expr, int depth);

/* Merges the values of several reaching definitions: legacy only when all are. */
static ss_stream_value merge(ss_stream_value a, ss_stream_value b)
{
    if (a == b)
        return a;
    if ((a == SS_STREAM_NULL || a == SS_STREAM_LEGACY) &&
        (b == SS_STREAM_NULL || b == SS_STREAM_LEGACY))
        return SS_STREAM_NULL;
    return SS_STREAM_UNKNOWN;
}

static ss_stream_value classify_def(ss_check_ctx *ctx, const ss_def *def, int depth)
{
    switch (def->kind) {
    case SS_DEF_VALUE:
        return classify(ctx, def->value, depth + 1);
    case SS_DEF_ZERO:
        return SS_STREAM_NULL;
    case SS_DEF_OUT_ARG: {
        /* Written by a stream-creating API through its destination argument. */
        char *name = ss_ast_callee_name(def->call);
        const ss_api *api = name ? ss_api_find(name) : NULL;
        free(name);
        if (api && api->klass == SS_CLASS_STREAM_CREATE && (int)def->arg_index == api->dst_arg)
            return SS_STREAM_OTHER;
        return SS_STREAM_UNKNOWN;
    }
    case SS_DEF_UNKNOWN:
        break;
    }
    return SS_STREAM_UNKNOWN;
}

static ss_stream_value classify_location(ss_check_ctx *ctx, const ss_location *loc, CXCursor use,
                                         int depth)
{
    if (depth > MAX_CHAIN)
        return SS_STREAM_UNKNOWN;
    ss_defs defs = {0};
    ss_dataflow_reaching(ctx->function, loc, use, &defs);
    ss_stream_value v = defs.count ? classify_def(ctx, &defs.v[0], depth) : SS_STREAM_UNKNOWN;
    for (size_t i = 1; i < defs.count && v != SS_STREAM_UNKNOWN; i++)
        v = merge(v, classify_def(ctx, &defs.v[i], depth));
    ss_defs_free(&defs);
    return v;
}

static ss_stream_value classify(ss_check_ctx *ctx, CXCursor expr, int depth)
{
    if (ss_ast_is_null(expr) || depth > MAX_CHAIN)
        return SS_STREAM_UNKNOWN;
    CXCursor e = ss_ast_strip(expr);
    ss_stream_value constant = ss_stream_constant(e);
    if (constant != SS_STREAM_UNKNOWN)
        return constant;
    switch (clang_getCursorKind(e)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr: {
        ss_location loc;
        if (ss_location_of(e, NULL, &loc) != 0)
            return SS_STREAM_UNKNOWN;
        ss_stream_value v = classify_location(ctx, &loc, e, depth);
        ss_location_free(&loc);
        return v;
    }
    case CXCursor_CallExpr:
        return SS_STREAM_OTHER;
    default:
        return SS_STREAM_UNKNOWN;
    }
}

/* The identifier or literal token at 'offset' of 'file', malloc'ed, or NULL when the token
 * there is neither. */
static char *token_at(CXTranslationUnit tu, CXFile file, unsigned offset)
{
    CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, file, offset));
    if (tok == NULL)
        return NULL;
    char *text = NULL;
    CXTokenKind kind = clang_getTokenKind(*tok);
    if (kind == CXToken_Identifier || kind == CXToken_Literal) {
        CXString sp = clang_getTokenSpelling(tu, *tok);
        text = ss_strdup(clang_getCString(sp));
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, tok, 1);
    return text;
}

/* The source text of 'expr' as written at its expansion location (a macro name stays a
 * macro name), malloc'ed, or NULL when it is long or unreadable. */
static char *expr_text(CXCursor expr)
{
    enum { MAX_TEXT = 60 };
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(expr);
    CXSourceRange r = clang_getCursorExtent(expr);
    CXSourceLocation end_loc = clang_getRangeEnd(r);
    CXFile f1 = NULL, f2 = NULL, fs = NULL;
    unsigned begin, end, spelled_end;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &begin);
    clang_getExpansionLocation(end_loc, &f2, NULL, NULL, &end);
    clang_getSpellingLocation(end_loc, &fs, NULL, NULL, &spelled_end);
    CXFile fb = NULL;
    unsigned spelled_begin;
    clang_getSpellingLocation(clang_getRangeStart(r), &fb, NULL, NULL, &spelled_begin);
    /* One token written in this file away from where it expands: a macro (NULL,
     * cudaStreamLegacy) written as another macro's argument
     * (checkCudaErrors(cuLaunchKernel(..., NULL, ...))), whose expansion is the outer macro's:
     * it is named as written, not after the outer macro. */
    char *token =
        fb && fb == fs && fb == f1 && spelled_begin == spelled_end && spelled_begin != begin
            ? token_at(tu, fb, spelled_begin)
            : NULL;
    if (token != NULL)
        return token;
    if (fb && fb == fs && fb == f1 && spelled_begin < spelled_end &&
        (spelled_begin != begin || spelled_end != end)) {
        /* A macro argument: its own text, as written in the macro's invocation. */
        begin = spelled_begin;
        end = spelled_end;
    } else if (f1 == NULL || f1 != f2 || end < begin) {
        return NULL;
    } else if (fs != f2 || spelled_end != end) {
        /* The expression ends inside a macro: include the macro's name. */
        CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, f2, end));
        if (tok) {
            CXString sp = clang_getTokenSpelling(tu, *tok);
            end += (unsigned)strlen(clang_getCString(sp));
            clang_disposeString(sp);
            clang_disposeTokens(tu, tok, 1);
        }
    }
    if (end == begin)
        return NULL;
    return ss_ast_file_text(tu, f1, begin, end, MAX_TEXT);
}

static const char *hint_for(const ss_check_ctx *ctx)
{
    if (ctx->torch)
        return "launch on at::cuda::getCurrentCUDAStream() (a custom operator must run on the "
               "caller's current stream)";
    if (ctx->per_thread)
        return "use cudaStreamPerThread or an explicit stream instead of cudaStreamLegacy";
    return "pass an explicit stream created with cudaStreamNonBlocking, or compile with "
           "--default-stream per-thread";
}

/* The config struct's stream field, when 'arg' points to a launch configuration
 * (cudaLaunchKernelEx). Returns the field name (malloc'ed) or NULL. */
typedef struct stream_field {
    char *name;
} stream_field;

static enum CXVisitorResult find_stream_field(CXCursor c, CXClientData data)
{
    stream_field *f = data;
    /* cudaStream_t and CUstream are both 'struct CUstream_st *'. */
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    int is_stream = 0;
    if (t.kind == CXType_Pointer) {
        CXString ts = clang_getCursorSpelling(clang_getTypeDeclaration(clang_getPointeeType(t)));
        is_stream = strcmp(clang_getCString(ts), "CUstream_st") == 0;
        clang_disposeString(ts);
    }
    if (!is_stream)
        return CXVisit_Continue;
    CXString n = clang_getCursorSpelling(c);
    f->name = ss_strdup(clang_getCString(n));
    clang_disposeString(n);
    return CXVisit_Break;
}

static char *config_stream_field(CXCursor arg)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(ss_ast_strip(arg)));
    if (t.kind != CXType_Pointer)
        t = clang_getCanonicalType(clang_getCursorType(arg));
    if (t.kind != CXType_Pointer)
        return NULL;
    CXType record = clang_getCanonicalType(clang_getPointeeType(t));
    if (record.kind != CXType_Record)
        return NULL;
    stream_field f = {NULL};
    clang_Type_visitFields(record, find_stream_field, &f);
    return f.name;
}

/* Walking a translation unit for work on a stream other than the legacy one; 'ctx' is a copy
 * of the check context whose function follows the walk (for the reaching definitions). */
typedef struct stream_use_walk {
    ss_check_ctx ctx;
    int found;
} stream_use_walk;

/* Whether the stream argument 'arg' may be a stream other than the legacy default stream:
 * anything but an omitted stream, 0/NULL/nullptr and cudaStreamLegacy (or a variable that
 * always holds one of those). cudaStreamPerThread is another stream here: the legacy stream
 * synchronizes with it. */
static int other_stream_arg(ss_check_ctx *ctx, CXCursor arg)
{
    if (ss_check_is_omitted(arg))
        return 0;
    /* Not per-thread: a unit compiled per-thread counts as using other streams anyway. */
    return !ss_stream_is_legacy(classify(ctx, arg, 0), 0);
}

/* Whether 'call' creates a stream or passes a stream other than the legacy default stream
 * (a launch, a copy, an event record, ... on it). Work on the legacy stream itself, an
 * asynchronous copy on stream 0 included, is not: it runs in order with the legacy stream's
 * other work, which holds nothing else up. */
static int uses_other_stream(ss_check_ctx *ctx, CXCursor call)
{
    const ss_api *api = NULL;
    if (!ss_scope_is_launch(call)) {
        char *name = ss_scope_callee_name(call);
        api = name ? ss_api_find(name) : NULL;
        free(name);
        if (api == NULL)
            return 0;
        if (api->klass == SS_CLASS_STREAM_CREATE)
            return 1;
    }
    CXCursor arg = ss_check_stream_arg(call, api);
    return !ss_ast_is_null(arg) && other_stream_arg(ctx, arg);
}

static enum CXChildVisitResult find_stream_use(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_use_walk *w = data;
    if (ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c)) {
        CXCursor outer = w->ctx.function;
        w->ctx.function = c;
        clang_visitChildren(c, find_stream_use, w);
        w->ctx.function = outer;
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_CallExpr && uses_other_stream(&w->ctx, c)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the translation unit (outside system headers) creates a stream or passes a stream
 * other than the legacy default stream. A PyTorch extension counts as doing so (its caller's
 * streams are not in the unit), and so does a unit compiled with the per-thread default
 * stream (its default-stream work is on another stream than the legacy one). Computed once
 * per unit. */
static int unit_uses_streams(ss_check_ctx *ctx)
{
    if (ctx->stream_use == 0) {
        stream_use_walk w = {*ctx, 0};
        w.ctx.function = clang_getNullCursor();
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_stream_use, &w);
        ctx->stream_use = w.found || ctx->torch || ctx->per_thread ? 1 : 2;
    }
    return ctx->stream_use == 1;
}

/* Reports a SYNC101 or SYNC102 finding ('rule'): a warning where the unit uses another stream
 * that the legacy stream can hold up, else a note that says why. */
static void report_legacy(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message)
{
    if (unit_uses_streams(ctx)) {
        ss_check_report(ctx, rule, at, message, hint_for(ctx));
        return;
    }
    char *quiet = ss_asprintf("%s; nothing in this translation unit uses a stream other than "
                              "the legacy one, so it holds nothing up yet",
                              message);
    size_t before = ctx->result->count;
    ss_check_report(ctx, rule, at, quiet, hint_for(ctx));
    if (ctx->result->count > before)
        ctx->result->findings[ctx->result->count - 1].severity = SS_SEV_NOTE;
    free(quiet);
}

/* The stream of the launch configuration 'arg' ('&cfg', cudaLaunchKernelEx): its stream
 * field 'field', traced through the local struct's definitions that reach 'call'. '*text'
 * receives "cfg.field" (malloc'ed), or NULL when the text cannot be read. */
static ss_stream_value config_stream(ss_check_ctx *ctx, CXCursor call, CXCursor arg,
                                     const char *field, char **text)
{
    ss_location loc;
    CXCursor e = ss_ast_strip(arg);
    ss_stream_value v = SS_STREAM_UNKNOWN;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_location_of(e, field, &loc) == 0) {
        CXType vt = clang_getCanonicalType(clang_getCursorType(loc.var));
        if (vt.kind == CXType_Record)
            v = classify_location(ctx, &loc, call, 0);
        ss_location_free(&loc);
    }
    char *cfg = expr_text(ss_ast_child(e, 0));
    *text = cfg ? ss_asprintf("%s.%s", cfg, field) : NULL;
    free(cfg);
    return v;
}

/* SYNC101 and SYNC102 (checks.def): an API call ('api' is its row) whose stream argument is
 * the legacy default stream; SYNC101 for launches, graph launches and host functions, SYNC102
 * for the asynchronous classes. */
void ss_check_default_stream_call(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->stream_arg < 0)
        return;
    ss_rule_id rule = (api->klass == SS_CLASS_LAUNCH || api->klass == SS_CLASS_GRAPH_LAUNCH ||
                       api->klass == SS_CLASS_HOST_FUNC)
                          ? SS_RULE_DEFAULT_STREAM_LAUNCH
                          : SS_RULE_DEFAULT_STREAM_ASYNC_CALL;
    int nargs = clang_Cursor_getNumArguments(call);
    ss_stream_value v;
    int omitted = 0;
    char *text = NULL;
    if (nargs <= api->stream_arg) {
        if (!api->stream_opt)
            return; /* an incomplete call clang recovered from */
        omitted = 1;
        v = SS_STREAM_NULL;
    } else {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)api->stream_arg);
        char *field = config_stream_field(arg);
        if (field) {
            v = config_stream(ctx, call, arg, field, &text);
            free(field);
        } else if (ss_check_is_omitted(arg)) {
            omitted = 1;
            v = SS_STREAM_NULL;
        } else {
            v = classify(ctx, arg, 0);
            text = expr_text(arg);
        }
    }
    if (!ss_stream_is_legacy(v, ctx->per_thread)) {
        free(text);
        return;
    }
    char *at = ss_check_where(ctx);
    char *message;
    if (omitted)
        message = ss_asprintf("'%s' %s has no stream argument: it runs on the legacy default "
                              "stream",
                              api->name, at);
    else
        message = ss_asprintf("'%s' %s runs on the legacy default stream (stream '%s')", api->name,
                              at, text ? text : "...");
    report_legacy(ctx, rule, call, message);
    free(message);
    free(at);
    free(text);
}

/* The kernel's name at a launch: the callee expression's declaration name. */
static char *kernel_name(CXCursor launch)
{
    char *name = ss_scope_kernel_name(launch);
    return name ? name : ss_strdup("kernel");
}

/* SYNC101 (checks.def): a k<<<grid, block, shmem, stream>>>(...) launch ('launch'; 'api' is
 * NULL) on the legacy default stream. */
void ss_check_default_stream_launch(ss_check_ctx *ctx, CXCursor launch, const ss_api *api)
{
    CXCursor arg = ss_check_stream_arg(launch, NULL);
    int omitted = ss_ast_is_null(arg) || ss_check_is_omitted(arg);
    ss_stream_value v = SS_STREAM_NULL;
    char *text = NULL;
    if (!omitted) {
        v = classify(ctx, arg, 0);
        text = expr_text(arg);
    }
    if (!ss_stream_is_legacy(v, ctx->per_thread)) {
        free(text);
        return;
    }
    char *kernel = kernel_name(launch);
    char *at = ss_check_where(ctx);
    char *message;
    if (omitted)
        message = ss_asprintf("kernel '%s' is launched %s without a stream: it runs on the "
                              "legacy default stream",
                              kernel, at);
    else
        message = ss_asprintf("kernel '%s' is launched %s on the legacy default stream "
                              "(stream '%s')",
                              kernel, at, text ? text : "...");
    report_legacy(ctx, SS_RULE_DEFAULT_STREAM_LAUNCH, launch, message);
    free(message);
    free(kernel);
    free(at);
    free(text);
}
