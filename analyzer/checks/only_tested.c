/* only_tested.c: a readback in a loop whose value the host only tests to decide what runs next
 * (a convergence flag, a residual compared with a tolerance): the wait is inherent to the loop
 * as written, and the way to remove it is to test less often or on the device
 * (context_cases.h, ss_context_tested_words). */
#include "ast.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_STATEMENTS = 256, MAX_SITES = 32, MAX_APART = 3 };

/* Whether 'var' is a plain local of a function, of a scalar type (a flag, a count, a
 * residual): no static or global storage, no reference, no array, no class. */
static int plain_local(CXCursor var)
{
    if (clang_getCursorKind(var) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(var))
        return 0;
    if (!ss_ast_is_function(clang_getCursorSemanticParent(var)))
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    return (t.kind >= CXType_Bool && t.kind <= CXType_LongDouble) || t.kind == CXType_Enum;
}

/* Whether 'c' is the variable 'var' itself, through parentheses and implicit casts. */
static int is_var(CXCursor c, CXCursor var)
{
    CXCursor e = ss_ast_strip(c);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* Whether the unary operator 'op' is written starting with 'prefix' ('&', '*'): 1 or 0, -1
 * where its text is unreadable. */
static int unary_written(CXCursor op, const char *prefix)
{
    char *text = ss_expr_text(op);
    if (text == NULL)
        return -1;
    int is = strncmp(text, prefix, strlen(prefix)) == 0 && strncmp(text, "&&", 2) != 0;
    free(text);
    return is;
}

/* Whether 'op' is the unary operator '&' applied to 'var' itself ('&flag'); one whose text is
 * unreadable counts as one. */
static int address_of(CXCursor op, CXCursor var)
{
    return clang_getCursorKind(op) == CXCursor_UnaryOperator && ss_ast_child_count(op) == 1 &&
           is_var(ss_ast_child(op, 0), var) && unary_written(op, "&") != 0;
}

/* ------------------------------------------------------------------------------------------
 * Every read the readback may reach is a test. */

typedef struct tests_walk {
    CXCursor function, var, copy;
    CXCursor loop; /* the loop whose body the readback ends, when it tests the value */
    ss_location loc;
    unsigned stores[MAX_SITES]; /* '&var' as the destination of a copy to the host */
    unsigned reads[MAX_SITES];  /* '&var' as another argument of a copy */
    size_t store_count, read_count;
    unsigned tests; /* reads in a condition that the readback reaches */
    int refused;
} tests_walk;

/* The '&var' arguments of the copies of the function: where a copy to the host writes the
 * value (or the readback itself does, a cuBLAS result), and where a copy reads it. */
static enum CXChildVisitResult find_sites(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    tests_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    int readback = ss_ast_same_node(c, w->copy);
    if (!readback && (api == NULL || api->klass != SS_CLASS_COPY))
        return CXChildVisit_Recurse;
    CXCursor dst = clang_getNullCursor(), src;
    if (api && api->klass == SS_CLASS_COPY &&
        ss_copy_kind(w->function, c, api, &dst, &src) != SS_COPY_KIND_D2H)
        dst = clang_getNullCursor();
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i));
        if (!address_of(arg, w->var))
            continue;
        int store = readback ? api == NULL || ss_ast_same_node(arg, ss_ast_strip(dst))
                             : !ss_ast_is_null(dst) && ss_ast_same_node(arg, ss_ast_strip(dst));
        if (store && w->store_count < MAX_SITES)
            w->stores[w->store_count++] = ss_ast_offset(arg);
        else if (!store && w->read_count < MAX_SITES)
            w->reads[w->read_count++] = ss_ast_offset(arg);
        else
            w->refused = 1;
    }
    return CXChildVisit_Recurse;
}

static int site_in(const unsigned *sites, size_t count, unsigned offset)
{
    for (size_t i = 0; i < count; i++)
        if (sites[i] == offset)
            return 1;
    return 0;
}

/* Whether the readback's value may reach the read 'use' of the variable: one of the
 * definitions reaching it is the readback (its out-argument, or a value that holds the call).
 * A definition the analysis cannot bound is not the readback: the variable's address goes
 * nowhere but to copies (find_sites), so it comes from a read walked here too. */
