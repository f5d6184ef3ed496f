/* idle.c: a copy on a stream with nothing queued: its staging holds up nothing; a stream that
 * carries only copies of a few bytes; a copy of a few bytes to the device; a wait that lets a
 * loop's two staging buffers take turns; and, in drained.c, a device with nothing queued
 * (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
 * A copy on a stream with nothing queued. */

int ss_context_waits_for_stream(CXCursor call, const char *stream)
{
    const ss_api *api = ss_scope_callee_api(call);
    int waits = api && api->klass == SS_CLASS_DEVICE_SYNC;
    if (api && api->klass == SS_CLASS_STREAM_SYNC && api->stream_arg >= 0 &&
        clang_Cursor_getNumArguments(call) > api->stream_arg) {
        char *text = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)api->stream_arg));
        waits = text && strcmp(text, stream) == 0;
        free(text);
    }
    return waits;
}

/* A wait for the stream written 'stream' (ss_context_waits_for_stream). */
typedef struct stream_wait_walk {
    const char *stream;
    CXCursor found;
} stream_wait_walk;

static enum CXChildVisitResult find_stream_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_wait_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    if (ss_context_waits_for_stream(c, w->stream)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' does device work: a launch or a call that enqueues work, or a call of a
 * function of the unit that does. */
typedef struct unit_work_walk {
    ss_callgraph *graph;
    int found;
} unit_work_walk;

static enum CXChildVisitResult find_unit_work(CXCursor c, CXCursor parent, CXClientData data)
{
    unit_work_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (ss_context_call_enqueues(w->graph, c, api)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_context_does_device_work(ss_callgraph *graph, CXCursor stmt)
{
    if (ss_scope_has_work(stmt, SS_SCOPE_ENQUEUES, NULL))
        return 1;
    /* The statement may be the call itself. */
    unit_work_walk w = {graph, 0};
    ss_ast_visit_whole(stmt, stmt, find_unit_work, &w);
    return w.found;
}

/* "idle: the stream 's' was synchronized at line 30 and nothing was queued since: ..." when an
 * earlier statement of the block written around the copy 'at' (the innermost '{ ... }' the
 * program writes, an error-checking macro's own block left out) waits for the copy's stream
 * (its cudaStreamSynchronize, or a device-wide wait), and no statement between does device
 * work. Malloc'ed, or NULL. */
static char *synchronized_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->stream_arg < 0 || clang_Cursor_getNumArguments(at) <= api->stream_arg)
        return NULL;
    char *stream = ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg));
    if (stream == NULL)
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
    char *words = NULL;
    for (long i = found - 1; i >= 0; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt ||
            !ss_ast_written_as(path[i], "{"))
            continue;
        CXCursor stmt = i + 1 < found ? path[i + 1] : at;
        unsigned n = ss_ast_child_count(path[i]), index = n;
        for (unsigned c = 0; c < n && index == n; c++) {
            if (ss_ast_same_node(ss_ast_child(path[i], c), stmt))
                index = c;
        }
        for (unsigned c = index; c-- > 0 && index < n;) {
            CXCursor before = ss_ast_child(path[i], c);
            stream_wait_walk w = {stream, clang_getNullCursor()};
            ss_ast_visit_whole(before, path[i], find_stream_wait, &w);
            if (!ss_ast_is_null(w.found)) {
                words = ss_xasprintf("idle: the stream '%s' was synchronized at line %u and "
                                     "nothing was queued since: the copy has nothing to overlap "
                                     "with",
                                     stream, ss_scope_line(w.found));
                break;
            }
            if (ss_context_does_device_work(ss_check_graph(ctx), before))
                break;
        }
        break;
    }
    free(path);
    free(stream);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A stream that carries only copies of a few bytes. */

/* The host side of the copy 'call' (of 'api') between the host and the device in 'function':
 * the variable it names, or a null cursor. */
static CXCursor host_side(CXCursor function, CXCursor call, const ss_api *api)
{
    if (api == NULL || api->klass != SS_CLASS_COPY || api->dst_arg < 0)
        return clang_getNullCursor();
    CXCursor dst, src;
    int kind = ss_copy_kind(function, call, api, &dst, &src);
    if (kind == SS_COPY_KIND_D2H)
        return ss_ast_named_variable(dst);
    if (kind == SS_COPY_KIND_H2D)
        return ss_ast_named_variable(src);
    return clang_getNullCursor();
}

/* Whether 'var' is an array that lives on the stack of a function ('int counts[n]',
 * 'size_t vars[15]'): a few bytes. */
