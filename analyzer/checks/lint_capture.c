/* lint_capture.c: SYNC501, calls between cudaStreamBeginCapture and cudaStreamEndCapture that
 * invalidate or fail the stream capture. Tracked within one function, along straight-line
 * code and simple branches (docs/lint.md, "SYNC501"). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* cudaStreamCaptureMode (and CUstreamCaptureMode): the same values in both APIs. */
typedef enum capture_mode {
    MODE_UNKNOWN = -1,
    MODE_GLOBAL = 0,
    MODE_THREAD_LOCAL = 1,
    MODE_RELAXED = 2
} capture_mode;

/* One call in the function, with what decides whether it runs under the capture. */
typedef struct call_site {
    CXCursor call;
    unsigned offset;
    unsigned block_begin, block_end; /* the block it runs unconditionally in */
    unsigned conditional_depth;      /* if/switch/loop/?: around it within the function */
} call_site;

typedef struct call_list {
    call_site *v;
    size_t count, cap;
} call_list;

/* Walking the function: the stack of block and conditional ancestors. */
typedef struct site_walk {
    call_list *calls;
    unsigned block_begin, block_end;
    unsigned conditional_depth;
} site_walk;

static int is_conditional(enum CXCursorKind k)
{
    return k == CXCursor_IfStmt || k == CXCursor_SwitchStmt || k == CXCursor_ForStmt ||
           k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_CXXForRangeStmt ||
           k == CXCursor_ConditionalOperator || k == CXCursor_BinaryOperator ||
           k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt;
}

static enum CXChildVisitResult collect_sites(CXCursor c, CXCursor parent, CXClientData data)
{
    site_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue; /* its body runs when it is called, not here */
    if (k == CXCursor_CallExpr) {
        call_list *list = w->calls;
        if (list->count == list->cap) {
            list->cap = list->cap ? list->cap * 2 : 64;
            call_site *grown = ss_xreallocarray(list->v, list->cap, sizeof *grown);
            list->v = grown;
        }
        call_site *s = &list->v[list->count++];
        s->call = c;
        s->offset = ss_ast_offset(c);
        s->block_begin = w->block_begin;
        s->block_end = w->block_end;
        s->conditional_depth = w->conditional_depth;
    }
    /* '&&' and '||' evaluate their right side conditionally; other operators do not. */
    int conditional = is_conditional(k);
    if (k == CXCursor_BinaryOperator) {
        char op[8];
        conditional = ss_ast_binary_op(c, op, sizeof op) == 0 &&
                      (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0);
    }
    site_walk inner = *w;
    if (conditional) {
        inner.conditional_depth++;
        ss_ast_range(c, &inner.block_begin, &inner.block_end);
    } else if (k == CXCursor_CompoundStmt && is_conditional(clang_getCursorKind(parent))) {
        ss_ast_range(c, &inner.block_begin, &inner.block_end);
    }
    clang_visitChildren(c, collect_sites, &inner);
    return CXChildVisit_Continue;
}

/* The tokens of 'expr' joined without spaces ("streams[i]"), malloc'ed. */
static char *token_text(CXCursor expr)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(expr);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(expr), &tokens, &n);
    char *text = ss_xstrdup("");
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(tu, tokens[i]);
        char *joined = ss_xasprintf("%s%s", text, clang_getCString(s));
        clang_disposeString(s);
        free(text);
        text = joined;
    }
    if (tokens)
        clang_disposeTokens(tu, tokens, n);
    return text;
}

/* The stream argument of a capture call as text, malloc'ed, or NULL. */
static char *capture_stream(CXCursor call, const ss_api *api)
{
    if (api->stream_arg < 0 || clang_Cursor_getNumArguments(call) <= api->stream_arg)
        return NULL;
    return token_text(clang_Cursor_getArgument(call, (unsigned)api->stream_arg));
}

static capture_mode mode_of(CXCursor call, const ss_api *api)
{
    long long value;
    if (api->flags_arg < 0 || clang_Cursor_getNumArguments(call) <= api->flags_arg)
        return MODE_GLOBAL;
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)api->flags_arg);
    if (ss_ast_eval_int(ss_ast_strip(arg), &value) != 0 || value < 0 || value > 2)
        return MODE_UNKNOWN;
    return (capture_mode)value;
}

static const char *mode_words(capture_mode mode)
{
    switch (mode) {
    case MODE_GLOBAL:
        return "global capture mode";
    case MODE_THREAD_LOCAL:
        return "thread-local capture mode";
    case MODE_RELAXED:
        return "relaxed capture mode";
    default:
        return "capture mode not known here";
    }
}

