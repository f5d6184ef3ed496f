/* wait_ahead.c: a pageable copy after which the host only queues device work until it waits
 * for the copy's stream anyway: its staging holds up nothing the host could do meanwhile
 * (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many statements after the copy are searched, how many calls of the unit's functions
 * deep, and how many events recorded on the stream are remembered. */
enum { MAX_AHEAD = 16, MAX_DEPTH = 3, MAX_EVENTS = 4 };

/* Where the walk of the statements after the copy stands. */
typedef enum { AHEAD_QUEUED, AHEAD_WAITED, AHEAD_HOST } ahead_state;

typedef struct ahead_walk {
    ss_callgraph *graph;
    CXCursor function;  /* the function whose statements are walked (copy kinds) */
    const char *stream; /* the copy's stream as written there; "" where it has no name there */
    char *events[MAX_EVENTS]; /* events recorded on the stream since the copy, as written */
    size_t event_count;
    int depth;       /* calls of the unit's functions entered */
    int conditional; /* inside a branch: a wait there is not a wait on every way */
    ahead_state state;
    CXCursor wait; /* the wait reached */
    CXCursor via;  /* the call of the copy's function's own statement that holds it, or null */
} ahead_walk;

static void walk(ahead_walk *w, CXCursor c);

static void walk_children(ahead_walk *w, CXCursor c, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to && w->state == AHEAD_QUEUED; i++)
        walk(w, ss_ast_child(c, i));
}

/* Library functions that cost the host nothing worth overlapping: a launch's dimensions, a
 * container's size or storage, arithmetic, an element access, the error of the last launch. */
static const char *const cheap_calls[] = {"dim3", "size", "data",  "empty", "get",    "min",
                                          "max",  "ceil", "ceilf", "floor", "floorf", "fmin",
                                          "fmax", "abs",  "sqrt",  "sqrtf"};
static const char *const cheap_others[] = {"operator[]", "operator->", "operator*",
                                           "cudaGetLastError", "cudaPeekAtLastError"};

static int names_one(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; name && i < count; i++) {
        if (strcmp(name, names[i]) == 0)
            return 1;
    }
    return 0;
}

static int is_cheap(CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    if (ss_ast_is_null(callee))
        return 0;
    CXString name = clang_getCursorSpelling(callee);
    const char *text = clang_getCString(name);
    int cheap = names_one(text, cheap_calls, sizeof cheap_calls / sizeof cheap_calls[0]) ||
                names_one(text, cheap_others, sizeof cheap_others / sizeof cheap_others[0]);
    /* The CUDA runtime's own are named so wherever they are declared. */
    cheap = cheap && (strncmp(text, "cuda", 4) == 0 || ss_ast_in_system_header(callee));
    clang_disposeString(name);
    return cheap;
}

static char *stream_text(CXCursor call, const ss_api *api)
{
    if (api->stream_arg < 0 || clang_Cursor_getNumArguments(call) <= api->stream_arg)
        return ss_xstrdup("0");
    return ss_expr_text(clang_Cursor_getArgument(call, (unsigned)api->stream_arg));
}

/* Whether the work 'call' queues ('api' its row, NULL for a launch) goes to the copy's stream as
 * written (a launch without one: the legacy stream, '0'). Work on another stream could have
 * started while a pinned copy ran, where the staging holds it back. */
static int on_stream(const ahead_walk *w, CXCursor call, const ss_api *api)
{
    CXCursor arg = ss_check_stream_arg(call, api);
    char *text = ss_ast_is_null(arg) ? ss_xstrdup("0") : ss_expr_text(arg);
    int same = text && strcmp(text, w->stream) == 0;
    free(text);
    return same;
}

/* Whether the API call 'call' ('api') only queues work on the copy's stream: a memset, a
 * stream-ordered allocation, a copy that stages nothing from the host (device to device, or to
 * the host: it queues, or it waits for the stream, as the host does anyway, before it copies out
 * of its staging); an event record or a stream's wait for an event on any stream. */
