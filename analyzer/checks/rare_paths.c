/* rare_paths.c: calls that run on no ordinary run of the program, whatever loop they sit in: in
 * a branch whose condition is always false (dead) or needs a parameter's value no call in the
 * unit gives (dead in this unit), under a switch the environment must set (opt-in), on an error
 * path that ends in a throw or a call that does not return, in a function
 * nothing in the unit calls, or reached only from a destructor's loop (teardown); and calls in a
 * loop that run once per run of it, in a branch that leaves it (exit). */
#include "ast.h"
#include "callgraph.h"
#include "context.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many variables a condition is followed through to a constant or to getenv. */
enum { MAX_HOPS = 3 };

/* The local or global variable 'e' names (casts and parentheses peeled off), or a null cursor. */
static CXCursor named_var(CXCursor e)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor var = clang_getCursorReferenced(e);
    return clang_getCursorKind(var) == CXCursor_VarDecl ? var : clang_getNullCursor();
}

/* The initializer of the variable 'var', or a null cursor. */
static CXCursor initializer_of(CXCursor var)
{
    unsigned n = ss_ast_child_count(var);
    CXCursor init = n > 0 ? ss_ast_child(var, n - 1) : clang_getNullCursor();
    return !ss_ast_is_null(init) && clang_isExpression(clang_getCursorKind(init))
               ? init
               : clang_getNullCursor();
}

/* ------------------------------------------------------------------------------------------
 * Dead branches. */

/* Whether the condition 'e' is always false: the constant 0 or false, an '&&' with such an
 * operand, or a 'const' variable initialized with one ('const bool b = ok(m) && false;'),
 * followed through 'hops' variables. Sets '*var' to the variable, when it names one. */
static int always_false(CXCursor e, int hops, CXCursor *var)
{
    e = ss_ast_strip(e);
    long long value = 1;
    if (ss_ast_eval_int(e, &value) == 0)
        return value == 0;
    char op[8];
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator &&
        ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "&&") == 0) {
        CXCursor ignored;
        return always_false(ss_ast_child(e, 0), hops, &ignored) ||
               always_false(ss_ast_child(e, 1), hops, &ignored);
    }
    CXCursor named = named_var(e);
    if (ss_ast_is_null(named) || hops >= MAX_HOPS ||
        !clang_isConstQualifiedType(clang_getCursorType(named)))
        return 0;
    CXCursor init = initializer_of(named), inner;
    if (ss_ast_is_null(init) || !always_false(init, hops + 1, &inner))
        return 0;
    *var = named;
    return 1;
}

/* The condition of the 'if' statement 'stmt' when 'branch' is the branch taken when it holds,
 * else a null cursor. */
static CXCursor then_condition(CXCursor stmt, CXCursor branch)
{
    if (clang_getCursorKind(stmt) != CXCursor_IfStmt)
        return clang_getNullCursor();
    unsigned n = ss_ast_child_count(stmt), c = 0;
    CXCursor cond = clang_getNullCursor();
    for (; c < n && ss_ast_is_null(cond); c++) {
        CXCursor child = ss_ast_child(stmt, c);
        if (clang_isExpression(clang_getCursorKind(child)))
            cond = child;
    }
    if (ss_ast_is_null(cond) || c >= n || !ss_ast_same_node(ss_ast_child(stmt, c), branch))
        return clang_getNullCursor();
    return cond;
}

/* "dead: the branch at line 15 never runs: its condition 'batched' is always false (line 14)"
 * for the 'if' statement 'stmt' whose true branch 'branch' holds the call, when its condition
 * is always false; else NULL. Malloc'ed. */
static char *dead_words(CXCursor stmt, CXCursor branch)
{
    CXCursor cond = then_condition(stmt, branch), var = clang_getNullCursor();
    if (ss_ast_is_null(cond) || !always_false(cond, 0, &var))
        return NULL;
    char *text = ss_expr_text(cond);
    char *where =
        ss_ast_is_null(var) ? ss_xstrdup("") : ss_xasprintf(" (line %u)", ss_scope_line(var));
    char *words = ss_xasprintf("dead: the branch at line %u never runs: its condition '%s' is "
                               "always false%s",
                               ss_scope_line(stmt), text ? text : "...", where);
    free(where);
    free(text);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Switches the environment sets. */

typedef struct getenv_walk {
    CXCursor found; /* the getenv call */
    int hops;
} getenv_walk;

int ss_context_is_getenv(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int match = name && (strcmp(name, "getenv") == 0 || strcmp(name, "secure_getenv") == 0);
    free(name);
    return match;
}

/* Whether the variable 'var' can hold a switch: the string getenv returns (a pointer, a string
 * object) or whether it was set (a bool); not a number read from it (a threshold or a period,
 * which the branch compares with whether the variable is set or not). */
static int holds_switch(CXCursor var)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(var)).kind;
    return k == CXType_Pointer || k == CXType_Bool || k == CXType_Record;
}

