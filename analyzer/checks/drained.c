/* drained.c: a copy or wait where the device has nothing queued, because a device-wide wait
 * (or a synchronous copy, which waits for all work where the unit creates its streams
 * blocking) drained it
 * and nothing was queued since, on every way the unit reaches the call; and a readback that a
 * device-wide wait follows with nothing queued between (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How far the flow follows calls down into the unit's functions, and up to their callers. */
enum { MAX_CALLEE_DEPTH = 3, MAX_CALLER_DEPTH = 3, MAX_CALLERS = 16 };

/* How many statements one finding's question may flow through (callees and callers followed,
 * loop bodies twice): past it the device counts as busy, a warning kept rather than a run
 * that grows with the product of the unit's fan-outs. Per worker thread. */
enum { FLOW_BUDGET = 200000 };
static _Thread_local long flow_budget;

/* What the device has queued at a point of the program: nothing, because 'by' drained it; or
 * maybe something; or the point is not reached (after a return). */
enum { UNREACHED = -1, BUSY = 0, DRAINED = 1 };

typedef struct drain {
    int state;
    CXCursor by; /* with DRAINED: the call that drained the device */
    int filled;  /* with DRAINED: memsets may have been queued since */
    int fresh;   /* with DRAINED: a drain on every way since the flow began */
} drain;

typedef struct flow {
    ss_callgraph *graph;
    int copies_drain; /* a synchronous copy waits for all work: the unit's streams all block */
    CXCursor function;
    int depth;
    drain now;
    drain returned; /* the states at the function's return statements, joined */
    int worked;     /* device work was queued on the way */
} flow;

static drain busy(void)
{
    return (drain){BUSY, clang_getNullCursor(), 0, 0};
}

static drain unreached(void)
{
    return (drain){UNREACHED, clang_getNullCursor(), 0, 0};
}

static drain join(drain a, drain b)
{
    if (a.state == UNREACHED)
        return b;
    if (b.state == UNREACHED)
        return a;
    if (a.state == DRAINED && b.state == DRAINED) {
        a.filled |= b.filled;
        a.fresh &= b.fresh;
        if (ss_ast_is_null(a.by))
            a.by = b.by;
        return a;
    }
    return busy();
}

/* ------------------------------------------------------------------------------------------
 * What one call does to the device. */

/* Libraries that queue work on the device from the host, by the prefix of their functions'
 * names (or namespaces). */
static const char *const library_prefixes[] = {"cublas",   "cudnn",    "cusparse", "cufft",
                                               "curand",   "cusolver", "nccl",     "cutlass",
                                               "thrust::", "cub::"};

/* Whether 'decl' is a constructor, destructor, conversion or operator, or one the compiler
 * writes: a value's own plumbing, not a function that queues work. */
static int special_member(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
        clang_CXXMethod_isDefaulted(decl))
        return 1;
    CXString name = clang_getCursorSpelling(decl);
    int op = strncmp(clang_getCString(name), "operator", 8) == 0;
    clang_disposeString(name);
    return op;
}

int ss_context_library_enqueues(CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        if (ss_check_is_stream_type(
                clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i))))
            return 1;
    }
    CXCursor decl = clang_getCursorReferenced(call);
    if (ss_ast_is_null(decl))
        return 1;
    if (!clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        return !special_member(decl);
    char *name = ss_qualified_name(decl);
    int found = 0;
    for (size_t i = 0; name && !found && i < sizeof library_prefixes / sizeof *library_prefixes;
         i++)
        found = strncmp(name, library_prefixes[i], strlen(library_prefixes[i])) == 0;
    free(name);
    return found;
}

/* Whether the API call 'call' drains the device: a device-wide wait, or (with 'copies_drain')
 * a synchronous copy between the host and the device, which waits for all earlier work. */