static int only_queues(ahead_walk *w, CXCursor call, const ss_api *api)
{
    if (!ss_api_enqueues(api))
        return 0;
    if (api->klass == SS_CLASS_EVENT_RECORD || api->klass == SS_CLASS_STREAM_WAIT)
        return 1;
    if (!on_stream(w, call, api))
        return 0;
    if (api->klass != SS_CLASS_COPY)
        return 1;
    CXCursor dst, src;
    int kind = ss_copy_kind(w->function, call, api, &dst, &src);
    return kind == SS_COPY_KIND_D2D || kind == SS_COPY_KIND_D2H;
}

/* An event record: on the stream and run on every way, the event stands for the stream so far;
 * anywhere else, a wait for the event no longer waits for the copy. */
static void record(ahead_walk *w, CXCursor call, const ss_api *api, const char *event)
{
    for (size_t e = 0; event && e < w->event_count; e++) {
        if (strcmp(event, w->events[e]) == 0) {
            free(w->events[e]);
            w->events[e] = w->events[--w->event_count];
            break;
        }
    }
    char *stream = stream_text(call, api);
    if (!w->conditional && event && stream && strcmp(stream, w->stream) == 0 &&
        w->event_count < MAX_EVENTS)
        w->events[w->event_count++] = ss_xstrdup(event);
    free(stream);
}

/* An event record on the stream, or a wait for it, for the stream or the device. */
static void api_call(ahead_walk *w, CXCursor call, const ss_api *api)
{
    int arg_count = clang_Cursor_getNumArguments(call);
    char *event = arg_count > 0 ? ss_expr_text(clang_Cursor_getArgument(call, 0)) : NULL;
    if (api->klass == SS_CLASS_EVENT_RECORD) {
        record(w, call, api, event);
    } else if (api->klass == SS_CLASS_EVENT_SYNC) {
        for (size_t e = 0; event && e < w->event_count && !w->conditional; e++) {
            if (strcmp(event, w->events[e]) == 0)
                w->state = AHEAD_WAITED;
        }
    } else if (api->klass == SS_CLASS_STREAM_SYNC || api->klass == SS_CLASS_DEVICE_SYNC) {
        if (!w->conditional && ss_context_waits_for_stream(call, w->stream))
            w->state = AHEAD_WAITED;
    } else if (!only_queues(w, call, api)) {
        w->state = AHEAD_HOST;
    }
    free(event);
    if (w->state == AHEAD_WAITED)
        w->wait = call;
}

/* The stream as the function 'callee' names it when 'call' calls it: the parameter given it, or
 * the same words for a default stream; "" when it has no name there. Malloc'ed. */
static char *stream_in_callee(const ahead_walk *w, CXCursor call, CXCursor callee)
{
    static const char *const constant[] = {"0", "NULL", "nullptr", "cudaStreamPerThread",
                                           "cudaStreamLegacy"};
    for (size_t i = 0; i < sizeof constant / sizeof constant[0]; i++) {
        if (strcmp(w->stream, constant[i]) == 0)
            return ss_xstrdup(w->stream);
    }
    int args = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < args && i < clang_Cursor_getNumArguments(callee); i++) {
        char *text = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)i));
        int same = text && strcmp(text, w->stream) == 0;
        free(text);
        if (same) {
            CXString name = clang_getCursorSpelling(clang_Cursor_getArgument(callee, (unsigned)i));
            char *param = ss_xstrdup(clang_getCString(name));
            clang_disposeString(name);
            return param;
        }
    }
    return ss_xstrdup("");
}

/* Whether 'stmt' is the last statement of the body of 'function'. */
static int last_of_body(CXCursor function, CXCursor stmt)
{
    unsigned n = ss_ast_child_count(function);
    CXCursor body = n > 0 ? ss_ast_child(function, n - 1) : clang_getNullCursor();
    unsigned count = ss_ast_child_count(body);
    return clang_getCursorKind(body) == CXCursor_CompoundStmt && count > 0 &&
           ss_ast_same_node(ss_ast_child(body, count - 1), stmt);
}

/* A call of a function of the unit: walked in turn, its stream named as it names it, its
 * initializers (a constructor's) and its body; a 'return' only as its last statement. */
