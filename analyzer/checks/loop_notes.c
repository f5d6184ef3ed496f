/* loop_notes.c: loops whose iterations cost little although they enqueue device work: a call that
 * runs only when a buffer grows (or while it is unset), a loop that times itself (a benchmark), a
 * sweep over a constant array of settings in a function that runs once, warm-up rounds of a
 * constant count beside the loop that repeats, a branch taken on one pass of the outermost loop, a
 * call once per pass beside an inner loop that blocks the host on each of its own iterations
 * (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------------------------------
 * Buffers that only grow. */

typedef struct assign_walk {
    CXCursor cond;
    CXCursor found; /* the declaration assigned */
} assign_walk;

/* The declaration a 'x' or 'obj.x' names, or a null cursor. */
static CXCursor named_decl(CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    return k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr ? clang_getCursorReferenced(e)
                                                                    : clang_getNullCursor();
}

/* An assignment in the branch to a variable or member the guard's condition names. */
static enum CXChildVisitResult find_assign(CXCursor c, CXCursor parent, CXClientData data)
{
    assign_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if ((k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
         strcmp(op, "=") == 0) ||
        k == CXCursor_CompoundAssignOperator) {
        CXCursor decl = named_decl(ss_ast_child(c, 0));
        if (!ss_ast_is_null(decl)) {
            if (ss_context_mentions(w->cond, decl)) {
                w->found = decl;
                return CXChildVisit_Break;
            }
        }
    }
    return CXChildVisit_Recurse;
}

/* Calls that make a buffer larger: those that size an allocation, the driver's allocations
 * (a virtual memory range's physical memory included), and a host buffer pinned. */
static const char *const growers[] = {SS_SIZING_CALLS,     "cuMemAlloc",      "cuMemAllocHost",
                                      "cuMemAllocManaged", "cuMemAllocPitch", "cuMemAllocAsync",
                                      "cuMemHostAlloc",    "cuMemCreate",     "cudaHostRegister",
                                      "cuMemHostRegister"};

/* Whether 'call' resizes an object the condition 'cond' names: 'v.resize(n)' where the
 * condition compares with 'v' ('v.size() < n'). Sets '*object' to it. */
static int resizes_named(CXCursor call, CXCursor cond, CXCursor *object)
{
    char *name = ss_scope_callee_name(call);
    int resize = name && (strcasecmp(name, "resize") == 0 || strcasecmp(name, "reserve") == 0);
    free(name);
    if (!resize)
        return 0;
    CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
        return 0;
    CXCursor decl = named_decl(ss_ast_child(callee, 0));
    if (ss_ast_is_null(decl))
        return 0;
    int found = ss_context_mentions(cond, decl);
    if (found)
        *object = decl;
    return found;
}

/* Whether 'e' is a null pointer constant ('NULL', 'nullptr', '0'). */
static int is_null_constant(CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    long long value = 1;
    return k == CXCursor_CXXNullPtrLiteralExpr || k == CXCursor_GNUNullExpr ||
           (ss_ast_eval_int(e, &value) == 0 && value == 0);
}

/* Whether the condition 'cond' tests that something is not set yet: 'p == NULL' (or nullptr,
 * 0, either side) or '!p'. */
static int is_null_test(CXCursor cond)
{
    CXCursor e = ss_ast_strip(cond);
    char op[8];
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator &&
        ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "==") == 0)
        return is_null_constant(ss_ast_child(e, 0)) != is_null_constant(ss_ast_child(e, 1));
    return clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_first_token_is(e, "!");
}

/* Whether 'e' names a first-call flag: a bool 'static' local ('static bool first = true;'),
 * which outlives the call and which only its function can set (flag_set_only_in); not a
 * reference ('static bool &first = g_armed;'). */
static int is_flag_name(CXCursor e)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCanonicalType(clang_getCursorType(e)).kind != CXType_Bool)
        return 0;
    CXCursor decl = clang_getCursorReferenced(e);
    return clang_getCursorKind(decl) == CXCursor_VarDecl &&
           clang_getCanonicalType(clang_getCursorType(decl)).kind == CXType_Bool &&
           clang_Cursor_getStorageClass(decl) == CX_SC_Static &&
           clang_getCursorLinkage(decl) == CXLinkage_NoLinkage &&
           ss_ast_is_function(clang_getCursorSemanticParent(decl));
}

/* The value of a first-call flag (is_flag_name) for which the condition 'cond' holds: 1 for
 * 'first' or 'first == true', 0 for '!done', 'done == false' or 'done != true' (the flag
 * against a constant, either side); -1 when 'cond' is no such test. */
static int flag_test_value(CXCursor cond)
{
    CXCursor e = ss_ast_strip(cond);
    char op[8];
    long long value = 0;
    if (is_flag_name(e))
        return 1;
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_first_token_is(e, "!") &&
        is_flag_name(ss_ast_child(e, 0)))
        return 0;
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(e, op, sizeof op) != 0 || (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0))
        return -1;
    CXCursor l = ss_ast_child(e, 0), r = ss_ast_child(e, 1);
    if (!(is_flag_name(l) && ss_ast_eval_int(r, &value) == 0) &&
        !(is_flag_name(r) && ss_ast_eval_int(l, &value) == 0))
        return -1;
    if (value != 0 && value != 1)
        return -1; /* 'done != 2' holds whatever the flag */
    return (value != 0) == (strcmp(op, "==") == 0);
}

typedef struct flag_walk {
    CXCursor flag, guard;
    int runs;      /* the flag's value for which the guard's branch runs */
    int elsewhere; /* named otherwise than read or set to a constant that stops the branch */
} flag_walk;

/* Whether 'c', whose parent is 'parent', is 'flag = C' with C a constant other than 'runs'. */
static int stops_flag(CXCursor c, CXCursor flag, int runs)
{
    char op[8];
    long long value = 0;
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(c, op, sizeof op) != 0 || strcmp(op, "=") != 0)
        return 0;
    CXCursor target = ss_ast_child(c, 0);
    return clang_getCursorKind(target) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(target), flag) &&
           ss_ast_eval_int(ss_ast_child(c, 1), &value) == 0 && (value != 0) != (runs != 0);
}

/* Whether a token of 'c' spells the name of 'decl'. */
static int names_token(CXCursor c, CXCursor decl)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXString name = clang_getCursorSpelling(decl);
    CXToken *tokens = NULL;
    unsigned n = 0;
    int found = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
    for (unsigned i = 0; i < n && !found; i++) {
        CXString t = clang_getTokenSpelling(tu, tokens[i]);
        found = clang_getTokenKind(tokens[i]) == CXToken_Identifier &&
                strcmp(clang_getCString(t), clang_getCString(name)) == 0;
        clang_disposeString(t);
    }
    clang_disposeTokens(tu, tokens, n);
    clang_disposeString(name);
    return found;
}

/* Each mention of the flag in its function: outside the guard, none at all; in the guard, a
 * read (under its conversion to a value) or the left side of a store that stops the branch
 * (stops_flag). A reference bound to it, a by-reference argument, a capture or its address
 * lets other code set it again. */
static enum CXChildVisitResult find_flag_use(CXCursor c, CXCursor parent, CXClientData data)
{
    flag_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr && names_token(c, w->flag)) {
        w->elsewhere = 1; /* an init-capture ('[&f = first]') the walk does not visit */
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(c), w->flag))
        return CXChildVisit_Recurse;
    unsigned b, e, at = ss_ast_offset(c);
    ss_ast_range(w->guard, &b, &e);
    int inside = at >= b && at < e;
    /* its conversion to a value; a conversion to 'const bool' binds a const reference */
    int read = clang_getCursorKind(parent) == CXCursor_UnexposedExpr &&
               ss_ast_child_count(parent) == 1 &&
               !clang_isConstQualifiedType(clang_getCursorType(parent));
    if (!inside || (!read && !stops_flag(parent, w->flag, w->runs))) {
        w->elsewhere = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

typedef struct jump_walk {
    int labels; /* only labels, 'case' and 'default': where a jump may enter */
    int found;
} jump_walk;

static enum CXChildVisitResult find_try(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CXXTryStmt)
        return CXChildVisit_Recurse;
    *(int *)data = 1;
    return CXChildVisit_Break;
}

/* The last unit unit_tries walked on this thread: the unit, its main file's name (a unit
 * made later at the same address is another file, or the same file again), the answer. */
static _Thread_local CXTranslationUnit tries_unit;
static _Thread_local char tries_file[1024];
static _Thread_local int tries_answer;

/* Whether the unit of 'c' has a 'try' in its own code (outside system headers): where it has
 * none, a 'throw' leaves every loop on its way. One walk per unit. */
static int unit_tries(CXCursor c)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXString name = clang_getTranslationUnitSpelling(tu);
    const char *file = clang_getCString(name) ? clang_getCString(name) : "";
    int known = tu == tries_unit && strcmp(file, tries_file) == 0;
    if (!known) {
        tries_answer = 0;
        clang_visitChildren(clang_getTranslationUnitCursor(tu), find_try, &tries_answer);
        tries_unit = strlen(file) < sizeof tries_file ? tu : NULL;
        snprintf(tries_file, sizeof tries_file, "%s", file);
    }
    clang_disposeString(name);
    return tries_answer;
}

static enum CXChildVisitResult find_jump(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    jump_walk *w = data;
    switch (clang_getCursorKind(c)) {
    case CXCursor_ReturnStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        if (w->labels)
            return CXChildVisit_Recurse;
        break;
    case CXCursor_CXXThrowExpr:
        if (w->labels || !unit_tries(c))
            return CXChildVisit_Recurse; /* an error's way: it leaves the loop too */
        break;
    case CXCursor_LabelStmt:
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        break;
    case CXCursor_LambdaExpr:
        return CXChildVisit_Continue; /* its own returns */
    default:
        return CXChildVisit_Recurse;
    }
    w->found = 1;
    return CXChildVisit_Break;
}

/* Whether 'c' holds a statement that leaves the way through it ('return', 'goto', 'break',
 * 'continue') or one a jump may enter by (a label, 'case', 'default'); with 'labels', only the
 * latter. A 'throw' (an error check's) is one only where the unit has a 'try' (unit_tries):
 * else it leaves the loop that runs the way too. */
static int jumps_out_or_in(CXCursor c, int labels)
{
    jump_walk w = {labels, 0};
    ss_ast_visit_whole(c, c, find_jump, &w);
    return w.found;
}

int ss_context_branch_does(CXCursor guard, int (*does)(CXCursor stmt, void *data), void *data)
{
    unsigned c = ss_ast_if_condition(guard);
    if (c + 1 >= ss_ast_child_count(guard))
        return 0;
    CXCursor branch = ss_ast_child(guard, c + 1);
    if (jumps_out_or_in(branch, 1))
        return 0;
    if (clang_getCursorKind(branch) != CXCursor_CompoundStmt)
        return does(branch, data);
    for (unsigned i = 0, n = ss_ast_child_count(branch); i < n; i++) {
        CXCursor s = ss_ast_child(branch, i);
        if (does(s, data))
            return 1;
        if (jumps_out_or_in(s, 0))
            return 0;
    }
    return 0;
}

/* The flag and the value for which the guard's branch runs, for stops_in. */
typedef struct stop_test {
    CXCursor flag;
    int runs;
} stop_test;

static int stops_in(CXCursor stmt, void *data)
{
    const stop_test *t = data;
    return stops_flag(stmt, t->flag, t->runs);
}

/* Whether a statement of the guard's branch itself stops the branch, 'if (first) { ...; first =
 * false; }', and runs whenever the branch does (ss_context_branch_does). */
static int branch_stops(CXCursor guard, CXCursor flag, int runs)
{
    stop_test t = {flag, runs};
    return ss_context_branch_does(guard, stops_in, &t);
}

/* Whether the first-call flag 'flag' (is_flag_name), which the 'if' 'guard' tests, is named in
 * its function only by that 'if' (find_flag_use), and a statement of its branch sets it to the
 * constant that stops the branch (branch_stops): nothing else sets it again, so the branch runs
 * once. */
static int flag_set_only_in(CXCursor flag, CXCursor guard)
{
    CXCursor body = ss_ast_body(clang_getCursorSemanticParent(flag));
    CXCursor cond = ss_ast_child(guard, ss_ast_if_condition(guard));
    flag_walk w = {flag, guard, flag_test_value(cond), 0};
    if (ss_ast_is_null(body) || w.runs < 0 || !branch_stops(guard, flag, w.runs))
        return 0;
    clang_visitChildren(body, find_flag_use, &w);
    return !w.elsewhere;
}

/* Whether the call 'call' is given the address of something the condition 'cond' names
 * ('cudaMalloc(&m->acts, n)' under 'if (m->acts == NULL)'). Sets '*decl' to it. */
static int sets_named(CXCursor call, CXCursor cond, CXCursor *decl)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)i));
        if (clang_getCursorKind(arg) != CXCursor_UnaryOperator)
            continue;
        CXCursor named = named_decl(ss_ast_child(arg, 0));
        if (ss_ast_is_null(named))
            continue;
        if (ss_context_mentions(cond, named)) {
            *decl = named;
            return 1;
        }
    }
    return 0;
}

/* What records the new size in what a guard's condition compares with: an assignment to it,
 * or a resize of an object it names, in the branch or in a function of the unit the branch
 * calls (two calls deep). */
typedef struct record_walk {
    ss_callgraph *graph;
    CXCursor cond;
    CXCursor found; /* the declaration assigned or resized */
    int resized;
    int depth;
} record_walk;

