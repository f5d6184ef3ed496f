/* chooses.c: a readback in a loop whose value chooses the next device work, and a getter whose
 * every call in a loop needs its value so (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_STATEMENTS = 256,
    MAX_DERIVED = 4,
    MAX_STEPS = 24,
    MAX_MOVES = 64,
    MAX_CALLS = 32,
    MAX_NAMED = 3,
    MAX_SITES = 16
};

typedef enum step_result { STEP_ON, STEP_DONE, STEP_FAIL, STEP_INTO } step_result;

/* A walk from the statement that gives the host the value to what needs it. */
typedef struct choice_walk {
    ss_check_ctx *ctx;             /* its function is the function walked */
    CXCursor var;                  /* the value's variable */
    CXCursor derived[MAX_DERIVED]; /* locals computed from it on the way */
    size_t derived_count;
    CXCursor copy; /* the readback, or the getter's call: the walk must not reach it again */
    int sync;      /* the readback waits for all queued work: one-value copies may follow it */
    int turned;    /* the walk went on into the loop's next round */
    unsigned steps;
    char *use; /* what needs the value, in words (malloc'ed) */
} choice_walk;

/* Whether 'c' is 'inner' or holds it (by the tree). */
static int holds(CXCursor c, CXCursor inner)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    int found = ss_ast_same_node(c, inner) || (path && ss_context_path(c, inner, path) >= 0);
    free(path);
    return found;
}

/* Whether 'c' reads the value: the variable or a local computed from it. */
static int names_value(const choice_walk *w, CXCursor c)
{
    if (ss_context_reads_value(c, w->var))
        return 1;
    for (size_t d = 0; d < w->derived_count; d++)
        if (ss_context_reads_value(c, w->derived[d]))
            return 1;
    return 0;
}

/* Whether the argument 'arg' of 'call' goes to a parameter that is a reference to const. */
static int const_reference_arg(CXCursor call, CXCursor arg)
{
    CXCursor callee = clang_getCursorReferenced(call);
    CXType ftype = clang_getCursorType(callee);
    int n = clang_Cursor_getNumArguments(call), params = clang_getNumArgTypes(ftype);
    int shift = clang_getCursorKind(callee) == CXCursor_CXXMethod && params >= 0 && n == params + 1;
    for (int i = 0; i < n; i++) {
        if (!ss_ast_same_node(clang_Cursor_getArgument(call, (unsigned)i), arg))
            continue;
        if (shift && i == 0)
            return 0;
        CXType p = clang_getArgType(ftype, (unsigned)(i - shift));
        return p.kind == CXType_LValueReference &&
               clang_isConstQualifiedType(clang_getPointeeType(p));
    }
    return 0;
}

/* Whether a node stores into 'var' or may: anything but a read of its value (an implicit
 * conversion to a value, under 'sizeof', the right side of an assignment) or an argument for
 * a reference to const; so an assignment ('=', '+='), an increment, its address taken, a
 * reference bound to it, a cast or parentheses around it (kept apart, to be safe), or a lambda
 * that names it. */
typedef struct store_walk {
    CXCursor var;
    int found;
} store_walk;

static int stores_at(CXCursor ref, CXCursor parent)
{
    switch (clang_getCursorKind(parent)) {
    case CXCursor_UnexposedExpr:
    case CXCursor_UnaryExpr:
        return 0;
    case CXCursor_BinaryOperator:
        return ss_ast_same_node(ss_ast_child(parent, 0), ref);
    case CXCursor_CallExpr:
        return !const_reference_arg(parent, ref);
    default:
        return 1;
    }
}

static enum CXChildVisitResult find_store(CXCursor c, CXCursor parent, CXClientData data)
{
    store_walk *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        s->found = ss_context_mentions(c, s->var);
    else if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), s->var))
        s->found = stores_at(c, parent);
    return s->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int modifies(CXCursor c, CXCursor var)
{
    store_walk s = {var, 0};
    ss_ast_visit_whole(c, c, find_store, &s);
    return s.found;
}

/* Whether 'c' holds a jump ('break', 'continue', 'return', 'goto', 'throw'). */
static enum CXChildVisitResult find_jump(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_GotoStmt:
    case CXCursor_CXXThrowExpr:
        *(int *)data = 1;
        return CXChildVisit_Break;
    default:
        return CXChildVisit_Recurse;
    }
}

static int jumps(CXCursor c)
{
    int found = 0;
    ss_ast_visit_whole(c, c, find_jump, &found);
    return found;
}

/* Whether 'c' holds a 'return' or a 'throw' outside any lambda. */
static enum CXChildVisitResult find_return(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k != CXCursor_ReturnStmt && k != CXCursor_CXXThrowExpr)
        return CXChildVisit_Recurse;
    *(int *)data = 1;
    return CXChildVisit_Break;
}