static int drains(const flow *f, CXCursor call, const ss_api *api)
{
    if (api->klass == SS_CLASS_DEVICE_SYNC)
        return 1;
    if (!f->copies_drain || api->klass != SS_CLASS_COPY || api->sync != SS_SYNC_ALWAYS)
        return 0;
    CXCursor dst, src;
    int kind = ss_copy_kind(f->function, call, api, &dst, &src);
    return kind == SS_COPY_KIND_D2H || kind == SS_COPY_KIND_H2D;
}

static drain function_flow(flow *f, CXCursor function, drain in);

static void call_flow(flow *f, CXCursor call)
{
    if (f->now.state == UNREACHED)
        return;
    const ss_api *api = ss_scope_callee_api(call);
    if (api && drains(f, call, api)) {
        f->now = (drain){DRAINED, call, 0, 1};
        return;
    }
    /* A memset (a fill of device memory at the device's memory bandwidth) adds no wait worth
     * a warning after a drain; the words say that memsets may be queued. */
    if (api && api->klass == SS_CLASS_MEMSET) {
        f->now.filled = 1;
        return;
    }
    if (ss_scope_is_launch(call) || (api && ss_context_call_enqueues(f->graph, call, api))) {
        f->now = busy();
        f->worked = 1;
        return;
    }
    if (api)
        return;
    CXCursor callee = ss_callgraph_callee(f->graph, call);
    if (ss_ast_is_null(callee)) {
        if (ss_context_library_enqueues(call)) {
            f->now = busy();
            f->worked = 1;
        }
        return;
    }
    if (f->depth < MAX_CALLEE_DEPTH) {
        f->now = function_flow(f, callee, f->now);
    } else if (ss_scope_has_work(callee, SS_SCOPE_ENQUEUES, NULL)) {
        f->now = busy();
        f->worked = 1;
    }
}

/* ------------------------------------------------------------------------------------------
 * What a statement does: the calls of an expression in the order they run, the branches of an
 * 'if' joined, a loop's body run no, one or more times. */

static void stmt_flow(flow *f, CXCursor s);

static int structured(enum CXCursorKind k)
{
    return k == CXCursor_CompoundStmt || k == CXCursor_IfStmt || k == CXCursor_ForStmt ||
           k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt || k == CXCursor_DoStmt ||
           k == CXCursor_ReturnStmt || k == CXCursor_SwitchStmt;
}

static enum CXChildVisitResult expr_flow(CXCursor c, CXCursor parent, CXClientData data)
{
    flow *f = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (structured(k)) {
        stmt_flow(f, c);
        return CXChildVisit_Continue;
    }
    clang_visitChildren(c, expr_flow, f); /* the arguments run before the call */
    if (k == CXCursor_CallExpr)
        call_flow(f, c);
    return CXChildVisit_Continue;
}

/* The children of 's' from 'from' up to (not including) 'to' that are not statements of their
 * own (a loop's or an if's parts before its body: init, condition, increment). */
static void parts_flow(flow *f, CXCursor s, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++)
        expr_flow(ss_ast_child(s, i), s, f);
}

/* The loop 's': its body, then its other parts (condition, increment), run some times after
 * the state it starts from, or (unless 'at_least_once') not at all. */
static void loop_flow(flow *f, CXCursor s, int at_least_once)
{
    unsigned n = ss_ast_child_count(s);
    if (n == 0)
        return;
    CXCursor body = ss_ast_child(s, clang_getCursorKind(s) == CXCursor_DoStmt ? 0 : n - 1);
    drain in = f->now;
    for (int pass = 0; pass < 2; pass++) {
        stmt_flow(f, body);
        parts_flow(f, s, clang_getCursorKind(s) == CXCursor_DoStmt ? 1 : 0,
                   clang_getCursorKind(s) == CXCursor_DoStmt ? n : n - 1);
        f->now = pass == 0 ? join(in, f->now) : f->now;
    }
    if (!at_least_once)
        f->now = join(in, f->now);
}

/* The index of an 'if's condition (its first expression child), or the child count. */
static unsigned condition_index(CXCursor s)
{
    unsigned n = ss_ast_child_count(s), i = 0;
    while (i < n && !clang_isExpression(clang_getCursorKind(ss_ast_child(s, i))))
        i++;
    return i;
}

