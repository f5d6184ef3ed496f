/* overlap.c: stream waits in a loop that the device does not idle for: the wait for an upload
 * on one stream while the stream the next launch is queued on still has work ("overlapped"),
 * and the wait for a stream's own small upload after an earlier wait drained it ("own
 * upload"). Both follow what the program queues on a stream, as written (a variable that holds
 * one constant read as that constant), back from the wait (context_cases.h). And an event wait
 * for the host's own earlier upload from a buffer it rewrites next, device work queued behind
 * the event ("own upload" too). */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many calls of one statement are looked at, how many blocks out the walk back goes, and
 * the largest upload that counts as small (the size of constant memory). */
enum { MAX_CALLS = 64, MAX_LEVELS = 4, MAX_EVENTS = 8, SMALL_UPLOAD = 65536 };

/* What a call does to one stream: nothing, waits for it (its own wait or a device-wide one),
 * queues work on it, or may do either (a function given a stream, or one that waits). */
typedef enum stream_op { OP_NONE, OP_WAIT, OP_WORK, OP_UNKNOWN } stream_op;

typedef struct stream_event {
    stream_op op;
    CXCursor call;
} stream_event;

/* The events on one stream back from a wait, the latest first: up to MAX_EVENTS, the walk
 * stopping at a wait or an unknown call. */
typedef struct history {
    stream_event events[MAX_EVENTS];
    int count;
    int stopped; /* a wait or an unknown call ends it */
} history;

/* The one constant every definition of the variable 'ref' names that may reach it in
 * 'function' holds ('int nStream = 2;', never assigned since), into '*value'. Returns 1, or 0
 * when there is none. */
static int constant_value(CXCursor function, CXCursor ref, long long *value)
{
    ss_location loc;
    if (ss_location_of(ref, NULL, &loc) != 0)
        return 0;
    ss_defs defs = {0};
    ss_dataflow_reaching(function, &loc, ref, &defs);
    int constant = defs.count > 0;
    for (size_t i = 0; i < defs.count && constant; i++) {
        long long v;
        constant = defs.v[i].kind == SS_DEF_VALUE && ss_ast_eval_int(defs.v[i].value, &v) == 0 &&
                   (i == 0 || v == *value);
        *value = v;
    }
    ss_defs_free(&defs);
    ss_location_free(&loc);
    return constant;
}

typedef struct refs_walk {
    CXCursor refs[16];
    int count;
} refs_walk;

static enum CXChildVisitResult find_refs(CXCursor c, CXCursor parent, CXClientData data)
{
    refs_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && w->count < 16)
        w->refs[w->count++] = c;
    return CXChildVisit_Recurse;
}

/* The stream expression 'expr' as the walk compares it: its tokens without spaces, a variable
 * that holds one constant where it is read (constant_value) written as that constant
 * ('stream[dev*nStream]' with 'int nStream = 2;' reads 'stream[dev*2]'); as written
 * (ss_expr_text) where its tokens are not the program's own (a macro). Malloc'ed, or NULL. */
static char *stream_text(CXCursor function, CXCursor expr)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(expr);
    CXToken *tokens = NULL;
    unsigned n = 0;
    if (ss_ast_spelled(expr))
        clang_tokenize(tu, clang_getCursorExtent(expr), &tokens, &n);
    if (n == 0)
        return ss_expr_text(expr);
    refs_walk w = {.count = 0};
    find_refs(expr, expr, &w);
    clang_visitChildren(expr, find_refs, &w);
    char *text = ss_xstrdup("");
    for (unsigned i = 0; i < n; i++) {
        CXString spelled = clang_getTokenSpelling(tu, tokens[i]);
        char *piece = ss_xstrdup(clang_getCString(spelled));
        clang_disposeString(spelled);
        unsigned at = 0;
        clang_getSpellingLocation(clang_getTokenLocation(tu, tokens[i]), NULL, NULL, NULL, &at);
        long long value;
        for (int r = 0; r < w.count; r++) {
            if (ss_ast_offset(w.refs[r]) == at && constant_value(function, w.refs[r], &value)) {
                free(piece);
                piece = ss_xasprintf("%lld", value);
                break;
            }
        }
        char *longer = ss_xasprintf("%s%s", text, piece);
        free(text);
        free(piece);
        text = longer;
    }
    clang_disposeTokens(tu, tokens, n);
    return text;
}

