/* first_round.c: a synchronous upload in a loop whose every round but the first finds the device
 * drained by the round before (a wait and a readback of a convergence flag, the loop's
 * condition), judged for its first round alone, as if it stood before the loop. */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* The most statements of the upload's block looked at, and of host statements between it and
 * the launch that waits for the same work. */
enum { MAX_BLOCK = 256, MAX_BETWEEN = 2 };

/* What the first round of an upload's loop waits for. */
typedef struct first_round {
    CXCursor loop;   /* the upload's innermost loop */
    CXCursor outer;  /* the innermost loop whose body holds it, or a null cursor */
    CXCursor by;     /* the call that drains the device at the end of each round */
    CXCursor work;   /* the call that queued the work the first round waits for (work_before) */
    CXCursor launch; /* with 'outer': the round's next launch, on the unit's default stream, where
                      * all the work queued before the loop is there too; else a null cursor */
} first_round;

/* Whether 'at' is a synchronous copy to the device reported as SYNC202. Returns 1 or 0. */
static int is_upload(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (rule != SS_RULE_SYNC_COPY_IN_PIPELINE || api == NULL || api->klass != SS_CLASS_COPY ||
        api->sync != SS_SYNC_ALWAYS)
        return 0;
    CXCursor dst, src;
    return ss_copy_kind(ctx->function, at, api, &dst, &src) == SS_COPY_KIND_H2D;
}

/* What a statement on the way back from the loop does: its last call that queues work (a
 * memset aside, which the drained flow lets pass), and whether it makes another call of CUDA's
 * API or of a function no system header declares (the unit's, another unit's, through a
 * pointer), which may drain the device. A launch's configuration is the launch's own part. */
typedef struct work_walk {
    ss_callgraph *graph;
    CXCursor last;
    int other;
} work_walk;

static enum CXChildVisitResult find_work(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    work_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    if (ss_scope_is_launch_config(c))
        return CXChildVisit_Continue;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_MEMSET)
        return CXChildVisit_Recurse;
    CXCursor decl = clang_getCursorReferenced(c);
    if (ss_scope_is_launch(c) || ss_context_call_enqueues(w->graph, c, api))
        w->last = c;
    else if (api || ss_ast_is_null(decl) ||
             !clang_Location_isInSystemHeader(clang_getCursorLocation(decl)))
        w->other = 1;
    return CXChildVisit_Recurse;
}

/* A statement walking back from the loop: the work it queues (STEP_WORK, 'w->last') where it is
 * one that runs its calls whenever it runs (no block, branch or loop) and makes no other device
 * call; host work that drains nothing (STEP_HOST); else STEP_STOP. */
enum { STEP_HOST, STEP_WORK, STEP_STOP };

static int step_of(work_walk *w, CXCursor block, CXCursor stmt)
{
    w->last = clang_getNullCursor();
    w->other = 0;
    ss_ast_visit_whole(stmt, block, find_work, w);
    if (ss_ast_is_null(w->last))
        return w->other ? STEP_STOP : STEP_HOST;
    enum CXCursorKind k = clang_getCursorKind(stmt);
    int plain = clang_isExpression(k) || k == CXCursor_DeclStmt;
    return plain && !w->other ? STEP_WORK : STEP_STOP;
}

/* Where 'child' stands among the statements of the block 'block'. */
static unsigned index_in(CXCursor block, CXCursor child)
{
    unsigned at = 0, n = ss_ast_child_count(block);
    while (at < n && !ss_ast_same_node(ss_ast_child(block, at), child))
        at++;
    return at;
}

/* The statements [from, to) of 'block' walked back (step_of): STEP_WORK with 'w->last' at the
 * first that queues work, STEP_STOP, or STEP_HOST where all stay on the host. */
static int steps_back(work_walk *w, CXCursor block, unsigned from, unsigned to)
{
    while (to-- > from) {
        int step = step_of(w, block, ss_ast_child(block, to));
        if (step != STEP_HOST)
            return step;
    }
    return STEP_HOST;
}