static enum CXChildVisitResult find_record(CXCursor c, CXCursor parent, CXClientData data)
{
    record_walk *w = data;
    assign_walk a = {w->cond, clang_getNullCursor()};
    if (find_assign(c, parent, &a) == CXChildVisit_Break) {
        w->found = a.found;
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    if (w->depth == 0 && resizes_named(c, w->cond, &w->found)) {
        w->resized = 1;
        return CXChildVisit_Break;
    }
    if (w->depth == 0 && sets_named(c, w->cond, &w->found))
        return CXChildVisit_Break;
    CXCursor callee = w->depth < 2 ? ss_callgraph_callee(w->graph, c) : clang_getNullCursor();
    if (!ss_ast_is_null(callee)) {
        w->depth++;
        clang_visitChildren(callee, find_record, w);
        w->depth--;
        if (!ss_ast_is_null(w->found))
            return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The early-return form of the guard: 'void enlarge(size_t n) { if (n <= size) return; ...;
 * size = n; }'. */

/* Whether 'stmt' is a return alone ('return;', '{ return false; }'). */
static int only_returns(CXCursor stmt)
{
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt && ss_ast_child_count(stmt) == 1)
        stmt = ss_ast_child(stmt, 0);
    return clang_getCursorKind(stmt) == CXCursor_ReturnStmt;
}

/* Whether 'if_stmt' is 'if (n <= size) return;' (or 'n < size', 'size >= n', 'size > n'; no
 * else, no other condition): sets '*stored' to what the larger side names ('size') and
 * '*request' to the other side ('n'). */
static int early_return_guard(CXCursor if_stmt, CXCursor *stored, CXCursor *request)
{
    unsigned n = ss_ast_child_count(if_stmt), c = ss_ast_if_condition(if_stmt);
    if (c + 2 != n || !only_returns(ss_ast_child(if_stmt, c + 1)))
        return 0;
    CXCursor cmp = ss_ast_strip(ss_ast_child(if_stmt, c));
    char op[8];
    if (clang_getCursorKind(cmp) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(cmp, op, sizeof op) != 0)
        return 0;
    int less = strcmp(op, "<") == 0 || strcmp(op, "<=") == 0;
    if (!less && strcmp(op, ">") != 0 && strcmp(op, ">=") != 0)
        return 0;
    *request = ss_ast_child(cmp, less ? 0 : 1);
    *stored = named_decl(ss_ast_child(cmp, less ? 1 : 0));
    return !ss_ast_is_null(*stored);
}

/* Whether the expression 'value' names a variable or member that 'request' names. */
typedef struct shared_walk {
    CXCursor value;
    int found;
} shared_walk;

static enum CXChildVisitResult find_shared(CXCursor c, CXCursor parent, CXClientData data)
{
    shared_walk *w = data;
    CXCursor decl = named_decl(c);
    if (!ss_ast_is_null(decl) &&
        (clang_equalCursors(named_decl(w->value), decl) || ss_context_mentions(w->value, decl))) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'e' names what 'request' names. */
static int names_request(CXCursor e, CXCursor request)
{
    shared_walk w = {e, 0};
    ss_ast_visit_whole(request, clang_getNullCursor(), find_shared, &w);
    return w.found;
}

/* A loop of the function body whose condition names the local 'var' and what 'request' names
 * ('while (next < n) next = next * 5 / 4;'): past it, 'var' has grown to the request. */
typedef struct bound_walk {
    CXCursor var, request;
    int found;
} bound_walk;

static enum CXChildVisitResult find_bound(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    bound_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_WhileStmt && k != CXCursor_ForStmt && k != CXCursor_DoStmt)
        return CXChildVisit_Recurse;
    for (unsigned i = 0; i < ss_ast_child_count(c) && !w->found; i++) {
        CXCursor cond = ss_ast_child(c, i);
        w->found = clang_isExpression(clang_getCursorKind(cond)) &&
                   ss_context_mentions(cond, w->var) && names_request(cond, w->request);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the statement 'stmt' stores a larger size in 'stored': 'stored = e' where 'e' names
 * what 'request' names ('size = n + n / 2', 'm_size = next_multiple(n, g)'), or is a local that
 * a loop of the function 'body' grows to the request (find_bound), 'stored += e' or
 * 'stored *= e'. 'size = 0' and 'size -= e' store no larger size. */
static int stores_larger(CXCursor body, CXCursor stmt, CXCursor stored, CXCursor request)
{
    stmt = ss_ast_strip(stmt);
    enum CXCursorKind k = clang_getCursorKind(stmt);
    char op[8];
    if ((k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator) ||
        ss_ast_binary_op(stmt, op, sizeof op) != 0 ||
        !clang_equalCursors(named_decl(ss_ast_child(stmt, 0)), stored))
        return 0;
    if (strcmp(op, "+=") == 0 || strcmp(op, "*=") == 0)
        return 1;
    if (strcmp(op, "=") != 0)
        return 0;
    CXCursor value = ss_ast_child(stmt, 1), var = named_decl(value);
    if (names_request(value, request))
        return 1;
    bound_walk w = {var, request, 0};
    if (clang_getCursorKind(var) == CXCursor_VarDecl &&
        clang_getCursorLinkage(var) == CXLinkage_NoLinkage)
        clang_visitChildren(body, find_bound, &w);
    return w.found;
}

/* Whether 'stmt' holds a loop (not 'do { } while (0)') that makes a buffer larger: one
 * allocation per element. */
typedef struct loop_walk {
    ss_callgraph *graph;
    int found;
} loop_walk;

static enum CXChildVisitResult find_growing_loop(CXCursor c, CXCursor parent, CXClientData data)
{
    loop_walk *w = data;
    CXCursor grows;
    if (ss_scope_is_loop(c) &&
        ss_callgraph_calls_named(w->graph, c, growers, sizeof growers / sizeof growers[0],
                                 &grows)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int grows_in_loop(ss_callgraph *graph, CXCursor stmt)
{
    loop_walk w = {graph, 0};
    ss_ast_visit_whole(stmt, clang_getNullCursor(), find_growing_loop, &w);
    return w.found;
}

/* The early return before the statement 'holder' of the function body 'body' ('if (n <= size)
 * return;'), or a null cursor. Sets '*stored', '*request' (early_return_guard) and '*index'. */
static CXCursor find_early_return(CXCursor body, CXCursor holder, CXCursor *stored,
                                  CXCursor *request, unsigned *index)
{
    unsigned n = ss_ast_child_count(body);
    CXCursor guard = clang_getNullCursor();
    for (unsigned i = 0; i < n; i++) {
        CXCursor s = ss_ast_child(body, i);
        if (ss_ast_same_node(s, holder))
            return guard;
        if (ss_ast_is_null(guard) && clang_getCursorKind(s) == CXCursor_IfStmt &&
            early_return_guard(s, stored, request)) {
            guard = s;
            *index = i;
        }
    }
    return clang_getNullCursor();
}

/* Whether 'decl' is a local variable of automatic storage: no linkage, neither 'static' nor
 * 'thread_local'; a new one on every call of its function. */
static int automatic_local(CXCursor decl)
{
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    return clang_getCursorKind(decl) == CXCursor_VarDecl &&
           clang_getCursorLinkage(decl) == CXLinkage_NoLinkage &&
           (sc == CX_SC_None || sc == CX_SC_Auto || sc == CX_SC_Register) &&
           clang_getCursorTLSKind(decl) == CXTLS_None;
}

/* How a guard's words are made (grow_guard_words, early_return_words): with the guard's file
 * ("file.cu:22" rather than "line 22"); for a call that a loop of another unit runs
 * (ss_context_alloc_guard_words), where a local of automatic storage, new on every call, never
 * keeps the size from one iteration to the next, and where the call guarded is itself what makes
 * the buffer larger (a SYNC402 call, or a call on the way down to one, perhaps in another unit);
 * the first of those two alone for any call that a loop of another unit runs
 * (ss_context_grow_only_here_words); with GUARD_WAY, for a call on the way down from a function
 * another unit's loop calls (ss_context_way_guard_words): only a lazy guard or a set-up flag,
 * on what outlives the call whoever calls it (ss_context_object_lasts_anywhere). */
enum { GUARD_FILE = 1, GUARD_ELSEWHERE = 2, GUARD_LOCALS_RESTART = 4, GUARD_WAY = 8 };

/* Where the guard 'guard' is, as its words say it: "file.cu:22" with GUARD_FILE in 'how', else
 * "line 22". Malloc'ed. */
static char *guard_place(CXCursor guard, unsigned how)
{
    return (how & GUARD_FILE) ? ss_callgraph_place(guard)
                              : ss_xasprintf("line %u", ss_scope_line(guard));
}

/* Whether the path 'path[0..found)' goes from the body of the function 'from' to a call in no
 * loop or lambda of it: what follows an early return at the body's top runs with the call. */
static int straight_from(CXCursor from, const CXCursor *path, long found)
{
    if (!ss_ast_is_function(from) || found < 1 ||
        clang_getCursorKind(path[0]) != CXCursor_CompoundStmt)
        return 0;
    for (long i = 1; i < found; i++)
        if (ss_scope_is_loop(path[i]) || clang_getCursorKind(path[i]) == CXCursor_LambdaExpr)
            return 0;
    return 1;
}

/* "line 22 returns early unless the request exceeds 'size', and the function records the new
 * size" ("file.cu:22" with GUARD_FILE in 'how') when 'at' (the path 'path[0..found)' from 'from')
 * is in a function that returns early when the request fits, in a statement of its body before the
 * one holding 'at' ('if (n <= size) return;', find_early_return); whose statements after it
 * make a buffer larger (itself or in a function it calls), none in a loop (one allocation per
 * element), 'at' in no loop or lambda of the function; and where a block around 'at' (the body
 * after the guard, or a block inside it) has among its own statements one that stores the
 * larger size in what the guard compares with (stores_larger). Malloc'ed, or NULL. */
static char *early_return_words(ss_callgraph *graph, CXCursor from, const CXCursor *path,
                                long found, CXCursor at, unsigned how, int whole_loop)
{
    if (!straight_from(from, path, found))
        return NULL;
    CXCursor stored, request;
    unsigned g = 0;
    CXCursor guard = find_early_return(path[0], found > 1 ? path[1] : at, &stored, &request, &g);
    if (ss_ast_is_null(guard) ||
        ((how & (GUARD_ELSEWHERE | GUARD_LOCALS_RESTART)) && automatic_local(stored)))
        return NULL;
    int grows = (how & GUARD_ELSEWHERE) != 0; /* the statement that holds 'at' */
    unsigned n = ss_ast_child_count(path[0]);
    for (unsigned i = g + 1; i < n; i++) {
        CXCursor s = ss_ast_child(path[0], i), first;
        if (!ss_callgraph_calls_named(graph, s, growers, sizeof growers / sizeof growers[0],
                                      &first))
            continue;
        if (!whole_loop && grows_in_loop(graph, s))
            return NULL;
        grows = 1;
    }
    int recorded = 0;
    for (long i = 0; i < found && grows && !recorded; i++) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt)
            continue;
        unsigned m = ss_ast_child_count(path[i]);
        for (unsigned j = i == 0 ? g + 1 : 0; j < m && !recorded; j++)
            recorded = stores_larger(path[0], ss_ast_child(path[i], j), stored, request);
    }
    if (!recorded)
        return NULL;
    CXString name = clang_getCursorSpelling(stored);
    char *where = guard_place(guard, how);
    char *words = ss_xasprintf("%s returns early unless the request exceeds '%s', and the "
                               "function records the new size",
                               where, clang_getCString(name));
    free(where);
    clang_disposeString(name);
    return words;
}

/* Whether 'decl', what a grow guard records the size in, is a local variable of automatic
 * storage of a function that runs from a loop that enqueues device work: every call starts it
 * afresh ('size_t cap = 0;' in the function), so the buffer is allocated again on every call
 * that has data, on every iteration of that loop. A 'static' or 'thread_local' local outlives
 * the call ('thread_local Vector<float> pinned; if (pinned.Dim() < n) ...'): a lasting
 * record of the size, like a member. */
static int restarts_each_call(ss_callgraph *graph, CXCursor decl)
{
    if (!automatic_local(decl))
        return 0;
    CXCursor function = clang_getCursorSemanticParent(decl);
    if (!ss_ast_is_function(function))
        return 0;
    return ss_callgraph_loop_reaches(graph, function, SS_SCOPE_ENQUEUES);
}

/* Whether 'decl', what a grow guard records the size in, starts afresh on the calls that
 * matter: restarts_each_call; with GUARD_ELSEWHERE or GUARD_LOCALS_RESTART in 'how' (the loop
 * that calls the function is in another unit), any local of automatic storage. */
static int restarts(ss_callgraph *graph, CXCursor decl, unsigned how)
{
    return (how & (GUARD_ELSEWHERE | GUARD_LOCALS_RESTART)) ? automatic_local(decl)
                                                            : restarts_each_call(graph, decl);
}

/* The early-return forms of a guard before 'at' in the function 'from' (the path
 * 'path[0..found)' to it): early_return_words ('*lazy' 0), else a set-up flag's
 * (ss_context_set_up_flag_words, '*lazy' 3). Malloc'ed, or NULL. */
static char *early_guard_words(ss_callgraph *graph, CXCursor from, const CXCursor *path, long found,
                               CXCursor at, unsigned how, int *lazy)
{
    char *words =
        (how & GUARD_WAY) ? NULL : early_return_words(graph, from, path, found, at, how, 0);
    int kind = 0;
    if (words == NULL && straight_from(from, path, found)) {
        words = ss_context_set_up_flag_words(
            graph, from, found > 1 ? path[1] : at, at, (how & GUARD_FILE) != 0,
            (how & (GUARD_ELSEWHERE | GUARD_LOCALS_RESTART | GUARD_WAY)) != 0);
        kind = 3;
    }
    if (words && lazy)
        *lazy = kind;
    return words;
}

/* The expression in 'e' that names 'decl' ('h.infos' for the field 'infos'), or a null cursor. */
typedef struct naming_walk {
    CXCursor decl, found;
} naming_walk;

static enum CXChildVisitResult find_naming(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    naming_walk *w = data;
    if (clang_equalCursors(named_decl(c), w->decl)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* A store of a null constant in what 'decl' names ('scratch = nullptr;'). */
static enum CXChildVisitResult find_null_store(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    naming_walk *w = data;
    char op[8];
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator &&
        clang_equalCursors(named_decl(ss_ast_child(c, 0)), w->decl) &&
        ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0 &&
        is_null_constant(ss_ast_child(c, 1))) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static CXCursor function_of(CXCursor stmt);

/* For a guard on the way from a function another unit's loop calls (GUARD_WAY): whether it is
 * a lazy one (not a size compared) on what outlives the call whoever calls it: a first-call
 * flag; what 'decl' names in the condition 'cmp' of 'if_stmt', in a function only the unit may
 * call (whose calls unset_lasts looked at); or a global, a static or a member of one
 * (ss_context_object_lasts_anywhere). */
static int lasts_anywhere(ss_callgraph *graph, int lazy, CXCursor cmp, CXCursor if_stmt,
                          CXCursor decl)
{
    CXCursor fn = function_of(if_stmt);
    if (lazy == 2 || (lazy == 1 && !ss_ast_is_null(fn) &&
                      ss_callgraph_seen_calls_of(graph, fn, NULL, NULL, 0) >= 0))
        return 1; /* only the unit calls it: unset_lasts looked at its calls */
    naming_walk w = {decl, clang_getNullCursor()};
    ss_ast_visit_whole(cmp, if_stmt, find_naming, &w);
    return lazy == 1 && !ss_ast_is_null(w.found) && ss_context_object_lasts_anywhere(w.found);
}

/* Whether the object the expression 'e' names, or whose member it names ('b.p'), is a variable
 * of automatic storage declared inside the loop 'loop': new on every iteration. */
static int declared_in(CXCursor loop, CXCursor e)
{
    e = ss_ast_strip(e);
    while (clang_getCursorKind(e) == CXCursor_MemberRefExpr && ss_ast_child_count(e) > 0)
        e = ss_ast_strip(ss_ast_child(e, 0));
    CXCursor var = clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                                  : clang_getNullCursor();
    if (clang_getCursorKind(var) != CXCursor_VarDecl || !automatic_local(var))
        return 0;
    unsigned begin, end, at = ss_ast_offset(var);
    ss_ast_range(loop, &begin, &end);
    return at >= begin && at < end;
}

/* For a lazy guard on a buffer (the branch of 'if_stmt' runs while what 'decl' names, tested in
 * 'cmp', is unset): whether it stays set once the branch ran: the branch does not store a null
 * constant in it again ('if (s == nullptr) { cudaMalloc(&s, n); ...; cudaFree(s); s = nullptr;
 * }' runs every time), and the object whose member it is outlives the call
 * (ss_context_object_lasts: not a local of the function, nor of a caller that passes it by
 * reference); for a guard inside the loop 'from', outlives the iteration (not a local declared
 * in the loop, declared_in). */
static int unset_lasts(ss_callgraph *graph, CXCursor from, CXCursor if_stmt, CXCursor cmp,
                       CXCursor branch, CXCursor decl)
{
    naming_walk w = {decl, clang_getNullCursor()};
    ss_ast_visit_whole(branch, if_stmt, find_null_store, &w);
    if (!ss_ast_is_null(w.found))
        return 0;
    ss_ast_visit_whole(cmp, if_stmt, find_naming, &w);
    if (ss_ast_is_null(w.found))
        return 1;
    if (!ss_ast_is_function(from))
        return !declared_in(from, w.found);
    return ss_context_object_lasts(graph, from, w.found);
}

/* The condition of the 'if' 'if_stmt' when 'branch' is the branch it takes when the condition
 * holds (the child right after the condition), else a null cursor. */
static CXCursor taken_condition(CXCursor if_stmt, CXCursor branch)
{
    CXCursor cond = clang_getNullCursor();
    unsigned n = ss_ast_child_count(if_stmt), c = 0;
    for (; c < n && ss_ast_is_null(cond); c++) {
        CXCursor child = ss_ast_child(if_stmt, c);
        if (clang_isExpression(clang_getCursorKind(child)))
            cond = child;
    }
    if (ss_ast_is_null(cond) || c >= n || !ss_ast_same_node(ss_ast_child(if_stmt, c), branch))
        return clang_getNullCursor();
    return cond;
}

/* ss_context_set_up_key_words for the 'if' 'if_stmt' on the way from 'from' ('how' as
 * grow_guard_words has it: its file; a call another unit may make), '*lazy' set to 4.
 * Malloc'ed, or NULL. */
static char *set_key_words(ss_callgraph *graph, CXCursor from, CXCursor if_stmt, unsigned how,
                           int *lazy)
{
    CXCursor fn = ss_ast_is_function(from) ? from : function_of(if_stmt);
    char *words = ss_context_set_up_key_words(
        graph, fn, if_stmt, (how & GUARD_FILE) != 0,
        (how & (GUARD_ELSEWHERE | GUARD_LOCALS_RESTART | GUARD_WAY)) != 0);
    if (words && lazy)
        *lazy = 4;
    return words;
}

/* "line 17 compares with 'capacity' and the branch records the new size" ("file.cu:17" with
 * GUARD_FILE in 'how') when 'at' is in the branch of an 'if' (between 'from' and 'at') that
 * compares sizes ('<', '>', '<=', '>='), makes a buffer larger (an allocation, a pinning or a
 * resize, itself or in a function it calls), and records the new size in what the condition
 * compares with, by an assignment or a resize ('if (n > capacity) { free; malloc; capacity = n; }',
 * 'if (v.size() < n) { unpin; v.resize(2 * n); pin; }'): it runs when the buffer grows, not
 * on every iteration; not where what it records is a local of a function that runs from such a
 * loop (restarts_each_call; with GUARD_ELSEWHERE in 'how', any local of automatic storage).
 * Malloc'ed, or NULL. */
static char *grow_guard_words(ss_callgraph *graph, CXCursor from, CXCursor at, unsigned how,
                              int *lazy)
{
    int lazy_here = 0;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(from, at, path);
    char *words = NULL;
    for (long i = found - 1; i >= 0 && words == NULL; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_IfStmt)
            continue;
        CXCursor branch = i + 1 < found ? path[i + 1] : at;
        CXCursor cond = taken_condition(path[i], branch);
        if (ss_ast_is_null(cond))
            continue;
        words = set_key_words(graph, from, path[i], how, lazy);
        if (words)
            break;
        CXCursor cmp = ss_ast_strip(cond);
        char op[8];
        lazy_here = flag_test_value(cmp) >= 0 ? 2 : is_null_test(cmp) ? 1 : 0;
        if (!lazy_here && (clang_getCursorKind(cmp) != CXCursor_BinaryOperator ||
                           ss_ast_binary_op(cmp, op, sizeof op) != 0 ||
                           (strcmp(op, "<") != 0 && strcmp(op, ">") != 0 && strcmp(op, "<=") != 0 &&
                            strcmp(op, ">=") != 0)))
            continue;
        CXCursor grows;
        if (!(how & GUARD_ELSEWHERE) &&
            !ss_callgraph_calls_named(graph, branch, growers, sizeof growers / sizeof growers[0],
                                      &grows))
            continue;
        /* find_record looks among the condition's children: a bare flag is its conversion's */
        record_walk w = {graph, lazy_here == 2 ? cond : cmp, clang_getNullCursor(), 0, 0};
        ss_ast_visit_whole(branch, path[i], find_record, &w);
        if (ss_ast_is_null(w.found) || restarts(graph, w.found, how) ||
            (lazy_here == 2 && !flag_set_only_in(w.found, path[i])) ||
            (lazy_here == 1 && !unset_lasts(graph, from, path[i], cmp, branch, w.found)) ||
            ((how & GUARD_WAY) && !lasts_anywhere(graph, lazy_here, cmp, path[i], w.found)))
            continue;
        CXString name = clang_getCursorSpelling(w.found);
        char *where = guard_place(path[i], how);
        if (lazy_here)
            words =
                ss_xasprintf("%s tests '%s' and the branch sets it", where, clang_getCString(name));
        else
            words = ss_xasprintf("%s compares with '%s' and the branch %s", where,
                                 clang_getCString(name),
                                 w.resized ? "resizes it" : "records the new size");
        if (lazy)
            *lazy = lazy_here;
        free(where);
        clang_disposeString(name);
    }
    if (words == NULL)
        words = early_guard_words(graph, from, path, found, at, how, lazy);
    free(path);
    return words;
}

/* "line 23 returns early unless ..." (early_return_words) when the loop 'loop' itself, in no
 * other loop of its function 'function', follows in its function an early return while the
 * request fits: the whole loop runs when the buffer grows, its allocations (one per buffer of
 * a list) included. Malloc'ed, or NULL. */
static char *early_return_loop_words(ss_callgraph *graph, CXCursor function, CXCursor loop,
                                     unsigned how)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, loop, path);
    char *words = early_return_words(graph, function, path, found, loop, how, 1);
    free(path);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A key-change guard: 'if (dag_size != ctx->dag_size) { ctx->dag_size = dag_size; ... }'. */

/* Whether 'decl' keeps its value from one call to the next: a member, a global, a static or
 * thread_local local. */
static int lasting(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    return k == CXCursor_FieldDecl || (k == CXCursor_VarDecl && !automatic_local(decl));
}

/* Whether the statement 's' is 'a = b' with 'a' written as 'lhs' and 'b' as 'rhs'. */
static int assigns_text(CXCursor s, const char *lhs, const char *rhs)
{
    char op[8];
    s = ss_ast_strip(s);
    if (clang_getCursorKind(s) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(s, op, sizeof op) != 0 || strcmp(op, "=") != 0)
        return 0;
    char *a = ss_expr_text(ss_ast_child(s, 0)), *b = ss_expr_text(ss_ast_child(s, 1));
    int same = a && b && strcmp(a, lhs) == 0 && strcmp(b, rhs) == 0;
    free(a);
    free(b);
    return same;
}

/* "line 55 compares 'dag_size' with 'ctx->kawpow_dag_size' and the branch records it" when the
 * 'if' statement 'if_stmt' takes 'branch' only while 'k != key' (either order) and a statement
 * of the branch's own block is 'key = k', 'key' lasting (a member, global or static): the
 * branch runs when the key changes. Malloc'ed, or NULL. */
static char *key_guard_words(CXCursor if_stmt, CXCursor branch)
{
    if (ss_ast_child_count(if_stmt) < 2 || !ss_ast_same_node(ss_ast_child(if_stmt, 1), branch))
        return NULL;
    CXCursor cmp = ss_ast_strip(ss_ast_child(if_stmt, 0));
    char op[8];
    if (clang_getCursorKind(cmp) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(cmp, op, sizeof op) != 0 || strcmp(op, "!=") != 0)
        return NULL;
    char *side[2] = {ss_expr_text(ss_ast_child(cmp, 0)), ss_expr_text(ss_ast_child(cmp, 1))};
    char *words = NULL;
    unsigned n =
        clang_getCursorKind(branch) == CXCursor_CompoundStmt ? ss_ast_child_count(branch) : 0;
    for (unsigned i = 0; side[0] && side[1] && i < n && words == NULL; i++) {
        CXCursor s = ss_ast_child(branch, i);
        for (int k = 0; k < 2 && words == NULL; k++) {
            if (assigns_text(s, side[k], side[1 - k]) &&
                lasting(named_decl(ss_ast_child(ss_ast_strip(s), 0))))
                words = ss_xasprintf("line %u compares '%s' with '%s' and the branch records it",
                                     ss_scope_line(if_stmt), side[1 - k], side[k]);
        }
    }
    free(side[0]);
    free(side[1]);
    return words;
}

/* "change-only: ..." when an 'if' between the function 'function' and 'at' (around the loop or
 * inside it) is a key-change guard (key_guard_words). Malloc'ed, or NULL. */
static char *key_change_words(CXCursor function, CXCursor at)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(function, at, path);
    char *guard = NULL;
    for (long i = found - 1; i >= 0 && guard == NULL; i--) {
        if (clang_getCursorKind(path[i]) == CXCursor_IfStmt)
            guard = key_guard_words(path[i], i + 1 < found ? path[i + 1] : at);
    }
    free(path);
    char *words =
        guard ? ss_xasprintf("change-only: it runs only when the key changes (%s)", guard) : NULL;
    free(guard);
    return words;
}

/* The named function a statement of its body sits in: the declaration libclang keeps with the
 * statement, followed out of local declarations. */
static CXCursor function_of(CXCursor stmt)
{
    CXCursor c = clang_getCursorSemanticParent(stmt);
    for (int hops = 0; hops < 8 && !ss_ast_is_null(c) && !ss_ast_is_function(c); hops++)
        c = clang_getCursorSemanticParent(c);
    return ss_ast_is_null(c) ? c : ss_scope_outer_function(c);
}

/* For ss_callgraph_reached_unless: a call under a grow guard, or made in a loop that follows
 * an early return while the request fits (early_return_loop_words), is skipped. */
static int skip_grow_guarded(CXCursor from, CXCursor call, void *data)
{
    char *words = grow_guard_words(data, from, call, 0, NULL);
    if (words == NULL && ss_scope_is_loop(from)) {
        CXCursor function = function_of(call);
        if (!ss_ast_is_null(function))
            words = early_return_loop_words(data, function, from, 0);
    }
    free(words);
    return words != NULL;
}

/* What a lazy guard (grow_guard_words' '*lazy') waits for: the buffer's test (1), a first-call
 * flag's (2), a set-up flag's early return (3, ss_context_set_up_flag_words), a constant key
 * missing from a lasting set (4, ss_context_set_up_key_words). */
static const char *lazy_state(int lazy)
{
    return lazy == 4   ? "its key is not in the set yet"
           : lazy == 3 ? "its set-up flag says it has not run"
           : lazy == 2 ? "its first-call flag is unchanged"
                       : "the buffer is unset";
}

/* For a call in a function that the loop reaches through a chain of calls: the guard of a call
 * on the chain (grow_guard_words), else the early return that the loop follows; a note's words
 * only when every chain from a loop that enqueues device work down to the function passes
 * such a guard (skip_grow_guarded). Malloc'ed, or NULL. */
static char *chain_grow_words(ss_check_ctx *ctx, const ss_loop_context *loop)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    int lazy = 0;
    char *guard = NULL;
    for (size_t i = 0; i < loop->call_count && guard == NULL; i++)
        guard = grow_guard_words(graph, loop->froms[i], loop->calls[i], GUARD_FILE, &lazy);
    if (guard == NULL) {
        char *early = early_return_loop_words(graph, loop->function, loop->loop, GUARD_FILE);
        guard = early ? ss_xasprintf("the loop at %s runs only when the buffer grows: %s",
                                     loop->place, early)
                      : NULL;
        free(early);
    }
    char *words = NULL;
    if (guard && !ss_callgraph_reached_unless(graph, ss_scope_outer_function(ctx->function),
                                              SS_SCOPE_ENQUEUES, skip_grow_guarded, graph))
        words = lazy ? ss_xasprintf("lazy: every call from a loop runs only while %s (%s)",
                                    lazy_state(lazy), guard)
                     : ss_xasprintf("grow-only: every call from a loop runs when a buffer grows "
                                    "(%s)",
                                    guard);
    free(guard);
    return words;
}

/* "grow-only: it runs when the buffer grows (...)" or "lazy: it runs only while ..." for a grow
 * or lazy guard between 'from' (a loop or a function) and the call 'at' (grow_guard_words,
 * 'how' as there). Malloc'ed, or NULL. */
static char *guard_here_words(ss_callgraph *graph, CXCursor from, CXCursor at, unsigned how)
{
    int lazy = 0;
    char *guard = grow_guard_words(graph, from, at, how, &lazy);
    char *words = NULL;
    if (guard)
        words = lazy ? ss_xasprintf("lazy: it runs only while %s (%s)", lazy_state(lazy), guard)
                     : ss_xasprintf("grow-only: it runs when the buffer grows (%s)", guard);
    free(guard);
    return words;
}

char *ss_context_grow_only_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    char *words = guard_here_words(
        graph, loop->chain ? ss_scope_outer_function(ctx->function) : loop->loop, at, 0);
    if (words)
        return words;
    if (loop->chain == NULL) {
        char *key = key_change_words(loop->function, at);
        if (key)
            return key;
        char *guard = early_return_loop_words(graph, loop->function, loop->loop, 0);
        words = guard ? ss_xasprintf("grow-only: the loop at line %u runs only when the "
                                     "buffer grows (%s)",
                                     ss_scope_line(loop->loop), guard)
                      : NULL;
        free(guard);
        return words;
    }
    return chain_grow_words(ctx, loop);
}