/* Whether the stream argument of 'call' (a launch, or a call of 'api') is the legacy default
 * stream: omitted (where it may be), or the constant 0 or cudaStreamLegacy (only
 * cudaStreamLegacy when the default stream is per-thread). */
static int legacy_stream_arg(const ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    CXCursor arg = ss_check_stream_arg(call, api);
    ss_stream_value v;
    if (ss_ast_is_null(arg))
        v = api == NULL || api->stream_opt ? SS_STREAM_NULL : SS_STREAM_UNKNOWN;
    else
        v = ss_check_is_omitted(arg) ? SS_STREAM_NULL : ss_stream_constant(arg);
    return ss_stream_is_legacy(v, ctx->per_thread);
}

/* What is wrong with 'call' under a capture in 'mode', as the message's reason, or NULL. */
static const char *unsafe_reason(const ss_check_ctx *ctx, CXCursor call, capture_mode mode,
                                 char **name)
{
    *name = NULL;
    if (ss_scope_is_launch(call)) {
        if (mode != MODE_RELAXED && mode != MODE_UNKNOWN && legacy_stream_arg(ctx, call, NULL)) {
            *name = ss_scope_kernel_name(call);
            return "launches a kernel on the legacy default stream, which joins the capturing "
                   "stream";
        }
        return NULL;
    }
    char *callee = ss_ast_callee_name(call);
    const ss_api *api = callee ? ss_api_find(callee) : NULL;
    free(callee);
    if (api == NULL)
        return NULL;
    const char *reason = NULL;
    switch (api->klass) {
    case SS_CLASS_STREAM_SYNC:
    case SS_CLASS_DEVICE_SYNC:
    case SS_CLASS_EVENT_SYNC:
        reason = "waits for work that is being captured, not run";
        break;
    case SS_CLASS_QUERY:
        reason = "queries work that is being captured, which is not allowed during capture";
        break;
    case SS_CLASS_COPY:
    case SS_CLASS_MEMSET:
        if (api->sync == SS_SYNC_ALWAYS)
            reason = "is synchronous: it runs on the legacy default stream and waits for it";
        break;
    case SS_CLASS_ALLOC:
    case SS_CLASS_FREE:
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_HOST_FREE:
        if (api->sync == SS_SYNC_DEVICE && (mode == MODE_GLOBAL || mode == MODE_THREAD_LOCAL))
            reason = "may synchronize the device, which this capture mode forbids";
        break;
    default:
        break;
    }
    if (reason == NULL && ss_api_enqueues(api) && api->stream_arg >= 0 &&
        (mode == MODE_GLOBAL || mode == MODE_THREAD_LOCAL) && legacy_stream_arg(ctx, call, api))
        reason = "enqueues work on the legacy default stream, which joins the capturing stream";
    if (reason)
        *name = ss_xstrdup(api->name);
    return reason;
}

static const char *hint_for(CXCursor call, capture_mode mode)
{
    char *callee = ss_ast_callee_name(call);
    const ss_api *api = callee && !ss_scope_is_launch(call) ? ss_api_find(callee) : NULL;
    free(callee);
    if (api == NULL || api->klass == SS_CLASS_LAUNCH)
        return "launch on the capturing stream (or a non-blocking stream joined to it with "
               "events) while it is being captured";
    if (api->api == SS_API_cudaFreeArray && (mode == MODE_THREAD_LOCAL || mode == MODE_GLOBAL))
        return "free the array after cudaStreamEndCapture (after the graph's last launch): CUDA "
               "arrays have no stream-ordered free that a capture could record";
    switch (api->klass) {
    case SS_CLASS_STREAM_SYNC:
    case SS_CLASS_DEVICE_SYNC:
    case SS_CLASS_EVENT_SYNC:
    case SS_CLASS_QUERY:
        return "synchronize after cudaStreamEndCapture (on the graph launch), not inside the "
               "captured region";
    case SS_CLASS_COPY:
    case SS_CLASS_MEMSET:
        return "use the Async variant on the capturing stream so that the copy becomes a graph "
               "node";
    case SS_CLASS_ALLOC:
    case SS_CLASS_FREE:
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_HOST_FREE:
        return mode == MODE_THREAD_LOCAL || mode == MODE_GLOBAL
                   ? "allocate before cudaStreamBeginCapture, or use cudaMallocAsync / "
                     "cudaFreeAsync on the capturing stream (they become graph nodes)"
                   : NULL;
    default:
        return "pass the capturing stream instead of the legacy default stream";
    }
}

