/* other_branch.c: legacy-stream work (SYNC101, SYNC102) where no other stream of the unit can
 * hold work when it runs: the unit's streams are locals of their functions, those of the work's
 * own function are created only on the other branch of an 'if' around it (a cooperative launch
 * beside a version on two streams, chosen by an option), and a wait for the whole device drains
 * each stream's work, and the legacy work, before their functions return. The legacy stream
 * then has nothing to serialize with on that path (ss_context_other_branch_words). */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

struct ss_branch_memo {
    int looked;
    ss_stream_use *uses;
    size_t count;
};

ss_branch_memo *ss_branch_memo_new(void)
{
    return ss_xcalloc(1, sizeof(ss_branch_memo));
}

void ss_branch_memo_free(ss_branch_memo *memo)
{
    if (memo)
        free(memo->uses);
    free(memo);
}

enum { MAX_VARS = 16, MAX_SEEN = 64, MAX_DEPTH = 8 };

/* A stream variable of the unit and what its function does with it (confine). */
typedef struct stream_var {
    CXCursor var, function;
    unsigned first, last; /* offsets of its first and last reference */
    CXCursor last_call;   /* the call that holds its last reference */
} stream_var;

/* The walk of a function for the references to one stream variable. */
typedef struct ref_walk {
    stream_var *v;
    unsigned refs, taken; /* references; of them, arguments that are a creation's target or
                           * the stream of a CUDA call or launch */
    int bad;              /* a reference inside a lambda */
} ref_walk;

/* Whether 'arg' names the variable: 1 by value, 2 its address ('&s'), else 0. */
static int names(CXCursor var, CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    int address = 0;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1) {
        e = ss_ast_strip(ss_ast_child(e, 0));
        address = 1;
    }
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(e), var))
        return 0;
    return address ? 2 : 1;
}

/* Whether the call 'c' takes the variable where a stream goes and goes no further: the target
 * of a stream creation ('&s'), the stream argument of a CUDA call or of a launch, or the stream
 * that cudaStreamDestroy or cuStreamDestroy is given. */
static int takes_stream(CXCursor var, CXCursor c)
{
    const ss_api *api = ss_scope_is_launch(c) ? NULL : ss_scope_callee_api(c);
    if (api && api->dst_arg >= 0 && ss_check_stream_creation(c, api) != 0 &&
        clang_Cursor_getNumArguments(c) > api->dst_arg)
        return names(var, clang_Cursor_getArgument(c, (unsigned)api->dst_arg)) == 2;
    if (ss_scope_is_launch(c) || api)
        return names(var, ss_check_stream_arg(c, api)) == 1;
    char *name = ss_scope_callee_name(c);
    int destroy = name && (ss_api_name_is(name, "cudaStreamDestroy") ||
                           ss_api_name_is(name, "cuStreamDestroy"));
    free(name);
    return destroy && clang_Cursor_getNumArguments(c) == 1 &&
           names(var, clang_Cursor_getArgument(c, 0)) == 1;
}

static enum CXChildVisitResult find_refs(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    ref_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr) {
        unsigned before = w->refs;
        clang_visitChildren(c, find_refs, w);
        w->bad |= w->refs > before;
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->v->var)) {
        unsigned at = ss_ast_offset(c);
        w->v->first = w->refs == 0 || at < w->v->first ? at : w->v->first;
        w->v->last = w->refs == 0 || at > w->v->last ? at : w->v->last;
        w->refs++;
    }
    if ((k == CXCursor_CallExpr || ss_scope_is_launch(c)) && takes_stream(w->v->var, c)) {
        w->taken++;
        if (ss_ast_offset(c) >= ss_ast_offset(w->v->last_call) || ss_ast_is_null(w->v->last_call))
            w->v->last_call = c;
    }
    return CXChildVisit_Recurse;
}