char *ss_context_grow_only_here_words(ss_check_ctx *ctx, CXCursor at)
{
    return guard_here_words(ss_check_graph(ctx), ss_scope_outer_function(ctx->function), at,
                            GUARD_LOCALS_RESTART);
}

char *ss_context_way_guard_words(ss_check_ctx *ctx, CXCursor caller, CXCursor call)
{
    return guard_here_words(ss_check_graph(ctx), caller, call,
                            GUARD_FILE | GUARD_LOCALS_RESTART | GUARD_WAY);
}

char *ss_context_alloc_guard_words(ss_check_ctx *ctx, CXCursor function, CXCursor at)
{
    int lazy = 0;
    char *guard = grow_guard_words(ss_check_graph(ctx), function, at, GUARD_ELSEWHERE, &lazy);
    char *words = NULL;
    if (guard)
        words = lazy ? ss_xasprintf("lazy: it runs only while %s (%s)", lazy_state(lazy), guard)
                     : ss_xasprintf("grow-only: it runs when the buffer grows (%s)", guard);
    free(guard);
    if (words == NULL)
        words = key_change_words(function, at);
    if (words == NULL)
        words = ss_context_refill_guard_words(ctx, function, at);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Loops that time themselves. */

/* Calls that read a clock: a loop that makes one measures its own iterations (a benchmark),
 * and a wait in it is how the measurement ends. */
static const char *const clocks[] = {
    "cudaEventElapsedTime",    "cuEventElapsedTime", "sdkStopTimer",      "sdkGetTimerValue",
    "sdkGetAverageTimerValue", SS_WALL_CLOCK_CALLS,  SS_TIMER_CLASS_CALLS};

/* How many calls deep a loop's clock is looked for: the function the loop calls, and two
 * wrappers of the unit below it ('now_us' returning 'now_ms() * 1e3', 'now_ms' reading
 * 'clock_gettime'). */
enum { CLOCK_DEPTH = 3 };

/* The clock call among the (at most four) statements that follow 'loop' in its block, in the
 * function 'function': a loop timed from outside ('record; for (...) {...}; record; sync;
 * elapsed'). A null cursor when there is none. */
static CXCursor clock_after(ss_check_ctx *ctx, CXCursor function, CXCursor loop)
{
    CXCursor none = clang_getNullCursor();
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long depth = ss_context_path(function, loop, path);
    CXCursor found = none;
    if (depth > 0 && clang_getCursorKind(path[depth - 1]) == CXCursor_CompoundStmt) {
        CXCursor block = path[depth - 1];
        unsigned n = ss_ast_child_count(block), at = n;
        for (unsigned i = 0; i < n && at == n; i++) {
            if (ss_ast_same_node(ss_ast_child(block, i), loop))
                at = i;
        }
        for (unsigned i = at + 1; i < n && i <= at + 4 && ss_ast_is_null(found); i++)
            ss_callgraph_calls_named(NULL, ss_ast_child(block, i), clocks,
                                     sizeof clocks / sizeof clocks[0], &found);
    }
    free(path);
    return found;
}

/* Calls that open the region a loop measures: an event recorded for an elapsed time, a timer
 * started; with the clocks, the bounds of what the loop times. */
static const char *const marks[] = {"cudaEventRecord",
                                    "cuEventRecord",
                                    "cudaEventRecordWithFlags",
                                    "cuEventRecordWithFlags",
                                    "sdkStartTimer",
                                    "sdkResetTimer",
                                    "timer::start"};

/* A call in a statement to a function of the unit that enqueues device work, itself or in a
 * function it calls: the program's own device work. */
typedef struct program_walk {
    ss_callgraph *graph;
    CXCursor found;
} program_walk;

static enum CXChildVisitResult find_program_work(CXCursor c, CXCursor parent, CXClientData data)
{
    program_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor callee = ss_callgraph_callee(w->graph, c), work;
    if (!ss_ast_is_null(callee) && ss_callgraph_loop_work(w->graph, callee, SS_SCOPE_ENQUEUES,
                                                          clang_getNullCursor(), &work, NULL)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* "not a benchmark: ..." when the loop 'loop', which reads a clock, does more than the region
 * it times: its body's statements from the first that records an event, starts a timer or
 * reads a clock to the last that reads a clock are the region, and a statement outside them
 * calls a function of the unit that enqueues device work (a training loop that times its step
 * and evaluates, samples or writes checkpoints around it). A benchmark's loop does only
 * bookkeeping there, or an API call of its own (a cache flush, an input reset). '*first' and
 * '*last' receive the region's lines. Malloc'ed, or NULL. */
static char *untimed_work_words(ss_check_ctx *ctx, CXCursor loop, unsigned *first_line,
                                unsigned *last_line)
{
    unsigned count = ss_ast_child_count(loop);
    if (count == 0)
        return NULL;
    CXCursor body =
        ss_ast_child(loop, clang_getCursorKind(loop) == CXCursor_DoStmt ? 0 : count - 1);
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return NULL;
    ss_callgraph *graph = ss_check_graph(ctx);
    unsigned n = ss_ast_child_count(body), first = n, last = n;
    for (unsigned i = 0; i < n; i++) {
        CXCursor stmt = ss_ast_child(body, i), found;
        int clock = ss_callgraph_calls_named_within(
            graph, stmt, clocks, sizeof clocks / sizeof clocks[0], CLOCK_DEPTH, &found);
        if (first == n &&
            (clock ||
             ss_callgraph_calls_named(graph, stmt, marks, sizeof marks / sizeof marks[0], &found)))
            first = i;
        if (clock)
            last = i;
    }
    if (first == n || last == n)
        return NULL;
    *first_line = ss_scope_line(ss_ast_child(body, first));
    *last_line = ss_scope_line(ss_ast_child(body, last));
    for (unsigned i = 0; i < n; i++) {
        if (i >= first && i <= last)
            continue;
        program_walk w = {graph, clang_getNullCursor()};
        CXCursor stmt = ss_ast_child(body, i);
        /* The statement itself too: 'evaluate(m);' is a call. */
        ss_ast_visit_whole(stmt, stmt, find_program_work, &w);
        if (ss_ast_is_null(w.found))
            continue;
        char *name = ss_scope_callee_name(w.found);
        char *words = ss_xasprintf("not a benchmark: the loop times lines %u to %u, and outside "
                                   "them runs more of the program's device work ('%s()' at "
                                   "line %u)",
                                   *first_line, *last_line, name ? name : "a function",
                                   ss_scope_line(w.found));
        free(name);
        return words;
    }
    return NULL;
}

/* The clocks of a function another unit's loop calls: only the GPU's own (events), for a wall
 * clock read there may as well stamp a log line as end a measurement. */
static const char *const event_clocks[] = {"cudaEventElapsedTime", "cuEventElapsedTime"};

char *ss_context_clock_words(ss_check_ctx *ctx, CXCursor function)
{
    CXCursor found;
    if (!ss_callgraph_calls_named(ss_check_graph(ctx), function, event_clocks,
                                  sizeof event_clocks / sizeof event_clocks[0], &found))
        return NULL;
    char *name = ss_scope_callee_name(found), *where = ss_callgraph_place(found);
    char *words = ss_xasprintf("'%s' at %s", name ? name : "a clock", where);
    free(name);
    free(where);
    return words;
}

/* A statement's calls of the function another unit defines that a loop calls ('usr'), and of
 * any other function of another unit. */
typedef struct elsewhere_walk {
    const char *usr;
    int calls_usr, calls_other;
} elsewhere_walk;

static enum CXChildVisitResult find_calls_elsewhere(CXCursor c, CXCursor parent, CXClientData data)
{
    elsewhere_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    char *usr = ss_project_declared_only(c);
    if (usr && strcmp(usr, w->usr) == 0)
        w->calls_usr = 1;
    else if (usr)
        w->calls_other = 1;
    free(usr);
    return CXChildVisit_Recurse;
}

int ss_context_timed_by_callee(ss_check_ctx *ctx, CXCursor loop, const char *usr)
{
    unsigned count = ss_ast_child_count(loop);
    if (count == 0)
        return 0;
    CXCursor body =
        ss_ast_child(loop, clang_getCursorKind(loop) == CXCursor_DoStmt ? 0 : count - 1);
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return 1; /* the body is the statement that calls it */
    unsigned n = ss_ast_child_count(body), first = n, last = n;
    for (unsigned i = 0; i < n; i++) {
        elsewhere_walk w = {usr, 0, 0};
        CXCursor stmt = ss_ast_child(body, i);
        ss_ast_visit_whole(stmt, stmt, find_calls_elsewhere, &w);
        first = w.calls_usr && first == n ? i : first;
        last = w.calls_usr ? i : last;
    }
    for (unsigned i = 0; i < n && first < n; i++) {
        if (i >= first && i <= last)
            continue;
        CXCursor stmt = ss_ast_child(body, i);
        elsewhere_walk w = {usr, 0, 0};
        program_walk p = {ss_check_graph(ctx), clang_getNullCursor()};
        ss_ast_visit_whole(stmt, stmt, find_calls_elsewhere, &w);
        ss_ast_visit_whole(stmt, stmt, find_program_work, &p);
        if (w.calls_other || !ss_ast_is_null(p.found))
            return 0;
    }
    return first < n;
}

/* Whether 'at' is one of the calls that open a measured region (marks): an event record. */
static int is_mark(CXCursor at)
{
    if (clang_getCursorKind(at) != CXCursor_CallExpr)
        return 0;
    char *name = ss_scope_callee_name(at);
    int found = 0;
    for (size_t i = 0; name && i < sizeof marks / sizeof marks[0] && !found; i++)
        found = ss_api_name_is(name, marks[i]);
    free(name);
    return found;
}

/* How many statements after a wait are looked at for the start of a timed region. */
enum { SETTLE_STATEMENTS = 64 };

/* The calls of event clocks in a function, and whether one reads the event 'event' as the start
 * of the time it measures ('cudaEventElapsedTime(&ms, start, stop)'). */
typedef struct elapsed_walk {
    CXCursor event;
    int found;
} elapsed_walk;

static enum CXChildVisitResult find_elapsed(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    elapsed_walk *w = data;
    CXCursor found;
    if (clang_getCursorKind(c) != CXCursor_CallExpr ||
        !ss_callgraph_calls_named(NULL, c, event_clocks,
                                  sizeof event_clocks / sizeof event_clocks[0], &found) ||
        clang_Cursor_getNumArguments(c) < 3)
        return CXChildVisit_Recurse;
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, 1));
    w->found = clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
               clang_equalCursors(clang_getCursorReferenced(arg), w->event);
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the statement 'stmt' records an event itself (marks) that an event clock of
 * 'function' reads as the start of the time it measures: it opens a timed region. '*mark'
 * receives the record. */
static int opens_timed_region(CXCursor function, CXCursor stmt, CXCursor *mark)
{
    /* the record itself, or a checking macro around it: not one inside a loop or under a
     * condition, after other work or only on some runs ('if (profile) cudaEventRecord(...)') */
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt ||
        k == CXCursor_IfStmt || k == CXCursor_SwitchStmt)
        return 0;
    if (!ss_callgraph_calls_named(NULL, stmt, marks, sizeof marks / sizeof marks[0], mark) ||
        clang_Cursor_getNumArguments(*mark) < 1)
        return 0;
    CXCursor event = ss_ast_strip(clang_Cursor_getArgument(*mark, 0));
    if (clang_getCursorKind(event) != CXCursor_DeclRefExpr)
        return 0;
    elapsed_walk w = {clang_getCursorReferenced(event), 0};
    ss_ast_visit_whole(function, function, find_elapsed, &w);
    return w.found;
}

/* Whether one of the 'n' statements 'stmts' after the record that starts a timed region, before
 * the one that reads the time, is a loop that does device work: the region repeats its work, as
 * a benchmark does after its warm-up ('for (int j = 0; j < nIter; j++) kernel<<<...>>>(...);').
 * A region that runs the iteration's work once (a stage that times its own step) is no
 * benchmark: the wait before it stalls every call, and the events time the work without it. */
static int repeats_timed_work(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        CXCursor found;
        if (ss_callgraph_calls_named(NULL, stmts[i], event_clocks,
                                     sizeof event_clocks / sizeof event_clocks[0], &found))
            return 0;
        enum CXCursorKind k = clang_getCursorKind(stmts[i]);
        if ((k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt) &&
            !ss_context_host_only(ctx, stmts[i]))
            return 1;
    }
    return 0;
}

