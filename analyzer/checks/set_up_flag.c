/* set_up_flag.c: a one-time set-up behind an early return on a lasting flag the function sets
 * itself (held-out-38's shape CQ, fastllm's FastllmInitTP2P2PState:
 * 'if (state.initialized) return state.available; ...; state.initialized = true;'): what follows
 * the return runs once, until something clears the flag (context_cases.h; docs/lint.md,
 * "Warning or note"). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

int ss_context_lasting_decl(CXCursor decl)
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
    if (ss_ast_is_null(d) || !ss_context_lasting_decl(d))
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
        if (names_flag(f, decl) && ss_ast_literal_int(other, &value) == 0 &&
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
        ss_ast_literal_int(ss_ast_child(c, 1), &v) != 0 || (v != 0) != (value != 0))
        return 0;
    if (ss_ast_is_null(g->flag))
        return 1;
    char *a = ss_expr_text(lhs), *b = ss_expr_text(g->flag);
    int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    return same;
}

/* ------------------------------------------------------------------------------------------
 * What may clear the flag: anything in the unit that writes it other than the store that marks
 * the set-up done. */

typedef struct clear_walk {
    const flag_guard *g;
    CXCursor record; /* the flag's class, or a null cursor for a variable */
    CXCursor found;
} clear_walk;

/* Whether the expression 'e' names the flag: its declaration, or, left unresolved in a template,
 * a member of the same name. */
static int names_the_flag(CXCursor e, const flag_guard *g)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return 0;
    CXCursor d = clang_getCursorReferenced(e);
    if (!ss_ast_is_null(d))
        return clang_equalCursors(d, g->decl);
    if (k != CXCursor_MemberRefExpr)
        return 0;
    /* 'c.initialized' on a dependent 'c': the member's name is the text's last word */
    char *text = ss_expr_text(e);
    const char *dot = text ? strrchr(text, '.') : NULL, *arrow = text ? strstr(text, "->") : NULL;
    while (arrow && strstr(arrow + 2, "->"))
        arrow = strstr(arrow + 2, "->");
    const char *member = arrow && (!dot || arrow > dot) ? arrow + 2 : dot ? dot + 1 : NULL;
    CXString b = clang_getCursorSpelling(g->decl);
    int same = member && clang_getCString(b) && strcmp(member, clang_getCString(b)) == 0;
    clang_disposeString(b);
    free(text);
    return same;
}

/* Whether the type 't' (a reference or pointer to it too, with 'pointer') is the class 'record'. */
static int is_record(CXType t, CXCursor record, int pointer)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
        (pointer && t.kind == CXType_Pointer))
        t = clang_getCanonicalType(clang_getPointeeType(t));
    CXCursor d = clang_getTypeDeclaration(t);
    return !ss_ast_is_null(record) && !ss_ast_is_null(d) &&
           clang_equalCursors(clang_getCanonicalCursor(d), clang_getCanonicalCursor(record));
}

/* Whether the type 't' holds or points to an object of the class 'record': the class, a
 * pointer or reference to it, or a class template's specialization with it as an argument
 * ('std::unique_ptr<State>'). */
static int holds_record(CXType t, CXCursor record)
{
    if (is_record(t, record, 1))
        return 1;
    t = clang_getCanonicalType(t);
    int n = clang_Type_getNumTemplateArguments(t);
    for (int i = 0; i < n; i++) {
        if (is_record(clang_Type_getTemplateArgumentAsType(t, (unsigned)i), record, 1))
            return 1;
    }
    return 0;
}

int ss_context_overwrites_class(CXCursor c, CXCursor record)
{
    if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) < 1)
        return 0;
    char *name = ss_scope_callee_name(c);
    int assign = name && (strcmp(name, "operator=") == 0 || strcmp(name, "reset") == 0);
    int bytes = name && (strcmp(name, "memset") == 0 || strcmp(name, "memcpy") == 0 ||
                         strcmp(name, "bzero") == 0);
    int swap = name && (strcmp(name, "swap") == 0 || strcmp(name, "exchange") == 0);
    free(name);
    if (swap) {
        for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++) {
            if (holds_record(
                    clang_getCursorType(ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)i))),
                    record))
                return 1;
        }
        return 0;
    }
    return (assign || bytes) &&
           holds_record(clang_getCursorType(ss_ast_strip(clang_Cursor_getArgument(c, 0))), record);
}