static void unit_call(ahead_walk *w, CXCursor call, CXCursor callee)
{
    if (w->depth >= MAX_DEPTH) {
        w->state = AHEAD_HOST;
        return;
    }
    char *stream = stream_in_callee(w, call, callee);
    ahead_walk inner = *w;
    inner.function = callee;
    inner.stream = stream;
    inner.event_count = 0;
    inner.depth = w->depth + 1;
    walk_children(&inner, callee, 0, ss_ast_child_count(callee));
    free(stream);
    for (size_t e = 0; e < inner.event_count; e++)
        free(inner.events[e]);
    w->state = inner.state;
    if (inner.state == AHEAD_WAITED) {
        w->wait = inner.wait;
        if (w->depth == 0)
            w->via = call;
    }
}

/* Whether 'call' is an error-checking wrapper: its first argument is a call of the CUDA runtime
 * or driver ('check(cudaStreamSynchronize(s), ...)'), whose body handles a failure. */
static int is_error_wrapper(CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) < 1)
        return 0;
    CXCursor first = ss_ast_strip(clang_Cursor_getArgument(call, 0));
    if (clang_getCursorKind(first) != CXCursor_CallExpr)
        return 0;
    char *name = ss_scope_callee_name(first);
    int cuda = name && (strncmp(name, "cuda", 4) == 0 ||
                        (strncmp(name, "cu", 2) == 0 && name[2] >= 'A' && name[2] <= 'Z'));
    free(name);
    return cuda;
}

static void call_expr(ahead_walk *w, CXCursor call)
{
    if (ss_scope_is_launch(call)) {
        if (!on_stream(w, call, NULL))
            w->state = AHEAD_HOST;
        walk_children(w, call, 0, ss_ast_child_count(call));
        return;
    }
    if (ss_scope_is_launch_config(call)) {
        walk_children(w, call, 0, ss_ast_child_count(call));
        return;
    }
    const ss_api *api = ss_scope_callee_api(call);
    int wrapper = api == NULL && is_error_wrapper(call);
    walk_children(w, call, 0, ss_ast_child_count(call));
    if (w->state != AHEAD_QUEUED || wrapper || is_cheap(call))
        return;
    if (api != NULL) {
        api_call(w, call, api);
        return;
    }
    CXCursor callee = ss_callgraph_callee(w->graph, call);
    /* A virtual call may run an override that works on the host. */
    if (ss_ast_is_null(callee) || ss_ast_in_system_header(callee) ||
        clang_CXXMethod_isVirtual(callee))
        w->state = AHEAD_HOST;
    else
        unit_call(w, call, callee);
}

/* Whether the condition of an 'if' tests an error code: it calls the API table or names a
 * cudaError_t or CUresult. */
static enum CXChildVisitResult find_error_code(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr && ss_scope_callee_api(c) != NULL) {
        *found = 1;
    } else if (k == CXCursor_DeclRefExpr) {
        CXString type = clang_getTypeSpelling(clang_getCursorType(c));
        const char *text = clang_getCString(type);
        *found = text && (strstr(text, "cudaError") || strstr(text, "CUresult"));
        clang_disposeString(type);
    }
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static void if_stmt(ahead_walk *w, CXCursor stmt)
{
    unsigned cond = ss_ast_if_condition(stmt), n = ss_ast_child_count(stmt);
    walk_children(w, stmt, 0, cond < n ? cond + 1 : n);
    int error = 0;
    if (cond < n)
        ss_ast_visit_whole(ss_ast_child(stmt, cond), stmt, find_error_code, &error);
    if (error || w->state != AHEAD_QUEUED)
        return;
    int conditional = w->conditional;
    w->conditional = 1;
    walk_children(w, stmt, cond + 1, n);
    w->conditional = conditional;
}

/* An operator: '&&' and '||' run their right side only at times; an assignment to the stream
 * makes its name another stream's. */
static void operator_expr(ahead_walk *w, CXCursor op)
{
    char name[8] = "";
    ss_ast_binary_op(op, name, sizeof name);
    if (strcmp(name, "=") == 0) {
        char *target = ss_expr_text(ss_ast_child(op, 0));
        if (target == NULL || strcmp(target, w->stream) == 0)
            w->state = AHEAD_HOST;
        free(target);
    }
    int conditional = w->conditional;
    walk_children(w, op, 0, 1);
    if (strcmp(name, "&&") == 0 || strcmp(name, "||") == 0)
        w->conditional = 1;
    walk_children(w, op, 1, ss_ast_child_count(op));
    w->conditional = conditional;
}