static int returns_within(CXCursor c)
{
    int found = 0;
    clang_visitChildren(c, find_return, &found);
    return found;
}

/* Whether 'c' holds a jump that leaves the loop the readback is in: a 'break' outside any loop
 * or 'switch' within 'c', a 'return' or a 'throw' outside any lambda. A 'continue' (which may
 * skip host code only) and a 'goto' are not counted: the value need not choose anything. */
static enum CXChildVisitResult find_exit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_BreakStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_CXXThrowExpr:
        *(int *)data = 1;
        return CXChildVisit_Break;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_LambdaExpr:
        /* their own breaks; a return in a nested loop still leaves, looked for below */
        if (clang_getCursorKind(c) != CXCursor_LambdaExpr && returns_within(c))
            *(int *)data = 1;
        return *(int *)data ? CXChildVisit_Break : CXChildVisit_Continue;
    default:
        return CXChildVisit_Recurse;
    }
}

static int leaves_loop(CXCursor c)
{
    int found = 0;
    ss_ast_visit_whole(c, c, find_exit, &found);
    return found;
}

/* Whether 'c' calls the toolkit for anything but a query ('cudaGetLastError'). */
static enum CXChildVisitResult find_api(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass != SS_CLASS_QUERY) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'c' calls nothing and loops nowhere: no call, 'new', 'delete', lambda or loop. */
static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr || k == CXCursor_CXXNewExpr || k == CXCursor_CXXDeleteExpr ||
        k == CXCursor_LambdaExpr || ss_scope_is_loop(c)) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'x' is host code that may stand between the readback and what needs the value: it
 * calls nothing, loops nowhere and jumps nowhere ('edges -= scout;', 'tmp = in;'). Host work
 * that calls or loops could come before the readback, overlapping it (a print of the value and
 * a local computed from it are step's). */
static int host_step(CXCursor x)
{
    int found = 0;
    ss_ast_visit_whole(x, x, find_call, &found);
    return !found && !jumps(x);
}

/* Whether 'x' computes with the value in host code of the C or C++ library only: no jump, no
 * call of the toolkit or of the program (it cannot come before the readback). */
static int library_step(const choice_walk *w, CXCursor x)
{
    int api = 0;
    ss_ast_visit_whole(x, x, find_api, &api);
    return !api && !jumps(x) && ss_context_host_only(w->ctx, x);
}

/* Whether the statement 'x' is one a readback may sit in: a declaration, an expression, or an
 * error-checking macro's block; no branch or loop. */
static int plain_statement(CXCursor x)
{
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k == CXCursor_CompoundStmt)
        return !ss_ast_written_as(x, "{");
    if (k == CXCursor_DoStmt)
        return ss_ast_do_once(x);
    return k == CXCursor_DeclStmt || clang_isExpression(k);
}

/* ------------------------------------------------------------------------------------------
 * One-value copies that may stand between: after a synchronous readback nothing is queued, so
 * a synchronous copy of one value to or from the host waits for nothing more and overlaps
 * nothing that could come first. */

typedef struct copy_walk {
    ss_check_ctx *ctx;
    CXCursor function; /* the function the statement is in */
    int nested;        /* inside a function that only copies: no further call of the program */
    int copies, other;
} copy_walk;

static int copy_only_function(ss_check_ctx *ctx, CXCursor callee);

/* Whether 'call' ('api' its row) is a synchronous copy of one value to or from the host. */
static int one_value_copy(const copy_walk *c, CXCursor call, const ss_api *api)
{
    CXCursor dst, src;
    if (api->klass != SS_CLASS_COPY || api->sync != SS_SYNC_ALWAYS ||
        !ss_check_one_value_size(c->ctx, call, api))
        return 0;
    int kind = ss_copy_kind(c->function, call, api, &dst, &src);
    return kind == SS_COPY_KIND_H2D || kind == SS_COPY_KIND_D2H;
}