/* Whether the stream variable 'v->var' is its function's own: a local (not static) declared
 * in it, a stream (not an array of them), without an initializer or with one that is the
 * legacy stream, named only as a creation's target and as the stream of CUDA calls and
 * launches (not assigned, passed to a function of the program, stored or captured). Fills its
 * first and last references. Returns 1 or 0. */
static int confine(stream_var *v)
{
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(v->var);
    unsigned fb, fe, vb, ve;
    if (clang_getCursorKind(v->var) != CXCursor_VarDecl ||
        clang_getCursorKind(v->function) == CXCursor_LambdaExpr ||
        (sc != CX_SC_None && sc != CX_SC_Auto && sc != CX_SC_Register) ||
        !ss_check_is_stream_type(clang_getCursorType(v->var)))
        return 0;
    ss_ast_range(v->function, &fb, &fe);
    ss_ast_range(v->var, &vb, &ve);
    if (vb < fb || ve > fe)
        return 0;
    unsigned n = ss_ast_child_count(v->var);
    CXCursor init = n ? ss_ast_child(v->var, n - 1) : clang_getNullCursor();
    if (!ss_ast_is_null(init) && clang_isExpression(clang_getCursorKind(init)) &&
        !ss_stream_is_legacy(ss_stream_constant(ss_ast_strip(init)), 0))
        return 0;
    ref_walk w = {v, 0, 0, 0};
    v->last_call = clang_getNullCursor();
    clang_visitChildren(v->function, find_refs, &w);
    return !w.bad && w.refs > 0 && w.refs == w.taken;
}

/* Whether 'c' lies inside 'outer' by its offsets. */
static int inside(CXCursor outer, unsigned at)
{
    unsigned b, e;
    ss_ast_range(outer, &b, &e);
    return at >= b && at < e;
}

/* The branch of an 'if' on the path down to 'at' in 'function' whose other branch holds every
 * reference of 'v' (v->first to v->last), with no loop around the 'if' in the function (a loop
 * would run the other branch before 'at' on an earlier iteration), or a null cursor. '*else_arm'
 * says whether the streams' branch is the 'else', '*if_stmt' receives the 'if'. */
static CXCursor other_branch(CXCursor function, CXCursor at, const stream_var *v, int *else_arm,
                             CXCursor *if_stmt)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long n = ss_context_path(function, at, path);
    CXCursor found = clang_getNullCursor();
    for (long i = 0; i < n && ss_ast_is_null(found); i++) {
        if (ss_scope_is_loop(path[i]) || clang_getCursorKind(path[i]) == CXCursor_LambdaExpr)
            break;
        unsigned cond = ss_ast_if_condition(path[i]);
        if (clang_getCursorKind(path[i]) != CXCursor_IfStmt ||
            cond + 2 >= ss_ast_child_count(path[i]) || i + 1 >= n)
            continue;
        CXCursor then = ss_ast_child(path[i], cond + 1), other = ss_ast_child(path[i], cond + 2);
        for (int arm = 0; arm < 2; arm++) {
            CXCursor mine = arm ? other : then, theirs = arm ? then : other;
            if (ss_ast_same_node(path[i + 1], mine) && inside(theirs, v->first) &&
                inside(theirs, v->last)) {
                found = theirs;
                *else_arm = !arm;
                *if_stmt = path[i];
            }
        }
    }
    free(path);
    return found;
}

/* What may run between a stream's work (or the legacy work) and the wait that drains it, and
 * the functions that must not be reached there. */
typedef struct drain_walk {
    ss_callgraph *graph;
    const CXCursor *targets;
    size_t target_count;
    CXCursor seen[MAX_SEEN];
    size_t seen_count;
    int busy;        /* a way out before the wait, or a call that may reach a target */
    unsigned lo, hi; /* with a range: only what lies in [lo, hi) */
    int depth;       /* calls followed down */
} drain_walk;

static int reaches(drain_walk *w, CXCursor call);