/* Whether 'c', under 'parent', writes the flag otherwise than storing the constant for which
 * the guard returns: another value, a compound assignment, an increment, its address or a
 * reference to it taken; or overwrites a whole object of its class ('s = State{}', memset). */
static int clears(CXCursor c, CXCursor parent, const clear_walk *w)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    /* the left side first: an operator's text is read only for a store to the flag or to an
     * object of its class (not for every '+' of a deep expression) */
    CXCursor lhs = k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator
                       ? ss_ast_child(c, 0)
                       : clang_getNullCursor();
    enum CXCursorKind lk = clang_getCursorKind(ss_ast_strip(lhs));
    if ((lk == CXCursor_DeclRefExpr || lk == CXCursor_MemberRefExpr ||
         lk == CXCursor_UnaryOperator) &&
        ss_ast_binary_op(c, op, sizeof op) == 0 && strchr(op, '=') && strcmp(op, "==") != 0 &&
        strcmp(op, "!=") != 0 && strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0) {
        long long v = 0;
        if (names_the_flag(lhs, w->g))
            return strcmp(op, "=") != 0 || ss_ast_literal_int(ss_ast_child(c, 1), &v) != 0 ||
                   (v != 0) != (w->g->returns_on != 0);
        return strcmp(op, "=") == 0 && holds_record(clang_getCursorType(lhs), w->record);
    }
    if (ss_context_overwrites_class(c, w->record))
        return 1;
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) && names_the_flag(c, w->g)) {
        /* read: converted to its value; a store's left side was looked at above */
        int read = clang_getCursorKind(parent) == CXCursor_UnexposedExpr &&
                   ss_ast_child_count(parent) == 1 &&
                   !clang_isConstQualifiedType(clang_getCursorType(parent));
        int stored = (clang_getCursorKind(parent) == CXCursor_BinaryOperator ||
                      clang_getCursorKind(parent) == CXCursor_CompoundAssignOperator) &&
                     ss_ast_same_node(ss_ast_child(parent, 0), c);
        return !read && !stored;
    }
    return 0;
}