/* A getenv call in an expression, or a variable it names that can hold a switch and whose
 * initializer has one. */
static enum CXChildVisitResult find_getenv(CXCursor c, CXCursor parent, CXClientData data)
{
    getenv_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr && ss_context_is_getenv(c)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    CXCursor var = named_var(c);
    if (!ss_ast_is_null(var) && w->hops < MAX_HOPS && holds_switch(var)) {
        CXCursor init = initializer_of(var);
        if (!ss_ast_is_null(init)) {
            w->hops++;
            ss_ast_visit_whole(init, var, find_getenv, w);
            w->hops--;
            if (!ss_ast_is_null(w->found))
                return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The text of the getenv call's first argument without its quotes ("APP_DEBUG"), malloc'ed. */
static char *variable_name(CXCursor call)
{
    char *text = clang_Cursor_getNumArguments(call) > 0
                     ? ss_expr_text(clang_Cursor_getArgument(call, 0))
                     : NULL;
    if (text == NULL)
        return ss_xstrdup("?");
    size_t len = strlen(text);
    if (len >= 2 && text[0] == '"' && text[len - 1] == '"') {
        memmove(text, text + 1, len - 2);
        text[len - 2] = '\0';
    }
    return text;
}

/* The variable the condition 'cond' tests ('level' of 'level', '!level', 'level != NULL'), by
 * name, malloc'ed, or NULL when it names none. */
static char *tested_name(CXCursor cond)
{
    CXCursor e = ss_ast_strip(cond);
    CXCursor var = named_var(e);
    for (unsigned i = 0; ss_ast_is_null(var) && i < ss_ast_child_count(e); i++)
        var = named_var(ss_ast_child(e, i));
    if (ss_ast_is_null(var))
        return NULL;
    CXString spelled = clang_getCursorSpelling(var);
    char *name = ss_xstrdup(clang_getCString(spelled));
    clang_disposeString(spelled);
    return name;
}

char *ss_context_getenv_read(CXCursor expr, CXCursor parent, unsigned *line)
{
    getenv_walk w = {clang_getNullCursor(), 0};
    ss_ast_visit_whole(expr, parent, find_getenv, &w);
    if (ss_ast_is_null(w.found))
        return NULL;
    *line = ss_scope_line(w.found);
    return variable_name(w.found);
}

CXCursor ss_context_then_condition(CXCursor stmt, CXCursor branch)
{
    return then_condition(stmt, branch);
}

/* "opt-in: it runs only when the environment sets 'APP_DEBUG' (line 15 tests 'level', from
 * getenv at line 14)" for the 'if' statement 'stmt' whose true branch 'branch' holds the call,
 * when its condition calls getenv or tests a variable initialized from it (through up to three
 * variables); else NULL. Malloc'ed. */
static char *opt_in_words(CXCursor stmt, CXCursor branch)
{
    CXCursor cond = then_condition(stmt, branch);
    if (ss_ast_is_null(cond))
        return NULL;
    getenv_walk w = {clang_getNullCursor(), 0};
    ss_ast_visit_whole(cond, stmt, find_getenv, &w);
    if (ss_ast_is_null(w.found))
        return NULL;
    char *name = variable_name(w.found);
    unsigned at = ss_scope_line(w.found);
    char *how;
    if (at == ss_scope_line(stmt)) {
        how = ss_xasprintf("line %u calls getenv", at);
    } else {
        char *tested = tested_name(cond);
        if (tested == NULL)
            tested = ss_expr_text(cond);
        how = ss_xasprintf("line %u tests '%s', from getenv at line %u", ss_scope_line(stmt),
                           tested ? tested : "...", at);
        free(tested);
    }
    char *words =
        ss_xasprintf("opt-in: it runs only when the environment sets '%s' (%s)", name, how);
    free(how);
    free(name);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Code for a value of a parameter that no call in the unit passes. */

/* Most calls of one function looked at. */
enum { MAX_ARG_CALLS = 64 };

/* The parameter 'cond' tests, as 'p' ('*holds_when_true' 1) or '!p' (0), or a null cursor. */
static CXCursor tested_param(CXCursor cond, int *holds_when_true)
{
    CXCursor e = ss_ast_strip(cond);
    *holds_when_true = 1;
    while (clang_getCursorKind(e) == CXCursor_UnaryOperator && ss_ast_child_count(e) == 1) {
        char *text = ss_expr_text(e);
        int negation = text && text[0] == '!';
        free(text);
        if (!negation)
            return clang_getNullCursor();
        *holds_when_true = !*holds_when_true;
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    CXCursor decl = clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                                   : clang_getNullCursor();
    return clang_getCursorKind(decl) == CXCursor_ParmDecl ? decl : clang_getNullCursor();
}

/* Whether the function body under 'c' assigns the parameter 'param', takes its address or
 * passes it by reference. */
typedef struct write_walk {
    CXCursor param;
    int written;
} write_walk;

/* Whether the call 'call' is given the parameter 'param' where it may write it: as an argument
 * that the callee takes by a reference to non-const, or to a callee it does not know. */
static int passes_to_write(CXCursor call, CXCursor param)
{
    CXCursor callee = clang_getCursorReferenced(call);
    for (int i = 0, n = clang_Cursor_getNumArguments(call); i < n; i++) {
        CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)i));
        if (clang_getCursorKind(arg) != CXCursor_DeclRefExpr ||
            !clang_equalCursors(clang_getCursorReferenced(arg), param))
            continue;
        if (ss_ast_is_null(callee))
            return 1;
        if (i >= clang_Cursor_getNumArguments(callee))
            return !clang_Cursor_isVariadic(callee); /* variadic: by value */
        CXType t = clang_getCanonicalType(
            clang_getCursorType(clang_Cursor_getArgument(callee, (unsigned)i)));
        if ((t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
            !clang_isConstQualifiedType(clang_getPointeeType(t)))
            return 1;
    }
    return 0;
}

static enum CXChildVisitResult find_write(CXCursor c, CXCursor parent, CXClientData data)
{
    write_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr && passes_to_write(c, w->param)) {
        w->written = 1;
        return CXChildVisit_Break;
    }
    if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
         k == CXCursor_UnaryOperator) &&
        ss_ast_child_count(c) > 0) {
        CXCursor target = ss_ast_strip(ss_ast_child(c, 0));
        char op[8] = "";
        int assigns = k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator ||
                      (ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0);
        char *text = k == CXCursor_UnaryOperator ? ss_expr_text(c) : NULL;
        if (text && text[0] == '!')
            assigns = 0; /* the other unary operators write or take the address */
        free(text);
        if (assigns && clang_getCursorKind(target) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(target), w->param)) {
            w->written = 1;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The value the call 'call' gives the parameter number 'index' ('param'), written or by
 * default; returns 0 and sets '*value', or -1 when it is not a constant. */
static int argument_value(CXCursor call, unsigned index, CXCursor param, long long *value)
{
    CXCursor arg = (int)index < clang_Cursor_getNumArguments(call)
                       ? clang_Cursor_getArgument(call, index)
                       : clang_getNullCursor();
    if (ss_ast_is_null(arg) || ss_check_is_omitted(arg)) {
        unsigned n = ss_ast_child_count(param);
        arg = n > 0 ? ss_ast_child(param, n - 1) : clang_getNullCursor();
        if (ss_ast_is_null(arg) || !clang_isExpression(clang_getCursorKind(arg)))
            return -1;
    }
    return ss_ast_eval_int(ss_ast_strip(arg), value);
}

/* Whether every call of the function of 'param' in the unit gives it a constant whose truth
 * is 'truth', the function being callable only here ('*only_here' its reason) and not
 * writing it; '*calls' receives how many calls there are. */
static int every_call_gives(ss_callgraph *g, CXCursor param, int truth, const char **only_here,
                            long *calls)
{
    CXCursor function = clang_getCursorSemanticParent(param);
    *only_here = ss_callgraph_only_here(g, function);
    if (*only_here == NULL)
        return 0;
    unsigned index = 0;
    int n = clang_Cursor_getNumArguments(function);
    while ((int)index < n && !clang_equalCursors(clang_Cursor_getArgument(function, index), param))
        index++;
    write_walk w = {param, 0};
    clang_visitChildren(function, find_write, &w);
    if ((int)index >= n || w.written)
        return 0;
    CXCursor found[MAX_ARG_CALLS], callers[MAX_ARG_CALLS];
    *calls = ss_callgraph_calls_of(g, function, found, callers, MAX_ARG_CALLS);
    if (*calls <= 0 || *calls > MAX_ARG_CALLS)
        return 0;
    for (long i = 0; i < *calls; i++) {
        long long value;
        if (argument_value(found[i], index, param, &value) != 0 || (value != 0) != truth)
            return 0;
    }
    return 1;
}

/* The statement of the block 'block' before 'child' that leaves the function when its
 * condition holds ('if (c) { ...; return ...; }' or 'if (c) return;', no else), or null. */
static CXCursor returning_if_before(CXCursor block, CXCursor child, CXCursor *cond)
{
    for (unsigned i = 0, n = ss_ast_child_count(block); i < n; i++) {
        CXCursor stmt = ss_ast_child(block, i);
        if (ss_ast_same_node(stmt, child))
            break;
        unsigned m = ss_ast_child_count(stmt);
        if (clang_getCursorKind(stmt) != CXCursor_IfStmt || m != 2)
            continue;
        CXCursor then = ss_ast_child(stmt, 1);
        unsigned t = ss_ast_child_count(then);
        CXCursor last = clang_getCursorKind(then) == CXCursor_CompoundStmt && t > 0
                            ? ss_ast_child(then, t - 1)
                            : then;
        if (clang_getCursorKind(last) == CXCursor_ReturnStmt) {
            *cond = ss_ast_child(stmt, 0);
            return stmt;
        }
    }
    return clang_getNullCursor();
}

/* "dead in this unit: ..." when the way from 'stmt' to its child 'branch' needs a value of a
 * parameter that no call of the function in the unit gives it: 'branch' is the then-branch of
 * an 'if' on the parameter, or follows in a block an 'if' on it that returns. Malloc'ed, or
 * NULL. */
static char *dead_argument_words(ss_callgraph *g, CXCursor stmt, CXCursor branch)
{
    CXCursor cond = then_condition(stmt, branch), test = stmt;
    int runs_when_holds = 1;
    if (ss_ast_is_null(cond) && clang_getCursorKind(stmt) == CXCursor_CompoundStmt) {
        test = returning_if_before(stmt, branch, &cond);
        runs_when_holds = 0;
    }
    int holds_when_true = 0;
    CXCursor param = ss_ast_is_null(cond) ? cond : tested_param(cond, &holds_when_true);
    const char *only_here = NULL;
    long calls = 0;
    /* Dead when every call gives the parameter the truth for which the way is not taken. */
    if (ss_ast_is_null(param) ||
        !every_call_gives(g, param, runs_when_holds ? !holds_when_true : holds_when_true,
                          &only_here, &calls))
        return NULL;
    char *text = ss_expr_text(cond);
    char *function = ss_qualified_name(clang_getCursorSemanticParent(param));
    CXString name = clang_getCursorSpelling(param);
    char *words =
        runs_when_holds
            ? ss_xasprintf("dead in this unit: the branch at line %u runs only when '%s' holds, "
                           "and every call of '%s' in this unit (%ld) gives '%s' a value for "
                           "which it does not ('%s' %s)",
                           ss_scope_line(test), text ? text : "...", function ? function : "...",
                           calls, clang_getCString(name), function ? function : "...", only_here)
            : ss_xasprintf("dead in this unit: line %u leaves the function when '%s' holds, and "
                           "every call of '%s' in this unit (%ld) gives '%s' a value for which "
                           "it does ('%s' %s)",
                           ss_scope_line(test), text ? text : "...", function ? function : "...",
                           calls, clang_getCString(name), function ? function : "...", only_here);
    clang_disposeString(name);
    free(function);
    free(text);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Error paths: a block that ends by throwing or by a call that does not return. */

/* Whether the function the call 'call' calls does not return: declared noreturn
 * ('[[noreturn]]', '__attribute__((noreturn))', '_Noreturn') or one of the C and C++ library's
 * ends of a program. */
static int calls_noreturn(CXCursor call)
{
    static const char *const ends[] = {"abort",       "exit",           "_Exit",
                                       "quick_exit",  "terminate",      "__assert_fail",
                                       "__cxa_throw", "__builtin_trap", "__builtin_unreachable"};
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return 0;
    CXCursor decl = clang_getCursorReferenced(call);
    if (ss_ast_is_null(decl) || !ss_ast_is_function(decl) ||
        clang_getCursorKind(decl) == CXCursor_LambdaExpr)
        return 0;
    /* By name, a free function only ('std::exit', not a method named 'exit'). */
    char *name =
        clang_getCursorKind(decl) == CXCursor_FunctionDecl ? ss_ast_callee_name(call) : NULL;
    int found = 0;
    for (size_t i = 0; name && i < sizeof ends / sizeof *ends && !found; i++)
        found = strcmp(name, ends[i]) == 0;
    free(name);
    unsigned n = ss_ast_child_count(decl);
    for (unsigned i = 0; i < n && !found; i++) {
        CXCursor attr = ss_ast_child(decl, i);
        if (!clang_isAttribute(clang_getCursorKind(attr)))
            continue;
        CXSourceRange r = clang_getCursorExtent(attr);
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(attr);
        CXToken *tokens = NULL;
        unsigned count = 0;
        clang_tokenize(tu, r, &tokens, &count);
        for (unsigned t = 0; t < count && !found; t++) {
            CXString s = clang_getTokenSpelling(tu, tokens[t]);
            const char *text = clang_getCString(s);
            found = text && (strcmp(text, "noreturn") == 0 || strcmp(text, "__noreturn__") == 0 ||
                             strcmp(text, "_Noreturn") == 0);
            clang_disposeString(s);
        }
        clang_disposeTokens(tu, tokens, count);
    }
    return found;
}

/* The expression 'e' stands for, out of the implicit nodes libclang does not expose (the
 * cleanups of a temporary). */
static CXCursor unwrapped(CXCursor e)
{
    for (int hops = 0;
         hops < 4 && clang_getCursorKind(e) == CXCursor_UnexposedExpr && ss_ast_child_count(e) == 1;
         hops++)
        e = ss_ast_child(e, 0);
    return e;
}

/* The statement that ends the block 'block' on every way through it, when that is a 'throw'
 * or a call that does not return (in a block of its own at the end, as a macro writes it;
 * empty statements after it aside), or a null cursor. */
static CXCursor throwing_end(CXCursor block, int depth)
{
    unsigned n = ss_ast_child_count(block);
    while (n > 0 && clang_getCursorKind(ss_ast_child(block, n - 1)) == CXCursor_NullStmt)
        n--;
    if (n == 0 || depth > 4)
        return clang_getNullCursor();
    CXCursor last = ss_ast_child(block, n - 1);
    if (clang_getCursorKind(last) == CXCursor_CompoundStmt)
        return throwing_end(last, depth + 1);
    CXCursor e = unwrapped(last);
    if (clang_getCursorKind(e) == CXCursor_CXXThrowExpr || calls_noreturn(e))
        return last;
    return clang_getNullCursor();
}

/* For the visit below: whether a statement may leave the block before its end. */
static enum CXChildVisitResult find_leave(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch (clang_getCursorKind(c)) {
    case CXCursor_LambdaExpr:
        return CXChildVisit_Continue;
    case CXCursor_ReturnStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
    case CXCursor_CXXTryStmt:
        *(int *)data = 1;
        return CXChildVisit_Break;
    default:
        return CXChildVisit_Recurse;
    }
}

/* The words for a call reached through path[at] (a block) and path[at + 1 ..], or NULL: the
 * block ends in a throw or a call that does not return, the call is a statement of the block
 * itself (not in a branch, loop or lambda of it), and nothing of the block leaves it before
 * its end. Malloc'ed. */
static char *throw_words(const CXCursor *path, long found, long at)
{
    if (clang_getCursorKind(path[at]) != CXCursor_CompoundStmt)
        return NULL;
    CXCursor end = throwing_end(path[at], 0);
    if (ss_ast_is_null(end))
        return NULL;
    for (long i = at + 1; i < found; i++) {
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (clang_isStatement(k) && k != CXCursor_DeclStmt)
            return NULL;
        if (k == CXCursor_LambdaExpr || k == CXCursor_ConditionalOperator ||
            k == CXCursor_BinaryOperator)
            return NULL;
    }
    int leaves = 0;
    clang_visitChildren(path[at], find_leave, &leaves);
    if (leaves)
        return NULL;
    CXCursor e = unwrapped(end);
    return ss_xasprintf(
        "on the error path: it runs only before the %s at line %u",
        clang_getCursorKind(e) == CXCursor_CXXThrowExpr ? "throw" : "call that does not return",
        ss_scope_line(end));
}

/* Whether the declaration 'decl' is of the kind 'kind' and named 'runtime' or 'driver' (the
 * runtime API's name and the driver API's). */
static int cuda_named(CXCursor decl, enum CXCursorKind kind, const char *runtime,
                      const char *driver)
{
    if (clang_getCursorKind(decl) != kind)
        return 0;
    CXString name = clang_getCursorSpelling(decl);
    const char *text = clang_getCString(name);
    int named = text && (strcmp(text, runtime) == 0 || strcmp(text, driver) == 0);
    clang_disposeString(name);
    return named;
}

/* Whether 'e' names the enumerator that says a CUDA call succeeded (cudaSuccess, CUDA_SUCCESS). */
static int names_success(CXCursor e)
{
    e = ss_ast_strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           cuda_named(clang_getCursorReferenced(e), CXCursor_EnumConstantDecl, "cudaSuccess",
                      "CUDA_SUCCESS");
}

/* Calls that turn a CUDA error code into words: a branch that makes one reports an error. */
static const char *const error_reporters[] = {"cudaGetErrorString", "cudaGetErrorName",
                                              "cuGetErrorString", "cuGetErrorName"};

/* "on the error path: ..." when 'branch' is the branch that 'if_stmt' takes when a CUDA call
 * failed: its condition compares an error code with cudaSuccess (CUDA_SUCCESS for the driver
 * API; with '!=' where the operator can be read, not in a macro's body) and the branch reports
 * it (cudaGetErrorString...), as an error-checking macro does ('if (e != cudaSuccess) {
 * cudaDeviceReset(); fail(msg, cudaGetErrorString(e)); }'). Malloc'ed, or NULL. */
static char *error_branch_words(ss_callgraph *g, CXCursor if_stmt, CXCursor branch)
{
    if (clang_getCursorKind(if_stmt) != CXCursor_IfStmt)
        return NULL;
    unsigned cond = ss_ast_if_condition(if_stmt);
    if (cond + 1 >= ss_ast_child_count(if_stmt) ||
        !ss_ast_same_node(ss_ast_child(if_stmt, cond + 1), branch))
        return NULL;
    CXCursor cmp = ss_ast_strip(ss_ast_child(if_stmt, cond)), reporter;
    char op[8];
    if (clang_getCursorKind(cmp) != CXCursor_BinaryOperator ||
        (!names_success(ss_ast_child(cmp, 0)) && !names_success(ss_ast_child(cmp, 1))) ||
        (ss_ast_binary_op(cmp, op, sizeof op) == 0 && strcmp(op, "!=") != 0) ||
        !ss_callgraph_calls_named(g, branch, error_reporters,
                                  sizeof error_reporters / sizeof error_reporters[0], &reporter))
        return NULL;
    return ss_xasprintf("on the error path: it runs only when a CUDA call failed (line %u "
                        "tests the error code, and the branch reports it)",
                        ss_scope_line(if_stmt));
}

/* Whether 'e' is of the type of a CUDA error code: cudaError_t (enum cudaError) or CUresult
 * (enum cudaError_enum). */
static int of_error_type(CXCursor e)
{
    CXCursor type = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(e)));
    return cuda_named(type, CXCursor_EnumDecl, "cudaError", "cudaError_enum");
}

/* Whether 'e' is a CUDA error code: a variable or parameter that holds one, a call that returns
 * one ('cudaGetLastError()'), or an assignment of such a call to such a variable ('(err =
 * cudaGetLastError())'). */
static int names_error_code(CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    char op[8];
    if (k == CXCursor_CallExpr)
        return of_error_type(e);
    /* An operator that cannot be read (a macro's body) and gives an error code is '=': a
     * comparison gives a truth value. */
    if (k == CXCursor_BinaryOperator &&
        (ss_ast_binary_op(e, op, sizeof op) == 0 ? strcmp(op, "=") == 0 : of_error_type(e)))
        return names_error_code(ss_ast_child(e, 0)) &&
               clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 1))) == CXCursor_CallExpr &&
               of_error_type(ss_ast_strip(ss_ast_child(e, 1)));
    if (k != CXCursor_DeclRefExpr)
        return 0;
    CXCursor var = clang_getCursorReferenced(e);
    k = clang_getCursorKind(var);
    return (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) && of_error_type(var);
}