static enum CXChildVisitResult find_reach(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    drain_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned at = ss_ast_offset(c);
    if (w->hi > w->lo && (at < w->lo || at >= w->hi))
        return CXChildVisit_Recurse;
    /* A way out of the function itself (not of one it calls) leaves the work undrained. */
    if (w->depth == 0 &&
        (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr))
        w->busy = 1;
    else if (k == CXCursor_CallExpr && reaches(w, c))
        w->busy = 1;
    return w->busy ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the call 'call' may reach one of w->targets: a call of a function of the unit that is
 * one, or that calls one in turn (up to MAX_DEPTH calls down); a virtual call, a call through a
 * pointer and a call of a function of another unit (it may call back) may. A CUDA call, a
 * launch, and a function of a system header (the C and C++ libraries) do not. */
static int reaches(drain_walk *w, CXCursor call)
{
    if (ss_scope_is_launch(call) || ss_scope_callee_api(call) != NULL ||
        ss_scope_is_launch_config(call))
        return 0;
    CXCursor def = ss_callgraph_callee(w->graph, call);
    if (ss_ast_is_null(def)) {
        CXCursor decl = clang_getCursorReferenced(call);
        return ss_ast_is_null(decl) || !ss_foreign_decl(decl);
    }
    if (clang_CXXMethod_isVirtual(def) || w->depth >= MAX_DEPTH)
        return 1;
    for (size_t i = 0; i < w->target_count; i++)
        if (clang_equalCursors(def, w->targets[i]))
            return 1;
    for (size_t i = 0; i < w->seen_count; i++)
        if (clang_equalCursors(def, w->seen[i]))
            return 0; /* looked at, or being looked at, already */
    if (w->seen_count == MAX_SEEN)
        return 1;
    w->seen[w->seen_count++] = def;
    unsigned lo = w->lo, hi = w->hi;
    w->lo = w->hi = 0;
    w->depth++;
    clang_visitChildren(def, find_reach, w);
    w->depth--;
    w->lo = lo;
    w->hi = hi;
    return w->busy;
}

/* Whether the statement 's' waits for the whole device whenever it runs: a
 * cudaDeviceSynchronize (or cuCtxSynchronize) not in a branch, a loop or a lambda (an 'if's
 * condition runs), in a checking macro's 'do { } while (0)' too. */
static enum CXChildVisitResult find_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_IfStmt && ss_ast_if_condition(c) < ss_ast_child_count(c)) {
        ss_ast_visit_whole(ss_ast_child(c, ss_ast_if_condition(c)), c, find_wait, found);
        return *found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_CXXForRangeStmt || k == CXCursor_SwitchStmt ||
        k == CXCursor_ConditionalOperator || k == CXCursor_LambdaExpr ||
        (k == CXCursor_DoStmt && !ss_ast_do_once(c)))
        return CXChildVisit_Continue;
    const ss_api *api = k == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_DEVICE_SYNC) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int is_wait(CXCursor s)
{
    int found = 0;
    ss_ast_visit_whole(s, clang_getNullCursor(), find_wait, &found);
    return found;
}

/* The wait for the whole device that follows 'c' in 'function' on every way: walking up from
 * 'c', each loop around it runs again (all of it is between), and in each block the statements
 * after it are between until one is the wait. What is between must not leave the function (a
 * return, goto or throw) nor call what may reach w->targets. Returns the wait, or a null
 * cursor. */