static enum CXChildVisitResult find_copies(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    copy_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr || k == CXCursor_CXXNewExpr || k == CXCursor_CXXDeleteExpr) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    if (k != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (ss_scope_is_launch(c) || (api && !one_value_copy(w, c, api))) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    if (api || (!w->nested && copy_only_function(w->ctx, c))) {
        w->copies++;
        return CXChildVisit_Recurse;
    }
    w->other = !ss_context_check_call(c);
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* How many one-value copies the statement 'x' of 'function' makes and nothing else (error
 * checks aside; with 'nested', no call of the program); -1 when it does anything else. */
static int copies_only(ss_check_ctx *ctx, CXCursor function, CXCursor x, int nested)
{
    copy_walk c = {ctx, function, nested, 0, 0};
    if (jumps(x))
        return -1;
    ss_ast_visit_whole(x, x, find_copies, &c);
    return c.other ? -1 : c.copies;
}

/* Whether 'call' calls a function of the unit, not virtual, whose body only declares locals,
 * makes one-value copies (a statement each) and returns a local or nothing ('int nitems() {
 * int n; cudaMemcpy(&n, ...); return n; }', 'void reset() { cudaMemcpy(d_n, &zero, ...); }'). */
static int copy_only_function(ss_check_ctx *ctx, CXCursor call)
{
    CXCursor callee = ss_callgraph_callee(ss_check_graph(ctx), call);
    CXCursor body = ss_ast_is_null(callee) ? callee : ss_ast_body(callee);
    if (ss_ast_is_null(body) ||
        (clang_getCursorKind(callee) == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(callee)))
        return 0;
    int copies = 0, found = 0;
    for (unsigned i = 0, n = ss_ast_child_count(body); i < n && copies >= 0; i++) {
        CXCursor s = ss_ast_child(body, i);
        enum CXCursorKind k = clang_getCursorKind(s);
        if (k == CXCursor_DeclStmt || k == CXCursor_ReturnStmt) {
            CXCursor e = k == CXCursor_ReturnStmt && ss_ast_child_count(s) == 1
                             ? ss_ast_strip(ss_ast_child(s, 0))
                             : clang_getNullCursor();
            int plain = k == CXCursor_DeclStmt ? copies_only(ctx, callee, s, 1) == 0
                                               : ss_ast_child_count(s) == 0 ||
                                                     clang_getCursorKind(e) == CXCursor_DeclRefExpr;
            copies = plain ? copies : -1;
        } else if (k != CXCursor_NullStmt) {
            int made = copies_only(ctx, callee, s, 1);
            copies = made == 1 ? copies + 1 : -1;
            found |= made == 1;
        }
    }
    return copies > 0 && found;
}

/* Whether 'x' makes synchronous one-value copies only, itself or through functions that do
 * nothing else, after a synchronous readback, and does not name the value. */
static int copy_step(const choice_walk *w, CXCursor x)
{
    return w->sync && !names_value(w, x) && copies_only(w->ctx, w->ctx->function, x, 0) > 0;
}

/* ------------------------------------------------------------------------------------------
 * The statements after the readback, up to what needs the value. */

/* Whether 'x' (a statement of no branch) sizes a launch, a copy or an allocation with the value
 * or a local computed from it; the words go to 'w->use'. */
static int sized_here(choice_walk *w, CXCursor x)
{
    for (size_t v = 0; v <= w->derived_count; v++) {
        CXCursor var = v == 0 ? w->var : w->derived[v - 1], at;
        char *use = ss_context_sizing_use(ss_check_graph(w->ctx), x, var, &at);
        if (use == NULL)
            continue;
        size_t len = strlen(use);
        CXString name = clang_getCursorSpelling(var);
        if (v == 0)
            w->use = ss_xasprintf("line %u %s", ss_scope_line(at), use);
        else if (len > 8 && strcmp(use + len - 8, " with it") == 0)
            w->use = ss_xasprintf("line %u %.*s with '%s', computed from it", ss_scope_line(at),
                                  (int)(len - 8), use, clang_getCString(name));
        else
            w->use = ss_xasprintf("line %u %s ('%s', computed from it)", ss_scope_line(at), use,
                                  clang_getCString(name));
        clang_disposeString(name);
        free(use);
        return 1;
    }
    return 0;
}

/* Drops the locals computed from the value that 'x' may store into ('k = it++' in a 'for'
 * loop's increment or a loop's condition): they no longer hold it. */
static void drop_stored(choice_walk *w, CXCursor x)
{
    size_t kept = 0;
    for (size_t d = 0; d < w->derived_count; d++)
        if (!modifies(x, w->derived[d]))
            w->derived[kept++] = w->derived[d];
    w->derived_count = kept;
}

/* Drops the locals computed from the value that 'x' may store into; then, where 'x' computes
 * a local from the value in host code ('int blocks = (n - 1) / 256 + 1;', 'grid = n / 4;'),
 * keeps it. Returns 1 for such a statement. */
static int derives(choice_walk *w, CXCursor x)
{
    drop_stored(w, x);
    CXCursor local = clang_getNullCursor(), from = clang_getNullCursor();
    enum CXCursorKind k = clang_getCursorKind(x);
    char op[8];
    if (k == CXCursor_DeclStmt && ss_ast_child_count(x) == 1) {
        local = ss_ast_child(x, 0);
        from = local;
    } else if (k == CXCursor_BinaryOperator && ss_ast_binary_op(x, op, sizeof op) == 0 &&
               strcmp(op, "=") == 0 &&
               clang_getCursorKind(ss_ast_child(x, 0)) == CXCursor_DeclRefExpr) {
        local = clang_getCursorReferenced(ss_ast_child(x, 0));
        from = ss_ast_child(x, 1);
    }
    if (clang_getCursorKind(local) != CXCursor_VarDecl || clang_equalCursors(local, w->var) ||
        clang_Cursor_hasVarDeclGlobalStorage(local) || !names_value(w, from) || !library_step(w, x))
        return 0;
    if (w->derived_count < MAX_DERIVED)
        w->derived[w->derived_count++] = local;
    return 1;
}

static unsigned child_index(CXCursor parent, CXCursor child);

/* Whether 'c' queues device work, itself or in the unit's functions it calls. */
static int device_work(const choice_walk *w, CXCursor c)
{
    return ss_context_does_device_work(ss_check_graph(w->ctx), c) ||
           ss_scope_has_work(c, SS_SCOPE_DEVICE_WORK, NULL);
}

/* Whether leaving at the 'if' 'x' skips device work: 'x' is in a loop of the walk's function
 * (the loop the readback is in), or a statement after it in the function queues some. In a
 * function that a loop calls, a 'return' with nothing after the 'if' but host code chooses
 * nothing: the function ends there anyway. */
static int leaving_skips_work(const choice_walk *w, CXCursor x)
{
    if (!ss_ast_is_null(ss_scope_enclosing_loop(w->ctx->function, x)))
        return 1;
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path), child = x;
    long found = path ? ss_context_path(w->ctx->function, x, path) : -1;
    int work = 0;
    for (long at = found - 1; at >= 0 && !work; at--) {
        unsigned n = ss_ast_child_count(path[at]);
        for (unsigned i = child_index(path[at], child) + 1;
             clang_getCursorKind(path[at]) == CXCursor_CompoundStmt && i < n && !work; i++)
            work = device_work(w, ss_ast_child(path[at], i));
        child = path[at];
    }
    free(path);
    return work;
}