/* Whether 'e' is the value of success: cudaSuccess, CUDA_SUCCESS or the constant 0. */
static int success_value(CXCursor e)
{
    long long value = 1;
    return names_success(e) || (ss_ast_eval_int(ss_ast_strip(e), &value) == 0 && value == 0);
}

/* Whether the statement 'branch' reports a CUDA error (error_reporters, also in the unit's
 * functions it calls) or ends in a throw or a call that does not return; '*throws' set to
 * whether it ends in a throw. */
static int reports_or_ends(ss_callgraph *g, CXCursor branch, int *throws)
{
    CXCursor end = branch;
    if (clang_getCursorKind(branch) == CXCursor_CompoundStmt)
        end = throwing_end(branch, 0);
    else if (clang_getCursorKind(unwrapped(branch)) != CXCursor_CXXThrowExpr &&
             !calls_noreturn(unwrapped(branch)))
        end = clang_getNullCursor();
    *throws = !ss_ast_is_null(end) && clang_getCursorKind(unwrapped(end)) == CXCursor_CXXThrowExpr;
    CXCursor found;
    return !ss_ast_is_null(end) ||
           (g &&
            ss_callgraph_calls_named(g, branch, error_reporters,
                                     sizeof error_reporters / sizeof error_reporters[0], &found));
}

