/* set_up_flag.c: a one-time set-up behind an early return on a lasting flag the function sets
 * itself (held-out-38's shape CQ, fastllm's FastllmInitTP2P2PState:
 * 'if (state.initialized) return state.available; ...; state.initialized = true;'): what follows
 * the return runs once, until something clears the flag (context_cases.h; docs/lint.md,
 * "Warning or note"). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* Whether 'decl' keeps its value from one call to the next and is no reference: a member, a
 * global, a 'static' local. */
static int lasting_decl(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (clang_getCursorType(decl).kind == CXType_LValueReference)
        return 0;
    if (k == CXCursor_FieldDecl)
        return 1;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    return k == CXCursor_VarDecl &&
           (clang_getCursorLinkage(decl) != CXLinkage_NoLinkage || sc == CX_SC_Static);
}

/* Whether 'e' names a set-up flag: a lasting bool (lasting_decl) whose name says set-up (a word
 * starting with init or setup: 'initialized', 'm_bInitDone', 'initAttempted'). Sets '*decl'. */
static int names_flag(CXCursor e, CXCursor *decl)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if ((k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) ||
        clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Bool)
        return 0;
    CXCursor d = clang_getCursorReferenced(e);
    if (ss_ast_is_null(d) || !lasting_decl(d))
        return 0;
    CXString name = clang_getCursorSpelling(d);
    int says = clang_getCString(name) && ss_callgraph_name_says_set_up(clang_getCString(name));
    clang_disposeString(name);
    if (says)
        *decl = d;
    return says;
}

/* The flag a condition tests and the flag's value for which it holds: 'f' or 'f == true' (1),
 * '!f', 'f == false' or 'f != true' (0); -1 when 'cond' is no such test. Sets '*flag' to the
 * flag's expression and '*decl' to its declaration. */
static int flag_value(CXCursor cond, CXCursor *flag, CXCursor *decl)
{
    CXCursor e = ss_ast_strip(cond);
    char op[8];
    long long value = 0;
    if (names_flag(e, decl)) {
        *flag = e;
        return 1;
    }
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_first_token_is(e, "!") &&
        names_flag(ss_ast_child(e, 0), decl)) {
        *flag = ss_ast_strip(ss_ast_child(e, 0));
        return 0;
    }
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(e, op, sizeof op) != 0 || (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0))
        return -1;
    for (unsigned side = 0; side < 2; side++) {
        CXCursor f = ss_ast_child(e, side), other = ss_ast_child(e, 1 - side);
        if (names_flag(f, decl) && ss_ast_eval_int(other, &value) == 0 &&
            (value == 0 || value == 1)) {
            *flag = ss_ast_strip(f);
            return (value != 0) == (strcmp(op, "==") == 0);
        }
    }
    return -1;
}

/* Whether 'stmt' is a return alone ('return;', '{ return state.available; }'). */
static int only_returns(CXCursor stmt)
{
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt && ss_ast_child_count(stmt) == 1)
        stmt = ss_ast_child(stmt, 0);
    return clang_getCursorKind(stmt) == CXCursor_ReturnStmt;
}

/* A guard found: the 'if' statement, the flag's expression and declaration, the value for which
 * it returns. */
typedef struct flag_guard {
    CXCursor stmt, flag, decl;
    int returns_on;
} flag_guard;

/* Whether 'c' is 'flag = C' for the guard's flag (the same declaration, written the same way),
 * C a constant that is 'value' as a truth value. */
static int stores(CXCursor c, const flag_guard *g, int value)
{
    char op[8];
    long long v = 0;
    c = ss_ast_strip(c);
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(c, op, sizeof op) != 0 || strcmp(op, "=") != 0)
        return 0;
    CXCursor lhs = ss_ast_strip(ss_ast_child(c, 0));
    enum CXCursorKind k = clang_getCursorKind(lhs);
    if ((k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) ||
        !clang_equalCursors(clang_getCursorReferenced(lhs), g->decl) ||
        ss_ast_eval_int(ss_ast_child(c, 1), &v) != 0 || (v != 0) != (value != 0))
        return 0;
    if (ss_ast_is_null(g->flag))
        return 1;
    char *a = ss_expr_text(lhs), *b = ss_expr_text(g->flag);
    int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    return same;
}