/* Whether a branch of the 'if' 'x' queues device work or leaves the loop (leaves_loop) where
 * that skips device work (leaving_skips_work): the value decides what runs next. */
static int chooses(const choice_walk *w, CXCursor x)
{
    for (unsigned i = ss_ast_if_condition(x) + 1, n = ss_ast_child_count(x); i < n; i++) {
        CXCursor branch = ss_ast_child(x, i);
        if (device_work(w, branch) || (leaves_loop(branch) && leaving_skips_work(w, x)))
            return 1;
    }
    return 0;
}

static step_result step(choice_walk *w, CXCursor x);

/* Walks the block 'block' from its start, into the blocks it holds: what step says of the
 * first statement that ends the walk, or STEP_ON at the block's end. */
static step_result block_walk(choice_walk *w, CXCursor block)
{
    for (unsigned i = 0, n = ss_ast_child_count(block); i < n; i++) {
        CXCursor x = ss_ast_child(block, i);
        step_result r = step(w, x);
        if (r == STEP_INTO)
            r = block_walk(w, x);
        if (r != STEP_ON)
            return r;
    }
    return STEP_ON;
}

/* An 'if' with an 'else' whose condition does not name the value, host code of the C or C++
 * library only ('if (m_render_ground_truth)'): where each branch, walked from its start, needs
 * the value before any other device work, the walk ends, in words "each branch of line 502's
 * 'if' needs it first: line 503 ...; line 529 ...". Returns 1 then. */
static int both_need(choice_walk *w, CXCursor x)
{
    unsigned cond = ss_ast_if_condition(x);
    if (ss_ast_child_count(x) != cond + 3 || names_value(w, ss_ast_child(x, cond)) ||
        !library_step(w, ss_ast_child(x, cond)))
        return 0;
    choice_walk arms[2];
    int done = 1;
    for (unsigned a = 0; a < 2; a++) {
        arms[a] = *w;
        arms[a].use = NULL;
        CXCursor arm = ss_ast_child(x, cond + 1 + a);
        step_result r = clang_getCursorKind(arm) == CXCursor_CompoundStmt
                            ? block_walk(&arms[a], arm)
                            : step(&arms[a], arm);
        done &= r == STEP_DONE;
    }
    if (done)
        w->use = ss_xasprintf("each branch of line %u's 'if' needs it first: %s; %s",
                              ss_scope_line(x), arms[0].use, arms[1].use);
    free(arms[0].use);
    free(arms[1].use);
    return done;
}

/* An 'if': a test of the value that chooses what runs next ends the walk (in the loop's next
 * round, before the branch that holds the readback), as does one on another value each of
 * whose branches needs the value first (both_need); one of host code only is passed. */
static step_result branch_step(choice_walk *w, CXCursor x)
{
    drop_stored(w, x);
    CXCursor cond = ss_ast_child(x, ss_ast_if_condition(x));
    if (names_value(w, cond) && !modifies(cond, w->var) && library_step(w, cond) && chooses(w, x)) {
        w->use = ss_xasprintf("line %u's 'if' tests it before any launch", ss_scope_line(x));
        return STEP_DONE;
    }
    if (!holds(x, w->copy) && !modifies(cond, w->var) && both_need(w, x))
        return STEP_DONE;
    return !holds(x, w->copy) && !modifies(x, w->var) && host_step(x) ? STEP_ON : STEP_FAIL;
}