unsigned ss_context_failure_branch(ss_callgraph *g, CXCursor if_stmt, int *throws)
{
    *throws = 0;
    unsigned n = ss_ast_child_count(if_stmt), cond = ss_ast_if_condition(if_stmt), branch = 0;
    if (clang_getCursorKind(if_stmt) != CXCursor_IfStmt || cond + 1 >= n)
        return 0;
    CXCursor test = ss_ast_strip(ss_ast_child(if_stmt, cond));
    char op[8];
    if (names_error_code(test)) {
        branch = cond + 1; /* 'if (e)' */
    } else if (clang_getCursorKind(test) == CXCursor_BinaryOperator &&
               ((names_error_code(ss_ast_child(test, 0)) && success_value(ss_ast_child(test, 1))) ||
                (names_error_code(ss_ast_child(test, 1)) &&
                 success_value(ss_ast_child(test, 0))))) {
        /* An operator that cannot be read (a macro's body) is taken for '!=' where the branch
         * reports the error, as error_branch_words takes it. */
        if (ss_ast_binary_op(test, op, sizeof op) != 0 || strcmp(op, "!=") == 0)
            branch = cond + 1;
        else if (strcmp(op, "==") == 0)
            branch = cond + 2;
    }
    if (branch == 0 || branch >= n || !reports_or_ends(g, ss_ast_child(if_stmt, branch), throws))
        return 0;
    return branch;
}