char *ss_context_settle_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    CXCursor function = ss_scope_outer_function(ctx->function), stmts[SETTLE_STATEMENTS], found;
    unsigned index = 0, n = 0;
    if (rule == SS_RULE_SYNC_IN_LOOP && !ss_ast_is_null(function))
        n = ss_context_statements_around(ctx->function, at, stmts, SETTLE_STATEMENTS, &index);
    for (unsigned i = index + 1; i < n; i++) {
        if (opens_timed_region(function, stmts[i], &found) &&
            repeats_timed_work(ctx, stmts + i + 1, n - i - 1)) {
            char *name = ss_scope_callee_name(found);
            char *words = ss_xasprintf("the next device call, '%s' at line %u, records the event "
                                       "that starts a timed region: the wait lets the region "
                                       "start on an idle device, part of a measurement",
                                       name ? name : "?", ss_scope_line(found));
            free(name);
            return words;
        }
        if (!ss_context_host_only(ctx, stmts[i]))
            return NULL;
    }
    return NULL;
}

char *ss_context_timing_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at,
                              char **not_timed)
{
    CXCursor found;
    const char *what = "the loop times its iterations";
    *not_timed = NULL;
    unsigned first = 0, last = 0;
    if (!ss_callgraph_calls_named_within(ss_check_graph(ctx), loop->loop, clocks,
                                         sizeof clocks / sizeof clocks[0], CLOCK_DEPTH, &found)) {
        if (loop->chain != NULL)
            return NULL;
        found = clock_after(ctx, ss_scope_outer_function(ctx->function), loop->loop);
        if (ss_ast_is_null(found))
            return NULL;
        what = "the loop is timed";
    } else if ((*not_timed = untimed_work_words(ctx, loop->loop, &first, &last)) != NULL) {
        if (loop->chain != NULL || !is_mark(at))
            return NULL;
        /* The event that bounds the region is part of the measurement all the same. */
        free(*not_timed);
        *not_timed = NULL;
        return ss_xasprintf("it bounds the region the loop times (lines %u to %u): part of a "
                            "measurement",
                            first, last);
    }
    char *name = ss_scope_callee_name(found);
    char *words = ss_xasprintf("%s ('%s' at line %u): the wait is part of a measurement", what,
                               name ? name : "a clock", ss_scope_line(found));
    free(name);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Work a loop does once in a while. */

/* The smallest divisor a periodic test may have: 'i % 2 == 0' alternates (ping-pong buffers),
 * it does not make the work rare. */
enum { MIN_PERIOD = 8 };

static int is_modulo(CXCursor e)
{
    char op[8];
    e = ss_ast_strip(e);
    long long k;
    return clang_getCursorKind(e) == CXCursor_BinaryOperator &&
           ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "%") == 0 &&
           (ss_ast_eval_int(ss_ast_child(e, 1), &k) != 0 || k >= MIN_PERIOD);
}

/* Whether 'c' itself is a remainder test: 'v % k == 0' (either side) or '!(v % k)'. */
static int is_remainder_test(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    long long zero;
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
        strcmp(op, "==") == 0) {
        for (unsigned i = 0; i < 2; i++) {
            if (is_modulo(ss_ast_child(c, i)) &&
                ss_ast_eval_int(ss_ast_child(c, 1 - i), &zero) == 0 && zero == 0)
                return 1;
        }
    }
    if (k == CXCursor_UnaryOperator && ss_ast_child_count(c) == 1 &&
        is_modulo(ss_ast_child(c, 0))) {
        char *text = ss_expr_text(c);
        int negation = text && text[0] == '!';
        free(text);
        return negation;
    }
    return 0;
}

/* Variables an expression reads (MAX_NAMED at most), and whether it calls anything. */
enum { MAX_NAMED = 8 };

typedef struct named_walk {
    CXCursor decls[MAX_NAMED];
    size_t count;
    int calls, overflow;
} named_walk;

static enum CXChildVisitResult find_named(CXCursor c, CXCursor parent, CXClientData data)
{
    named_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        w->calls = 1;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        if (w->count < MAX_NAMED)
            w->decls[w->count++] = clang_getCursorReferenced(c);
        else
            w->overflow = 1;
    }
    return CXChildVisit_Recurse;
}

/* The variables 'e' reads, itself included, and whether it calls anything (find_named). */
static void names_in(CXCursor e, named_walk *w)
{
    find_named(e, e, w);
    if (!w->calls)
        clang_visitChildren(e, find_named, w);
}

static int is_named(const named_walk *named, CXCursor decl)
{
    for (size_t i = 0; !ss_ast_is_null(decl) && i < named->count; i++) {
        if (clang_equalCursors(named->decls[i], decl))
            return 1;
    }
    return 0;
}

/* Whether the call 'call' of 'callee' is a member operator's ('A[i]', 'it == end'), whose
 * arguments list the object first, before those the operator's parameters take. */
static int member_operator_call(CXCursor call, CXCursor callee)
{
    if (ss_ast_is_null(callee) || clang_getCursorKind(callee) != CXCursor_CXXMethod ||
        clang_Cursor_getNumArguments(call) != clang_Cursor_getNumArguments(callee) + 1)
        return 0;
    CXString name = clang_getCursorSpelling(callee);
    int op = strncmp(clang_getCString(name), "operator", 8) == 0;
    clang_disposeString(name);
    return op;
}

/* Whether a call passes one of the variables to a reference to non-const (it may change it);
 * a member operator's object counts where the operator is not const. */
static int passes_by_reference(CXCursor call, const named_walk *named)
{
    CXCursor callee = clang_getCursorReferenced(call);
    int n = clang_Cursor_getNumArguments(call);
    int shift = member_operator_call(call, callee);
    for (int i = 0; i < n; i++) {
        if (!is_named(named, named_decl(clang_Cursor_getArgument(call, i))))
            continue;
        if (ss_ast_is_null(callee))
            return 1;
        if (shift && i == 0) {
            if (!clang_CXXMethod_isConst(callee))
                return 1;
            continue;
        }
        if (i - shift >= clang_Cursor_getNumArguments(callee)) {
            if (clang_Cursor_isVariadic(callee))
                continue; /* passed by value ('printf("%d", step)') */
            return 1;
        }
        CXType t = clang_getCursorType(clang_Cursor_getArgument(callee, i - shift));
        if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
            return !clang_isConstQualifiedType(clang_getPointeeType(t));
    }
    return 0;
}

/* A statement under 'c' that may change one of the variables: an assignment, '++', '--', its
 * address taken, or a call given it by reference. */
typedef struct change_walk {
    const named_walk *named;
    int found;
} change_walk;

static enum CXChildVisitResult find_change(CXCursor c, CXCursor parent, CXClientData data)
{
    change_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if ((k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
         strcmp(op, "=") == 0) ||
        k == CXCursor_CompoundAssignOperator)
        w->found = is_named(w->named, named_decl(ss_ast_child(c, 0)));
    else if (k == CXCursor_UnaryOperator && is_named(w->named, named_decl(ss_ast_child(c, 0)))) {
        char *text = ss_expr_text(c);
        size_t len = text ? strlen(text) : 0;
        w->found =
            len == 0 || text[0] == '&' || strncmp(text, "++", 2) == 0 ||
            strncmp(text, "--", 2) == 0 ||
            (len >= 2 && (strcmp(text + len - 2, "++") == 0 || strcmp(text + len - 2, "--") == 0));
        free(text);
    } else if (k == CXCursor_CallExpr) {
        w->found = passes_by_reference(c, w->named);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int changes_named(CXCursor c, const named_walk *named)
{
    change_walk w = {named, 0};
    find_change(c, c, &w);
    if (!w.found)
        clang_visitChildren(c, find_change, &w);
    return w.found;
}

/* Whether the step 'part' of a 'for' moves its variable one way only: '++' or '--' (either
 * side), '+=' or '-='. Not '^= 1' (a ping-pong index that is 0 on every other pass) nor
 * '%=', '*=', '<<=' (which may come back to a value, or stay on it). */
static int steps_one_way(CXCursor part)
{
    char op[8];
    if (clang_getCursorKind(part) == CXCursor_CompoundAssignOperator)
        return ss_ast_binary_op(part, op, sizeof op) == 0 &&
               (strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0);
    return ss_expr_steps(part) == 1;
}

/* How a loop changes the variables of a remainder's dividend: 'stepped', changes one way ('++',
 * '--', '+=', '-='); 'other', any other change (an assignment, another compound assignment, its
 * address taken, a call given it by reference: a reset, or a value that may stay). */
typedef struct step_walk {
    const named_walk *named;
    int stepped, other;
} step_walk;

static enum CXChildVisitResult find_step(CXCursor c, CXCursor parent, CXClientData data)
{
    step_walk *w = data;
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_UnaryOperator || k == CXCursor_CompoundAssignOperator) &&
        is_named(w->named, named_decl(ss_ast_child(c, 0))) && steps_one_way(c)) {
        w->stepped++;
        return CXChildVisit_Recurse;
    }
    change_walk change = {w->named, 0};
    find_change(c, c, &change);
    w->other += change.found;
    return CXChildVisit_Recurse;
}

/* The body of a loop: the first child of a 'do', the last of the others. */
static CXCursor loop_body(CXCursor loop)
{
    unsigned n = ss_ast_child_count(loop);
    if (n == 0)
        return clang_getNullCursor();
    return ss_ast_child(loop, clang_getCursorKind(loop) == CXCursor_DoStmt ? 0 : n - 1);
}

/* Whether the remainder test 'test' can hold periodically in 'loop': its dividend reads
 * variables (or members) and calls nothing, none declared in the loop's body, and the loop
 * changes them, each change a step one way (the for's own start left out where it is told
 * apart: a declaration, or all four parts written); its divisor reads nothing the loop changes.
 * A remainder of a value the loop does not change holds on every iteration or on none ('seed %
 * 8 == 0'); one of a value the loop sets again ('j' of an inner 'for (j = 0; ...)', a local of
 * the body) holds on a pass of every iteration; a divisor the loop changes may become 1. */
static int remainder_moves(CXCursor test, CXCursor loop)
{
    CXCursor modulo = clang_getNullCursor();
    for (unsigned i = 0; i < ss_ast_child_count(test) && ss_ast_is_null(modulo); i++) {
        if (is_modulo(ss_ast_child(test, i)))
            modulo = ss_ast_strip(ss_ast_child(test, i));
    }
    named_walk dividend = {{clang_getNullCursor()}, 0, 0, 0};
    named_walk divisor = {{clang_getNullCursor()}, 0, 0, 0};
    if (ss_ast_is_null(modulo))
        return 0;
    names_in(ss_ast_child(modulo, 0), &dividend);
    names_in(ss_ast_child(modulo, 1), &divisor);
    if (dividend.count == 0 || dividend.calls || dividend.overflow || divisor.overflow ||
        changes_named(loop, &divisor))
        return 0;
    unsigned begin, end;
    ss_ast_range(loop_body(loop), &begin, &end);
    for (size_t i = 0; i < dividend.count; i++) {
        unsigned at = ss_ast_offset(dividend.decls[i]);
        if (at >= begin && at < end)
            return 0;
    }
    step_walk w = {&dividend, 0, 0};
    unsigned n = ss_ast_child_count(loop), first = 0;
    if (clang_getCursorKind(loop) == CXCursor_ForStmt &&
        (n == 4 || (n > 1 && clang_getCursorKind(ss_ast_child(loop, 0)) == CXCursor_DeclStmt)))
        first = 1;
    for (unsigned i = first; i < n; i++) {
        CXCursor part = ss_ast_child(loop, i);
        find_step(part, loop, &w);
        clang_visitChildren(part, find_step, &w);
    }
    return w.stepped > 0 && w.other == 0;
}

/* The counter of 'loop': the variable a 'for' steps one way in its own parts ('step++', '--i',
 * 'i += 2'), which its body does not change; or a null cursor. */
static CXCursor loop_counter(CXCursor loop)
{
    unsigned n = ss_ast_child_count(loop);
    if (clang_getCursorKind(loop) != CXCursor_ForStmt || n < 2)
        return clang_getNullCursor();
    for (unsigned i = 0; i + 1 < n; i++) {
        CXCursor part = ss_ast_strip(ss_ast_child(loop, i));
        enum CXCursorKind k = clang_getCursorKind(part);
        if ((k != CXCursor_UnaryOperator && k != CXCursor_CompoundAssignOperator) ||
            !steps_one_way(part))
            continue;
        named_walk counter = {{named_decl(ss_ast_child(part, 0))}, 1, 0, 0};
        if (ss_ast_is_null(counter.decls[0]) ||
            clang_getCursorKind(counter.decls[0]) == CXCursor_FieldDecl ||
            !changes_named(part, &counter) || changes_named(ss_ast_child(loop, n - 1), &counter))
            continue;
        return counter.decls[0];
    }
    return clang_getNullCursor();
}

/* Whether 'e' holds on one iteration of 'loop' at most: 'step == last' where 'step' is the
 * loop's counter and 'last' names neither it nor anything the loop changes, and calls nothing. */
