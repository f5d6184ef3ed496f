/* device_sum.c: one value read back from each of several devices, combined on the host and
 * given to the next kernel launch as an argument (a norm reduced across GPUs): the host needs
 * the values before it can launch, so the readbacks, the wait for them, and a stream wait that
 * this wait covers are inherent there (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many statements after the readbacks' loop the launch is looked for, how many variables
 * may carry the values, and how many statements of one block are looked at. */
enum { MAX_AFTER = 10, MAX_CARRIERS = 8, MAX_STMTS = 256 };

/* What the readbacks' values go through: the buffer read into, then the variables assigned
 * from it; where the host combines them (a loop reading the buffer), the device-wide wait in
 * a loop over the devices that waits for them, and the launch given them. */
typedef struct carried {
    CXCursor decls[MAX_CARRIERS];
    int count;
    CXCursor combine, combined; /* the loop and the first variable it assigns */
    CXCursor join;              /* the device-wide wait, or a null cursor */
    CXCursor launch;
} carried;

static CXCursor device_wait_in(CXCursor c)
{
    CXCursor found = clang_getNullCursor();
    ss_ast_visit_whole(c, c, ss_find_device_wait, &found);
    return found;
}

/* Whether the loop 'loop' sets the device it works on: each iteration another device. */
static int over_devices(CXCursor loop)
{
    return ss_scope_is_loop(loop) && ss_scope_sets_device(loop, 0);
}

/* The buffer whose element the copy's destination is ('&h[d]', 'h + d'), or a null cursor. */
static CXCursor element_buffer(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_UnaryOperator) {
        e = ss_ast_strip(ss_ast_child(e, 0));
        if (clang_getCursorKind(e) != CXCursor_ArraySubscriptExpr)
            return clang_getNullCursor();
    } else if (k != CXCursor_BinaryOperator) {
        return clang_getNullCursor();
    }
    CXCursor base = ss_ast_strip(ss_ast_child(e, 0));
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr &&
        clang_getCursorKind(base) != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    CXCursor decl = clang_getCursorReferenced(base);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    return dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl || dk == CXCursor_FieldDecl
               ? decl
               : clang_getNullCursor();
}

/* Whether 'e' is or holds a reference to one of the carriers. */
static int carries(CXCursor e, const carried *c)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    for (int i = 0; i < c->count; i++) {
        if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
            clang_equalCursors(clang_getCursorReferenced(e), c->decls[i]))
            return 1;
        if (ss_context_mentions(e, c->decls[i]))
            return 1;
    }
    return 0;
}

/* Adds 'decl' to the carriers ('loop': the statement it is assigned in, when a loop). */
static void carry(carried *c, CXCursor decl, CXCursor loop)
{
    for (int i = 0; i < c->count; i++)
        if (clang_equalCursors(c->decls[i], decl))
            return;
    if (c->count == MAX_CARRIERS)
        return;
    if (ss_ast_is_null(c->combine) && !ss_ast_is_null(loop)) {
        c->combine = loop;
        c->combined = decl;
    }
    c->decls[c->count++] = decl;
}

typedef struct assign_walk {
    carried *c;
    CXCursor loop; /* the statement walked, when a loop */
} assign_walk;

/* An assignment ('x = e', 'x += e') or an initialized variable whose value names a carrier
 * makes what it assigns a carrier. */
static enum CXChildVisitResult find_assignment(CXCursor c, CXCursor parent, CXClientData data)
{
    assign_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[4] = "";
    if (k == CXCursor_VarDecl && ss_ast_child_count(c) > 0 &&
        carries(ss_ast_child(c, ss_ast_child_count(c) - 1), w->c)) {
        carry(w->c, c, w->loop);
    } else if (k == CXCursor_CompoundAssignOperator ||
               (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
                strcmp(op, "=") == 0)) {
        CXCursor lhs = ss_ast_strip(ss_ast_child(c, 0));
        if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr && carries(ss_ast_child(c, 1), w->c))
            carry(w->c, clang_getCursorReferenced(lhs), w->loop);
    }
    return CXChildVisit_Recurse;
}

typedef struct launch_walk {
    const carried *c;
    CXCursor found;
} launch_walk;