/* ------------------------------------------------------------------------------------------
 * Guards on the way to a call. */

/* The words of the first guard (a dead branch, an opt-in switch, an error path, a failed CUDA
 * call's branch) on the path from
 * 'from' down to 'call', outermost first, or NULL. Malloc'ed. */
static char *guard_words(ss_callgraph *g, CXCursor from, CXCursor call)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(from, call, path);
    char *words = NULL;
    for (long i = 0; i < found && words == NULL; i++) {
        CXCursor branch = i + 1 < found ? path[i + 1] : call;
        words = dead_words(path[i], branch);
        if (words == NULL)
            words = opt_in_words(path[i], branch);
        if (words == NULL)
            words = dead_argument_words(g, path[i], branch);
        if (words == NULL)
            words = throw_words(path, found, i);
    }
    /* A failed call's branch, where no other guard said more. */
    for (long i = 0; i < found && words == NULL; i++)
        words = error_branch_words(g, path[i], i + 1 < found ? path[i + 1] : call);
    free(path);
    return words;
}

/* For ss_callgraph_reached_unless: a call under a guard is skipped. */
static int skip_guarded(CXCursor from, CXCursor call, void *data)
{
    char *words = guard_words(data, from, call);
    free(words);
    return words != NULL;
}

/* The words of a guard on the way to the call 'at': in its function, else on every chain of
 * calls from a loop that enqueues device work (the words name the one on the loop's chain), or
 * NULL. Malloc'ed. */