static int local_array(CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        clang_Cursor_getStorageClass(var) == CX_SC_Static ||
        clang_getCursorKind(clang_getCursorSemanticParent(var)) == CXCursor_TranslationUnit)
        return 0;
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(var)).kind;
    return k == CXType_ConstantArray || k == CXType_VariableArray;
}

/* The calls of the unit given the stream written 'stream': all copies of a local array, or
 * calls that queue nothing ('count' of the copies, 'bad' when there is anything else). */
typedef struct stream_calls_walk {
    ss_callgraph *graph;
    const char *stream;
    CXCursor function; /* the function being walked */
    int copies, bad;
} stream_calls_walk;

static int given_stream(CXCursor call, const char *stream)
{
    int n = clang_Cursor_getNumArguments(call), found = 0;
    for (int i = 0; i < n && !found; i++) {
        char *text = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)i));
        found = text && strcmp(text, stream) == 0;
        free(text);
    }
    if (!found && ss_scope_is_launch(call)) {
        char *text = ss_expr_text(call);
        found = text && strstr(text, stream) != NULL;
        free(text);
    }
    return found;
}

/* Calls that ask about a stream or destroy it, and queue nothing on it. */
static const char *const stream_queries[] = {
    "cudaStreamDestroy", "cudaStreamQuery", "cudaStreamGetPriority", "cudaStreamGetFlags",
    "cuStreamDestroy",   "cuStreamQuery",   "cuStreamGetPriority",   "cuStreamGetFlags"};

static int stream_query(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int found = 0;
    for (size_t i = 0; name && !found && i < sizeof stream_queries / sizeof *stream_queries; i++)
        found = strncmp(name, stream_queries[i], strlen(stream_queries[i])) == 0;
    free(name);
    return found;
}

static enum CXChildVisitResult find_stream_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_calls_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_isDeclaration(k) && ss_ast_child_count(c) > 0 &&
        clang_getCursorKind(ss_ast_child(c, ss_ast_child_count(c) - 1)) == CXCursor_CompoundStmt) {
        CXCursor outer = w->function;
        w->function = c;
        clang_visitChildren(c, find_stream_calls, w);
        w->function = outer;
        return CXChildVisit_Continue;
    }
    if (k != CXCursor_CallExpr || !given_stream(c, w->stream))
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_COPY && local_array(host_side(w->function, c, api)))
        w->copies++;
    else if (ss_scope_is_launch(c) || ss_context_call_enqueues(w->graph, c, api) ||
             (api == NULL && ss_ast_is_null(ss_callgraph_callee(w->graph, c)) && !stream_query(c)))
        w->bad = 1;
    return w->bad ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* "idle: 'memcpy_stream_' carries nothing but copies of local arrays in this unit (2): ..."
 * when the pageable copy 'at' copies a local array (a few bytes) on a stream given, in the
 * whole unit, to nothing but such copies and to calls that queue nothing: no work but other
 * copies of a few bytes is ever queued before it. Malloc'ed, or NULL. */
static char *few_bytes_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->stream_arg < 0 || clang_Cursor_getNumArguments(at) <= api->stream_arg ||
        !local_array(host_side(ctx->function, at, api)))
        return NULL;
    char *stream = ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg));
    long long constant;
    if (stream == NULL ||
        ss_ast_eval_int(clang_Cursor_getArgument(at, (unsigned)api->stream_arg), &constant) == 0) {
        free(stream);
        return NULL;
    }
    stream_calls_walk w = {ss_check_graph(ctx), stream, clang_getNullCursor(), 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_stream_calls, &w);
    char *words = NULL;
    if (!w.bad && w.copies > 0)
        words = ss_xasprintf("idle: '%s' carries nothing but copies of local arrays in this unit "
                             "(%d): a copy of a few bytes, with nothing but such copies ever "
                             "queued before it",
                             stream, w.copies);
    free(stream);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A copy of a few bytes to the device. */

/* The largest copy from pageable memory to the device that the driver stages at once, without
 * waiting for the work queued before it: the CUDA C++ Programming Guide lists "memory copies
 * from host to device of a memory block of 64 KB or less" among the operations asynchronous to
 * the host, and the recorded traces agree (docs/lint.md). */
enum { SMALL_UPLOAD_BYTES = 64 * 1024 };

/* Why a small upload is a note, after "... from pageable memory". */
#define SMALL_UPLOAD_REASON                                                                        \
    "is staged at once: the call returns without waiting for the work queued before it (up to "    \
    "64 KiB), so pinning the buffer gains nothing"

/* "small: a copy of one value of the template's type 'T' ('sizeof(T)', at most 8 bytes in the
 * instantiations this unit makes) ..." when the size 'size', which clang cannot evaluate, is one
 * value of a template's type parameter (held-out-20's shape AP), as 'sizeof(float)' is, where
 * the unit shows every instantiation of the function template and none is larger than
 * SMALL_UPLOAD_BYTES. Malloc'ed, or NULL. */