/* The work the first round of 'loop' waits for: walking back from the loop through the blocks
 * around it (written '{ ... }') up to the body of 'outer' (or of the function, where 'outer' is
 * null), past statements that stay on the host, the call of the first statement that queues
 * work; with 'outer', on from the end of its body (the previous pass, around its back edge).
 * A null cursor where a statement on the way may drain the device or queues work on some ways
 * only, where a block on the way is not written '{ ... }', and where the way reaches the
 * function's start (the work, if any, was queued by its callers). */
static CXCursor work_before(ss_check_ctx *ctx, CXCursor loop, CXCursor outer)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ctx->function, loop, path), top = -1;
    work_walk w = {ss_check_graph(ctx), clang_getNullCursor(), 0};
    int step = STEP_HOST;
    for (long i = found - 1; i >= 0 && step == STEP_HOST; i--) {
        if (!ss_ast_is_null(outer) && ss_ast_same_node(path[i], outer)) {
            top = i + 1;
            break;
        }
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
            step = STEP_STOP;
        else
            step =
                steps_back(&w, path[i], 0, index_in(path[i], i + 1 < found ? path[i + 1] : loop));
    }
    for (long i = top; top >= 0 && i < found && step == STEP_HOST; i++)
        step = steps_back(&w, path[i], index_in(path[i], i + 1 < found ? path[i + 1] : loop) + 1,
                          ss_ast_child_count(path[i]));
    free(path);
    return step == STEP_WORK ? w.last : clang_getNullCursor();
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr:
    case CXCursor_ForStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_CXXThrowExpr:
        *(int *)data = 1;
        return CXChildVisit_Break;
    default:
        return CXChildVisit_Recurse;
    }
}

/* Whether 'stmt' stays on the host briefly: no call in it at all ('done = true;', 'rounds++;'),
 * no loop (host work long enough to have overlapped the first round's wait) and no way out
 * before the launch (a return, break, continue, goto or throw). */
static int host_only(CXCursor stmt)
{
    int calls = 0;
    ss_ast_visit_whole(stmt, clang_getNullCursor(), find_call, &calls);
    return !calls;
}

/* Whether the launch 'launch' is on the unit's default stream: its stream left out, or every
 * value of it 0 or the default stream by name (cudaStreamLegacy, or cudaStreamPerThread where
 * the unit compiles with the per-thread default stream). Returns 1 or 0. */
static int on_default_stream(ss_check_ctx *ctx, CXCursor launch)
{
    CXCursor arg = ss_check_stream_arg(launch, NULL);
    if (ss_ast_is_null(arg) || ss_check_is_omitted(arg))
        return 1;
    unsigned own = SS_STREAM_BIT(SS_STREAM_NULL) |
                   SS_STREAM_BIT(ctx->per_thread ? SS_STREAM_PER_THREAD : SS_STREAM_LEGACY);
    unsigned values = ss_stream_values(ctx->function, arg);
    return values != 0 && (values & ~own) == 0;
}

/* The launch of the statement after the one that holds 'at' in its block (up to MAX_BETWEEN
 * statements between that stay on the host), where it is on the unit's default stream; else a
 * null cursor. */
static CXCursor next_launch(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor stmts[MAX_BLOCK], none = clang_getNullCursor();
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, MAX_BLOCK, &index);
    for (unsigned s = index + 1; n > 0 && s < n && s <= index + 1 + MAX_BETWEEN; s++) {
        CXCursor call = ss_ast_strip(stmts[s]);
        if (clang_getCursorKind(call) == CXCursor_CallExpr && ss_scope_is_launch(call))
            return on_default_stream(ctx, call) ? call : none;
        if (!host_only(stmts[s]))
            return none;
    }
    return none;
}

/* Fills 'r' for the upload 'at' (SYNC202) where the device is drained there on the way around
 * the back edge of its loop but not on the way into the loop. Returns 1 when it is so, else 0. */