static char *guarded_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor top = ss_scope_outer_function(ctx->function);
    ss_callgraph *graph = ss_check_graph(ctx);
    char *words = guard_words(graph, top, at);
    if (words)
        return words;
    ss_loop_reach reach;
    if (!ss_callgraph_reached_from_loop(graph, top, SS_SCOPE_ENQUEUES, &reach))
        return NULL;
    for (size_t i = 0; i < reach.call_count && words == NULL; i++)
        words = guard_words(graph, reach.froms[i], reach.calls[i]);
    ss_loop_reach_free(&reach);
    if (words && ss_callgraph_reached_unless(graph, top, SS_SCOPE_ENQUEUES, skip_guarded, graph)) {
        free(words);
        words = NULL;
    }
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Functions nothing calls, loops of destructors. */

void ss_context_rare_apply(ss_check_ctx *ctx, CXCursor at, ss_finding *f, const char *before)
{
    if (f->severity < SS_SEV_WARNING)
        return;
    CXCursor top = ss_scope_outer_function(ctx->function);
    char *name = ss_qualified_name(top);
    int hot = ss_context_is_hot_function(ctx, name);
    free(name);
    if (hot)
        return;
    char *why = NULL, *words = NULL;
    if (ss_callgraph_uncalled(ss_check_graph(ctx), top, &why))
        words = ss_xasprintf("not called in this unit: %s", why);
    else
        words = guarded_words(ctx, at);
    free(why);
    if (words == NULL)
        return;
    free(f->message);
    f->message = ss_xasprintf("%s; %s", before, words);
    f->severity = SS_SEV_NOTE;
    free(words);
}