/* Whether the stream expression 'arg' (in 'function') reads 'stream' (stream_text). */
static int written(CXCursor function, CXCursor arg, const char *stream)
{
    char *text = ss_ast_is_null(arg) ? NULL : stream_text(function, arg);
    int same = text && strcmp(text, stream) == 0;
    free(text);
    return same;
}

/* Whether 'call' is given a stream, or an array of them. */
static int given_streams(CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXType t = clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i));
        if (ss_check_is_stream_type(t) || ss_check_is_stream_type(clang_getPointeeType(t)))
            return 1;
    }
    return 0;
}

typedef struct wait_walk {
    int found;
} wait_walk;

static enum CXChildVisitResult find_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    wait_walk *w = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && (api->klass == SS_CLASS_STREAM_SYNC || api->klass == SS_CLASS_DEVICE_SYNC)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* What work queued on the stream 'arg' does to the stream that reads 'stream': work on it; or
 * may order with it, where 'arg' is the legacy default stream (omitted, 0, cudaStreamLegacy;
 * not with 'per_thread'), which a blocking stream waits for: unknown; else nothing. */
static stream_op queued_op(CXCursor function, CXCursor arg, const char *stream, int per_thread)
{
    if (written(function, arg, stream))
        return OP_WORK;
    ss_stream_value v =
        ss_ast_is_null(arg) || ss_check_is_omitted(arg) ? SS_STREAM_NULL : ss_stream_constant(arg);
    if (ss_stream_is_legacy(v, per_thread))
        return OP_UNKNOWN;
    return OP_NONE;
}

/* What the call 'c' (in 'function') does to the stream that reads 'stream' (stream_text). */
static stream_op op_of(ss_callgraph *graph, CXCursor function, CXCursor c, const char *stream,
                       int per_thread)
{
    const ss_api *api = ss_scope_callee_api(c);
    if (ss_scope_is_launch(c))
        return queued_op(function, ss_check_stream_arg(c, NULL), stream, per_thread);
    if (api && api->klass == SS_CLASS_DEVICE_SYNC)
        return OP_WAIT;
    if (api && api->klass == SS_CLASS_STREAM_SYNC)
        return written(function, ss_check_stream_arg(c, api), stream) ? OP_WAIT : OP_NONE;
    if (api)
        return ss_api_enqueues(api)
                   ? queued_op(function, ss_check_stream_arg(c, api), stream, per_thread)
                   : OP_NONE;
    CXCursor callee = ss_callgraph_callee(graph, c);
    if (given_streams(c) || (!ss_ast_is_null(callee) && ss_context_call_enqueues(graph, c, NULL)))
        return OP_UNKNOWN;
    wait_walk w = {0};
    if (!ss_ast_is_null(callee))
        clang_visitChildren(callee, find_wait, &w);
    return w.found ? OP_UNKNOWN : OP_NONE;
}

typedef struct ops_walk {
    ss_callgraph *graph;
    CXCursor function;
    const char *stream;
    int per_thread; /* the unit's default stream is per-thread */
    stream_event events[MAX_CALLS];
    int count, overflow;
} ops_walk;

static enum CXChildVisitResult find_ops(CXCursor c, CXCursor parent, CXClientData data)
{
    ops_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    if (ss_scope_is_launch_config(c))
        return CXChildVisit_Continue; /* the launch's own: its stream is the launch's */
    stream_op op = op_of(w->graph, w->function, c, w->stream, w->per_thread);
    if (op != OP_NONE && w->count == MAX_CALLS)
        w->overflow = 1;
    else if (op != OP_NONE)
        w->events[w->count++] = (stream_event){op, c};
    return CXChildVisit_Recurse;
}

/* Adds the events of 'stmt' on the stream to 'h', the latest first, until it stops. */
static void add_statement(ss_check_ctx *ctx, CXCursor stmt, const char *stream, history *h)
{
    ops_walk w = {.graph = ss_check_graph(ctx),
                  .function = ctx->function,
                  .stream = stream,
                  .per_thread = ctx->per_thread};
    ss_ast_visit_whole(stmt, stmt, find_ops, &w);
    if (w.overflow) {
        h->events[h->count < MAX_EVENTS ? h->count++ : MAX_EVENTS - 1] =
            (stream_event){OP_UNKNOWN, stmt};
        h->stopped = 1;
    }
    for (int i = w.count; i-- > 0 && !h->stopped && h->count < MAX_EVENTS;) {
        h->events[h->count++] = w.events[i];
        h->stopped = w.events[i].op != OP_WORK;
    }
    if (h->count == MAX_EVENTS)
        h->stopped = 1;
}