static int first_round_of(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, first_round *r)
{
    memset(r, 0, sizeof *r);
    if (ss_ast_is_null(ctx->function) ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr || !is_upload(ctx, rule, at))
        return 0;
    r->by = ss_context_back_edge_drain(ctx, at, &r->loop, &r->outer);
    if (ss_ast_is_null(r->by) || ss_context_drained_before(ctx, r->loop, 0))
        return 0;
    r->work = work_before(ctx, r->loop, r->outer);
    if (ss_ast_is_null(r->work))
        return 0;
    r->launch = clang_getNullCursor();
    /* The next launch waits for the work queued before the loop anyway where it is all on the
     * same in-order stream, the unit's default one, as that launch and the upload are. */
    if (!ss_ast_is_null(r->outer) && ss_context_drained_before(ctx, r->loop, 1))
        r->launch = next_launch(ctx, at);
    return 1;
}

/* "'merge' at line 23". Malloc'ed. */
static char *work_words(const first_round *r)
{
    char *name =
        ss_scope_is_launch(r->work) ? ss_scope_kernel_name(r->work) : ss_scope_callee_name(r->work);
    char *words = ss_xasprintf("'%s' at line %u", name ? name : "a call", ss_scope_line(r->work));
    free(name);
    return words;
}

/* "; in every later round 'cudaMemcpy' at x.cu:31 has drained the device, ..." Malloc'ed. */
static char *later_words(const first_round *r)
{
    char *name = ss_scope_callee_name(r->by), *where = ss_callgraph_place(r->by);
    char *words = ss_xasprintf("; in every later round '%s' at %s has drained the device, with no "
                               "work queued between it and this call on the way around the loop "
                               "at line %u",
                               name ? name : "a wait", where, ss_scope_line(r->loop));
    free(name);
    free(where);
    return words;
}

/* Whether a synchronous copy waits for all the unit's work (ctx->copy_drain, checks.h, as
 * ss_context_back_edge_drain found it: the unit creates its streams blocking, or all its work is
 * on the legacy stream); else it may not wait for work queued before the loop on a non-blocking
 * stream, which the first round then only follows. Returns 1 or 0. */
static int copies_wait_for_all(const ss_check_ctx *ctx)
{
    return ctx->copy_drain == 1 || ctx->copy_drain == 3;
}

/* The words for 'r': what the first round waits for, how often, and (with 'launch') that the next
 * launch waits for it anyway. Malloc'ed. */
static char *round_words(ss_check_ctx *ctx, const first_round *r)
{
    char *work = work_words(r), *later = later_words(r), *often, *words;
    if (ss_ast_is_null(r->outer))
        often = ss_xasprintf("once per call of '%s', as a copy before the loop would",
                             ctx->function_name ? ctx->function_name : "its function");
    else
        often = ss_xasprintf("once per pass of the loop at line %u", ss_scope_line(r->outer));
    if (!ss_ast_is_null(r->launch)) {
        char *launch = ss_scope_kernel_name(r->launch);
        words = ss_xasprintf("drained in every round but the first; the first round waits for %s, "
                             "%s, work that the next launch, '%s' (line %u), waits for anyway on "
                             "the %s default stream, so that there the copy costs one host round "
                             "trip, not a drain%s",
                             work, often, launch ? launch : "a kernel", ss_scope_line(r->launch),
                             ctx->per_thread ? "per-thread" : "legacy", later);
        free(launch);
    } else {
        words = ss_xasprintf("drained in every round but the first; the first round %s %s, "
                             "%s%s%s",
                             copies_wait_for_all(ctx) ? "waits for" : "follows", work, often,
                             ss_ast_is_null(r->outer) ? ""
                                                      : ", work that the round's next launch "
                                                        "does not wait for anyway on the same "
                                                        "stream",
                             later);
    }
    free(work);
    free(later);
    free(often);
    return words;
}

char *ss_context_first_round_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    first_round r;
    if (!first_round_of(ctx, rule, at, &r) ||
        (!ss_ast_is_null(r.outer) && ss_ast_is_null(r.launch)))
        return NULL;
    return round_words(ctx, &r);
}

char *ss_context_first_round_stall_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    first_round r;
    if (!first_round_of(ctx, rule, at, &r) || ss_ast_is_null(r.outer) || !ss_ast_is_null(r.launch))
        return NULL;
    return round_words(ctx, &r);
}