/* The block a site runs unconditionally in contains 'offset'. */
static int block_contains(const call_site *s, unsigned offset)
{
    return offset >= s->block_begin && offset < s->block_end;
}

/* How many EndCapture calls of one stream are looked at. */
enum { MAX_ENDS = 64 };

/* One capture being followed: its BeginCapture, stream and mode, the calls of the function
 * around it, and the EndCapture calls of the same stream after it. */
typedef struct capture {
    CXCursor begin_call;
    const char *stream;
    capture_mode mode;
    call_list calls;
    const call_site *begin; /* the BeginCapture among 'calls' */
    const call_site *ends[MAX_ENDS];
    size_t end_count;
} capture;

/* Collects the EndCapture calls of the capture's stream after its BeginCapture. */
static void find_ends(capture *cap)
{
    for (size_t i = 0; i < cap->calls.count; i++) {
        const call_site *s = &cap->calls.v[i];
        if (s->offset <= cap->begin->offset || clang_getCursorKind(s->call) != CXCursor_CallExpr)
            continue;
        char *callee = ss_ast_callee_name(s->call);
        const ss_api *other = callee ? ss_api_find(callee) : NULL;
        free(callee);
        if (other && other->klass == SS_CLASS_CAPTURE_END && cap->end_count < MAX_ENDS) {
            char *end_stream = capture_stream(s->call, other);
            if (end_stream && strcmp(end_stream, cap->stream) == 0)
                cap->ends[cap->end_count++] = s;
            free(end_stream);
        }
    }
}

/* Whether the capture has ended for the later call at 's': at an EndCapture of the same
 * stream that runs whenever that call runs (its block holds the call), or that is no more
 * conditional than the BeginCapture itself. */
static int capture_ended(const capture *cap, const call_site *s)
{
    for (size_t k = 0; k < cap->end_count; k++) {
        const call_site *e = cap->ends[k];
        if (e->offset <= s->offset &&
            (block_contains(e, s->offset) || e->conditional_depth <= cap->begin->conditional_depth))
            return 1;
    }
    return 0;
}

/* Reports the call at 's' when it is unsafe under the capture. */
static void check_site(ss_check_ctx *ctx, const capture *cap, const call_site *s)
{
    char *name = NULL;
    const char *reason = unsafe_reason(ctx, s->call, cap->mode, &name);
    if (reason) {
        char *at = ss_check_where(ctx);
        char *message = ss_xasprintf("'%s' %s is called while stream '%s' is being captured "
                                     "(cudaStreamBeginCapture at line %u, %s): it %s, so the "
                                     "capture fails or is invalidated",
                                     name ? name : "?", at, cap->stream,
                                     ss_scope_line(cap->begin_call), mode_words(cap->mode), reason);
        ss_check_report(ctx, SS_RULE_CAPTURE_UNSAFE_CALL, s->call, message,
                        hint_for(s->call, cap->mode));
        free(message);
        free(at);
    }
    free(name);
}

/* SYNC501 (checks.def): at a cudaStreamBeginCapture 'call', the capture-unsafe calls before
 * the matching EndCapture in the same function. */
void ss_check_capture(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->klass != SS_CLASS_CAPTURE_BEGIN || ss_ast_is_null(ctx->function))
        return;
    char *stream = capture_stream(call, api);
    if (stream == NULL)
        return;
    capture cap;
    memset(&cap, 0, sizeof cap);
    cap.begin_call = call;
    cap.stream = stream;
    cap.mode = mode_of(call, api);
    site_walk w = {&cap.calls, 0, 0, 0};
    ss_ast_range(ctx->function, &w.block_begin, &w.block_end);
    clang_visitChildren(ctx->function, collect_sites, &w);
    unsigned begin_offset = ss_ast_offset(call);
    for (size_t i = 0; i < cap.calls.count && cap.begin == NULL; i++) {
        if (cap.calls.v[i].offset == begin_offset)
            cap.begin = &cap.calls.v[i];
    }
    if (cap.begin)
        find_ends(&cap);
    for (size_t i = 0; cap.begin && i < cap.calls.count; i++) {
        const call_site *s = &cap.calls.v[i];
        if (s->offset > begin_offset && !capture_ended(&cap, s))
            check_site(ctx, &cap, s);
    }
    free(cap.calls.v);
    free(stream);
}