static int reached(tests_walk *w, CXCursor use)
{
    ss_defs defs = {0};
    int reaches = ss_dataflow_reaching(w->function, &w->loc, use, &defs) != 0;
    unsigned at = ss_ast_offset(w->copy);
    for (size_t i = 0; i < defs.count && !reaches; i++) {
        const ss_def *d = &defs.v[i];
        unsigned begin, end;
        if (d->kind == SS_DEF_OUT_ARG)
            reaches = ss_ast_same_node(d->call, w->copy);
        else if (d->kind == SS_DEF_VALUE) {
            ss_ast_range(d->value, &begin, &end);
            reaches = at >= begin && at < end;
        }
    }
    ss_defs_free(&defs);
    return reaches;
}

/* Whether a node of kind 'k' under a condition keeps what it computes a test: parentheses,
 * casts, and the operators that compute without storing ('!', '-', '<', '&&', '?:', ...). */
static int passes_test(CXCursor c)
{
    char op[8];
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_ConditionalOperator:
        return 1;
    case CXCursor_UnaryOperator:
        return unary_written(c, "&") == 0 && unary_written(c, "*") == 0 && ss_expr_steps(c) == 0;
    case CXCursor_BinaryOperator:
        return ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") != 0 &&
               strcmp(op, ",") != 0;
    default:
        return 0;
    }
}

typedef struct walk_frame {
    tests_walk *w;
    CXCursor parent;
    int test;       /* the parent computes a test */
    unsigned index; /* of the next child */
    unsigned cond;  /* the index of the parent's condition, for a branch or loop */
} walk_frame;

static void walk_node(tests_walk *w, CXCursor c, CXCursor parent, unsigned index, int test);

static enum CXChildVisitResult walk_child(CXCursor c, CXCursor parent, CXClientData data)
{
    walk_frame *f = data;
    unsigned index = f->index++;
    int test = f->test && passes_test(parent);
    if (index == f->cond)
        test = 1;
    walk_node(f->w, c, parent, index, test);
    return f->w->refused ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A read of the variable at 'c' ('test': in a condition, under operators only). */
static void read_var(tests_walk *w, CXCursor c, int test)
{
    if (!reached(w, c))
        return;
    if (test)
        w->tests++;
    else
        w->refused = 1;
}

/* Whether 'c' lets another name stand for the variable: a reference declared to it
 * ('int &alias = flag;'), or the variable given to a call's parameter of a reference type not
 * to const ('swap(flag, other)'), which may keep its address. */
static int aliases(CXCursor c, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VarDecl) {
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        return (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
               ss_context_mentions(c, var);
    }
    if (k != CXCursor_CallExpr)
        return 0;
    CXType ftype = clang_getCursorType(clang_getCursorReferenced(c));
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++) {
        if (!is_var(clang_Cursor_getArgument(c, (unsigned)i), var))
            continue;
        CXType p = clang_getArgType(ftype, (unsigned)i);
        if (p.kind == CXType_Invalid || p.kind == CXType_RValueReference ||
            (p.kind == CXType_LValueReference &&
             !clang_isConstQualifiedType(clang_getPointeeType(p))))
            return 1;
    }
    return 0;
}

static void walk_node(tests_walk *w, CXCursor c, CXCursor parent, unsigned index, int test)
{
    enum CXCursorKind k = clang_getCursorKind(c), pk = clang_getCursorKind(parent);
    char op[8];
    if (k == CXCursor_UnaryExpr) /* sizeof, alignof: not read */
        return;
    if (k == CXCursor_LambdaExpr || aliases(c, w->var)) {
        w->refused = k != CXCursor_LambdaExpr || ss_context_mentions(c, w->var);
        return;
    }
    if (address_of(c, w->var)) {
        unsigned at = ss_ast_offset(c);
        if (site_in(w->reads, w->read_count, at))
            read_var(w, c, 0);
        else if (!site_in(w->stores, w->store_count, at))
            w->refused = 1; /* the address goes elsewhere */
        return;
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->var)) {
        int store = pk == CXCursor_BinaryOperator && index == 0 &&
                    ss_ast_binary_op(parent, op, sizeof op) == 0 && strcmp(op, "=") == 0;
        if (!store)
            read_var(w, c, test);
        return;
    }
    /* An 'if' decides by its condition; a loop's condition is a test only for the loop that
     * repeats the readback: another ('while (i < n)') uses the value as its trip count. */
    walk_frame f = {w, c, test, 0, (unsigned)-1};
    int repeats = !ss_ast_is_null(w->loop) && ss_ast_same_node(c, w->loop);
    if (k == CXCursor_IfStmt || (k == CXCursor_WhileStmt && repeats))
        f.cond = ss_ast_if_condition(c);
    else if (k == CXCursor_DoStmt && repeats)
        f.cond = 1;
    clang_visitChildren(c, walk_child, &f);
}