/* One statement 'x' after the readback: what needs the value (STEP_DONE), what may stand
 * between (STEP_ON), a block to go into (STEP_INTO), or anything else (STEP_FAIL). */
static step_result step(choice_walk *w, CXCursor x)
{
    enum CXCursorKind k = clang_getCursorKind(x);
    if (k == CXCursor_NullStmt)
        return STEP_ON;
    if (++w->steps > MAX_STEPS)
        return STEP_FAIL;
    if (k == CXCursor_CompoundStmt && ss_ast_written_as(x, "{"))
        return STEP_INTO;
    if (k == CXCursor_IfStmt)
        return branch_step(w, x);
    if (holds(x, w->copy))
        return STEP_FAIL;
    if (plain_statement(x) && sized_here(w, x))
        return STEP_DONE;
    if (modifies(x, w->var))
        return STEP_FAIL;
    if (derives(w, x) || host_step(x) || ss_context_is_wait(x) ||
        (names_value(w, x) && ss_context_print_statement(x)) || copy_step(w, x))
        return STEP_ON;
    return STEP_FAIL;
}

/* The index of the child 'child' of 'parent', or the count of its children. */
static unsigned child_index(CXCursor parent, CXCursor child)
{
    unsigned i = 0, n = ss_ast_child_count(parent);
    while (i < n && !ss_ast_same_node(ss_ast_child(parent, i), child))
        i++;
    return i;
}

/* The end of the body of the loop 'loop', whose condition is 'cond': a condition that tests
 * the value ends the walk; one of host code that does not name it sends the walk on into the
 * loop's next round, once. */
static step_result turn(choice_walk *w, CXCursor cond, unsigned *index)
{
    if (modifies(cond, w->var) || !host_step(cond))
        return STEP_FAIL;
    drop_stored(w, cond);
    if (names_value(w, cond)) {
        w->use = ss_xasprintf("line %u, the loop's condition, tests it before any launch",
                              ss_scope_line(cond));
        return STEP_DONE;
    }
    if (w->turned)
        return STEP_FAIL;
    w->turned = 1;
    *index = 0;
    return STEP_ON;
}

/* The end of the block '*block': the walk goes on after the statement it ends (past the 'if'
 * statements around it, whose branch it is), or at the end of the body of a 'while' or 'do'
 * loop to its condition (turn), of a 'for' loop with all its parts written through its
 * increment (host code that calls nothing and leaves the value alone) to its condition. */
static step_result up(choice_walk *w, CXCursor *block, unsigned *index)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    long found = path ? ss_context_path(w->ctx->function, *block, path) : -1;
    step_result r = STEP_FAIL;
    long at = found - 1;
    CXCursor child = *block;
    while (at >= 0 && clang_getCursorKind(path[at]) == CXCursor_IfStmt)
        child = path[at--];
    enum CXCursorKind k = at >= 0 ? clang_getCursorKind(path[at]) : CXCursor_FirstInvalid;
    if (k == CXCursor_CompoundStmt) {
        *index = child_index(path[at], child) + 1;
        *block = path[at];
        r = STEP_ON;
    } else if (at == found - 1 && k == CXCursor_DoStmt && !ss_ast_do_once(path[at]) &&
               ss_ast_same_node(ss_ast_child(path[at], 0), *block)) {
        r = turn(w, ss_ast_child(path[at], 1), index);
    } else if (at == found - 1 && k == CXCursor_WhileStmt &&
               ss_ast_same_node(ss_ast_child(path[at], ss_ast_child_count(path[at]) - 1), *block)) {
        r = turn(w, ss_ast_child(path[at], ss_ast_if_condition(path[at])), index);
    } else if (at == found - 1 && k == CXCursor_ForStmt && ss_ast_child_count(path[at]) == 4 &&
               ss_ast_same_node(ss_ast_child(path[at], 3), *block)) {
        /* all four parts written ('for (i = 0; i < n && left > 0; ++i)'): the increment, then
         * the condition */
        CXCursor inc = ss_ast_child(path[at], 2);
        if (host_step(inc) && !modifies(inc, w->var)) {
            drop_stored(w, inc);
            r = turn(w, ss_ast_child(path[at], 1), index);
        }
    }
    free(path);
    return r;
}

/* Walks from the statement 'stmt' (a child of a block of the walk's function) to what needs
 * the value. Returns 1 when something does on every way, before any other device work. */