static void walk(ahead_walk *w, CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr:
        call_expr(w, c);
        return;
    case CXCursor_IfStmt:
        if_stmt(w, c);
        return;
    case CXCursor_BinaryOperator:
        operator_expr(w, c);
        return;
    case CXCursor_ConditionalOperator: {
        int conditional = w->conditional;
        walk_children(w, c, 0, 1);
        w->conditional = 1;
        walk_children(w, c, 1, ss_ast_child_count(c));
        w->conditional = conditional;
        return;
    }
    case CXCursor_DoStmt:
        if (ss_ast_do_once(c))
            walk_children(w, c, 0, ss_ast_child_count(c));
        else
            w->state = AHEAD_HOST;
        return;
    case CXCursor_ReturnStmt:
        /* In a function of the unit, its last statement; the copy's own function leaves. */
        if (w->depth == 0 || w->conditional || !last_of_body(w->function, c))
            w->state = AHEAD_HOST;
        else
            walk_children(w, c, 0, ss_ast_child_count(c));
        return;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_CXXTryStmt:
    case CXCursor_CXXThrowExpr:
    case CXCursor_CXXNewExpr:
    case CXCursor_CXXDeleteExpr:
    case CXCursor_LambdaExpr:
        w->state = AHEAD_HOST;
        return;
    default:
        walk_children(w, c, 0, ss_ast_child_count(c));
        return;
    }
}

/* Whether the copy 'call' ('api') goes to the device: its kind says so, or for
 * cudaMemcpyDefault its destination is device memory. A pageable copy to the host returns only
 * once it is done: a wait for the stream itself, after which the work queued next waits for the
 * host to queue it. */
static int is_upload(CXCursor function, CXCursor call, const ss_api *api)
{
    CXCursor dst, src;
    int kind = ss_copy_kind(function, call, api, &dst, &src);
    return kind == SS_COPY_KIND_H2D || (kind == SS_COPY_KIND_DEFAULT && !ss_ast_is_null(dst) &&
                                        ss_check_is_device_pointer(function, dst));
}

/* The words for the wait 'w' reached at the statement 'stmt'. Malloc'ed. */
static char *ahead_words(const ahead_walk *w, CXCursor stmt)
{
    char *api = ss_scope_callee_name(w->wait);
    char *words;
    if (ss_ast_is_null(w->via)) {
        words = ss_xasprintf("inherent: line %u waits for the copy anyway ('%s'), and the "
                             "statements before it only queue device work",
                             ss_scope_line(stmt), api ? api : "?");
    } else {
        char *name = ss_scope_callee_name(w->via);
        words = ss_xasprintf("inherent: line %u waits for the copy anyway ('%s()' calls '%s' "
                             "at line %u), and the statements before it only queue device work",
                             ss_scope_line(stmt), name ? name : "?", api ? api : "?",
                             ss_scope_line(w->wait));
        free(name);
    }
    free(api);
    return words;
}

char *ss_context_wait_ahead_words(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts, unsigned n,
                                  unsigned at_index)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->sync == SS_SYNC_ALWAYS || !is_upload(ctx->function, at, api))
        return NULL;
    char *stream = stream_text(at, api);
    if (stream == NULL)
        return NULL;
    ahead_walk w = {
        ss_check_graph(ctx),   ctx->function,        stream, {NULL}, 0, 0, 0, AHEAD_QUEUED,
        clang_getNullCursor(), clang_getNullCursor()};
    unsigned s = at_index + 1;
    for (; s < n && s <= at_index + MAX_AHEAD && w.state == AHEAD_QUEUED; s++)
        walk(&w, stmts[s]);
    char *words = w.state == AHEAD_WAITED ? ahead_words(&w, stmts[s - 1]) : NULL;
    for (size_t e = 0; e < w.event_count; e++)
        free(w.events[e]);
    free(stream);
    return words;
}