/* Adds the events of the statements of 'block' from 'from' down to 'to' (from > to). */
static void add_statements(ss_check_ctx *ctx, CXCursor block, unsigned from, unsigned to,
                           const char *stream, history *h)
{
    for (unsigned s = from; s-- > to && !h->stopped;)
        add_statement(ctx, ss_ast_child(block, s), stream, h);
}

/* The variable a for loop's header starts ('int d = 0', 'd = 0'), or a null cursor. */
static CXCursor counter_of(CXCursor loop)
{
    if (clang_getCursorKind(loop) != CXCursor_ForStmt || ss_ast_child_count(loop) == 0)
        return clang_getNullCursor();
    CXCursor init = ss_ast_child(loop, 0);
    if (clang_getCursorKind(init) == CXCursor_DeclStmt && ss_ast_child_count(init) == 1)
        return ss_ast_child(init, 0);
    CXCursor lhs = clang_getCursorKind(init) == CXCursor_BinaryOperator
                       ? ss_ast_strip(ss_ast_child(init, 0))
                       : clang_getNullCursor();
    return clang_getCursorKind(lhs) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(lhs)
                                                            : clang_getNullCursor();
}

/* Whether the stream 'expr' is another one on each iteration of 'loop': the loop sets the
 * device (itself, not in an inner loop), or the stream names the variable its header starts ('st[2
 * * d]' in a loop over d). */
static int stream_per_iteration(CXCursor loop, CXCursor expr)
{
    CXCursor counter = counter_of(loop);
    return ss_scope_sets_device(loop, 1) ||
           (!ss_ast_is_null(counter) && ss_context_mentions(expr, counter)) ||
           (clang_getCursorKind(expr) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(expr), counter));
}

/* The index of 'child' among the children of 'block', or their count when it is none. */
static unsigned index_in(CXCursor block, CXCursor child)
{
    unsigned n = ss_ast_child_count(block);
    for (unsigned s = 0; s < n; s++)
        if (ss_ast_same_node(ss_ast_child(block, s), child))
            return s;
    return n;
}

/* Walks back from 'at' over what is queued on the stream written 'stream' ('expr' the wait's
 * argument), into 'h': the statements before it in each block around it; at the start of a
 * loop's body, the statements before the loop where the stream is another one on each
 * iteration, else (with 'wrap') the body's statements after the one that holds the wait (the
 * previous iteration), and no further. */
static void walk_back(ss_check_ctx *ctx, CXCursor at, CXCursor expr, const char *stream, int wrap,
                      history *h)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ctx->function, at, path);
    for (long i = found - 1, levels = 0; i >= 0 && !h->stopped && levels < MAX_LEVELS; i--) {
        CXCursor holder = i + 1 < found ? path[i + 1] : at;
        if (clang_getCursorKind(path[i]) == CXCursor_CompoundStmt) {
            add_statements(ctx, path[i], index_in(path[i], holder), 0, stream, h);
            levels++;
            continue;
        }
        if (!ss_scope_is_loop(path[i]) || stream_per_iteration(path[i], expr))
            continue;
        if (wrap && clang_getCursorKind(holder) == CXCursor_CompoundStmt && i + 2 <= found) {
            CXCursor inner = i + 2 < found ? path[i + 2] : at;
            add_statements(ctx, holder, ss_ast_child_count(holder), index_in(holder, inner) + 1,
                           stream, h);
        }
        break;
    }
    free(path);
}

/* The statement after the wait's in its block, when it launches a kernel (only waits and
 * statements without device work between, up to two): the launch; else a null cursor. */
static CXCursor next_launch(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, 256, &index);
    for (unsigned s = index + 1; s < n && s <= index + 3; s++) {
        if (!ss_context_does_device_work(ss_check_graph(ctx), stmts[s]))
            continue;
        CXCursor launch = ss_ast_strip(stmts[s]);
        return ss_scope_is_launch(launch) ? launch : clang_getNullCursor();
    }
    return clang_getNullCursor();
}

/* The variable or member at the base of a copy's pointer ('d', 'd[i]', '&d[i]', 'd + n'), or
 * a null cursor. */