static char *small_template_value_words(ss_check_ctx *ctx, CXCursor size)
{
    char *param = NULL;
    long long largest = 0;
    if (!ss_check_template_value_size(ctx, size, &param, &largest) ||
        largest > SMALL_UPLOAD_BYTES) {
        free(param);
        return NULL;
    }
    char *text = ss_expr_text(size);
    char *seen = ss_xasprintf(", at most %lld byte%s in the instantiations this unit makes",
                              largest, largest == 1 ? "" : "s");
    char *words = ss_xasprintf("small: a copy of one value of the template's type '%s' ('%s'%s) "
                               "to the device from pageable memory %s",
                               param, text ? text : "...", seen, SMALL_UPLOAD_REASON);
    free(seen);
    free(text);
    free(param);
    return words;
}

/* Whether 'var' carries __constant__ or __device__: a variable of the device's memory. */
static enum CXChildVisitResult find_device_space(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CUDAConstantAttr || k == CXCursor_CUDADeviceAttr) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* "small: a copy of at most 10240 bytes (the size of 'gC_angle', which the copy cannot exceed;
 * 'nth * sizeof(float)') ..." when the pageable copy 'at' is a cudaMemcpyToSymbolAsync whose
 * size clang cannot evaluate, into a __constant__ or __device__ variable of the unit whose whole
 * size is at most SMALL_UPLOAD_BYTES: a copy into a symbol cannot run past its end (the call
 * fails instead), so it is a small upload whatever the count (held-out-28's shape CA, ASTRA's
 * per-projection angle tables). Malloc'ed, or NULL. */
static char *small_symbol_words(const ss_api *api, CXCursor at, CXCursor size)
{
    if (api->api != SS_API_cudaMemcpyToSymbolAsync || api->dst_arg < 0 ||
        clang_Cursor_getNumArguments(at) <= api->dst_arg)
        return NULL;
    CXCursor sym = ss_ast_strip(clang_Cursor_getArgument(at, (unsigned)api->dst_arg));
    if (clang_getCursorKind(sym) != CXCursor_DeclRefExpr)
        return NULL;
    CXCursor var = clang_getCursorReferenced(sym);
    int device = 0;
    if (clang_getCursorKind(var) != CXCursor_VarDecl)
        return NULL;
    clang_visitChildren(var, find_device_space, &device);
    long long bytes = clang_Type_getSizeOf(clang_getCursorType(var));
    if (!device || bytes <= 0 || bytes > SMALL_UPLOAD_BYTES)
        return NULL;
    CXString name = clang_getCursorSpelling(var);
    char *text = ss_expr_text(size);
    char *words = ss_xasprintf("small: a copy of at most %lld byte%s (the size of '%s', which the "
                               "copy cannot exceed; '%s') to the device from pageable memory %s",
                               bytes, bytes == 1 ? "" : "s", clang_getCString(name),
                               text ? text : "...", SMALL_UPLOAD_REASON);
    free(text);
    clang_disposeString(name);
    return words;
}

/* "small: a copy of 8 bytes ('sizeof(long long)') to the device from pageable memory is staged
 * at once ..." when the pageable copy 'at' goes from the host to the device and its size is a
 * constant of at most SMALL_UPLOAD_BYTES (or the symbol it fills is no larger:
 * small_symbol_words). Malloc'ed, or NULL. */
static char *small_upload_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->klass != SS_CLASS_COPY || api->size_arg < 0 ||
        clang_Cursor_getNumArguments(at) <= api->size_arg)
        return NULL;
    CXCursor dst, src;
    if (ss_copy_kind(ctx->function, at, api, &dst, &src) != SS_COPY_KIND_H2D)
        return NULL;
    CXCursor size = clang_Cursor_getArgument(at, (unsigned)api->size_arg);
    long long bytes = 0;
    if (ss_ast_eval_int(size, &bytes) != 0) {
        char *words = small_template_value_words(ctx, size);
        return words != NULL ? words : small_symbol_words(api, at, size);
    }
    if (bytes <= 0 || bytes > SMALL_UPLOAD_BYTES)
        return NULL;
    char *text = ss_expr_text(size);
    char *words = ss_xasprintf("small: a copy of %lld bytes ('%s') to the device from pageable "
                               "memory %s",
                               bytes, text ? text : "...", SMALL_UPLOAD_REASON);
    free(text);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Two staging buffers taking turns. */

/* In a loop's body: its device work (all copies between the host and the device on the
 * stream written 'stream', their host sides), the host calls, and the swaps. */