static enum CXChildVisitResult find_launch(CXCursor c, CXCursor parent, CXClientData data)
{
    launch_walk *w = data;
    if (!ss_scope_is_launch(c) || clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; i++) {
        if (carries(clang_Cursor_getArgument(c, (unsigned)i), w->c)) {
            w->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

/* Whether 'stmt' leaves its block another way than its end: a return, break, continue, goto. */
static int leaves(CXCursor stmt)
{
    enum CXCursorKind k = clang_getCursorKind(stmt);
    return k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt ||
           k == CXCursor_GotoStmt;
}

/* Looks for the launch given the values in the statements after the readbacks' loop 'rloop' (of
 * its block, up to MAX_AFTER): the statements before it do no device work (they wait for the
 * devices, check errors, compute on the host), and what they assign from a carrier carries the
 * values on; the first statement that does device work must launch a kernel given a carrier,
 * after a loop that combined them. Returns 1 when it does, filling 'c'. */
static int follow(ss_check_ctx *ctx, CXCursor rloop, carried *c)
{
    CXCursor *stmts = ss_xreallocarray(NULL, MAX_STMTS, sizeof *stmts);
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, rloop, stmts, MAX_STMTS, &index);
    int found = 0;
    for (unsigned s = index + 1; n > 0 && s < n && s <= index + MAX_AFTER; s++) {
        CXCursor stmt = stmts[s];
        if (leaves(stmt))
            break;
        if (ss_context_does_device_work(ss_check_graph(ctx), stmt)) {
            launch_walk w = {c, clang_getNullCursor()};
            ss_ast_visit_whole(stmt, stmt, find_launch, &w);
            c->launch = w.found;
            found = !ss_ast_is_null(w.found) && !ss_ast_is_null(c->combine);
            break;
        }
        if (ss_ast_is_null(c->join) && over_devices(stmt))
            c->join = device_wait_in(stmt);
        assign_walk aw = {c, ss_scope_is_loop(stmt) ? stmt : clang_getNullCursor()};
        find_assignment(stmt, stmt, &aw);
        clang_visitChildren(stmt, find_assignment, &aw);
    }
    free(stmts);
    return found;
}

/* Whether the copy 'r' reads one value back into an element of a buffer, in a loop that sets
 * the device on each iteration, and the host then launches a kernel given the values (follow).
 * Fills 'c' and '*rloop', the loop. */
static int summed_readback(ss_check_ctx *ctx, CXCursor r, carried *c, CXCursor *rloop)
{
    const ss_api *api = ss_scope_callee_api(r);
    CXCursor dst = clang_getNullCursor(), src;
    if (api == NULL || api->klass != SS_CLASS_COPY || !ss_check_copies_one_value(ctx, r, api) ||
        ss_copy_kind(ctx->function, r, api, &dst, &src) != SS_COPY_KIND_D2H)
        return 0;
    *rloop = ss_scope_enclosing_loop(ctx->function, r);
    CXCursor buffer = ss_ast_is_null(dst) ? dst : element_buffer(dst);
    if (ss_ast_is_null(*rloop) || !over_devices(*rloop) || ss_ast_is_null(buffer))
        return 0;
    c->decls[0] = buffer;
    c->count = 1;
    c->combine = c->combined = c->join = c->launch = clang_getNullCursor();
    return follow(ctx, *rloop, c);
}

typedef struct copy_walk {
    ss_check_ctx *ctx;
    CXCursor found;
} copy_walk;

static enum CXChildVisitResult find_one_value(CXCursor c, CXCursor parent, CXClientData data)
{
    copy_walk *w = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_COPY && ss_check_copies_one_value(w->ctx, c, api)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The first copy of one value to the host in 'stmt', or a null cursor. */
static CXCursor one_value_copy(ss_check_ctx *ctx, CXCursor stmt)
{
    copy_walk w = {ctx, clang_getNullCursor()};
    ss_ast_visit_whole(stmt, stmt, find_one_value, &w);
    return w.found;
}

/* For the wait 'at': a readback in the statement after the wait's in its block (the wait
 * before the readback); else, in a block around the wait (up to three out), a loop of
 * readbacks as the last statement that does device work before the one that holds the wait,
 * which does none (the wait for the readbacks; '*loop' receives the loop). '*before' says
 * which. A null cursor when there is none. */
static CXCursor readback_near(ss_check_ctx *ctx, CXCursor at, int *before, CXCursor *loop)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ctx->function, at, path);
    CXCursor r = clang_getNullCursor();
    ss_callgraph *graph = ss_check_graph(ctx);
    for (long i = found - 1, blocks = 0; i >= 0 && blocks < 3 && ss_ast_is_null(r); i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
            continue;
        CXCursor holder = i + 1 < found ? path[i + 1] : at;
        unsigned n = ss_ast_child_count(path[i]), h = n;
        for (unsigned s = 0; s < n && h == n; s++)
            if (ss_ast_same_node(ss_ast_child(path[i], s), holder))
                h = s;
        if (h == n || (blocks > 0 && ss_context_does_device_work(graph, holder)))
            break;
        if (blocks++ == 0 && h + 1 < n) {
            r = one_value_copy(ctx, ss_ast_child(path[i], h + 1));
            *before = 1;
        }
        for (unsigned s = h; ss_ast_is_null(r) && s-- > 0;) {
            CXCursor stmt = ss_ast_child(path[i], s);
            if (!ss_context_does_device_work(graph, stmt))
                continue;
            r = ss_scope_is_loop(stmt) ? one_value_copy(ctx, stmt) : clang_getNullCursor();
            *before = 0;
            *loop = stmt;
            break;
        }
    }
    free(path);
    return r;
}

/* "line 21 combines 'h_norm' into 'sum', and line 24 passes it to kernel 'scale'". Malloc'ed. */
static char *use_words(const carried *c)
{
    CXString buffer = clang_getCursorSpelling(c->decls[0]);
    CXString into = clang_getCursorSpelling(c->combined);
    char *kernel = ss_scope_kernel_name(c->launch);
    char *words =
        ss_xasprintf("line %u combines '%s' into '%s', and line %u passes it to "
                     "kernel '%s'",
                     ss_scope_line(c->combine), clang_getCString(buffer), clang_getCString(into),
                     ss_scope_line(c->launch), kernel ? kernel : "...");
    clang_disposeString(buffer);
    clang_disposeString(into);
    free(kernel);
    return words;
}

/* "subsumed: 'cudaDeviceSynchronize' at line 19 waits ...". Malloc'ed. */
static char *subsumed_words(const carried *c, CXCursor r, const char *use)
{
    char *join = ss_scope_callee_name(c->join);
    char *words = ss_xasprintf("subsumed: '%s' at line %u waits for each device's work anyway, "
                               "for the readback at line %u, whose value the host needs to "
                               "launch the next kernel (%s)",
                               join ? join : "...", ss_scope_line(c->join), ss_scope_line(r), use);
    free(join);
    return words;
}

char *ss_context_device_sum_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SCALAR_READBACK && rule != SS_RULE_SYNC_IN_LOOP)
        return NULL;
    int before = 0;
    CXCursor near = clang_getNullCursor(), rloop;
    CXCursor r = rule == SS_RULE_SCALAR_READBACK ? at : readback_near(ctx, at, &before, &near);
    carried c;
    if (ss_ast_is_null(r) || !summed_readback(ctx, r, &c, &rloop))
        return NULL;
    /* The wait before the readback is covered by a join over the devices; the wait after the
     * loop is the readbacks' when the loop is theirs (not a loop around it). */
    if ((before && ss_ast_is_null(c.join)) ||
        (rule == SS_RULE_SYNC_IN_LOOP && !before && !ss_ast_same_node(near, rloop)))
        return NULL;
    char *use = use_words(&c);
    char *words;
    if (rule == SS_RULE_SCALAR_READBACK)
        words = ss_xasprintf("inherent: the host needs the value to launch the next kernel: the "
                             "loop at line %u reads one value back from each device; %s",
                             ss_scope_line(rloop), use);
    else if (before)
        words = subsumed_words(&c, r, use);
    else
        words = ss_xasprintf("inherent: it waits for the values the loop at line %u reads back "
                             "from each device, which the host needs to launch the next kernel "
                             "(%s)",
                             ss_scope_line(rloop), use);
    free(use);
    return words;
}