static int one_iteration_test(CXCursor e, CXCursor loop)
{
    char op[8];
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(e, op, sizeof op) != 0 || strcmp(op, "==") != 0)
        return 0;
    CXCursor counter = loop_counter(loop);
    for (unsigned i = 0; i < 2 && !ss_ast_is_null(counter); i++) {
        CXCursor side = ss_ast_strip(ss_ast_child(e, i));
        if (clang_getCursorKind(side) != CXCursor_DeclRefExpr ||
            !clang_equalCursors(named_decl(side), counter))
            continue;
        named_walk other = {{clang_getNullCursor()}, 0, 0, 0};
        CXCursor value = ss_ast_child(e, 1 - i);
        names_in(value, &other);
        return !other.calls && !other.overflow && !is_named(&other, counter) &&
               !changes_named(loop, &other);
    }
    return 0;
}

/* How often a condition holds in a loop: at most every k-th iteration (a remainder test), on
 * one iteration at most (the loop's last: 'step == last'), or either, as far as told. */
enum { HOLDS_ANY = 0, HOLDS_PERIODICALLY = 1, HOLDS_ONCE = 2 };

/* How deep a local set from another one is followed. */
enum { MAX_LOCAL_HOPS = 2 };

/* What makes a condition periodic: a remainder test written in it, or a local it tests. */
typedef struct period_why {
    CXCursor test;
    CXCursor local;
} period_why;

static int holds(CXCursor e, CXCursor loop, int hops, period_why *why);

/* How often the use 'use' of a local (bool or integral) holds, when it reads, on every way to
 * it, only the value of one assignment or initializer inside 'loop' (so set again on each
 * iteration): 'bool log_now = step % every == 0; ... if (log_now)'. */
static int local_holds(CXCursor use, CXCursor loop, int hops)
{
    CXCursor var = clang_getCursorReferenced(use);
    enum CXTypeKind type = clang_getCanonicalType(clang_getCursorType(var)).kind;
    if (hops > MAX_LOCAL_HOPS || clang_getCursorKind(var) != CXCursor_VarDecl ||
        type < CXType_Bool || type > CXType_Int128)
        return HOLDS_ANY;
    CXCursor function = clang_getCursorSemanticParent(var);
    ss_location loc;
    if (!ss_ast_is_function(function) || ss_location_of(use, NULL, &loc) != 0)
        return HOLDS_ANY;
    ss_defs defs = {0};
    ss_dataflow_reaching(function, &loc, use, &defs);
    ss_location_free(&loc);
    unsigned begin, end, at;
    ss_ast_range(loop, &begin, &end);
    int how = HOLDS_ANY;
    if (defs.count == 1 && defs.v[0].kind == SS_DEF_VALUE) {
        at = ss_ast_offset(defs.v[0].value);
        if (at > begin && at < end)
            how = holds(defs.v[0].value, loop, hops + 1, NULL);
    }
    ss_defs_free(&defs);
    return how;
}

/* How often the value 'e' holds in 'loop': a remainder test holds periodically; a conjunction
 * ('&&') holds as rarely as its rarest factor, periodically if one is periodic; a disjunction
 * ('||') only when each side does: periodically when one side is periodic and the others hold
 * periodically or once ('step % every == 0 || last_step'); a test of the loop's counter
 * against a value the loop does not change holds once; a local, as its value. '*why', when
 * given, receives the remainder test or the local that makes it periodic. */
static int holds(CXCursor e, CXCursor loop, int hops, period_why *why)
{
    e = ss_ast_strip(e);
    if (is_remainder_test(e) && remainder_moves(e, loop)) {
        if (why)
            why->test = e;
        return HOLDS_PERIODICALLY;
    }
    enum CXCursorKind k = clang_getCursorKind(e);
    char op[8];
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(e, op, sizeof op) == 0 &&
        (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0)) {
        period_why sides[2] = {{clang_getNullCursor(), clang_getNullCursor()},
                               {clang_getNullCursor(), clang_getNullCursor()}};
        int how[2];
        for (unsigned i = 0; i < 2; i++)
            how[i] = holds(ss_ast_child(e, i), loop, hops, &sides[i]);
        int periodic = how[0] == HOLDS_PERIODICALLY ? 0 : how[1] == HOLDS_PERIODICALLY ? 1 : -1;
        int all = how[0] != HOLDS_ANY && how[1] != HOLDS_ANY;
        if (strcmp(op, "||") == 0 && !all)
            return HOLDS_ANY;
        if (periodic < 0)
            return how[0] == HOLDS_ONCE || how[1] == HOLDS_ONCE ? HOLDS_ONCE : HOLDS_ANY;
        if (why)
            *why = sides[periodic];
        return HOLDS_PERIODICALLY;
    }
    if (one_iteration_test(e, loop))
        return HOLDS_ONCE;
    if (k == CXCursor_DeclRefExpr) {
        int how = local_holds(e, loop, hops);
        if (why && how == HOLDS_PERIODICALLY) {
            why->test = clang_getNullCursor();
            why->local = e;
        }
        return how;
    }
    return HOLDS_ANY;
}

/* "line 260 tests 'print_loss', which line 245 sets to 'i % print_interval == 0'" for the use
 * 'local' of a local that holds periodically; malloc'ed. */
static char *local_period_words(CXCursor local)
{
    ss_location loc;
    if (ss_location_of(local, NULL, &loc) != 0)
        return NULL;
    ss_defs defs = {0};
    ss_dataflow_reaching(clang_getCursorSemanticParent(loc.var), &loc, local, &defs);
    char *name = ss_expr_text(local);
    char *value = defs.count == 1 ? ss_expr_text(defs.v[0].value) : NULL;
    char *words = ss_xasprintf(
        "line %u tests '%s', which line %u sets to '%s'", ss_scope_line(local), name ? name : "...",
        defs.count == 1 ? ss_scope_line(defs.v[0].value) : 0, value ? value : "...");
    free(name);
    free(value);
    ss_defs_free(&defs);
    ss_location_free(&loc);
    return words;
}

/* "line 1805 tests 'step % checkpoint_every == 0'" when the call 'call' runs in the loop 'loop'
 * only in the branch of an 'if' whose condition holds periodically (holds); malloc'ed, or
 * NULL. */
static char *period_guard(CXCursor loop, CXCursor call)
{
    if (!ss_scope_is_loop(loop))
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long depth = ss_context_path(loop, call, path);
    char *words = NULL;
    for (long i = 0; i < depth && words == NULL; i++) {
        /* The branch: a block, or the call itself where it is written without braces. */
        CXCursor branch = i + 1 < depth ? path[i + 1] : call;
        if (clang_getCursorKind(path[i]) != CXCursor_IfStmt)
            continue;
        unsigned c = ss_ast_if_condition(path[i]);
        if (!ss_ast_same_node(ss_ast_child(path[i], c + 1), branch))
            continue;
        period_why why = {clang_getNullCursor(), clang_getNullCursor()};
        if (holds(ss_ast_child(path[i], c), loop, 0, &why) != HOLDS_PERIODICALLY)
            continue;
        if (!ss_ast_is_null(why.local)) {
            words = local_period_words(why.local);
            continue;
        }
        char *text = ss_expr_text(why.test);
        words = ss_xasprintf("line %u tests '%s'", ss_scope_line(why.test), text ? text : "...");
        free(text);
    }
    free(path);
    return words;
}

/* For ss_callgraph_reached_unless: a call in a loop under a periodic test is skipped. */
static int skip_periodic(CXCursor from, CXCursor call, void *data)
{
    (void)data;
    char *words = period_guard(from, call);
    free(words);
    return words != NULL;
}

char *ss_context_periodic_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    if (loop->chain == NULL) {
        char *guard = period_guard(loop->loop, at);
        char *words = guard ? ss_xasprintf("periodic: it runs once in a while (%s)", guard) : NULL;
        free(guard);
        return words;
    }
    if (loop->call_count == 0)
        return NULL;
    char *guard = period_guard(loop->froms[0], loop->calls[0]);
    char *words = NULL;
    if (guard &&
        !ss_callgraph_reached_unless(ss_check_graph(ctx), ss_scope_outer_function(ctx->function),
                                     SS_SCOPE_ENQUEUES, skip_periodic, NULL))
        words = ss_xasprintf("periodic: every call from a loop runs once in a while (%s)", guard);
    free(guard);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * A branch taken on one pass of the outermost loop. */

/* Whether 'cond' holds on one iteration of 'loop' at most: 'i == v' (one_iteration_test), '!i'
 * ('i == 0') where 'i' is the loop's counter, or a conjunction ('&&') with such an operand. */
static int holds_on_one_pass(CXCursor cond, CXCursor loop)
{
    CXCursor e = ss_ast_strip(cond);
    char op[8];
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(e, op, sizeof op) == 0 &&
        strcmp(op, "&&") == 0)
        return holds_on_one_pass(ss_ast_child(e, 0), loop) ||
               holds_on_one_pass(ss_ast_child(e, 1), loop);
    if (k == CXCursor_UnaryOperator) {
        char *text = ss_expr_text(e);
        CXCursor counter = loop_counter(loop);
        int negated = text && text[0] == '!' && !ss_ast_is_null(counter) &&
                      clang_equalCursors(named_decl(ss_ast_child(e, 0)), counter);
        free(text);
        return negated;
    }
    return one_iteration_test(e, loop);
}

/* The 'if' on the path 'path' (from a loop down, 'found' nodes) whose then-branch holds the
 * call and whose condition holds on one pass of 'loop', its index in '*index'; a null cursor
 * when there is none. */
static CXCursor one_pass_branch(const CXCursor *path, long found, CXCursor loop, long *index)
{
    for (long i = 1; i < found; i++) {
        if (clang_getCursorKind(path[i - 1]) != CXCursor_IfStmt)
            continue;
        unsigned cond = ss_ast_if_condition(path[i - 1]);
        if (ss_ast_same_node(path[i], ss_ast_child(path[i - 1], cond + 1)) &&
            holds_on_one_pass(ss_ast_child(path[i - 1], cond), loop)) {
            *index = i - 1;
            return path[i - 1];
        }
    }
    return clang_getNullCursor();
}

/* The first loop on 'path' (nodes 'from' to 'to', exclusive) that encloses the call, or a null
 * cursor; with 'graph', only one that puts work on the device (itself, or through a function
 * of the unit it calls). */
static CXCursor loop_on_path(const CXCursor *path, long from, long to, ss_callgraph *graph)
{
    CXCursor work;
    for (long i = from; i < to; i++) {
        if (ss_scope_is_loop(path[i]) &&
            (graph == NULL || ss_callgraph_loop_work(graph, path[i], SS_SCOPE_ENQUEUES,
                                                     clang_getNullCursor(), &work, NULL)))
            return path[i];
    }
    return clang_getNullCursor();
}

/* The words of ss_context_one_pass_words for the 'if' 'branch' taken on one pass of 'outer';
 * 'repeat' is a loop between 'outer' and the call (the pass repeats the call), or null. */
static char *one_pass_text(CXCursor branch, CXCursor outer, CXCursor repeat)
{
    char *cond = ss_expr_text(ss_ast_child(branch, ss_ast_if_condition(branch)));
    char *per_run = ss_ast_is_null(repeat)
                        ? ss_xstrdup("once per run of that loop")
                        : ss_xasprintf("on that pass only (as often as the loop at line %u "
                                       "repeats it there)",
                                       ss_scope_line(repeat));
    char *words =
        ss_xasprintf("one pass: the branch at line %u runs on one iteration of the loop "
                     "at line %u only (it tests '%s'), %s: start-up or wind-down, not "
                     "on every iteration",
                     ss_scope_line(branch), ss_scope_line(outer), cond ? cond : "...", per_run);
    free(per_run);
    free(cond);
    return words;
}

char *ss_context_one_pass_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    CXCursor loops[16];
    if (loop->chain || clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    size_t n = ss_scope_enclosing_loops(ctx->function, at, loops, 16);
    if (n == 0 || n == 16 || ss_scope_path(loops[n - 1], at, NULL, NULL, 0) < 0)
        return NULL;
    CXCursor outer = loops[n - 1];
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(outer, at, path), index = 0;
    CXCursor branch =
        found > 0 ? one_pass_branch(path, found, outer, &index) : clang_getNullCursor();
    /* A loop inside the branch that puts work on the device repeats the call with that work:
     * its own hazard on that pass, as it would be outside 'outer'. */
    CXCursor repeat = clang_getNullCursor();
    if (!ss_ast_is_null(branch) &&
        ss_ast_is_null(loop_on_path(path, index + 1, found, ss_check_graph(ctx))))
        repeat = loop_on_path(path, 1, found, NULL);
    else
        branch = clang_getNullCursor();
    free(path);
    if (ss_ast_is_null(branch) ||
        ss_callgraph_loop_reaches(ss_check_graph(ctx), ss_scope_outer_function(ctx->function),
                                  SS_SCOPE_ENQUEUES))
        return NULL;
    return one_pass_text(branch, outer, repeat);
}

/* ------------------------------------------------------------------------------------------
 * Loops over a constant array of settings. */

enum { MAX_BOUNDED_TRIPS = 16 };

/* An element 'array[i]' of an array of constant size that the loop variable 'var' indexes. */
typedef struct sweep_walk {
    CXCursor var;
    CXCursor array; /* the array's declaration */
    long long size;
} sweep_walk;