static CXCursor base_decl(CXCursor expr)
{
    CXCursor e = ss_ast_strip(expr);
    for (int hops = 0; hops < 4; hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
            return clang_getCursorReferenced(e);
        if (k != CXCursor_UnaryOperator && k != CXCursor_ArraySubscriptExpr &&
            k != CXCursor_BinaryOperator)
            break;
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    return clang_getNullCursor();
}

/* Whether 'copy' copies from the host to the device into what an argument of 'launch' names;
 * '*bytes' receives its size when it is a constant (else -1). */
static int upload_for(ss_check_ctx *ctx, CXCursor copy, CXCursor launch, long long *bytes)
{
    const ss_api *api = ss_scope_callee_api(copy);
    CXCursor dst = clang_getNullCursor(), src;
    *bytes = -1;
    if (api == NULL || api->klass != SS_CLASS_COPY ||
        ss_copy_kind(ctx->function, copy, api, &dst, &src) != SS_COPY_KIND_H2D)
        return 0;
    if (api->size_arg >= 0 && clang_Cursor_getNumArguments(copy) > api->size_arg &&
        ss_ast_eval_int(clang_Cursor_getArgument(copy, (unsigned)api->size_arg), bytes) != 0)
        *bytes = -1;
    if (ss_ast_is_null(launch))
        return 1;
    CXCursor decl = ss_ast_is_null(dst) ? dst : base_decl(dst);
    int n = clang_Cursor_getNumArguments(launch);
    for (int i = 0; i < n && !ss_ast_is_null(decl); i++) {
        CXCursor arg = clang_Cursor_getArgument(launch, (unsigned)i);
        if (clang_equalCursors(base_decl(arg), decl) || ss_context_mentions(arg, decl))
            return 1;
    }
    return 0;
}

/* "kernel 'k'" for a launch, else the API's name. Malloc'ed. */
static char *queued_words(CXCursor call)
{
    if (!ss_scope_is_launch(call))
        return ss_scope_callee_name(call);
    char *kernel = ss_scope_kernel_name(call);
    char *words = ss_xasprintf("kernel '%s'", kernel ? kernel : "...");
    free(kernel);
    return words;
}

/* "overlapped: ..." for the wait 'at' for the stream 'stream' ('expr'): the next statement
 * launches on another stream, which still has work queued (a launch or an API call, with no
 * wait for it since, in this iteration), and the last work queued on the waited stream is an
 * upload into what the launch reads. Malloc'ed, or NULL. */
static char *overlap_words(ss_check_ctx *ctx, CXCursor at, CXCursor expr, const char *key,
                           const char *stream)
{
    CXCursor launch = next_launch(ctx, at);
    CXCursor other = ss_ast_is_null(launch) ? launch : ss_check_stream_arg(launch, NULL);
    char *busy_key = ss_ast_is_null(other) ? NULL : stream_text(ctx->function, other);
    char *busy = ss_ast_is_null(other) ? NULL : ss_expr_text(other);
    history w = {0}, k = {0};
    long long bytes;
    if (busy_key && busy && strcmp(busy_key, key) != 0) {
        walk_back(ctx, at, expr, key, 0, &w);
        walk_back(ctx, at, other, busy_key, 0, &k);
    }
    char *words = NULL;
    if (w.count > 0 && w.events[0].op == OP_WORK && k.count > 0 && k.events[0].op == OP_WORK &&
        upload_for(ctx, w.events[0].call, launch, &bytes)) {
        char *queued = queued_words(k.events[0].call);
        words = ss_xasprintf(
            "overlapped: while the host waits for the upload on '%s' (line %u), '%s' still has "
            "%s queued (line %u), and the next launch on it (line %u) reads what the upload "
            "writes: the device keeps working through the wait, which only orders the two",
            stream, ss_scope_line(w.events[0].call), busy, queued ? queued : "work",
            ss_scope_line(k.events[0].call), ss_scope_line(launch));
        free(queued);
    }
    free(busy);
    free(busy_key);
    return words;
}

/* The bytes the uploads 'events' (all but the last of 'h') copy, when each is an upload of a
 * constant size; else -1. */
static long long uploaded_bytes(ss_check_ctx *ctx, const history *h)
{
    long long total = 0, bytes;
    for (int i = 0; i + 1 < h->count; i++) {
        if (h->events[i].op != OP_WORK ||
            !upload_for(ctx, h->events[i].call, clang_getNullCursor(), &bytes) || bytes < 0)
            return -1;
        total += bytes;
    }
    return total;
}

/* "own upload: ..." for the wait 'at' for the stream 'stream' ('expr'): the only work queued
 * on it since an earlier wait for it (in this iteration, or at the end of the previous one)
 * is uploads of a constant size, SMALL_UPLOAD bytes at most. Malloc'ed, or NULL. */
static char *own_upload_words(ss_check_ctx *ctx, CXCursor at, CXCursor expr, const char *key,
                              const char *stream)
{
    history h = {0};
    walk_back(ctx, at, expr, key, 1, &h);
    if (h.count < 2 || h.events[h.count - 1].op != OP_WAIT)
        return NULL;
    long long bytes = uploaded_bytes(ctx, &h);
    if (bytes < 0 || bytes > SMALL_UPLOAD)
        return NULL;
    CXCursor first = h.events[h.count - 2].call, wait = h.events[h.count - 1].call;
    char *waited = ss_scope_callee_name(wait);
    char *copies = h.count == 2 ? ss_xasprintf("the copy at line %u", ss_scope_line(first))
                                : ss_xasprintf("the %d copies from line %u", h.count - 1,
                                               ss_scope_line(first));
    char *words = ss_xasprintf(
        "own upload: '%s' has nothing queued but %s (%lld bytes) since '%s' at line %u waited "
        "for it: this wait is for that small upload alone, on a stream the earlier wait had "
        "drained",
        stream, copies, bytes, waited ? waited : "...", ss_scope_line(wait));
    free(copies);
    free(waited);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * An event wait for the host's own earlier upload from the buffer it rewrites next. */

/* The variable or member whose storage a write to 'lhs' changes ('h[i]', 'h[i].x', '*h',
 * 'h->x': 'h'), or a null cursor. */
static CXCursor stored_decl(CXCursor lhs)
{
    CXCursor e = ss_ast_strip(lhs);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        CXCursor inner =
            ss_ast_child_count(e) > 0 ? ss_ast_strip(ss_ast_child(e, 0)) : clang_getNullCursor();
        enum CXCursorKind ik = clang_getCursorKind(inner);
        int element = ik == CXCursor_ArraySubscriptExpr || ik == CXCursor_UnaryOperator ||
                      ((ik == CXCursor_DeclRefExpr || ik == CXCursor_MemberRefExpr) &&
                       clang_getCursorType(inner).kind == CXType_Pointer);
        if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator ||
            (k == CXCursor_MemberRefExpr && element))
            e = inner;
        else if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
            return clang_getCursorReferenced(e);
        else
            break;
    }
    return clang_getNullCursor();
}