static CXCursor drain_after(drain_walk *w, CXCursor function, CXCursor c)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long n = ss_context_path(function, c, path);
    CXCursor wait = clang_getNullCursor();
    w->lo = w->hi = 0;
    for (long i = n - 1; i >= 0 && !w->busy && ss_ast_is_null(wait); i--) {
        CXCursor inner = i + 1 < n ? path[i + 1] : c;
        if (clang_getCursorKind(path[i]) == CXCursor_LambdaExpr)
            break;
        if (ss_scope_is_loop(path[i])) {
            clang_visitChildren(path[i], find_reach, w);
            continue;
        }
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
            continue;
        unsigned count = ss_ast_child_count(path[i]), j = 0;
        while (j < count && !ss_ast_same_node(ss_ast_child(path[i], j), inner))
            j++;
        for (j++; j < count && !w->busy && ss_ast_is_null(wait); j++) {
            CXCursor s = ss_ast_child(path[i], j);
            if (is_wait(s))
                wait = s;
            else
                ss_ast_visit_whole(s, clang_getNullCursor(), find_reach, w);
        }
    }
    free(path);
    return w->busy ? clang_getNullCursor() : wait;
}

/* The stream variable that the stream use 'call' names: a creation's target, else its stream
 * argument; or a null cursor. */
static CXCursor use_var(CXCursor call)
{
    const ss_api *api = ss_scope_is_launch(call) ? NULL : ss_scope_callee_api(call);
    CXCursor arg = clang_getNullCursor();
    if (api && api->klass == SS_CLASS_STREAM_CREATE && api->dst_arg >= 0 &&
        clang_Cursor_getNumArguments(call) > api->dst_arg)
        arg = clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
    else if (api || ss_scope_is_launch(call))
        arg = ss_check_stream_arg(call, api);
    CXCursor e = ss_ast_strip(arg);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1)
        e = ss_ast_strip(ss_ast_child(e, 0));
    CXCursor var = clang_getCursorReferenced(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
                   clang_getCursorKind(var) == CXCursor_VarDecl
               ? var
               : clang_getNullCursor();
}

/* The unit's stream uses, looked for once (ctx->branch keeps them). */
static size_t unit_uses(ss_check_ctx *ctx, ss_stream_use **uses, ss_stream_use **own)
{
    ss_branch_memo *m = ctx->branch;
    *own = NULL;
    if (m == NULL) {
        size_t n = ss_check_stream_uses(ctx, own);
        *uses = *own;
        return n;
    }
    if (!m->looked) {
        m->count = ss_check_stream_uses(ctx, &m->uses);
        m->looked = 1;
    }
    *uses = m->uses;
    return m->count;
}

/* The unit's stream variables (at most MAX_VARS), each its function's own (confine), into
 * 'vars'. Returns how many, or -1 where a use names anything else. */
static long collect_vars(ss_check_ctx *ctx, stream_var *vars)
{
    ss_stream_use *uses, *own;
    size_t n = unit_uses(ctx, &uses, &own);
    long count = n == 0 ? -1 : 0;
    for (size_t i = 0; i < n && count >= 0; i++) {
        CXCursor var = use_var(uses[i].call);
        long k = 0;
        while (k < count && !clang_equalCursors(vars[k].var, var))
            k++;
        if (ss_ast_is_null(var) || (k == count && count == MAX_VARS)) {
            count = -1;
        } else if (k == count) {
            vars[count] = (stream_var){var, ss_scope_outer_function(uses[i].function), 0, 0,
                                       clang_getNullCursor()};
            count = confine(&vars[count]) ? count + 1 : -1;
        }
    }
    free(own);
    return count;
}

/* Whether the stream variable 'v' is drained before its function returns, with nothing
 * between its first use and the wait that may reach 'function' (the legacy work's). Returns
 * the wait, or a null cursor. */
static CXCursor drained(ss_check_ctx *ctx, const stream_var *v, CXCursor function)
{
    drain_walk w;
    memset(&w, 0, sizeof w);
    w.graph = ss_check_graph(ctx);
    w.targets = &function;
    w.target_count = 1;
    w.lo = v->first;
    w.hi = v->last + 1;
    clang_visitChildren(v->function, find_reach, &w);
    return w.busy ? clang_getNullCursor() : drain_after(&w, v->function, v->last_call);
}