static enum CXChildVisitResult find_sweep(CXCursor c, CXCursor parent, CXClientData data)
{
    sweep_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
        return CXChildVisit_Recurse;
    CXCursor base = ss_ast_strip(ss_ast_child(c, 0));
    CXType t = clang_getCanonicalType(clang_getCursorType(base));
    CXCursor array = named_decl(base);
    if (t.kind == CXType_ConstantArray && !ss_ast_is_null(array) &&
        clang_equalCursors(named_decl(ss_ast_child(c, 1)), w->var)) {
        w->array = array;
        w->size = clang_getArraySize(t);
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the loop 'loop' sweeps over the elements of an array of constant size, once each: a
 * range-for over it, or 'for (int i = 0; i < N; i++)' (or '++i') with N the array's size as a
 * constant ('sizeof(a) / sizeof(a[0])') and 'a[i]' in the body. Sets '*array' to the array's
 * declaration and returns its size, or returns -1. */
static long long sweep_size(CXCursor loop, CXCursor *array)
{
    enum CXCursorKind k = clang_getCursorKind(loop);
    if (k == CXCursor_CXXForRangeStmt) {
        unsigned n = ss_ast_child_count(loop);
        for (unsigned i = 0; i < n; i++) {
            CXCursor c = ss_ast_strip(ss_ast_child(loop, i));
            if (!clang_isExpression(clang_getCursorKind(c)))
                continue;
            CXType t = clang_getCanonicalType(clang_getCursorType(c));
            *array = named_decl(c);
            return t.kind == CXType_ConstantArray && !ss_ast_is_null(*array) ? clang_getArraySize(t)
                                                                             : -1;
        }
        return -1;
    }
    if (k != CXCursor_ForStmt || ss_ast_child_count(loop) != 4)
        return -1;
    CXCursor init = ss_ast_child(loop, 0), cond = ss_ast_strip(ss_ast_child(loop, 1)),
             inc = ss_ast_strip(ss_ast_child(loop, 2));
    CXCursor var = ss_ast_child(init, 0);
    long long from, to;
    unsigned vn = ss_ast_child_count(var);
    if (clang_getCursorKind(init) != CXCursor_DeclStmt || ss_ast_child_count(init) != 1 ||
        clang_getCursorKind(var) != CXCursor_VarDecl || vn == 0 ||
        ss_ast_eval_int(ss_ast_child(var, vn - 1), &from) != 0 || from != 0)
        return -1;
    char op[8];
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(cond, op, sizeof op) != 0 || strcmp(op, "<") != 0 ||
        !clang_equalCursors(named_decl(ss_ast_child(cond, 0)), var) ||
        ss_ast_eval_int(ss_ast_child(cond, 1), &to) != 0)
        return -1;
    char *step = ss_expr_text(inc);
    int one = step && clang_getCursorKind(inc) == CXCursor_UnaryOperator &&
              strstr(step, "++") != NULL &&
              clang_equalCursors(named_decl(ss_ast_child(inc, 0)), var);
    free(step);
    if (!one)
        return -1;
    sweep_walk w = {var, clang_getNullCursor(), -1};
    clang_visitChildren(ss_ast_child(loop, 3), find_sweep, &w);
    if (ss_ast_is_null(w.array) || w.size != to)
        return -1;
    *array = w.array;
    return to;
}

/* Whether 'c' lies in no loop of the named function around 'function'. */
static int outside_loops(CXCursor function, CXCursor c)
{
    CXCursor loops[1];
    return ss_scope_enclosing_loops(function, c, loops, 1) == 0;
}

static long long constant_count(CXCursor loop);
static int device_loop_sure(CXCursor loop);

enum { MAX_INNER = 4 };

/* Appends to '*words' "; the loop at line 14 inside it once per device" (or "at most 4 times")
 * for each loop around 'c' in 'function' below 'outer' (all of them when 'outer' is null), and
 * returns 1, when each runs once per device or a constant few times (a start-up sweep's
 * per-rank loop, held-out-38's CS); else 0. */
static int add_inner_loops(CXCursor function, CXCursor c, CXCursor outer, char **words)
{
    CXCursor loops[MAX_INNER];
    size_t n = ss_scope_enclosing_loops(function, c, loops, MAX_INNER);
    if (n == MAX_INNER)
        return 0;
    for (size_t i = 0; i < n && !ss_ast_same_node(loops[i], outer); i++) {
        long long count = constant_count(loops[i]);
        char *each = device_loop_sure(loops[i]) ? ss_xstrdup("once per device")
                     : count >= 0 && count <= MAX_BOUNDED_TRIPS
                         ? ss_xasprintf("at most %lld times", count)
                         : NULL;
        if (each == NULL)
            return 0;
        /* A loop of another function of the chain is named with its file. */
        char *place = ss_ast_is_null(outer) ? ss_callgraph_place(loops[i])
                                            : ss_xasprintf("line %u", ss_scope_line(loops[i]));
        char *longer = ss_xasprintf("%s; the loop at %s inside it %s", *words, place, each);
        free(place);
        free(each);
        free(*words);
        *words = longer;
    }
    return 1;
}

/* Whether 'loop' is the only loop around the call 'at' but for loops inside it that run once
 * per device or a constant few times (add_inner_loops): in its function, and in each function
 * of the chain of calls from the loop. Returns the words for those inner loops ("" when there
 * are none), malloc'ed, or NULL. */
static char *alone_in_loop(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    CXCursor loops[MAX_INNER];
    char *words = ss_xstrdup("");
    int alone;
    if (loop->chain == NULL) {
        size_t n = ss_scope_enclosing_loops(ctx->function, at, loops, MAX_INNER);
        alone = n > 0 && n < MAX_INNER && ss_ast_same_node(loops[n - 1], loop->loop) &&
                add_inner_loops(ctx->function, at, loop->loop, &words);
    } else {
        alone = loop->call_count > 0 &&
                ss_scope_enclosing_loops(loop->function, loop->calls[0], loops, 2) == 1 &&
                ss_ast_same_node(loops[0], loop->loop);
        for (size_t i = 1; i < loop->call_count && alone; i++)
            alone = add_inner_loops(loop->froms[i], loop->calls[i], clang_getNullCursor(), &words);
        alone = alone && add_inner_loops(ctx->function, at, clang_getNullCursor(), &words);
    }
    if (!alone) {
        free(words);
        return NULL;
    }
    return words;
}

/* Whether 'c' names the variable 'var' ('var', or 'var' through casts). */
static int names_var(CXCursor c, CXCursor var)
{
    CXCursor d = named_decl(c);
    return !ss_ast_is_null(d) && clang_equalCursors(d, var);
}

/* Whether something under 'c' may change 'var': an assignment to it (any operator whose left
 * side it is, where the operator cannot be read: a macro's body), an operator applied to it
 * ('v++', '&v'), or a call given it by reference (an element access 'a[v]' passes it by
 * value). Works from cursors only, so that a loop a macro writes is read too. */
static enum CXChildVisitResult find_var_change(CXCursor c, CXCursor parent, CXClientData data)
{
    change_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if (k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator)
        w->found = is_named(w->named, named_decl(ss_ast_child(c, 0)));
    else if (k == CXCursor_BinaryOperator && is_named(w->named, named_decl(ss_ast_child(c, 0))))
        w->found = ss_ast_binary_op(c, op, sizeof op) != 0 || strcmp(op, "=") == 0;
    else if (k == CXCursor_CallExpr) {
        CXString name = clang_getCursorSpelling(c);
        w->found =
            strcmp(clang_getCString(name), "operator[]") != 0 && passes_by_reference(c, w->named);
        clang_disposeString(name);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The variable 'loop' steps through and its body does not change (find_var_change): the
 * variable a 'for' declares in its first part and steps in its third ('d++', 'd += 1'), or the
 * element variable of a range-for; and its body into '*body'. Else a null cursor. */
static CXCursor stepped_variable(CXCursor loop, CXCursor *body)
{
    unsigned n = ss_ast_child_count(loop);
    CXCursor var = clang_getNullCursor();
    *body = n ? ss_ast_child(loop, n - 1) : clang_getNullCursor();
    if (clang_getCursorKind(loop) == CXCursor_ForStmt && n == 4) {
        CXCursor init = ss_ast_child(loop, 0), inc = ss_ast_strip(ss_ast_child(loop, 2));
        enum CXCursorKind k = clang_getCursorKind(inc);
        if (clang_getCursorKind(init) == CXCursor_DeclStmt && ss_ast_child_count(init) == 1 &&
            (k == CXCursor_UnaryOperator || k == CXCursor_CompoundAssignOperator) &&
            names_var(ss_ast_child(inc, 0), ss_ast_child(init, 0)))
            var = ss_ast_child(init, 0);
    } else if (clang_getCursorKind(loop) == CXCursor_CXXForRangeStmt) {
        for (unsigned i = 0; i < n && ss_ast_is_null(var); i++) {
            CXCursor c = ss_ast_child(loop, i);
            if (clang_getCursorKind(c) == CXCursor_DeclStmt && ss_ast_child_count(c) == 1)
                c = ss_ast_child(c, 0);
            var = clang_getCursorKind(c) == CXCursor_VarDecl ? c : var;
        }
    }
    named_walk named = {{var}, 1, 0, 0};
    change_walk w = {&named, 0};
    if (!ss_ast_is_null(var) && !ss_ast_is_null(*body))
        clang_visitChildren(*body, find_var_change, &w);
    return w.found ? clang_getNullCursor() : var;
}

/* Whether 'arg' is 'var' or an element of a list that 'var' indexes ('devs[devi]'). */
static int device_of(CXCursor arg, CXCursor var)
{
    CXCursor e = ss_ast_strip(arg);
    enum CXCursorKind k = clang_getCursorKind(e);
    unsigned n = ss_ast_child_count(e);
    if (names_var(e, var))
        return 1;
    if (k == CXCursor_ArraySubscriptExpr && n == 2)
        return names_var(ss_ast_child(e, 1), var);
    CXString name = clang_getCursorSpelling(e);
    int subscript = k == CXCursor_CallExpr && strcmp(clang_getCString(name), "operator[]") == 0;
    clang_disposeString(name);
    return subscript && n > 0 && names_var(ss_ast_child(e, n - 1), var);
}

/* The call of cudaSetDevice that is a statement of the body of 'loop' (so it runs on every
 * iteration) and sets the device to the variable the loop steps through, or to an element of
 * a list that it indexes ('cudaSetDevice(d)', 'cudaSetDevice(devs[devi])'): a loop over the
 * devices, once per device. Returns that call, or a null cursor; the variable into '*var_out'. */
static CXCursor device_loop_set(CXCursor loop, CXCursor *var_out)
{
    CXCursor body, found = clang_getNullCursor();
    CXCursor var = *var_out = stepped_variable(loop, &body);
    if (ss_ast_is_null(var) || clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return found;
    for (unsigned i = 0; i < ss_ast_child_count(body) && ss_ast_is_null(found); i++) {
        CXCursor call = ss_ast_strip(ss_ast_child(body, i));
        if (clang_getCursorKind(call) == CXCursor_CallExpr && ss_scope_is_set_device(call) &&
            clang_Cursor_getNumArguments(call) == 1 &&
            device_of(clang_Cursor_getArgument(call, 0), var))
            found = call;
    }
    return found;
}

/* Whether the identifier 'name' has a word (split at '_' and before a capital, any case) that
 * starts with 'dev', 'gpu' or 'rank' (a list of devices: 'devices', 'gpu_ids', 'rankDevs'), and
 * none that starts with 'batch', 'task', 'chunk', 'job', 'item', 'tile' or 'block' (a table per
 * piece of work: 'batch_dev'). */
static int names_devices(const char *name)
{
    static const char *const yes[] = {"dev", "gpu", "rank"};
    static const char *const no[] = {"batch", "task", "chunk", "job", "item", "tile", "block"};
    int found = 0;
    char word[64];
    size_t len = 0;
    for (size_t i = 0;; i++) {
        char c = name[i];
        int boundary = c == '\0' || c == '_' ||
                       (i > 0 && isupper((unsigned char)c) && islower((unsigned char)name[i - 1]));
        if (boundary && len > 0) {
            word[len] = '\0';
            for (size_t k = 0; k < sizeof no / sizeof no[0]; k++)
                if (strncmp(word, no[k], strlen(no[k])) == 0)
                    return 0;
            for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++)
                found |= strncmp(word, yes[k], strlen(yes[k])) == 0;
            len = 0;
        }
        if (c == '\0')
            return found;
        if (c != '_' && len + 1 < sizeof word)
            word[len++] = (char)tolower((unsigned char)c);
    }
}

/* Whether 'text' holds 'word' with no identifier's character right before it ('devs.size()',
 * not 'n_devs.size()'). */
static int names_whole(const char *text, const char *word)
{
    for (const char *at = strstr(text, word); at; at = strstr(at + 1, word)) {
        if (at == text || !(isalnum((unsigned char)at[-1]) || at[-1] == '_'))
            return 1;
    }
    return 0;
}

/* Whether 'loop' surely runs once per device: device_loop_set, and the device is the stepped
 * variable itself ('cudaSetDevice(d)'), or an element of a list whose name says devices
 * (names_devices) and whose size the loop's header bounds the loop with ('for (r = 0; r <
 * devs.size(); r++) cudaSetDevice(devs[r])', 'devs->size()', 'std::size(devs)'); not
 * 'cudaSetDevice(batch_dev[i])' in a loop over the batches. */
static int device_loop_sure(CXCursor loop)
{
    CXCursor var = clang_getNullCursor();
    CXCursor set = device_loop_set(loop, &var);
    if (ss_ast_is_null(set))
        return 0;
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(set, 0));
    if (names_var(arg, var))
        return 1;
    char *list = ss_ast_child_count(arg) > 0 ? ss_expr_text(ss_ast_child(arg, 0)) : NULL;
    int named = 0;
    if (list && names_devices(list)) {
        char *forms[3] = {ss_xasprintf("%s.size()", list), ss_xasprintf("%s->size()", list),
                          ss_xasprintf("std::size(%s)", list)};
        unsigned n = ss_ast_child_count(loop);
        for (unsigned i = 0; i + 1 < n && !named; i++) {
            CXCursor part = ss_ast_child(loop, i);
            char *text = clang_isExpression(clang_getCursorKind(part)) ? ss_expr_text(part) : NULL;
            for (int f = 0; f < 3 && text && !named; f++)
                named = names_whole(text, forms[f]);
            free(text);
        }
        for (int f = 0; f < 3; f++)
            free(forms[f]);
    }
    free(list);
    return named;
}

/* "runs once per element of 'sizes' (4, a constant array)" or "runs once per device (line 7
 * sets the device to 'devs[devi]')" when 'loop' sweeps a constant array or the devices, else
 * NULL. Malloc'ed. */
static char *bounded_trips(CXCursor loop)
{
    CXCursor array;
    long long trips = sweep_size(loop, &array);
    if (trips >= 0 && trips <= MAX_BOUNDED_TRIPS) {
        CXString name = clang_getCursorSpelling(array);
        char *words = ss_xasprintf("runs once per element of '%s' (%lld, a constant array)",
                                   clang_getCString(name), trips);
        clang_disposeString(name);
        return words;
    }
    CXCursor var = clang_getNullCursor();
    CXCursor set = trips < 0 ? device_loop_set(loop, &var) : clang_getNullCursor();
    if (ss_ast_is_null(set))
        return NULL;
    CXString name = clang_getCursorSpelling(var);
    char *words = ss_xasprintf("runs once per device (line %u sets the device from '%s')",
                               ss_scope_line(set), clang_getCString(name));
    clang_disposeString(name);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * The pieces of one transfer: a loop whose only device work is copies, each of a piece that
 * changes with the iteration on both sides ('A[i].data()' into 'dA[i]', or a buffer the loop's
 * body declares), in a function that runs once: the loop moves one batch of data, once, not a
 * cost paid on every iteration of repeated work (held-out-33's CI: the cuBLAS batched samples,
 * cuBLASLt's TestBench). */

typedef struct pieces_walk {
    ss_callgraph *graph;
    CXCursor loop, counter;
    int copies, refused;
} pieces_walk;

typedef struct piece_ref {
    CXCursor loop, counter;
    int found, depth;
} piece_ref;

static int names_piece(CXCursor loop, CXCursor counter, CXCursor e, int depth);

/* Whether 'decl', a variable the loop's body declares, holds a different piece on each
 * iteration: a buffer of its own (a class, 'std::vector<float> scales(n)', or an array), made
 * afresh, or one whose initializer names the counter or such a variable ('double *dst = d + i
 * * n;'). A pointer, reference or number set the same way each time ('double *dst = d;', 'int
 * j = 0;') is the same piece each time. */
static int piece_var(CXCursor loop, CXCursor counter, CXCursor decl, int depth)
{
    CXCursor body = ss_ast_child(loop, ss_ast_child_count(loop) - 1);
    if (clang_getCursorKind(decl) != CXCursor_VarDecl ||
        ss_scope_path(body, decl, NULL, NULL, 0) < 0)
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    if (t.kind == CXType_Record || t.kind == CXType_ConstantArray)
        return 1;
    unsigned n = ss_ast_child_count(decl);
    CXCursor init = n > 0 ? ss_ast_child(decl, n - 1) : clang_getNullCursor();
    return depth < 4 && !ss_ast_is_null(init) && clang_isExpression(clang_getCursorKind(init)) &&
           names_piece(loop, counter, init, depth + 1);
}

/* Whether a name in the argument is the loop's counter or a piece the body declares
 * (piece_var). */
static enum CXChildVisitResult find_piece_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    piece_ref *w = data;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor decl = clang_getCursorReferenced(c);
    if (clang_equalCursors(decl, w->counter) || piece_var(w->loop, w->counter, decl, w->depth))
        w->found = 1;
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int names_piece(CXCursor loop, CXCursor counter, CXCursor e, int depth)
{
    piece_ref r = {loop, counter, 0, depth};
    ss_ast_visit_whole(e, e, find_piece_ref, &r);
    return r.found;
}

static int piece_arg(const pieces_walk *w, CXCursor call, int index)
{
    if (index < 0 || index >= clang_Cursor_getNumArguments(call))
        return 0;
    return names_piece(w->loop, w->counter, clang_Cursor_getArgument(call, (unsigned)index), 0);
}

/* Whether the call 'c', of no API and no function of the unit, may run device work of its own:
 * a GPU library's, given a stream or another unit's (ss_context_library_enqueues), a function
 * object's call ('std::function<void(int)>'s 'operator()', whose target lint cannot see), or a
 * function given a lambda or a 'std::function' (an algorithm that calls it). */
static int library_may_work(CXCursor c)
{
    if (ss_context_library_enqueues(c))
        return 1;
    CXString name = clang_getCursorSpelling(clang_getCursorReferenced(c));
    int callable = strcmp(clang_getCString(name), "operator()") == 0;
    clang_disposeString(name);
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n && !callable; i++) {
        CXType t = clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i));
        char *type = ss_type_template_name(t);
        CXString spelled = clang_getTypeSpelling(clang_getCanonicalType(t));
        callable = (type && strcmp(type, "std::function") == 0) ||
                   strstr(clang_getCString(spelled), "lambda at ") != NULL;
        clang_disposeString(spelled);
        free(type);
    }
    return callable;
}

static enum CXChildVisitResult find_not_piece(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    pieces_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CXXThrowExpr)
        return CXChildVisit_Continue; /* an error path: what it constructs runs only on error */
    if (k == CXCursor_LambdaExpr || k == CXCursor_CXXNewExpr) {
        w->refused = 1;
    } else if (k == CXCursor_CallExpr) {
        const ss_api *api = ss_scope_callee_api(c);
        CXCursor callee = clang_getCursorReferenced(c), def = ss_callgraph_callee(w->graph, c);
        if (api && api->klass == SS_CLASS_COPY && piece_arg(w, c, api->dst_arg) &&
            piece_arg(w, c, api->src_arg))
            w->copies++;
        else if (api)
            w->refused = !ss_context_check_call(c);
        else if (clang_getCursorKind(callee) == CXCursor_CXXMethod &&
                 clang_CXXMethod_isVirtual(callee))
            w->refused = 1; /* an override lint does not follow may do device work */
        else if (!ss_ast_is_null(def))
            w->refused = ss_callgraph_does_work(w->graph, def, SS_SCOPE_DEVICE_WORK);
        else
            w->refused =
                ss_ast_is_null(callee) || !ss_ast_in_system_header(callee) || library_may_work(c);
    }
    return w->refused ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'function' is called from a loop of the unit that enqueues device work (a function
 * named for set-up, which ss_callgraph_runs_once takes at its word, too). */
static int called_from_loop(ss_callgraph *graph, CXCursor function)
{
    return ss_callgraph_loop_reaches(graph, function, SS_SCOPE_ENQUEUES);
}

char *ss_context_pieces_words(ss_check_ctx *ctx, ss_rule_id rule, const ss_loop_context *loop,
                              CXCursor at)
{
    CXCursor loops[8];
    if ((rule != SS_RULE_PAGEABLE_ASYNC_COPY && rule != SS_RULE_SYNC_COPY_IN_PIPELINE) ||
        loop->chain || clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    /* The loop, and no other around the call but an error-checking macro's 'do { } while (0)'. */
    size_t n = ss_scope_enclosing_loops(ctx->function, at, loops, 8), real = 0;
    for (size_t i = 0; i < n; i++)
        real += !(clang_getCursorKind(loops[i]) == CXCursor_DoStmt && ss_ast_do_once(loops[i]));
    if (n == 8 || real != 1 || !ss_ast_same_node(loops[n - 1], loop->loop))
        return NULL;
    pieces_walk w = {ss_check_graph(ctx), loop->loop, loop_counter(loop->loop), 0, 0};
    if (ss_ast_is_null(w.counter))
        return NULL;
    CXCursor body = ss_ast_child(loop->loop, ss_ast_child_count(loop->loop) - 1);
    ss_ast_visit_whole(body, body, find_not_piece, &w);
    char *why = NULL;
    if (w.refused || w.copies == 0 || called_from_loop(w.graph, loop->function) ||
        !ss_callgraph_runs_once(ss_check_graph(ctx), loop->function, &why)) {
        free(why);
        return NULL;
    }
    CXString counter = clang_getCursorSpelling(w.counter);
    char *words = ss_xasprintf("once: the loop at line %u copies a different piece on each "
                               "iteration (by '%s'), its only device work, and %s: one transfer "
                               "in pieces, made once",
                               ss_scope_line(loop->loop), clang_getCString(counter), why);
    clang_disposeString(counter);
    free(why);
    return words;
}

static char *warm_up_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at);
static int in_bounded_loop(CXCursor from, CXCursor call, void *data);

enum { MAX_BOUNDED_CALLS = 4 };

/* "'zero_inputs' is called only in bounded loops of functions that run once (1 call): the loop
 * at line 53 runs once per element of 'cases' (6, a constant array), and 'auto_tune' is called
 * once, from 'init'" when every call of 'function' (a few at most; none that another unit or
 * its address may make: ss_callgraph_seen_calls_of) is in a bounded loop of a function that
 * runs once (bounded_trips, ss_callgraph_runs_once), in no other loop of it but loops that run
 * once per device or a constant few times (add_inner_loops): a start-up sweep's step
 * (held-out-38's CS). The words name the first call's loop. Malloc'ed, or NULL. */
static char *bounded_calls_words(ss_check_ctx *ctx, CXCursor function)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor calls[MAX_BOUNDED_CALLS], callers[MAX_BOUNDED_CALLS];
    long n = ss_callgraph_seen_calls_of(graph, function, calls, callers, MAX_BOUNDED_CALLS);
    if (n < 1 || n > MAX_BOUNDED_CALLS)
        return NULL;
    char *words = NULL;
    for (long i = 0; i < n; i++) {
        CXCursor loops[MAX_INNER];
        size_t m = ss_scope_enclosing_loops(callers[i], calls[i], loops, MAX_INNER);
        char *trips = m > 0 && m < MAX_INNER ? bounded_trips(loops[m - 1]) : NULL;
        char *inner = ss_xstrdup(""), *why = NULL;
        int bounded = trips && add_inner_loops(callers[i], calls[i], loops[m - 1], &inner) &&
                      ss_callgraph_runs_once(graph, callers[i], &why);
        if (bounded && words == NULL) {
            char *name = ss_qualified_name(function);
            words = ss_xasprintf("'%s' is called only in bounded loops of functions that run "
                                 "once (%ld call%s): the loop at line %u %s%s, and %s",
                                 name ? name : "?", n, n == 1 ? "" : "s",
                                 ss_scope_line(loops[m - 1]), trips, inner, why);
            free(name);
        }
        free(trips);
        free(inner);
        free(why);
        if (!bounded) {
            free(words);
            return NULL;
        }
    }
    return words;
}