static int walk_from(choice_walk *w, CXCursor stmt)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    long found = path ? ss_context_path(w->ctx->function, stmt, path) : -1;
    CXCursor block = found >= 1 ? path[found - 1] : clang_getNullCursor();
    free(path);
    if (clang_getCursorKind(block) != CXCursor_CompoundStmt)
        return 0;
    unsigned index = child_index(block, stmt) + 1;
    for (int moves = 0; moves < MAX_MOVES; moves++) {
        step_result r;
        if (index < ss_ast_child_count(block)) {
            CXCursor x = ss_ast_child(block, index++);
            r = step(w, x);
            if (r == STEP_INTO) {
                block = x;
                index = 0;
                continue;
            }
        } else {
            r = up(w, &block, &index);
        }
        if (r != STEP_ON)
            return r == STEP_DONE;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The variable: a plain local whose address goes to copies only. */

typedef struct address_walk {
    CXCursor var;
    unsigned sites[MAX_SITES]; /* '&var' as an argument of a copy */
    size_t count;
    int refused;
} address_walk;

/* Whether 'c' is '&var'. */
static int address_of(CXCursor c, CXCursor var)
{
    if (clang_getCursorKind(c) != CXCursor_UnaryOperator || ss_ast_child_count(c) != 1)
        return 0;
    CXCursor e = ss_ast_strip(ss_ast_child(c, 0));
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(e), var))
        return 0;
    char *text = ss_expr_text(c);
    int is = text == NULL || (text[0] == '&' && text[1] != '&');
    free(text);
    return is;
}