/* Whether every read of 'var' in its function that the readback 'copy' may reach is a test (in
 * the condition of an 'if', or of 'loop', the loop whose body the readback ends, or a null
 * cursor); 1 when there is at least one such read and no other. */
static int only_tests(CXCursor var, CXCursor copy, CXCursor loop)
{
    tests_walk w;
    memset(&w, 0, sizeof w);
    w.function = clang_getCursorSemanticParent(var);
    w.var = var;
    w.copy = copy;
    w.loop = loop;
    w.loc.var = var;
    CXCursor body = ss_ast_body(w.function);
    if (ss_ast_is_null(body))
        return 0;
    clang_visitChildren(body, find_sites, &w);
    if (!w.refused)
        walk_node(&w, body, w.function, 0, 0);
    return !w.refused && w.tests > 0;
}

/* ------------------------------------------------------------------------------------------
 * The test right after the readback. */

/* The condition of the branch or loop 'stmt' ('if', 'while', 'do'), or a null cursor. */
static CXCursor condition_of(CXCursor stmt)
{
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_IfStmt || k == CXCursor_WhileStmt)
        return ss_ast_child(stmt, ss_ast_if_condition(stmt));
    if (k == CXCursor_DoStmt)
        return ss_ast_child(stmt, 1);
    return clang_getNullCursor();
}

/* The loop ('while' or 'do') whose body is the block that holds 'stmt' in 'function', or a
 * null cursor. */
static CXCursor loop_of_body(CXCursor function, CXCursor stmt)
{
    CXCursor *path = malloc(SS_CONTEXT_MAX_PATH * sizeof *path);
    CXCursor loop = clang_getNullCursor();
    long found = path ? ss_context_path(function, stmt, path) : -1;
    /* The path ends with the block that holds 'stmt', and the statement around the block. */
    if (found >= 2 && clang_getCursorKind(path[found - 1]) == CXCursor_CompoundStmt) {
        CXCursor up = path[found - 2];
        enum CXCursorKind k = clang_getCursorKind(up);
        unsigned body = k == CXCursor_DoStmt ? 0 : ss_ast_child_count(up) - 1;
        if ((k == CXCursor_WhileStmt || k == CXCursor_DoStmt) &&
            ss_ast_same_node(ss_ast_child(up, body), path[found - 1]))
            loop = up;
    }
    free(path);
    return loop;
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr || k == CXCursor_CXXNewExpr || k == CXCursor_CXXDeleteExpr) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' is a step of the host that calls nothing: a declaration or an expression
 * ('rounds++', 'k = 0') with no call in it. Host work that calls (a function, a launch) could
 * run before the readback, overlapping it, so it does not stand between a readback and its
 * test. */
static int calls_nothing(CXCursor stmt)
{
    switch (clang_getCursorKind(stmt)) {
    case CXCursor_DeclStmt:
    case CXCursor_NullStmt:
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_UnaryOperator:
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
        break;
    default:
        return 0;
    }
    int found = 0;
    clang_visitChildren(stmt, find_call, &found);
    return !found;
}

/* The branch or loop that tests 'var' right after stmts[from]: the first statement after it
 * that names the value, past waits and statements that call nothing (MAX_APART), when it is an
 * 'if' whose condition names it; or, when the block ends first, the 'while' or 'do' loop it is
 * the body of, when its condition names it ('*loop' set). A null cursor otherwise. '*waited' is
 * set when a wait stands between. */