/* Whether the loop 'loop' is bounded surely enough for bounded_calls_words: a sweep over a
 * constant array, a constant count, or surely once per device (device_loop_sure). */
static int bounded_surely(CXCursor loop)
{
    CXCursor array;
    long long count = constant_count(loop);
    return sweep_size(loop, &array) >= 0 || (count >= 0 && count <= MAX_BOUNDED_TRIPS) ||
           device_loop_sure(loop);
}

char *ss_context_bounded_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    char *trips = bounded_trips(loop->loop);
    if (trips == NULL)
        return warm_up_words(ctx, loop, at);
    char *why = NULL;
    /* A function the bounded loop calls that another loop of the unit that enqueues device work
     * reaches too runs there as often as that loop: the warning stays. */
    CXCursor bounded = loop->loop;
    char *inner = NULL;
    if ((loop->chain &&
         ss_callgraph_reached_unless(ss_check_graph(ctx), ss_scope_outer_function(ctx->function),
                                     SS_SCOPE_ENQUEUES, in_bounded_loop, &bounded)) ||
        (inner = alone_in_loop(ctx, loop, at)) == NULL ||
        (!ss_callgraph_runs_once(ss_check_graph(ctx), loop->function, &why) &&
         (!bounded_surely(loop->loop) ||
          (why = bounded_calls_words(ctx, loop->function)) == NULL))) {
        free(why);
        free(trips);
        free(inner);
        return NULL;
    }
    char *where =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    char *words = ss_xasprintf("bounded: the loop at %s %s%s, and %s", where, trips, inner, why);
    free(where);
    free(why);
    free(trips);
    free(inner);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Once per pass, beside an inner loop that blocks the host on each of its iterations: a wait,
 * copy or launch once per epoch, before or after the epoch's loop over its batches, each batch
 * with its kernels and its own wait. The call adds one stall per pass to the many the inner
 * loop already makes: not worth acting on. */

/* An inner loop with a constant trip count below MAX_BOUNDED_TRIPS (a few layers, devices or
 * settings, as a bounded sweep) does not make the call's stall a small share: the warning
 * stays. */
/* How many calls down the unit's functions are followed: for the inner loop's wait and work,
 * and for an inner loop in a function the outer loop calls. */
enum { SURE_DEPTH = 3, LOOP_DEPTH = 2 };

typedef enum sure_kind { SURE_BLOCKS, SURE_WORKS } sure_kind;

/* Whether 'call', in 'function', blocks the host until the device is done with something: a
 * wait for the device, a stream or an event, or a synchronous copy between the host and the
 * device (one within the device returns before it runs). */
static int blocks_host(CXCursor function, CXCursor call, const ss_api *api)
{
    if (api->klass == SS_CLASS_DEVICE_SYNC || api->klass == SS_CLASS_STREAM_SYNC ||
        api->klass == SS_CLASS_EVENT_SYNC)
        return 1;
    if (api->klass != SS_CLASS_COPY || api->sync != SS_SYNC_ALWAYS)
        return 0;
    CXCursor dst, src;
    int kind = ss_copy_kind(function, call, api, &dst, &src);
    return kind == SS_COPY_KIND_H2D || kind == SS_COPY_KIND_D2H;
}

static int surely(ss_check_ctx *ctx, CXCursor function, CXCursor body, sure_kind what, int depth,
                  CXCursor *found);

/* Whether 'call' (in 'function') does 'what' itself: 1 or 0; -1 when it calls a function of
 * the unit, into '*callee', which may. */
static int call_does(ss_check_ctx *ctx, CXCursor function, CXCursor call, sure_kind what,
                     CXCursor *callee)
{
    if (ss_scope_is_launch(call))
        return what == SURE_WORKS;
    const ss_api *api = ss_scope_callee_api(call);
    if (api != NULL && blocks_host(function, call, api))
        return what == SURE_BLOCKS || api->klass == SS_CLASS_COPY; /* a copy is work too */
    if (api != NULL)
        return what == SURE_WORKS && ss_api_enqueues(api) && api->klass != SS_CLASS_EVENT_RECORD &&
               api->klass != SS_CLASS_STREAM_WAIT;
    *callee = ss_callgraph_callee(ss_check_graph(ctx), call);
    return ss_ast_is_null(*callee) ? 0 : -1;
}

typedef struct sure_walk {
    ss_check_ctx *ctx;
    CXCursor function, body;
    sure_kind what;
    int depth;
    CXCursor found;
} sure_walk;

static enum CXChildVisitResult find_sure(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    sure_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor callee = clang_getNullCursor(), below;
    int does = call_does(w->ctx, w->function, c, w->what, &callee);
    if (does != 0 && ss_context_runs_whenever(w->body, c) &&
        (does > 0 || (w->depth > 0 && surely(w->ctx, callee, ss_ast_body(callee), w->what,
                                             w->depth - 1, &below)))) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'body' (of a loop or of 'function') surely does 'what' whenever it runs: a call that
 * runs whenever it does (ss_context_runs_whenever: in no branch, after nothing that may leave)
 * and blocks the host (SURE_BLOCKS) or queues device work (SURE_WORKS), itself or through the
 * unit's functions. '*found' receives that call. Returns 1 or 0. */
static int surely(ss_check_ctx *ctx, CXCursor function, CXCursor body, sure_kind what, int depth,
                  CXCursor *found)
{
    sure_walk w = {ctx, function, body, what, depth, clang_getNullCursor()};
    if (!ss_ast_is_null(body))
        ss_ast_visit_whole(body, body, find_sure, &w);
    *found = w.found;
    return !ss_ast_is_null(w.found);
}

/* The size of a 'std::array<T, N>' (N: its bytes over its element's), or -1 for any other
 * type. */
static long long fixed_size(CXType t)
{
    char *name = ss_type_template_name(t);
    int array = name != NULL && strcmp(name, "std::array") == 0;
    free(name);
    long long whole = clang_Type_getSizeOf(t);
    long long each = array ? clang_Type_getSizeOf(clang_Type_getTemplateArgumentAsType(t, 0)) : 0;
    return array && whole > 0 && each > 0 ? whole / each : -1;
}

/* Whether 'loop' runs a constant few times (below MAX_BOUNDED_TRIPS): a 'for' whose condition
 * compares with a constant, counting from a constant fewer times (or from anything up to a small
 * constant; by any step other than one, whatever the constant), or a range-for over an array
 * of constant size; unknown counts are not few. */
static int few_trips(CXCursor loop)
{
    enum CXCursorKind k = clang_getCursorKind(loop);
    if (k == CXCursor_CXXForRangeStmt) {
        for (unsigned i = 0; i < ss_ast_child_count(loop); i++) {
            CXType t = clang_getCanonicalType(clang_getCursorType(ss_ast_child(loop, i)));
            if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
                t = clang_getCanonicalType(clang_getPointeeType(t));
            if (t.kind == CXType_ConstantArray && clang_getArraySize(t) < MAX_BOUNDED_TRIPS)
                return 1;
            if (fixed_size(t) >= 0 && fixed_size(t) < MAX_BOUNDED_TRIPS)
                return 1;
        }
        return 0;
    }
    if (k != CXCursor_ForStmt || ss_ast_child_count(loop) != 4)
        return 0;
    CXCursor init = ss_ast_child(loop, 0), cond = ss_ast_strip(ss_ast_child(loop, 1));
    long long from = 0, to = 0;
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || ss_ast_child_count(cond) != 2)
        return 0;
    if (ss_ast_eval_int(ss_ast_child(cond, 1), &to) != 0 &&
        ss_ast_eval_int(ss_ast_child(cond, 0), &to) != 0)
        return 0;
    int counted = clang_getCursorKind(init) == CXCursor_DeclStmt && ss_ast_child_count(init) == 1 &&
                  ss_ast_child_count(ss_ast_child(init, 0)) > 0 &&
                  ss_ast_eval_int(ss_ast_child(ss_ast_child(init, 0),
                                               ss_ast_child_count(ss_ast_child(init, 0)) - 1),
                                  &from) == 0;
    long long span = counted ? to - from : to;
    /* A step other than '++' or '--' ('b += 100') may make a long span a few trips. */
    int unit_step =
        clang_getCursorKind(ss_ast_strip(ss_ast_child(loop, 2))) == CXCursor_UnaryOperator;
    return !unit_step || (span > -MAX_BOUNDED_TRIPS && span < MAX_BOUNDED_TRIPS);
}

/* The inner loop 'loop', in 'function', when it enqueues device work and blocks the host on
 * each of its iterations (both surely, whenever its body runs), and does not run a constant
 * few times nor once per device. '*wait' receives the call in its body that blocks. */
static int blocking_loop(ss_check_ctx *ctx, CXCursor function, CXCursor loop, CXCursor *wait)
{
    CXCursor body = loop_body(loop), work;
    return ss_scope_is_loop(loop) && !ss_ast_is_null(body) && !few_trips(loop) &&
           !ss_scope_sets_device(body, 1) &&
           surely(ctx, function, body, SURE_WORKS, SURE_DEPTH, &work) &&
           surely(ctx, function, body, SURE_BLOCKS, SURE_DEPTH, wait);
}

/* An inner loop found: the loop, its blocking call, and the function it is in. */
typedef struct inner_loop {
    CXCursor loop, wait, function;
} inner_loop;

static int loop_in_call(ss_check_ctx *ctx, CXCursor function, CXCursor stmt, int depth,
                        inner_loop *out);

/* Whether the statement 'stmt' of a block of 'function' is such a loop, or surely calls a
 * function of the unit whose body surely runs one (up to 'depth' calls down). */
static int stmt_blocking_loop(ss_check_ctx *ctx, CXCursor function, CXCursor stmt, int depth,
                              inner_loop *out)
{
    if (ss_scope_is_loop(stmt)) {
        out->loop = stmt;
        out->function = function;
        return blocking_loop(ctx, function, stmt, &out->wait);
    }
    return depth > 0 && loop_in_call(ctx, function, stmt, depth, out);
}

typedef struct call_walk {
    CXCursor stmt, found;
} call_walk;

static enum CXChildVisitResult find_sure_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    call_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && ss_context_runs_whenever(w->stmt, c)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' (or the call it is) surely calls a function of the unit whose body holds, as
 * one of its statements that runs whenever the body does, a blocking loop. */
static int loop_in_call(ss_check_ctx *ctx, CXCursor function, CXCursor stmt, int depth,
                        inner_loop *out)
{
    (void)function;
    call_walk w = {stmt, clang_getNullCursor()};
    ss_ast_visit_whole(stmt, stmt, find_sure_call, &w);
    CXCursor callee =
        ss_ast_is_null(w.found) ? w.found : ss_callgraph_callee(ss_check_graph(ctx), w.found);
    CXCursor body = ss_ast_is_null(callee) ? callee : ss_ast_body(callee);
    for (unsigned i = 0; !ss_ast_is_null(body) && i < ss_ast_child_count(body); i++) {
        CXCursor s = ss_ast_child(body, i);
        if (ss_context_runs_whenever(body, s) && stmt_blocking_loop(ctx, callee, s, depth - 1, out))
            return 1;
    }
    return 0;
}

/* Whether a statement holds a place a jump may land on: a label, or a 'case' or 'default' of
 * no 'switch' inside it. */
typedef struct label_walk {
    int in_switch, found;
} label_walk;