static enum CXChildVisitResult find_clear(CXCursor c, CXCursor parent, CXClientData data)
{
    clear_walk *w = data;
    if (clears(c, parent, w)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_context_tears_down_once(ss_callgraph *graph, CXCursor fn)
{
    char *why = NULL;
    int teardown =
        clang_getCursorKind(fn) != CXCursor_Destructor && ss_callgraph_tears_down(fn, &why);
    free(why);
    if (!teardown || ss_callgraph_seen_calls_of(graph, fn, NULL, NULL, 0) < 0)
        return 0;
    return !ss_callgraph_loop_reaches(graph, fn, SS_SCOPE_ENQUEUES);
}

/* Whether a function of the unit (lambdas in it included) clears the flag (clears), other than
 * one that tears down once (tears_down_once): a flag
 * cleared where lint cannot tell how often (a 'reset()' per step, a 'dirty' mark, a whole
 * object overwritten) guards nothing. */
static int cleared_in_unit(ss_callgraph *graph, const flag_guard *g)
{
    CXCursor parent = clang_getCursorSemanticParent(g->decl);
    enum CXCursorKind pk = clang_getCursorKind(parent);
    clear_walk w = {g,
                    pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl ||
                            pk == CXCursor_ClassTemplate || pk == CXCursor_UnionDecl
                        ? parent
                        : clang_getNullCursor(),
                    clang_getNullCursor()};
    for (size_t i = 0, n = ss_callgraph_function_count(graph); i < n; i++) {
        CXCursor fn = ss_callgraph_function(graph, i);
        if (ss_context_tears_down_once(graph, fn))
            continue;
        clang_visitChildren(fn, find_clear, &w);
        if (!ss_ast_is_null(w.found))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Whose flag: an object that outlives the call. */

/* Whether 'decl' (a variable or parameter) is new on every call: an automatic local or a
 * parameter, not a reference (nor, for the 'base' of a member access, a pointer: what it points
 * to may last). */
static int fresh_object(CXCursor decl, int base)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(decl)).kind;
    if (t == CXType_LValueReference || t == CXType_RValueReference || (base && t == CXType_Pointer))
        return 0;
    if (k == CXCursor_ParmDecl)
        return 1;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    return k == CXCursor_VarDecl && clang_getCursorLinkage(decl) == CXLinkage_NoLinkage &&
           sc != CX_SC_Static && clang_getCursorTLSKind(decl) == CXTLS_None;
}

/* The index of the reference parameter 'param' among the parameters of 'function', or -1. */
static int param_index(CXCursor function, CXCursor param)
{
    for (int i = 0, n = clang_Cursor_getNumArguments(function); i < n; i++) {
        if (clang_equalCursors(clang_Cursor_getArgument(function, (unsigned)i), param))
            return i;
    }
    return -1;
}

enum { MAX_CALLS = 32 };

/* Whether the argument 'arg' of a call gives an object that is new for the call: a local or
 * by-value parameter of the caller (or a member of one), its address ('&st'), or an object
 * made there ('*new State', 'State{}'). */
/* Whether 'decl' is a local pointer made to point to a new object where it is declared
 * ('State *st = new State;', 'auto p = std::make_unique<State>();'). */
static int new_pointer(CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_VarDecl ||
        clang_getCursorLinkage(decl) != CXLinkage_NoLinkage ||
        clang_Cursor_getStorageClass(decl) == CX_SC_Static)
        return 0;
    unsigned n = ss_ast_child_count(decl);
    CXCursor init = n > 0 ? ss_ast_strip(ss_ast_child(decl, n - 1)) : clang_getNullCursor();
    if (clang_getCursorKind(init) == CXCursor_CXXNewExpr)
        return 1;
    char *name = clang_getCursorKind(init) == CXCursor_CallExpr ? ss_scope_callee_name(init) : NULL;
    int made = name && (strcmp(name, "make_unique") == 0 || strcmp(name, "make_shared") == 0);
    free(name);
    return made;
}

static int fresh_argument(CXCursor arg)
{
    arg = ss_ast_strip(arg);
    if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
        new_pointer(clang_getCursorReferenced(arg)))
        return 1;
    if (clang_getCursorKind(arg) == CXCursor_UnaryOperator && ss_ast_child_count(arg) == 1) {
        arg = ss_ast_strip(ss_ast_child(arg, 0)); /* '&st', '*p' */
        if (clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
            new_pointer(clang_getCursorReferenced(arg)))
            return 1;
    }
    enum CXCursorKind k = clang_getCursorKind(arg);
    if (k == CXCursor_CallExpr) {
        /* what a call returns by reference outlives it; what it returns by value is a temporary */
        CXType result = clang_getResultType(clang_getCursorType(clang_getCursorReferenced(arg)));
        return result.kind != CXType_LValueReference && result.kind != CXType_Pointer;
    }
    if (k == CXCursor_CXXNewExpr || k == CXCursor_InitListExpr || k == CXCursor_UnexposedExpr)
        return 1;
    while (clang_getCursorKind(arg) == CXCursor_MemberRefExpr && ss_ast_child_count(arg) > 0)
        arg = ss_ast_strip(ss_ast_child(arg, 0));
    return clang_getCursorKind(arg) == CXCursor_DeclRefExpr &&
           fresh_object(clang_getCursorReferenced(arg), 1);
}

/* The object a member call of 'call' is made on ('w' of 'w.prepare()'), or a null cursor
 * (a call through a pointer, or on 'this'). */