/* A store of a constant to the guard's flag ('value' as a truth value) after offset 'after',
 * outside lambdas. */
typedef struct store_walk {
    const flag_guard *g;
    int value;
    unsigned after;
    CXCursor found;
} store_walk;

static enum CXChildVisitResult find_store(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    store_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (ss_ast_offset(c) >= w->after && stores(c, w->g, w->value)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether a function of the unit that a loop enqueueing device work reaches (or that holds such
 * a loop) clears the flag, storing the value for which the guard lets the set-up run: a flag
 * cleared on every iteration (a 'dirty' mark) guards nothing. Sets '*where' to the store. */
static int cleared_in_loop(ss_callgraph *graph, const flag_guard *g, CXCursor *where)
{
    flag_guard any = *g;
    any.flag = clang_getNullCursor(); /* any object's flag */
    size_t n = ss_callgraph_function_count(graph);
    for (size_t i = 0; i < n; i++) {
        CXCursor fn = ss_callgraph_function(graph, i);
        store_walk w = {&any, !g->returns_on, 0, clang_getNullCursor()};
        clang_visitChildren(fn, find_store, &w);
        if (ss_ast_is_null(w.found))
            continue;
        ss_loop_reach reach;
        memset(&reach, 0, sizeof reach);
        int reached = ss_callgraph_reached_from_loop(graph, fn, SS_SCOPE_ENQUEUES, &reach) ||
                      !ss_ast_is_null(ss_scope_enclosing_loop(fn, w.found));
        ss_loop_reach_free(&reach);
        if (reached) {
            *where = w.found;
            return 1;
        }
    }
    return 0;
}

/* The guard among the statements of 'body' before its child 'holder': 'if (FLAG) return ...;'
 * with no else. Fills '*g'. */
static int find_guard(CXCursor body, CXCursor holder, flag_guard *g)
{
    for (unsigned i = 0, n = ss_ast_child_count(body); i < n; i++) {
        CXCursor s = ss_ast_child(body, i);
        if (ss_ast_same_node(s, holder))
            return 0;
        if (clang_getCursorKind(s) != CXCursor_IfStmt)
            continue;
        unsigned c = ss_ast_if_condition(s);
        if (c + 2 != ss_ast_child_count(s) || !only_returns(ss_ast_child(s, c + 1)))
            continue;
        g->returns_on = flag_value(ss_ast_child(s, c), &g->flag, &g->decl);
        if (g->returns_on >= 0) {
            g->stmt = s;
            return 1;
        }
    }
    return 0;
}

char *ss_context_set_up_flag_words(ss_callgraph *graph, CXCursor function, CXCursor holder,
                                   CXCursor at, int file_place)
{
    CXCursor body = ss_ast_body(function);
    if (ss_ast_is_null(body) || clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return NULL;
    flag_guard g = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), -1};
    if (!find_guard(body, holder, &g))
        return NULL;
    unsigned begin, end;
    ss_ast_range(g.stmt, &begin, &end);
    store_walk w = {&g, g.returns_on, end, clang_getNullCursor()};
    clang_visitChildren(body, find_store, &w);
    CXCursor cleared;
    if (ss_ast_is_null(w.found) || cleared_in_loop(graph, &g, &cleared))
        return NULL;
    char *flag = ss_expr_text(g.flag);
    char *guard_at =
        file_place ? ss_callgraph_place(g.stmt) : ss_xasprintf("line %u", ss_scope_line(g.stmt));
    char *words =
        ss_xasprintf("%s returns early while '%s' is %s, and line %u sets it so", guard_at,
                     flag ? flag : "?", g.returns_on ? "true" : "false", ss_scope_line(w.found));
    free(guard_at);
    free(flag);
    return words;
}