static CXCursor test_after(const CXCursor *stmts, unsigned n, unsigned from, CXCursor var,
                           int *loop, int *waited)
{
    unsigned apart = 0;
    *loop = 0;
    for (unsigned s = from + 1; s < n; s++) {
        CXCursor cond = condition_of(stmts[s]);
        if (ss_context_mentions(stmts[s], var) || is_var(stmts[s], var)) {
            int tests = clang_getCursorKind(stmts[s]) == CXCursor_IfStmt && !ss_ast_is_null(cond) &&
                        (ss_context_mentions(cond, var) || is_var(cond, var));
            return tests ? stmts[s] : clang_getNullCursor();
        }
        int wait = ss_context_is_wait(stmts[s]);
        *waited |= wait;
        if ((!wait && !calls_nothing(stmts[s])) || ++apart > MAX_APART)
            return clang_getNullCursor();
    }
    CXCursor around = loop_of_body(clang_getCursorSemanticParent(var), stmts[n - 1]);
    CXCursor cond = condition_of(around);
    if (ss_ast_is_null(cond) || !(ss_context_mentions(cond, var) || is_var(cond, var)))
        return clang_getNullCursor();
    *loop = 1;
    return around;
}

/* Whether a copy in 'stmts' other than the readback 'copy' may copy to the host (its direction
 * device to host, or not known): a wait then also waits for data the host may read. */
typedef struct other_copy {
    CXCursor function, copy;
    int found;
} other_copy;

static enum CXChildVisitResult find_other_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    other_copy *o = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr && !ss_ast_same_node(c, o->copy)
                            ? ss_scope_callee_api(c)
                            : NULL;
    if (api == NULL || api->klass != SS_CLASS_COPY)
        return CXChildVisit_Recurse;
    CXCursor dst, src;
    int kind = ss_copy_kind(o->function, c, api, &dst, &src);
    o->found =
        kind == SS_COPY_KIND_D2H || kind == SS_COPY_KIND_DEFAULT || kind == SS_COPY_KIND_UNKNOWN;
    return o->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int other_copy_to_host(CXCursor function, const CXCursor *stmts, unsigned n, CXCursor copy)
{
    other_copy o = {function, copy, 0};
    for (unsigned s = 0; s < n && !o.found; s++) {
        find_other_copy(stmts[s], function, &o);
        if (!o.found)
            clang_visitChildren(stmts[s], find_other_copy, &o);
    }
    return o.found;
}

/* Whether the wait 'at' waits for one stream or one event: a wait for the whole device also
 * waits for the work of other streams, which the value does not need. */
static int waits_for_one_stream(CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    return api && (api->klass == SS_CLASS_STREAM_SYNC || api->klass == SS_CLASS_EVENT_SYNC);
}

char *ss_context_tested_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule == SS_RULE_SYNC_IN_LOOP && !waits_for_one_stream(at))
        return NULL;
    CXCursor *stmts = malloc(MAX_STATEMENTS * sizeof *stmts);
    CXCursor copy;
    unsigned n = 0, from = 0;
    CXCursor var =
        stmts ? ss_context_loop_value(ctx, rule, at, &copy, stmts, MAX_STATEMENTS, &n, &from)
              : clang_getNullCursor();
    int loop = 0, waited = rule == SS_RULE_SYNC_IN_LOOP;
    CXCursor test = ss_ast_is_null(var) || !plain_local(var)
                        ? clang_getNullCursor()
                        : test_after(stmts, n, from, var, &loop, &waited);
    /* A wait that also waits for another copy to the host serves more than the test. */
    if (!ss_ast_is_null(test) && waited && other_copy_to_host(ctx->function, stmts, n, copy))
        test = clang_getNullCursor();
    free(stmts);
    if (ss_ast_is_null(test) || !only_tests(var, copy, loop ? test : clang_getNullCursor()))
        return NULL;
    unsigned line = ss_scope_line(loop ? condition_of(test) : test);
    const char *how = loop ? "the loop only tests it to decide whether to go on"
                           : "the host only tests it to decide what runs next";
    char *where = loop ? ss_xasprintf("line %u, the loop's condition", line)
                       : ss_xasprintf("line %u branches on it", line);
    char *words =
        rule == SS_RULE_SYNC_IN_LOOP
            ? ss_xasprintf("inherent as written: it waits for the value read back at line %u; %s "
                           "(%s); to remove the stall, test it every N iterations or on the device",
                           ss_scope_line(copy), how, where)
            : ss_xasprintf("inherent as written: %s (%s); to remove the stall, test it every N "
                           "iterations or on the device",
                           how, where);
    free(where);
    return words;
}