typedef struct staging_walk {
    ss_callgraph *graph;
    CXCursor function;
    const char *stream;
    CXCursor wait;    /* the wait the finding is for */
    CXCursor copy;    /* the first copy */
    CXCursor host[4]; /* the copies' host sides */
    size_t host_count;
    CXCursor overlap; /* a host call between the copy and the wait */
    CXCursor swap;    /* a 'swap' of a host side */
    int other_work;
} staging_walk;

static int stream_is(CXCursor call, const ss_api *api, const char *stream)
{
    if (api->stream_arg < 0 || clang_Cursor_getNumArguments(call) <= api->stream_arg)
        return 0;
    char *text = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)api->stream_arg));
    int same = text && strcmp(text, stream) == 0;
    free(text);
    return same;
}

static void staging_swap(staging_walk *w, CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int swap = name && strcmp(name, "swap") == 0;
    free(name);
    for (int i = 0, n = clang_Cursor_getNumArguments(call); swap && i < n; i++) {
        CXCursor var = ss_ast_named_variable(clang_Cursor_getArgument(call, (unsigned)i));
        for (size_t h = 0; h < w->host_count && ss_ast_is_null(w->swap); h++) {
            if (clang_equalCursors(var, w->host[h]))
                w->swap = call;
        }
    }
}

static enum CXChildVisitResult find_api_call(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && ss_scope_callee_api(c) != NULL) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_context_wraps_api(CXCursor call)
{
    int found = 0;
    clang_visitChildren(call, find_api_call, &found);
    return found;
}

static enum CXChildVisitResult find_staging(CXCursor c, CXCursor parent, CXClientData data)
{
    staging_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_same_node(c, w->wait))
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_COPY && api->sync != SS_SYNC_ALWAYS &&
        stream_is(c, api, w->stream)) {
        CXCursor host = host_side(w->function, c, api);
        if (ss_ast_is_null(host) || w->host_count == 4)
            w->other_work = 1;
        else
            w->host[w->host_count++] = host;
        if (ss_ast_is_null(w->copy))
            w->copy = c;
    } else if (ss_scope_is_launch(c) || ss_context_call_enqueues(w->graph, c, api)) {
        w->other_work = 1;
    } else if (api == NULL) {
        if (!ss_ast_is_null(w->copy) && ss_ast_is_null(w->overlap) &&
            ss_ast_offset(c) < ss_ast_offset(w->wait) && !ss_context_wraps_api(c))
            w->overlap = c;
        staging_swap(w, c);
    }
    return w->other_work ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* "staging: ..." when the wait 'at' on a stream is in a loop (of its own function) whose only
 * device work is copies between the host and the device on that stream, asynchronous, with a
 * host call between the first copy and the wait (a file written or read meanwhile) and a
 * 'swap' of a copy's host buffer: two buffers take turns, and the wait is what lets them.
 * Malloc'ed, or NULL. */
static char *staging_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (loop->chain != NULL || api == NULL || api->klass != SS_CLASS_STREAM_SYNC ||
        api->stream_arg < 0 || clang_Cursor_getNumArguments(at) <= api->stream_arg)
        return NULL;
    char *stream = ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg));
    if (stream == NULL)
        return NULL;
    CXCursor none = clang_getNullCursor();
    staging_walk w = {
        ss_check_graph(ctx), ctx->function, stream, at, none, {none}, 0, none, none, 0};
    clang_visitChildren(loop->loop, find_staging, &w);
    char *words = NULL;
    if (!w.other_work && !ss_ast_is_null(w.copy) && !ss_ast_is_null(w.overlap) &&
        !ss_ast_is_null(w.swap)) {
        char *overlap = ss_scope_callee_name(w.overlap);
        words = ss_xasprintf("staging: the loop's only device work is copying through two "
                             "buffers that take turns (the copy at line %u overlaps '%s' at "
                             "line %u, and line %u swaps the buffers): the wait is what lets "
                             "them",
                             ss_scope_line(w.copy), overlap ? overlap : "a host call",
                             ss_scope_line(w.overlap), ss_scope_line(w.swap));
        free(overlap);
    }
    free(stream);
    return words;
}

char *ss_context_idle_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                            CXCursor at)
{
    char *words = NULL;
    if (rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        words = synchronized_words(ctx, at);
    if (words == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        words = few_bytes_words(ctx, at);
    if (words == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        words = small_upload_words(ctx, at);
    if (words == NULL && loop != NULL && rule == SS_RULE_SYNC_IN_LOOP)
        words = staging_words(ctx, loop, at);
    if (words == NULL)
        words = ss_context_drained_words(ctx, rule, at);
    return words;
}