/* The target of the assignment 'c' ('=', '+=', a class's 'operator='), or a null cursor. */
static CXCursor assigned(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8] = "";
    if (k == CXCursor_CompoundAssignOperator ||
        (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
         strcmp(op, "=") == 0))
        return ss_ast_child(c, 0);
    if (k != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) != 2)
        return clang_getNullCursor();
    char *name = ss_ast_callee_name(c);
    int assigns = name && strcmp(name, "operator=") == 0;
    free(name);
    return assigns ? clang_Cursor_getArgument(c, 0) : clang_getNullCursor();
}

typedef struct store_walk {
    CXCursor decl;
    int found, repointed;
} store_walk;

/* Whether the store target 'target' is the pointer 'decl' itself or an element of it that is a
 * pointer ('h', 'this->h', 'h_bufs[0]'): a store there points elsewhere (double buffering). */
static int repoints(CXCursor target, CXCursor decl)
{
    CXCursor e = ss_ast_strip(target);
    if (clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Pointer)
        return 0;
    if (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr)
        e = ss_ast_strip(ss_ast_child(e, 0));
    enum CXCursorKind k = clang_getCursorKind(e);
    return (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
           clang_equalCursors(clang_getCursorReferenced(e), decl);
}

static enum CXChildVisitResult find_store(CXCursor c, CXCursor parent, CXClientData data)
{
    store_walk *w = data;
    CXCursor target = assigned(c);
    if (!ss_ast_is_null(target) && clang_equalCursors(stored_decl(target), w->decl)) {
        w->repointed = repoints(target, w->decl);
        w->found = !w->repointed;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The line of the statement after the wait 'at' in its block that stores into 'decl' ('h[i] =
 * ...'), statements that queue no device work or point 'decl' elsewhere ('h = h_next') before
 * it; 0 when there is none. */
static unsigned rewritten_after(ss_check_ctx *ctx, CXCursor at, CXCursor decl)
{
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ss_scope_outer_function(ctx->function), at, stmts,
                                              256, &index);
    for (unsigned s = index + 1; s < n; s++) {
        store_walk w = {decl, 0, 0};
        ss_ast_visit_whole(stmts[s], stmts[s], find_store, &w);
        if (w.found)
            return ss_scope_line(stmts[s]);
        if (w.repointed || ss_context_queues_work(ss_check_graph(ctx), stmts[s]))
            break;
    }
    return 0;
}

/* The line of the first statement after the event record 'u->record' in its block that may
 * queue device work (the device's work behind the event), or 0. */
static unsigned work_after(ss_check_ctx *ctx, const ss_event_upload *u)
{
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(u->function, u->record, stmts, 256, &index);
    for (unsigned s = index + 1; s < n; s++)
        if (ss_context_queues_work(ss_check_graph(ctx), stmts[s]))
            return ss_scope_line(stmts[s]);
    return 0;
}

/* The host buffer the upload 'u' copies from, when it is pinned or registered memory (by the
 * function's data flow, or every store into it in the unit a pinned allocation); a null cursor
 * otherwise: an asynchronous upload from pageable memory is staged before the call returns, and
 * the host may rewrite the buffer without any wait. */
static CXCursor uploaded_from(ss_check_ctx *ctx, const ss_event_upload *u)
{
    CXCursor dst, src = clang_getNullCursor(), none = clang_getNullCursor();
    ss_copy_kind(u->function, u->copy, ss_scope_callee_api(u->copy), &dst, &src);
    ss_provenance p;
    if (ss_ast_is_null(src) || ss_provenance_of(u->function, src, &p) != 0)
        return none;
    ss_host_kind kind = p.kind;
    ss_provenance_free(&p);
    CXCursor decl = base_decl(src);
    if (ss_ast_is_null(decl) || kind == SS_HOST_PINNED || kind == SS_HOST_REGISTERED)
        return decl;
    if (kind == SS_HOST_UNKNOWN &&
        clang_equalCursors(ss_context_pinned_memory(ctx, u->function, src), decl))
        return decl;
    return none;
}

char *ss_context_event_upload_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (rule != SS_RULE_SYNC_IN_LOOP || api == NULL || api->klass != SS_CLASS_EVENT_SYNC)
        return NULL;
    ss_event_upload ups[SS_CONTEXT_MAX_RECORDS];
    int n = ss_context_event_uploads(ctx, at, ups);
    CXCursor buffer = n > 0 ? uploaded_from(ctx, &ups[0]) : clang_getNullCursor();
    unsigned work = 0;
    for (int r = 0; r < n && !ss_ast_is_null(buffer); r++) {
        unsigned line = work_after(ctx, &ups[r]);
        if (line == 0 || !clang_equalCursors(uploaded_from(ctx, &ups[r]), buffer))
            buffer = clang_getNullCursor();
        work = r == 0 ? line : work;
    }
    unsigned stored = ss_ast_is_null(buffer) ? 0 : rewritten_after(ctx, at, buffer);
    if (stored == 0)
        return NULL;
    CXString name = clang_getCursorSpelling(buffer);
    char *event = ss_expr_text(clang_Cursor_getArgument(at, 0));
    char *words = ss_xasprintf(
        "own upload: it waits for its own earlier upload from '%s', the host buffer that line %u "
        "rewrites next: '%s' is recorded only right after an upload from it (line %u%s), with "
        "device work queued behind the record (line %u), which the device works through while "
        "the host waits",
        clang_getCString(name), stored, event ? event : "...", ss_scope_line(ups[0].copy),
        n > 1 ? ", the first" : "", work);
    clang_disposeString(name);
    free(event);
    return words;
}

char *ss_context_overlap_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (rule == SS_RULE_SYNC_IN_LOOP && api && api->klass == SS_CLASS_EVENT_SYNC)
        return ss_context_event_upload_words(ctx, rule, at);
    if (rule != SS_RULE_SYNC_IN_LOOP || api == NULL || api->klass != SS_CLASS_STREAM_SYNC)
        return NULL;
    CXCursor expr = ss_check_stream_arg(at, api);
    char *stream = ss_ast_is_null(expr) ? NULL : ss_expr_text(expr);
    char *key = ss_ast_is_null(expr) ? NULL : stream_text(ctx->function, expr);
    char *words = NULL;
    if (stream && *stream && key && *key) {
        words = overlap_words(ctx, at, expr, key, stream);
        if (words == NULL)
            words = own_upload_words(ctx, at, expr, key, stream);
    }
    free(key);
    free(stream);
    return words;
}