static CXCursor call_object(CXCursor call)
{
    CXCursor callee =
        ss_ast_child_count(call) > 0 ? ss_ast_strip(ss_ast_child(call, 0)) : clang_getNullCursor();
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr || ss_ast_child_count(callee) == 0)
        return clang_getNullCursor();
    CXCursor object = ss_ast_strip(ss_ast_child(callee, 0));
    return clang_getCursorKind(object) == CXCursor_DeclRefExpr ||
                   clang_getCursorKind(object) == CXCursor_MemberRefExpr
               ? object
               : clang_getNullCursor();
}

/* Whether no call of 'function' in the unit gives the object the flag belongs to as a new
 * one: the argument at 'index' (fresh_argument), or, with 'index' -1, the object a member call
 * is made on ('Worker w; w.prepare();'). */
static int callers_give_lasting(ss_callgraph *graph, CXCursor function, int index)
{
    CXCursor calls[MAX_CALLS], callers[MAX_CALLS];
    long n = ss_callgraph_calls_of(graph, function, calls, callers, MAX_CALLS);
    if (n > MAX_CALLS)
        return 0;
    for (long i = 0; i < n; i++) {
        if (index < 0) {
            CXCursor object = call_object(calls[i]);
            if (!ss_ast_is_null(object) && fresh_argument(object))
                return 0;
            continue;
        }
        if (index >= clang_Cursor_getNumArguments(calls[i]) ||
            fresh_argument(clang_Cursor_getArgument(calls[i], (unsigned)index)))
            return 0;
    }
    return 1;
}

int ss_context_object_lasts(ss_callgraph *graph, CXCursor function, CXCursor flag)
{
    CXCursor e = ss_ast_strip(flag);
    int base = 0;
    while (clang_getCursorKind(e) == CXCursor_MemberRefExpr && ss_ast_child_count(e) > 0) {
        e = ss_ast_strip(ss_ast_child(e, 0));
        base = 1;
    }
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_MemberRefExpr || k == CXCursor_CXXThisExpr)
        return callers_give_lasting(graph, function, -1); /* a member of 'this' */
    if (k != CXCursor_DeclRefExpr)
        return 1;
    CXCursor decl = clang_getCursorReferenced(e);
    if (fresh_object(decl, base))
        return 0;
    int index = clang_getCursorKind(decl) == CXCursor_ParmDecl ? param_index(function, decl) : -1;
    return index < 0 || callers_give_lasting(graph, function, index);
}

int ss_context_object_lasts_anywhere(CXCursor flag)
{
    CXCursor e = ss_ast_strip(flag);
    for (int hops = 0; hops < 4; hops++) {
        while (clang_getCursorKind(e) == CXCursor_MemberRefExpr && ss_ast_child_count(e) > 0)
            e = ss_ast_strip(ss_ast_child(e, 0));
        if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
            return 0; /* 'this', a call's result: which object is not known */
        CXCursor var = clang_getCursorReferenced(e);
        if (clang_getCursorKind(var) != CXCursor_VarDecl)
            return 0;
        if (clang_getCursorLinkage(var) != CXLinkage_NoLinkage ||
            clang_Cursor_getStorageClass(var) == CX_SC_Static)
            return 1;
        /* 'State &state = GetState();': what a call returns by reference outlives it */
        unsigned n = ss_ast_child_count(var);
        CXCursor init = n > 0 ? ss_ast_strip(ss_ast_child(var, n - 1)) : clang_getNullCursor();
        if (clang_getCursorType(var).kind != CXType_LValueReference || ss_ast_is_null(init))
            return 0;
        if (clang_getCursorKind(init) == CXCursor_CallExpr)
            return 1;
        e = init;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Where the flag is set: a statement of the function's body of its own, which every way on
 * from the call reaches. */

typedef struct exit_walk {
    const flag_guard *g;
    int found; /* a way out that does not set the flag first */
} exit_walk;

static void walk_exit(CXCursor s, exit_walk *w);

static enum CXChildVisitResult visit_exit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    exit_walk *w = data;
    walk_exit(c, w);
    return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Sets w->found when 's' holds a 'return', 'goto' or 'throw' (outside lambdas) other than a
 * 'return' right after a store of the flag in the same block ('state.initialized = true;
 * return false;'). */
static void walk_exit(CXCursor s, exit_walk *w)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_LambdaExpr || w->found)
        return;
    if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr) {
        w->found = 1;
        return;
    }
    if (k != CXCursor_CompoundStmt) {
        clang_visitChildren(s, visit_exit, w);
        return;
    }
    for (unsigned i = 0, n = ss_ast_child_count(s); i < n && !w->found; i++) {
        CXCursor child = ss_ast_child(s, i);
        if (clang_getCursorKind(child) == CXCursor_ReturnStmt && i > 0 &&
            stores(ss_ast_child(s, i - 1), w->g, w->g->returns_on))
            continue;
        walk_exit(child, w);
    }
}