static void if_flow(flow *f, CXCursor s)
{
    unsigned n = ss_ast_child_count(s), cond = condition_index(s);
    if (cond >= n)
        return;
    parts_flow(f, s, 0, cond + 1);
    drain before = f->now;
    if (cond + 1 < n)
        stmt_flow(f, ss_ast_child(s, cond + 1));
    drain taken = f->now;
    f->now = before;
    if (cond + 2 < n)
        stmt_flow(f, ss_ast_child(s, cond + 2));
    f->now = join(taken, f->now);
}

static void stmt_flow(flow *f, CXCursor s)
{
    if (--flow_budget < 0) {
        f->now = busy();
        f->worked = 1;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(s);
    switch (k) {
    case CXCursor_CompoundStmt:
        for (unsigned i = 0, n = ss_ast_child_count(s); i < n; i++)
            stmt_flow(f, ss_ast_child(s, i));
        return;
    case CXCursor_IfStmt:
        if_flow(f, s);
        return;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
        loop_flow(f, s, 0);
        return;
    case CXCursor_DoStmt: {
        long long value = 1;
        if (ss_ast_eval_int(ss_ast_child(s, 1), &value) == 0 && value == 0)
            stmt_flow(f, ss_ast_child(s, 0)); /* do { ... } while (0): once */
        else
            loop_flow(f, s, 1);
        return;
    }
    case CXCursor_ReturnStmt:
        clang_visitChildren(s, expr_flow, f);
        f->returned = join(f->returned, f->now);
        f->now = unreached();
        return;
    case CXCursor_SwitchStmt: {
        drain before = f->now;
        clang_visitChildren(s, expr_flow, f);
        f->now = join(before, f->now);
        return;
    }
    default:
        expr_flow(s, s, f);
        return;
    }
}

/* The state after the function 'function' (a definition) runs from 'in'. */
static drain function_flow(flow *f, CXCursor function, drain in)
{
    flow inner = {f->graph, f->copies_drain, function, f->depth + 1, in, unreached(), 0};
    unsigned n = ss_ast_child_count(function);
    CXCursor body = n > 0 ? ss_ast_child(function, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return busy();
    stmt_flow(&inner, body);
    f->worked |= inner.worked;
    return join(inner.now, inner.returned);
}

/* ------------------------------------------------------------------------------------------
 * What the device has queued where a call is made. */

/* The streams the unit creates: 'blocking' when one blocks with the legacy stream
 * (cudaStreamCreate, flags 0), 'other' when one does not or its flags are not a constant. */
typedef struct creation_walk {
    int blocking, other;
} creation_walk;

static enum CXChildVisitResult find_creations(CXCursor c, CXCursor parent, CXClientData data)
{
    creation_walk *w = data;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    int creation = ss_check_stream_creation(c, ss_scope_callee_api(c));
    if (creation == 1)
        w->blocking = 1;
    else if (creation == 2)
        w->other = 1;
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether a synchronous copy waits for all work: the default stream is the legacy one, and the
 * unit creates its streams blocking (at least one, none other; a unit that creates none may be
 * handed non-blocking streams). Looked at once per unit. */
static int copies_drain(ss_check_ctx *ctx)
{
    if (ctx->all_blocking == 0) {
        creation_walk w = {0, ctx->per_thread};
        if (!w.other)
            clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_creations, &w);
        ctx->all_blocking = w.blocking && !w.other ? 1 : 2;
    }
    return ctx->all_blocking == 1;
}

static int is_loop(CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    long long value = 1;
    if (k == CXCursor_DoStmt)
        return !(ss_ast_eval_int(ss_ast_child(s, 1), &value) == 0 && value == 0);
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt;
}

/* Whether 'child' is the body of the loop 's'. */
static int is_body(CXCursor s, CXCursor child)
{
    unsigned n = ss_ast_child_count(s);
    if (n == 0 || !is_loop(s))
        return 0;
    CXCursor body = ss_ast_child(s, clang_getCursorKind(s) == CXCursor_DoStmt ? 0 : n - 1);
    return ss_ast_same_node(body, child);
}

/* What the parts of 's' that run before its child 'child' do (the statements of a block
 * before it, an if's condition); a loop whose body is not the way down leaves the state
 * unknown. */
static void before_flow(flow *f, CXCursor s, CXCursor child)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_CompoundStmt) {
        for (unsigned i = 0, n = ss_ast_child_count(s); i < n; i++) {
            CXCursor stmt = ss_ast_child(s, i);
            if (ss_ast_same_node(stmt, child))
                break;
            stmt_flow(f, stmt);
        }
    } else if (k == CXCursor_IfStmt) {
        unsigned cond = condition_index(s);
        if (cond < ss_ast_child_count(s) && !ss_ast_same_node(ss_ast_child(s, cond), child))
            parts_flow(f, s, 0, cond + 1);
    } else if (k == CXCursor_LambdaExpr || k == CXCursor_SwitchStmt || is_loop(s)) {
        f->now = busy();
    }
}