static enum CXChildVisitResult find_copy_sites(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    address_walk *w = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    for (int i = 0, n = api && api->klass == SS_CLASS_COPY ? clang_Cursor_getNumArguments(c) : 0;
         i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (address_of(arg, w->var) && w->count < MAX_SITES)
            w->sites[w->count++] = ss_ast_offset(arg);
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_other_site(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    address_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if ((k == CXCursor_LambdaExpr ||
         (k == CXCursor_VarDecl &&
          (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference))) &&
        ss_context_mentions(c, w->var)) {
        w->refused = 1; /* another name for it: 'int &seen = changed;', a lambda's capture */
        return CXChildVisit_Break;
    }
    if (!address_of(c, w->var))
        return CXChildVisit_Recurse;
    unsigned at = ss_ast_offset(c);
    int copied = 0;
    for (size_t i = 0; i < w->count && !copied; i++)
        copied = w->sites[i] == at;
    w->refused = !copied;
    return w->refused ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether 'var' is a plain local of 'function' (ss_context_plain_local) whose address goes to
 * no call but copies, bound to no reference and named in no lambda: nothing else may store into
 * it through another name. */
static int value_local(CXCursor function, CXCursor var)
{
    CXCursor body = ss_ast_body(ss_scope_outer_function(function));
    if (ss_ast_is_null(body) || !ss_context_plain_local(var) ||
        !clang_equalCursors(clang_getCursorSemanticParent(var), ss_scope_outer_function(function)))
        return 0;
    address_walk w;
    memset(&w, 0, sizeof w);
    w.var = var;
    clang_visitChildren(body, find_copy_sites, &w);
    clang_visitChildren(body, find_other_site, &w);
    return !w.refused;
}

/* Whether the copy 'copy' waits for all the work queued before it: a synchronous API copy. */
static int synchronous(CXCursor copy)
{
    const ss_api *api = ss_scope_callee_api(copy);
    return api && api->klass == SS_CLASS_COPY && api->sync == SS_SYNC_ALWAYS;
}

/* The words of a walk that ended well: "line 104's 'if' tests it before any launch, in the
 * loop's next round". Malloc'ed. */
static char *walk_words(const choice_walk *w)
{
    return ss_xasprintf("%s%s", w->use, w->turned ? ", in the loop's next round" : "");
}

/* ------------------------------------------------------------------------------------------
 * A getter's calls. */

/* Whether 'function' reads one value back and returns it, three statements: it declares the
 * plain local 'var' (calling nothing), 'stmt' reads the value back into it, and it returns
 * 'var'; or four, where the readback is asynchronous and 'ready', the wait for it, comes
 * between the readback and the return. */
static int is_getter(ss_check_ctx *ctx, CXCursor function, CXCursor var, CXCursor stmt,
                     CXCursor ready)
{
    CXCursor body = ss_ast_body(function), s[4];
    unsigned count = 0, want = ss_ast_same_node(stmt, ready) ? 3 : 4;
    for (unsigned i = 0, n = ss_ast_is_null(body) ? 0 : ss_ast_child_count(body); i < n; i++) {
        CXCursor c = ss_ast_child(body, i);
        if (clang_getCursorKind(c) != CXCursor_NullStmt && count++ < 4)
            s[count - 1] = c;
    }
    if (count != want || clang_getCursorKind(s[0]) != CXCursor_DeclStmt ||
        ss_ast_child_count(s[0]) != 1 || !clang_equalCursors(ss_ast_child(s[0], 0), var) ||
        copies_only(ctx, function, s[0], 1) != 0 || !ss_ast_same_node(s[1], stmt) ||
        (want == 4 && !ss_ast_same_node(s[2], ready)) ||
        clang_getCursorKind(s[want - 1]) != CXCursor_ReturnStmt ||
        ss_ast_child_count(s[want - 1]) != 1)
        return 0;
    CXCursor e = ss_ast_strip(ss_ast_child(s[want - 1], 0));
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* The statement of 'caller' that stores what 'call' returns, as a whole, into a local ('n =
 * q->nitems();', 'int n = q->nitems();'), a child of a block; that local into '*local'. A null
 * cursor otherwise. */
static CXCursor storing_statement(CXCursor caller, CXCursor call, CXCursor *local)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path), none = clang_getNullCursor();
    long at = (path ? ss_context_path(caller, call, path) : -1) - 1;
    CXCursor stmt = none;
    while (at >= 0 && (clang_getCursorKind(path[at]) == CXCursor_UnexposedExpr ||
                       clang_getCursorKind(path[at]) == CXCursor_ParenExpr))
        at--;
    char op[8];
    enum CXCursorKind k = at >= 0 ? clang_getCursorKind(path[at]) : CXCursor_FirstInvalid;
    if (k == CXCursor_BinaryOperator && at >= 1 && ss_ast_binary_op(path[at], op, sizeof op) == 0 &&
        strcmp(op, "=") == 0 && clang_getCursorKind(path[at - 1]) == CXCursor_CompoundStmt &&
        clang_getCursorKind(ss_ast_child(path[at], 0)) == CXCursor_DeclRefExpr) {
        *local = clang_getCursorReferenced(ss_ast_child(path[at], 0));
        stmt = path[at];
    } else if (k == CXCursor_VarDecl && at >= 2 &&
               clang_getCursorKind(path[at - 1]) == CXCursor_DeclStmt &&
               ss_ast_child_count(path[at - 1]) == 1 &&
               clang_getCursorKind(path[at - 2]) == CXCursor_CompoundStmt) {
        *local = path[at];
        stmt = path[at - 1];
    }
    free(path);
    return stmt;
}

/* Whether 'c' lies inside a lambda of 'function'. */
static int in_lambda(CXCursor function, CXCursor c)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    long found = path ? ss_context_path(function, c, path) : -1;
    int inside = found < 0;
    for (long i = 0; i < found && !inside; i++)
        inside = clang_getCursorKind(path[i]) == CXCursor_LambdaExpr;
    free(path);
    return inside;
}

/* Whether the call 'call' of the getter, in 'caller', needs the value at once: 1, with the
 * words in '*use'; 0 for a call that no loop repeats (no loop of the unit reaches its caller,
 * which no other unit may call; a caller another unit may call is asked as a loop's); -1 for any
 * other. */
static int caller_needs(ss_check_ctx *ctx, CXCursor call, CXCursor caller, int sync, char **use)
{
    if (clang_getCursorKind(caller) == CXCursor_LambdaExpr || in_lambda(caller, call))
        return -1;
    if (ss_ast_is_null(ss_scope_enclosing_loop(caller, call))) {
        if (ss_callgraph_loop_reaches(ss_check_graph(ctx), caller, SS_SCOPE_DEVICE_WORK))
            return -1;
        /* a function another unit may call may be called from a loop there: its value must
         * be needed at once too */
        if (clang_getCursorLinkage(caller) == CXLinkage_Internal)
            return 0;
    }
    CXCursor local = clang_getNullCursor();
    CXCursor stmt = storing_statement(caller, call, &local);
    if (ss_ast_is_null(stmt) || !value_local(caller, local))
        return -1;
    ss_check_ctx sub = *ctx;
    sub.function = caller;
    choice_walk w;
    memset(&w, 0, sizeof w);
    w.ctx = &sub;
    w.var = local;
    w.copy = call;
    w.sync = sync;
    if (!walk_from(&w, stmt)) {
        free(w.use);
        return -1;
    }
    *use = walk_words(&w);
    free(w.use);
    return 1;
}

/* "inherent: each call of 'Worklist::nitems()' in a loop of the unit needs the value before
 * any other device work: hybrid_base.cu:130 (line 133 sizes a launch with 'mblocks', computed
 * from it), ..." where the getter 'function' (is_getter), whose calls the unit sees all
 * (ss_callgraph_only_here), is called in loops only where the caller needs the value at once
 * (caller_needs), once at least. Malloc'ed, or NULL. */
static char *getter_words(ss_check_ctx *ctx, CXCursor function, CXCursor var, CXCursor copy,
                          CXCursor stmt, CXCursor ready)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor calls[MAX_CALLS], callers[MAX_CALLS];
    if (!is_getter(ctx, function, var, stmt, ready) ||
        ss_callgraph_only_here(graph, function) == NULL)
        return NULL;
    long n = ss_callgraph_calls_of(graph, function, calls, callers, MAX_CALLS);
    char *list = ss_xstrdup("");
    int needs = 0;
    for (long i = 0; i < n && n <= MAX_CALLS && needs >= 0; i++) {
        char *use = NULL;
        int r = caller_needs(ctx, calls[i], callers[i], synchronous(copy), &use);
        needs = r < 0 ? -1 : needs + r;
        if (r > 0 && needs <= MAX_NAMED) {
            char *place = ss_callgraph_place(calls[i]);
            char *longer = ss_xasprintf("%s%s%s (%s)", list, needs > 1 ? ", " : "", place, use);
            free(place);
            free(list);
            list = longer;
        }
        free(use);
    }
    char *words = NULL;
    if (needs > 0 && n <= MAX_CALLS) {
        char *name = ss_qualified_name(function);
        char *more =
            needs > MAX_NAMED ? ss_xasprintf(", and %d more", needs - MAX_NAMED) : ss_xstrdup("");
        words = ss_xasprintf("inherent: each call of '%s()' in a loop of the unit needs the value "
                             "before any other device work: %s%s",
                             name, list, more);
        free(more);
        free(name);
    }
    free(list);
    return words;
}

/* The readback the finding is about, found in 'stmts' ('n' of them; ss_context_loop_value):
 * its value's variable, the copy into '*copy', the statement that holds the copy into '*stmt'
 * and the one the host has the value after into '*ready': the copy's own for a synchronous
 * copy, else the wait for it (the finding's own for a wait, SYNC401). A null cursor when there
 * is none. */
static CXCursor readback_of(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, CXCursor *copy,
                            CXCursor *stmt, CXCursor *ready)
{
    CXCursor *stmts = malloc(MAX_STATEMENTS * sizeof *stmts), none = clang_getNullCursor();
    unsigned n = 0, from = 0, wait = 0;
    CXCursor var =
        stmts ? ss_context_loop_value(ctx, rule, at, copy, stmts, MAX_STATEMENTS, &n, &from) : none;
    *stmt = none;
    *ready = none;
    if (!ss_ast_is_null(var) && rule == SS_RULE_SYNC_IN_LOOP) {
        for (unsigned back = 1; back <= 3 && back <= from && ss_ast_is_null(*stmt); back++)
            *stmt = holds(stmts[from - back], *copy) ? stmts[from - back] : none;
        /* In a loop, a copy after the wait comes before the next round's wait; outside one,
         * only the copies before it are waited for. */
        unsigned upto = ss_ast_is_null(ss_scope_enclosing_loop(ctx->function, at)) ? from : n;
        if (ss_context_wait_for_value(ctx->function, at, stmts, upto, *copy))
            *ready = stmts[from];
    } else if (!ss_ast_is_null(var)) {
        *stmt = stmts[from];
        int sync = synchronous(*copy);
        wait = sync ? from : ss_context_readback_wait(ctx, *copy, stmts, n, from, var);
        *ready = sync || wait > 0 ? stmts[wait] : none;
    }
    free(stmts);
    return ss_ast_is_null(*stmt) || ss_ast_is_null(*ready) ? none : var;
}

char *ss_context_chooses_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at,
                               const ss_loop_context *loop)
{
    CXCursor copy = clang_getNullCursor(), stmt, ready;
    CXCursor var = readback_of(ctx, rule, at, &copy, &stmt, &ready);
    if (ss_ast_is_null(var) || !plain_statement(stmt) || !value_local(ctx->function, var))
        return NULL;
    char *getter =
        loop && loop->chain ? getter_words(ctx, ctx->function, var, copy, stmt, ready) : NULL;
    if (getter)
        return getter;
    choice_walk w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.var = var;
    w.copy = copy;
    w.sync = synchronous(copy);
    char *words = NULL;
    if (walk_from(&w, ready)) {
        char *use = walk_words(&w);
        /* As written: the stall goes only with a decision on the device, which pays most where
         * the host still reads the value every few iterations (tests/gpu/whatif/march_pair.cu:
         * 27-36% on an H100; docs/lint.md). */
        const char *remedy = "; as written: to remove the stall, let the kernels read the value on "
                             "the device and read it back only every few iterations, launching "
                             "for the last value read";
        words = rule == SS_RULE_SYNC_IN_LOOP
                    ? ss_xasprintf("inherent: it waits for the value read back at line %u, "
                                   "which chooses the next device work (%s)%s",
                                   ss_scope_line(copy), use, remedy)
                    : ss_xasprintf("inherent: the value chooses the next device work (%s)%s", use,
                                   remedy);
        free(use);
    }
    free(w.use);
    return words;
}