/* The statement of the body (a child of its own, after the guard at 'guard_index') that stores
 * the constant for which the guard returns, when the statements from the one holding the call
 * ('holder_index') up to it leave the function no way but after such a store ('return' right
 * after a store; no 'throw' or 'goto'); a null cursor otherwise. */
static CXCursor set_on_every_way(CXCursor body, const flag_guard *g, unsigned guard_index,
                                 unsigned holder_index)
{
    unsigned n = ss_ast_child_count(body), at = n;
    for (unsigned i = guard_index + 1; i < n && at == n; i++) {
        if (stores(ss_ast_child(body, i), g, g->returns_on))
            at = i;
    }
    if (at == n)
        return clang_getNullCursor();
    for (unsigned i = holder_index; i < at; i++) {
        exit_walk w = {g, 0};
        walk_exit(ss_ast_child(body, i), &w);
        if (w.found)
            return clang_getNullCursor();
    }
    return ss_ast_child(body, at);
}

/* The guard among the statements of 'body' before its child 'holder': 'if (FLAG) return ...;'
 * with no else. Fills '*g'. */
static int find_guard(CXCursor body, CXCursor holder, flag_guard *g, unsigned *guard_index,
                      unsigned *holder_index)
{
    int found = 0;
    for (unsigned i = 0, n = ss_ast_child_count(body); i < n; i++) {
        CXCursor s = ss_ast_child(body, i);
        if (ss_ast_same_node(s, holder)) {
            *holder_index = i;
            return found;
        }
        if (found)
            continue;
        if (clang_getCursorKind(s) != CXCursor_IfStmt)
            continue;
        unsigned c = ss_ast_if_condition(s);
        if (c + 2 != ss_ast_child_count(s) || !only_returns(ss_ast_child(s, c + 1)))
            continue;
        g->returns_on = flag_value(ss_ast_child(s, c), &g->flag, &g->decl);
        if (g->returns_on >= 0) {
            g->stmt = s;
            *guard_index = i;
            found = 1;
        }
    }
    return 0;
}

char *ss_context_set_up_flag_words(ss_callgraph *graph, CXCursor function, CXCursor holder,
                                   CXCursor at, int file_place, int elsewhere)
{
    (void)at;
    CXCursor body = ss_ast_body(function);
    if (ss_ast_is_null(body) || clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return NULL;
    flag_guard g = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), -1};
    unsigned guard_index = 0, holder_index = 0;
    if (!find_guard(body, holder, &g, &guard_index, &holder_index))
        return NULL;
    CXCursor set = set_on_every_way(body, &g, guard_index, holder_index);
    if (ss_ast_is_null(set) || !ss_context_object_lasts(graph, function, g.flag) ||
        (elsewhere && ss_callgraph_seen_calls_of(graph, function, NULL, NULL, 0) < 0 &&
         !ss_context_object_lasts_anywhere(g.flag)) ||
        cleared_in_unit(graph, &g))
        return NULL;
    char *flag = ss_expr_text(g.flag);
    char *guard_at =
        file_place ? ss_callgraph_place(g.stmt) : ss_xasprintf("line %u", ss_scope_line(g.stmt));
    char *words =
        ss_xasprintf("%s returns early while '%s' is %s, and line %u sets it so", guard_at,
                     flag ? flag : "?", g.returns_on ? "true" : "false", ss_scope_line(set));
    free(guard_at);
    free(flag);
    return words;
}