/* Adds "'name'" (with " of 'function'" when 'of') to the list 'words' (malloc'ed). */
static char *add_name(char *words, const stream_var *v, int of)
{
    CXString name = clang_getCursorSpelling(v->var);
    char *fn = of ? ss_qualified_name(v->function) : NULL;
    char *one = fn ? ss_xasprintf("'%s' of '%s'", clang_getCString(name), fn)
                   : ss_xasprintf("'%s'", clang_getCString(name));
    char *longer = words ? ss_xasprintf("%s, %s", words, one) : ss_xstrdup(one);
    free(words);
    free(one);
    free(fn);
    clang_disposeString(name);
    return longer;
}

/* The words of the note: the streams of the work's function and the branch they are on, the
 * unit's other streams, and the wait after the work. */
static char *branch_words(const stream_var *vars, long count, CXCursor function, CXCursor arm,
                          CXCursor if_stmt, int else_arm, CXCursor wait)
{
    char *own = NULL, *others = NULL;
    for (long i = 0; i < count; i++) {
        if (clang_equalCursors(vars[i].function, function))
            own = add_name(own, &vars[i], 0);
        else
            others = add_name(others, &vars[i], 1);
    }
    char *fn = ss_qualified_name(function);
    char *place = ss_callgraph_place(wait);
    char *branch = else_arm ? ss_xasprintf("'else' branch (line %u)", ss_scope_line(arm))
                            : ss_xstrdup("first branch");
    char *first = own ? ss_xasprintf("the streams of '%s' (%s) are created only in the %s of "
                                     "the 'if' at line %u",
                                     fn ? fn : "?", own, branch, ss_scope_line(if_stmt))
                      : NULL;
    free(branch);
    char *second = others ? ss_xasprintf("%sthe unit's %sstreams (%s) are locals that their "
                                         "functions drain before returning, without reaching "
                                         "this code meanwhile",
                                         own ? "; " : "", own ? "other " : "", others)
                          : ss_xstrdup("");
    char *words = ss_xasprintf("no other stream exists on this path: %s%s; the wait for the "
                               "whole device at %s drains this work before any of them is "
                               "given more",
                               first ? first : "", second, place);
    free(first);
    free(second);
    free(place);
    free(fn);
    free(own);
    free(others);
    return words;
}

char *ss_context_other_branch_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor function = ctx->function;
    if (ctx->torch || ctx->per_thread || ss_ast_is_null(function) ||
        clang_getCursorKind(function) == CXCursor_LambdaExpr)
        return NULL;
    stream_var vars[MAX_VARS];
    CXCursor targets[MAX_VARS + 1], arm = clang_getNullCursor(), if_stmt = arm;
    long count = collect_vars(ctx, vars);
    size_t target_count = 0;
    int else_arm = 0;
    for (long i = 0; i < count; i++) {
        int mine = clang_equalCursors(vars[i].function, function), side = 0;
        CXCursor stmt = clang_getNullCursor();
        CXCursor branch = mine ? other_branch(function, at, &vars[i], &side, &stmt) : arm;
        if ((mine && ss_ast_is_null(branch)) || ss_ast_is_null(drained(ctx, &vars[i], function)))
            return NULL;
        if (mine && ss_ast_is_null(arm)) {
            arm = branch;
            else_arm = side;
            if_stmt = stmt;
        }
        size_t k = 0;
        while (k < target_count && !clang_equalCursors(targets[k], vars[i].function))
            k++;
        if (k == target_count)
            targets[target_count++] = vars[i].function;
    }
    if (count <= 0)
        return NULL;
    targets[target_count++] = function;
    drain_walk w;
    memset(&w, 0, sizeof w);
    w.graph = ss_check_graph(ctx);
    w.targets = targets;
    w.target_count = target_count;
    CXCursor wait = drain_after(&w, function, at);
    return ss_ast_is_null(wait) ? NULL
                                : branch_words(vars, count, function, arm, if_stmt, else_arm, wait);
}