static enum CXChildVisitResult find_label(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    label_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_SwitchStmt) {
        label_walk inner = {1, 0};
        clang_visitChildren(c, find_label, &inner);
        w->found = inner.found;
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    w->found = k == CXCursor_LabelStmt ||
               ((k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) && !w->in_switch);
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether a statement of 'block' from index 'from' to 'to' (both included) may be jumped into
 * ('into') or may leave the block (ss_context_may_leave). */
static int jumps(CXCursor block, unsigned from, unsigned to, int into)
{
    for (unsigned i = from; i <= to; i++) {
        CXCursor s = ss_ast_child(block, i);
        label_walk w = {0, 0};
        if (into)
            ss_ast_visit_whole(s, s, find_label, &w);
        if (into ? w.found : ss_context_may_leave(s))
            return 1;
    }
    return 0;
}

/* The statement of 'block' that holds 'point' (or is it): its index, or -1. */
static long holder_index(CXCursor block, CXCursor point)
{
    CXCursor path[1];
    long depth = ss_scope_path(block, point, NULL, path, 1);
    if (depth < 0)
        return -1;
    CXCursor holder = depth == 0 ? point : path[0];
    for (unsigned i = 0; i < ss_ast_child_count(block); i++) {
        if (ss_ast_same_node(ss_ast_child(block, i), holder))
            return i;
    }
    return -1;
}

/* A blocking inner loop (or a call of a function of the unit that surely runs one) among the
 * statements of 'block' (a '{ }' of 'function') other than the one that holds 'point', that
 * runs whenever 'point' does: before it, with nothing between that a jump may land on, or after
 * it, with nothing from it on that may jump out of the block. Returns 1 and fills 'out', or 0. */
static int sibling_loop(ss_check_ctx *ctx, CXCursor function, CXCursor block, CXCursor point,
                        inner_loop *out)
{
    if (ss_ast_is_null(block) || clang_getCursorKind(block) != CXCursor_CompoundStmt)
        return 0;
    long j = holder_index(block, point);
    unsigned n = ss_ast_child_count(block);
    for (unsigned i = 0; j >= 0 && i < n; i++) {
        if ((long)i == j)
            continue;
        int sure = (long)i < j ? !jumps(block, i + 1, (unsigned)j, 1)
                               : !jumps(block, (unsigned)j, i - 1, 0);
        if (sure && stmt_blocking_loop(ctx, function, ss_ast_child(block, i), LOOP_DEPTH, out))
            return 1;
    }
    return 0;
}

/* Whether 'c' (in the named function around 'function') has 'loop' as its innermost loop, or
 * none when 'loop' is null. */
static int innermost_is(CXCursor function, CXCursor c, CXCursor loop)
{
    CXCursor loops[1];
    size_t n = ss_scope_enclosing_loops(function, c, loops, 1);
    return ss_ast_is_null(loop) ? n == 0 : n == 1 && ss_ast_same_node(loops[0], loop);
}

/* A blocking inner loop that runs whenever the call 'at' does, on a pass of 'loop': beside the
 * call in the loop's body, or beside a call on the way down to it (the chain of calls from the
 * loop). The call runs once per pass: no other loop lies between 'loop' and it, in its
 * function nor in any function of the chain. Returns 1 and fills 'out', or 0. */
static int pass_inner_loop(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at,
                           inner_loop *out)
{
    CXCursor none = clang_getNullCursor(), body = loop_body(loop->loop);
    if (loop->chain == NULL)
        return !ss_ast_is_null(loop->function) && innermost_is(ctx->function, at, loop->loop) &&
               sibling_loop(ctx, loop->function, body, at, out);
    if (loop->call_count == 0 || !innermost_is(ctx->function, at, none) ||
        !innermost_is(loop->function, loop->calls[0], loop->loop))
        return 0;
    for (size_t i = 1; i < loop->call_count; i++) {
        if (!innermost_is(loop->froms[i], loop->calls[i], none))
            return 0;
    }
    if (sibling_loop(ctx, loop->function, body, loop->calls[0], out))
        return 1;
    for (size_t i = 1; i < loop->call_count; i++) {
        if (sibling_loop(ctx, loop->froms[i], ss_ast_body(loop->froms[i]), loop->calls[i], out))
            return 1;
    }
    return sibling_loop(ctx, ctx->function, ss_ast_body(ctx->function), at, out);
}

char *ss_context_per_pass_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    inner_loop inner;
    if (!pass_inner_loop(ctx, loop, at, &inner))
        return NULL;
    char *outer =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    char *in = NULL;
    if (!ss_ast_same_node(inner.function, loop->function)) {
        char *name = ss_qualified_name(inner.function);
        in = ss_xasprintf(" in '%s()'", name ? name : "?");
        free(name);
    }
    char *words = ss_xasprintf(
        "once per pass: the loop at line %u%s blocks the host on each of its iterations (line "
        "%u), so this call adds one stall per pass of the loop at %s, not one per step",
        ss_scope_line(inner.loop), in ? in : "", ss_scope_line(inner.wait), outer);
    free(in);
    free(outer);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Loops that run a constant few times beside the work that repeats: priming or warm-up rounds
 * before a solve ('for (int i = 0; i < 4; ++i)', a halo pushed and waited for), run once per
 * program. Their waits cost a fixed few stalls; the loop whose count is not bounded is the one
 * that repeats. A function whose only loop has a literal count keeps its warning: that loop is
 * its work, written with a count the real program would raise. */

/* Bounds further from zero are not read (their difference must not overflow). */
#define COUNT_LIMIT (1LL << 40)

/* Whether 'e' evaluates to an integer constant (a literal, a macro, a constexpr or const
 * variable with a constant initializer) within COUNT_LIMIT, into '*v'. */
static int small_constant(CXCursor e, long long *v)
{
    return ss_ast_eval_int(e, v) == 0 && *v > -COUNT_LIMIT && *v < COUNT_LIMIT;
}

/* The size of the array or 'std::array' a range-for 'loop' goes through, or -1. */
static long long range_count(CXCursor loop)
{
    for (unsigned i = 0; i < ss_ast_child_count(loop); i++) {
        CXCursor c = ss_ast_strip(ss_ast_child(loop, i));
        if (!clang_isExpression(clang_getCursorKind(c)))
            continue;
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
            t = clang_getCanonicalType(clang_getPointeeType(t));
        return t.kind == CXType_ConstantArray ? clang_getArraySize(t) : fixed_size(t);
    }
    return -1;
}

/* The counter a 'for' loop's first part 'init' sets to a constant (it declares it, or assigns
 * it), its value into '*from'; or a null cursor. */
static CXCursor counter_set(CXCursor init, long long *from)
{
    char op[8];
    if (clang_getCursorKind(init) == CXCursor_DeclStmt && ss_ast_child_count(init) == 1) {
        CXCursor decl = ss_ast_child(init, 0);
        unsigned n = ss_ast_child_count(decl);
        if (clang_getCursorKind(decl) == CXCursor_VarDecl && n > 0 &&
            small_constant(ss_ast_child(decl, n - 1), from))
            return decl;
    } else if (clang_getCursorKind(init) == CXCursor_BinaryOperator &&
               ss_ast_binary_op(init, op, sizeof op) == 0 && strcmp(op, "=") == 0 &&
               small_constant(ss_ast_child(init, 1), from)) {
        CXCursor var = named_decl(ss_ast_child(init, 0));
        if (!ss_ast_is_null(var) && clang_getCursorKind(var) == CXCursor_VarDecl)
            return var;
    }
    return clang_getNullCursor();
}

/* How a 'for' condition compares its counter with a constant, read as 'counter OP bound'. */
typedef enum compare_op { CMP_NONE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_NE } compare_op;

/* The comparison 'cond' makes of the counter 'var' with a constant, into '*to': 'var < 4', or
 * '4 > var' read the other way round. CMP_NONE for any other condition. */
static compare_op counter_bound(CXCursor cond, CXCursor var, long long *to)
{
    static const char *const ops[] = {"<", "<=", ">", ">=", "!="};
    static const compare_op as_is[] = {CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_NE};
    static const compare_op flipped[] = {CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_NE};
    char op[8];
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || ss_ast_child_count(cond) != 2 ||
        ss_ast_binary_op(cond, op, sizeof op) != 0)
        return CMP_NONE;
    int left = names_var(ss_ast_child(cond, 0), var);
    if (!left && !names_var(ss_ast_child(cond, 1), var))
        return CMP_NONE;
    if (!small_constant(ss_ast_child(cond, left ? 1 : 0), to))
        return CMP_NONE;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(op, ops[i]) == 0)
            return left ? as_is[i] : flipped[i];
    }
    return CMP_NONE;
}

/* The constant step the third part 'inc' of a 'for' gives its counter 'var' ('++': 1, '--':
 * -1, '+= c', '-= c'), or 0. */
static long long counter_step(CXCursor inc, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(inc);
    long long step = 0;
    if (k == CXCursor_UnaryOperator && names_var(ss_ast_child(inc, 0), var)) {
        char *text = ss_expr_text(inc);
        step = text && strstr(text, "++") ? 1 : text && strstr(text, "--") ? -1 : 0;
        free(text);
    } else if (k == CXCursor_CompoundAssignOperator && names_var(ss_ast_child(inc, 0), var)) {
        char op[8];
        if (ss_ast_binary_op(inc, op, sizeof op) != 0 ||
            !small_constant(ss_ast_child(inc, 1), &step))
            return 0;
        step = strcmp(op, "+=") == 0 ? step : strcmp(op, "-=") == 0 ? -step : 0;
    }
    return step;
}

/* How many times a counter goes from 'from' by 'step' while 'counter OP to' holds, or -1 when
 * it would not reach the end that way. */
static long long count_of(compare_op op, long long from, long long to, long long step)
{
    long long span = to - from;
    if ((op == CMP_LT || op == CMP_LE) && step > 0) {
        span += op == CMP_LE;
        return span <= 0 ? 0 : (span + step - 1) / step;
    }
    if ((op == CMP_GT || op == CMP_GE) && step < 0) {
        span = -span + (op == CMP_GE);
        return span <= 0 ? 0 : (span - step - 1) / -step;
    }
    if (op == CMP_NE && step != 0 && span % step == 0 && span / step >= 0)
        return span / step;
    return -1;
}

/* How many times 'loop' runs when that is a constant: a range-for over an array of constant
 * size or a 'std::array'; or a 'for' whose first part sets its counter to a constant (declares
 * it or assigns it), whose condition compares the counter with a constant ('<', '<=', '>',
 * '>=', '!='; either side), whose third part steps it by a constant towards that constant
 * ('++', '--', '+= c', '-= c') and whose body does not change it. Returns the count, or -1. */
static long long constant_count(CXCursor loop)
{
    enum CXCursorKind k = clang_getCursorKind(loop);
    if (k == CXCursor_CXXForRangeStmt)
        return range_count(loop);
    if (k != CXCursor_ForStmt || ss_ast_child_count(loop) != 4)
        return -1;
    long long from, to;
    CXCursor var = counter_set(ss_ast_strip(ss_ast_child(loop, 0)), &from);
    if (ss_ast_is_null(var))
        return -1;
    compare_op op = counter_bound(ss_ast_strip(ss_ast_child(loop, 1)), var, &to);
    long long step = counter_step(ss_ast_strip(ss_ast_child(loop, 2)), var);
    named_walk counter = {{var}, 1, 0, 0};
    if (op == CMP_NONE || step == 0 || changes_named(ss_ast_child(loop, 3), &counter))
        return -1;
    return count_of(op, from, to, step);
}

/* The call of cudaSetDevice that runs on every iteration of 'loop' (device_loop_set, or one
 * inside an error-checking macro's block: 'CHECK(cudaSetDevice(d));', anywhere its body runs
 * it whenever it runs, outside inner loops) and sets the device to the variable the loop steps
 * through or an element it indexes; or a null cursor. */
typedef struct set_device_walk {
    CXCursor body, var, found;
} set_device_walk;

static enum CXChildVisitResult find_set_device(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    set_device_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr || ss_scope_is_loop(c))
        return CXChildVisit_Continue;
    if (k == CXCursor_CallExpr && ss_scope_is_set_device(c) &&
        clang_Cursor_getNumArguments(c) == 1 && device_of(clang_Cursor_getArgument(c, 0), w->var) &&
        ss_context_runs_whenever(w->body, c)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static CXCursor each_device_set(CXCursor loop)
{
    CXCursor var, body;
    CXCursor set = device_loop_set(loop, &var);
    if (!ss_ast_is_null(set))
        return set;
    var = stepped_variable(loop, &body);
    set_device_walk w = {body, var, clang_getNullCursor()};
    if (!ss_ast_is_null(var) && !ss_ast_is_null(body))
        clang_visitChildren(body, find_set_device, &w);
    return w.found;
}

/* Whether 'loop' runs a count lint cannot bound: not a constant few times, not once per
 * element of a constant array, not once per device. */
static int unbounded_loop(CXCursor loop)
{
    CXCursor array;
    long long count = constant_count(loop);
    return (count < 0 || count > MAX_BOUNDED_TRIPS) && sweep_size(loop, &array) < 0 &&
           ss_ast_is_null(each_device_set(loop));
}

/* A loop found beside the bounded one (the first after it, else the first before it): the
 * loop, and the call it was reached through (a null cursor when it is in the bounded loop's own
 * function) with that call's callee. */
typedef struct beside_found {
    CXCursor loop, through, callee;
} beside_found;

typedef struct beside_walk {
    ss_check_ctx *ctx;
    CXCursor bounded, function;
    int depth;
    unsigned bounded_end; /* where the bounded loop ends (in the top function) */
    beside_found before, after;
} beside_walk;

static enum CXChildVisitResult find_beside(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    beside_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr || ss_ast_same_node(c, w->bounded))
        return CXChildVisit_Continue;
    beside_found found = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
    CXCursor work, via;
    if (ss_scope_is_loop(c) && unbounded_loop(c) &&
        ss_callgraph_loop_work(ss_check_graph(w->ctx), c, SS_SCOPE_ENQUEUES, clang_getNullCursor(),
                               &work, &via)) {
        found.loop = c;
    } else if (k == CXCursor_CallExpr && w->depth > 0) {
        CXCursor callee = ss_callgraph_callee(ss_check_graph(w->ctx), c);
        CXCursor body = ss_ast_is_null(callee) ? callee : ss_ast_body(callee);
        if (!ss_ast_is_null(body) && !ss_ast_same_node(callee, w->function)) {
            beside_walk inner = *w;
            inner.function = callee;
            inner.depth = w->depth - 1;
            inner.before.loop = inner.after.loop = clang_getNullCursor();
            clang_visitChildren(body, find_beside, &inner);
            CXCursor loop = ss_ast_is_null(inner.after.loop) ? inner.before.loop : inner.after.loop;
            if (!ss_ast_is_null(loop))
                found = (beside_found){loop, c, callee};
        }
    }
    if (ss_ast_is_null(found.loop))
        return CXChildVisit_Recurse;
    if (ss_ast_offset(c) > w->bounded_end) {
        w->after = found;
        return CXChildVisit_Break;
    }
    if (ss_ast_is_null(w->before.loop))
        w->before = found;
    return CXChildVisit_Continue;
}

/* "the loop at line 25 ('iterate', called at line 57)": a loop beside the bounded one in
 * 'function' (not inside the bounded loop) that enqueues device work and runs a count lint
 * cannot bound, in the function or in one it calls (one call down); the first after the bounded
 * loop, else the first before it; NULL when there is none. 'file' names the file with each line.
 * Malloc'ed. */
static char *beside_words(ss_check_ctx *ctx, CXCursor function, CXCursor bounded, int file)
{
    CXCursor none = clang_getNullCursor();
    beside_walk w = {ctx, bounded, function, 1, 0, {none, none, none}, {none, none, none}};
    unsigned begin;
    ss_ast_range(bounded, &begin, &w.bounded_end);
    CXCursor body = ss_ast_body(function);
    if (!ss_ast_is_null(body))
        clang_visitChildren(body, find_beside, &w);
    beside_found f = ss_ast_is_null(w.after.loop) ? w.before : w.after;
    if (ss_ast_is_null(f.loop))
        return NULL;
    char *loop_at =
        file ? ss_callgraph_place(f.loop) : ss_xasprintf("line %u", ss_scope_line(f.loop));
    if (ss_ast_is_null(f.through))
        return loop_at;
    char *name = ss_qualified_name(f.callee);
    char *words = ss_xasprintf("%s ('%s', called at line %u)", loop_at, name ? name : "?",
                               ss_scope_line(f.through));
    free(name);
    free(loop_at);
    return words;
}

/* The loops between the bounded loop and the call, in the loop's function ('loops', innermost
 * first, the bounded one last): each must run once per device or a constant few times.
 * Returns their words ("; the loop at line 35 inside it once per device"), malloc'ed ("" when
 * there are none), or NULL when one runs otherwise. */
static char *inner_loop_words(const CXCursor *loops, size_t n)
{
    char *words = ss_xstrdup("");
    for (size_t i = n - 1; i-- > 0;) {
        long long count = constant_count(loops[i]);
        char *each;
        if (!ss_ast_is_null(each_device_set(loops[i])))
            each = ss_xstrdup("once per device");
        else if (count >= 0 && count <= MAX_BOUNDED_TRIPS)
            each = ss_xasprintf("at most %lld times", count);
        else {
            free(words);
            return NULL;
        }
        char *longer = ss_xasprintf("%s; the loop at line %u inside it %s", words,
                                    ss_scope_line(loops[i]), each);
        free(each);
        free(words);
        words = longer;
    }
    return words;
}

enum { MAX_WARM_UP_DEPTH = 8 };

/* For ss_callgraph_reached_unless: a call made in the bounded loop 'data' or in a loop inside
 * it. */
static int in_bounded_loop(CXCursor from, CXCursor call, void *data)
{
    (void)call;
    CXCursor bounded = *(const CXCursor *)data;
    CXCursor none[1];
    return ss_ast_same_node(from, bounded) || ss_scope_path(bounded, from, NULL, none, 0) >= 0;
}

static char *warm_up_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    long long count = constant_count(loop->loop);
    if (count < 0 || count > MAX_BOUNDED_TRIPS)
        return NULL;
    /* The loops around the call in the loop's function, the bounded one outermost there. */
    CXCursor loops[MAX_WARM_UP_DEPTH];
    CXCursor inner_at =
        loop->chain ? (loop->call_count ? loop->calls[0] : clang_getNullCursor()) : at;
    if (ss_ast_is_null(inner_at))
        return NULL;
    size_t n = ss_scope_enclosing_loops(loop->function, inner_at, loops, MAX_WARM_UP_DEPTH);
    if (n == 0 || n >= MAX_WARM_UP_DEPTH || !ss_ast_same_node(loops[n - 1], loop->loop))
        return NULL;
    if (loop->chain) {
        /* The call in no loop of the functions on the way, and their function reached from no
         * other loop of the unit that enqueues device work. */
        if (!outside_loops(ctx->function, at))
            return NULL;
        for (size_t i = 1; i < loop->call_count; i++) {
            if (!outside_loops(loop->froms[i], loop->calls[i]))
                return NULL;
        }
        CXCursor bounded = loop->loop;
        if (ss_callgraph_reached_unless(ss_check_graph(ctx), ss_scope_outer_function(ctx->function),
                                        SS_SCOPE_ENQUEUES, in_bounded_loop, &bounded))
            return NULL;
    }
    /* A function marked hot keeps its warning. */
    char *name = ss_qualified_name(ss_scope_outer_function(loop->function));
    int hot = ss_context_is_hot_function(ctx, name);
    free(name);
    if (hot)
        return NULL;
    char *inner = inner_loop_words(loops, n);
    if (inner == NULL)
        return NULL;
    char *why = NULL, *beside = NULL;
    if (!ss_callgraph_runs_once(ss_check_graph(ctx), loop->function, &why) ||
        (beside = beside_words(ctx, loop->function, loop->loop, loop->chain != NULL)) == NULL) {
        free(why);
        free(inner);
        return NULL;
    }
    char *where =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    char *words = ss_xasprintf("bounded: the loop at %s runs at most %lld times (a constant "
                               "count%s), outside any other loop, beside the loop at %s, whose "
                               "count is not bounded; and %s",
                               where, count, inner, beside, why);
    free(where);
    free(beside);
    free(inner);
    free(why);
    return words;
}