CXCursor ss_context_function_of(CXCursor stmt)
{
    CXCursor c = clang_getCursorSemanticParent(stmt);
    for (int hops = 0; hops < 8 && !ss_ast_is_null(c) && !ss_ast_is_function(c); hops++)
        c = clang_getCursorSemanticParent(c);
    return ss_ast_is_null(c) ? c : ss_scope_outer_function(c);
}

/* For ss_callgraph_reached_unless: a call made in a loop of a function that tears down (a
 * destructor, one named so) is skipped. */
static int skip_teardown(CXCursor from, CXCursor call, void *data)
{
    (void)data;
    if (!ss_scope_is_loop(from))
        return 0;
    CXCursor function = ss_context_function_of(call);
    char *why = NULL;
    int tears_down = !ss_ast_is_null(function) && ss_callgraph_tears_down(function, &why);
    free(why);
    return tears_down;
}

char *ss_context_teardown_words(ss_check_ctx *ctx, const ss_loop_context *loop)
{
    char *why = NULL;
    if (!ss_callgraph_tears_down(loop->function, &why))
        return NULL;
    /* A loop elsewhere: every chain from a loop that works starts in a destructor's loop. */
    if (loop->chain &&
        ss_callgraph_reached_unless(ss_check_graph(ctx), ss_scope_outer_function(ctx->function),
                                    SS_SCOPE_ENQUEUES, skip_teardown, NULL)) {
        free(why);
        return NULL;
    }
    char *where =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    int destructor = clang_getCursorKind(loop->function) == CXCursor_Destructor;
    char *words =
        ss_xasprintf("teardown: the loop at %s runs %s: %s", where,
                     destructor ? "when an object is destroyed" : "while it tears down", why);
    free(where);
    free(why);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Branches that leave the loop. */

/* The statement that ends the block 'block' when it leaves a loop: a 'break' ('breaks' set),
 * a 'return', else a null cursor. */
static CXCursor leaving_statement(CXCursor block, int *breaks)
{
    unsigned n = ss_ast_child_count(block);
    CXCursor last = n > 0 ? ss_ast_child(block, n - 1) : clang_getNullCursor();
    enum CXCursorKind k = clang_getCursorKind(last);
    *breaks = k == CXCursor_BreakStmt;
    return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt ? last : clang_getNullCursor();
}

char *ss_context_exit_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    CXCursor top = ss_scope_outer_function(ctx->function);
    if (loop->chain || clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr ||
        !ss_ast_is_null(ss_scope_enclosing_loop(ctx->function, loop->loop)))
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(loop->loop, at, path);
    char *words = NULL;
    /* The branch (the block of an 'if') nearest the loop on the way down; a 'break' must be
     * the loop's own, with no loop or switch between. */
    int inner = 0;
    for (long i = 1; i < found && words == NULL; i++) {
        enum CXCursorKind k = clang_getCursorKind(path[i]);
        if (ss_scope_is_loop(path[i]) || k == CXCursor_SwitchStmt || k == CXCursor_LambdaExpr)
            inner = 1;
        int breaks = 0;
        CXCursor leave =
            clang_getCursorKind(path[i - 1]) == CXCursor_IfStmt && k == CXCursor_CompoundStmt
                ? leaving_statement(path[i], &breaks)
                : clang_getNullCursor();
        if (ss_ast_is_null(leave) || (breaks && inner))
            continue;
        words = ss_xasprintf("exit: the branch at line %u leaves the loop ('%s' at line %u): it "
                             "runs once per run of the loop at line %u, not on every iteration",
                             ss_scope_line(path[i - 1]), breaks ? "break" : "return",
                             ss_scope_line(leave), ss_scope_line(loop->loop));
    }
    free(path);
    /* A function called from a loop that works runs its exit branch once per iteration of
     * that loop. */
    if (words && ss_callgraph_loop_reaches(ss_check_graph(ctx), top, SS_SCOPE_ENQUEUES)) {
        free(words);
        words = NULL;
    }
    return words;
}