static drain entry_state(ss_callgraph *graph, int drain_copies, CXCursor function, int depth);

/* The state that the parts of the way 'path' (of 'found' nodes) down to 'target' that run
 * before it leave, from 'in' (at the start of the function, or of the body of the loop
 * path[loop]). */
static drain way_flow(flow *f, const CXCursor *path, long found, long loop, CXCursor target,
                      drain in)
{
    f->now = in;
    for (long i = loop + 1; i < found; i++)
        before_flow(f, path[i], i + 1 < found ? path[i + 1] : target);
    return f->now;
}

/* The state right before 'target' in 'function' (a definition): what the statements before it
 * on the way down leave, from the state at the function's start (entry_state, asked only when
 * it matters) or, in a loop's body, from the end of its previous iteration. 'depth' counts the
 * callers gone up. */
static drain state_at(ss_callgraph *graph, int drain_copies, CXCursor function, CXCursor target,
                      int depth)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, target, path), loop = -1;
    for (long i = 0; i < found; i++) {
        if (is_body(path[i], i + 1 < found ? path[i + 1] : target))
            loop = i;
    }
    flow f = {graph, drain_copies, function, 0, busy(), unreached(), 0};
    drain d = busy();
    if (found > 0 && loop >= 0) {
        /* The previous iteration: the body and the loop's other parts, from anything queued. */
        unsigned n = ss_ast_child_count(path[loop]);
        int is_do = clang_getCursorKind(path[loop]) == CXCursor_DoStmt;
        stmt_flow(&f, ss_ast_child(path[loop], is_do ? 0 : n - 1));
        parts_flow(&f, path[loop], is_do ? 1 : 0, is_do ? n : n - 1);
        d = way_flow(&f, path, found, loop, target, f.now);
    } else if (found > 0) {
        /* Drained on the way whatever the start; else drained from a start that is. */
        d = way_flow(&f, path, found, -1, target, busy());
        if (d.state != DRAINED && clang_getCursorKind(function) != CXCursor_LambdaExpr &&
            way_flow(&f, path, found, -1, target, (drain){DRAINED, clang_getNullCursor(), 0, 0})
                    .state == DRAINED) {
            drain entry = entry_state(graph, drain_copies, function, depth);
            d = entry.state == DRAINED ? way_flow(&f, path, found, -1, target, entry) : busy();
        }
    }
    free(path);
    return d.state == DRAINED ? d : busy();
}

/* The state at the start of 'function': drained where every call of it in the unit is made
 * where the device is drained (no more than MAX_CALLERS calls, MAX_CALLER_DEPTH callers up). */
static drain entry_state(ss_callgraph *graph, int drain_copies, CXCursor function, int depth)
{
    CXCursor calls[MAX_CALLERS], callers[MAX_CALLERS];
    long n = depth < MAX_CALLER_DEPTH
                 ? ss_callgraph_calls_of(graph, function, calls, callers, MAX_CALLERS)
                 : -1;
    if (n <= 0 || n > MAX_CALLERS)
        return busy();
    drain all = unreached();
    for (long i = 0; i < n && all.state != BUSY; i++)
        all = join(all, state_at(graph, drain_copies, callers[i], calls[i], depth + 1));
    return all;
}

/* ------------------------------------------------------------------------------------------
 * The words. */

/* A device-wide wait (or a draining copy) that follows the call 'at' in its function with no
 * device work queued between, on the way out of the blocks around it (not out of a loop's body,
 * which goes on with the next iteration), or a null cursor. */
static CXCursor later_drain(ss_check_ctx *ctx, int drain_copies, CXCursor function, CXCursor at)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, at, path);
    drain start = {DRAINED, clang_getNullCursor(), 0, 0};
    flow f = {ss_check_graph(ctx), drain_copies, function, 0, start, unreached(), 0};
    CXCursor drain_call = clang_getNullCursor();
    for (long i = found - 1; i >= 0 && ss_ast_is_null(drain_call); i--) {
        CXCursor child = i + 1 < found ? path[i + 1] : at;
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (k == CXCursor_LambdaExpr || k == CXCursor_SwitchStmt || is_loop(path[i]))
            break;
        if (k != CXCursor_CompoundStmt)
            continue;
        int after = 0;
        for (unsigned s = 0, n = ss_ast_child_count(path[i]); s < n; s++) {
            CXCursor stmt = ss_ast_child(path[i], s);
            if (!after) {
                after = ss_ast_same_node(stmt, child);
                continue;
            }
            stmt_flow(&f, stmt);
            if (f.worked || f.now.state != DRAINED)
                break;
            if (f.now.fresh) {
                drain_call = f.now.by;
                break;
            }
        }
        if (f.worked || f.now.state != DRAINED)
            break;
    }
    free(path);
    return drain_call;
}

char *ss_context_drained_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    int copy = rule == SS_RULE_PAGEABLE_ASYNC_COPY || rule == SS_RULE_SYNC_COPY_IN_PIPELINE ||
               rule == SS_RULE_SCALAR_READBACK;
    if ((!copy && rule != SS_RULE_SYNC_IN_LOOP) ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    int drain_copies = copies_drain(ctx);
    flow_budget = FLOW_BUDGET;
    drain d = state_at(ss_check_graph(ctx), drain_copies, ctx->function, at, 0);
    if (d.state == DRAINED && (copy || !d.filled)) {
        char *name = ss_scope_callee_name(d.by);
        char *where = ss_callgraph_place(d.by);
        const ss_api *by = ss_scope_callee_api(d.by);
        char *words = ss_xasprintf(
            "drained: the device has nothing queued here: '%s' at %s drained it%s, and no work%s "
            "is queued between it and this call on any way the unit reaches it: the %s waits "
            "for nothing else",
            name ? name : "a wait", where,
            by && by->klass == SS_CLASS_COPY ? " (a synchronous copy, which waits for all work: "
                                               "the unit creates its streams blocking)"
                                             : "",
            d.filled ? " but memsets" : "", copy ? "copy" : "wait");
        free(name);
        free(where);
        return words;
    }
    /* The later wait must be device-wide, and not drained already on every way to it (by this
     * copy): it is then the stall, and reported as one. */
    flow_budget = FLOW_BUDGET;
    CXCursor later =
        copy ? later_drain(ctx, drain_copies, ctx->function, at) : clang_getNullCursor();
    const ss_api *api = ss_ast_is_null(later) ? NULL : ss_scope_callee_api(later);
    if (api == NULL || api->klass != SS_CLASS_DEVICE_SYNC ||
        state_at(ss_check_graph(ctx), drain_copies, ctx->function, later, 0).state == DRAINED ||
        flow_budget < 0)
        return NULL;
    char *name = ss_scope_callee_name(later);
    char *words = ss_xasprintf("drained anyway: '%s' at line %u waits for the whole device "
                               "next, with no work queued between, and on other ways too: the "
                               "stall is that wait's, this copy adds none of its own",
                               name ? name : "a wait", ss_scope_line(later));
    free(name);
    return words;
}
