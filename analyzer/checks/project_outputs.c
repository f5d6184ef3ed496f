/* project_outputs.c: a wait for a kernel that writes through a pointer its function is given,
 * where every caller in the project gives it memory it pins and reads right after the call,
 * itself or through functions that pass the pointer straight on (docs/lint.md, "A kernel's
 * output every caller reads"): the host needs the kernel's output next, so the wait is inherent.
 * The unit with the wait records which parameters its kernel writes through; every unit records
 * the pointer arguments of its calls of the project's functions; the project pass joins them. */
#include "ast.h"
#include "cache.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many statements after a call the caller's read is looked for; how many functions that
 * pass the pointer on are followed. */
enum { MAX_READ_AFTER = 8, MAX_FORWARDS = 4 };

/* Whether 'stmt' is or holds the node 'target'. */
static int holds(CXCursor stmt, CXCursor target)
{
    return ss_ast_same_node(stmt, target) || ss_scope_path(stmt, target, NULL, NULL, 0) >= 0;
}

/* The index of the statement of 'body' that holds 'target', or -1. */
static long statement_holding(CXCursor body, CXCursor target)
{
    unsigned n = ss_ast_is_null(body) ? 0 : ss_ast_child_count(body);
    for (unsigned i = 0; i < n; i++) {
        if (holds(ss_ast_child(body, i), target))
            return (long)i;
    }
    return -1;
}

/* How many times 'stmt' names the declaration 'decl'. */
typedef struct name_count {
    CXCursor decl;
    unsigned count;
} name_count;

static enum CXChildVisitResult count_names(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    name_count *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->decl))
        w->count++;
    return CXChildVisit_Recurse;
}

static unsigned times_named(CXCursor stmt, CXCursor decl)
{
    name_count w = {decl, 0};
    ss_ast_visit_whole(stmt, stmt, count_names, &w);
    return w.count;
}

/* The index of the parameter 'param' of 'function', or -1. */
static int param_index(CXCursor function, CXCursor param)
{
    int n = clang_Cursor_getNumArguments(function);
    for (int i = 0; i < n; i++) {
        if (clang_equalCursors(clang_Cursor_getArgument(function, (unsigned)i), param))
            return i;
    }
    return -1;
}

/* Whether the pointer type 't' lets a callee write what it points to (no pointer to const). */
static int writable_pointer(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer && !clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* The declaration an argument names as a whole ('x', 'obj.x', 'p->x', through casts), or a
 * null cursor ('x + 1', '&x', a call). */
static CXCursor named_whole(CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

/* Whether 'c' leaves or holds code that runs elsewhere ('return', 'break', 'continue', 'goto',
 * 'throw', a lambda), or calls a function declared outside the system headers. */
static enum CXChildVisitResult find_escape(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    int escape = k == CXCursor_LambdaExpr || k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
                 k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt || k == CXCursor_CXXThrowExpr;
    if (k == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        escape = ss_ast_is_null(callee) || !ss_ast_in_system_header(callee);
    }
    *(int *)data = escape;
    return escape ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the unit has an error other than a header not found: one that may have dropped a
 * statement (a call, or one between a call and a read). */
static int has_errors(CXTranslationUnit tu)
{
    unsigned n = clang_getNumDiagnostics(tu);
    int errors = 0;
    for (unsigned i = 0; i < n && !errors; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString text = clang_getDiagnosticSpelling(d);
            const char *s = clang_getCString(text);
            size_t len = strlen(s), tail = strlen("file not found");
            errors = len < tail || strcmp(s + len - tail, "file not found") != 0;
            clang_disposeString(text);
        }
        clang_disposeDiagnostic(d);
    }
    return errors;
}

/* ------------------------------------------------------------------------------------------
 * The unit with the wait. */

/* Whether the launch's kernel may write through its parameter 'index' (no pointer to const). */
static int kernel_writes(CXCursor launch, unsigned index)
{
    CXCursor kernel = clang_getCursorReferenced(launch);
    if (ss_ast_is_null(kernel) || clang_Cursor_getNumArguments(kernel) <= (int)index)
        return 0;
    return writable_pointer(clang_getCursorType(clang_Cursor_getArgument(kernel, index)));
}

/* The declaration of a stream argument as written ('s'), or a null cursor. */
static CXCursor stream_decl(CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e)
                                                          : clang_getNullCursor();
}

unsigned ss_project_output_params(ss_check_ctx *ctx, CXCursor fn, CXCursor wait, const ss_api *api,
                                  char **words)
{
    *words = NULL;
    /* Errors may have dropped a statement between the launch and the wait. */
    if (has_errors(ctx->tu) || api->klass != SS_CLASS_STREAM_SYNC || api->stream_arg < 0 ||
        clang_Cursor_getNumArguments(wait) <= api->stream_arg)
        return 0;
    CXCursor body = ss_ast_body(fn);
    long at = statement_holding(body, wait);
    if (at < 1 || !ss_context_is_wait(ss_ast_child(body, (unsigned)at)))
        return 0;
    /* The statement right before the wait is the launch, on the stream waited for. */
    CXCursor launch = ss_ast_strip(ss_ast_child(body, (unsigned)at - 1));
    if (clang_getCursorKind(launch) != CXCursor_CallExpr || !ss_scope_is_launch(launch))
        return 0;
    /* Its configuration and arguments call only the system's functions. */
    int escape = 0;
    clang_visitChildren(launch, find_escape, &escape);
    if (escape)
        return 0;
    CXCursor stream = stream_decl(ss_check_stream_arg(launch, NULL));
    if (ss_ast_is_null(stream) ||
        !clang_equalCursors(stream,
                            stream_decl(clang_Cursor_getArgument(wait, (unsigned)api->stream_arg))))
        return 0;
    /* The launch is the function's only device work: nothing else, on any stream, before or
     * after it, and no call that lint cannot see into. */
    ss_callgraph *graph = ss_check_graph(ctx);
    for (unsigned i = 0; i < ss_ast_child_count(body); i++) {
        if (i + 1 != (unsigned)at && ss_context_queues_work(graph, ss_ast_child(body, i)))
            return 0;
    }
    unsigned outputs = 0;
    int n = clang_Cursor_getNumArguments(launch);
    for (int i = 0; i < n; i++) {
        CXCursor param = named_whole(clang_Cursor_getArgument(launch, (unsigned)i));
        int index = clang_getCursorKind(param) == CXCursor_ParmDecl ? param_index(fn, param) : -1;
        if (index < 0 || index >= 32 || !kernel_writes(launch, (unsigned)i) ||
            !writable_pointer(clang_getCursorType(param)) || times_named(body, param) != 1)
            continue;
        if (outputs == 0) {
            char *kernel = ss_scope_kernel_name(launch);
            CXString name = clang_getCursorSpelling(param);
            *words = ss_xasprintf("kernel '%s' launched at line %u writes through '%s'",
                                  kernel ? kernel : "...", ss_scope_line(launch),
                                  clang_getCString(name));
            clang_disposeString(name);
            free(kernel);
        }
        outputs |= 1u << index;
    }
    return outputs;
}

/* ------------------------------------------------------------------------------------------
 * The units with the calls. */

typedef struct output_walk {
    ss_check_ctx *ctx;
    ss_project_facts *facts;
    CXCursor function; /* the function the walk is in (not a lambda) */
    int in_lambda;
} output_walk;

/* Whether 'c' holds a call. */
static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    *(int *)data = clang_getCursorKind(c) == CXCursor_CallExpr;
    return *(int *)data ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the statements after the statement 'index' of the body 'body' only return, calling
 * nothing. */
static int returns_after(CXCursor body, unsigned index)
{
    for (unsigned i = index + 1; i < ss_ast_child_count(body); i++) {
        CXCursor s = ss_ast_child(body, i);
        int call = 0;
        ss_ast_visit_whole(s, s, find_call, &call);
        if (clang_getCursorKind(s) != CXCursor_ReturnStmt || call)
            return 0;
    }
    return 1;
}

/* The USR of 'function' (malloc'ed) when its call 'call' passes its parameter 'param' on
 * straight ('*via_param' its index): the argument names the parameter and nothing else in the
 * function does, and the call is a statement of the body ('f(p);' or 'return f(p);') after
 * which the function only returns. Else NULL. */
static char *passes_on(CXCursor function, CXCursor call, CXCursor param, unsigned *via_param)
{
    int index = param_index(function, param);
    CXCursor body = ss_ast_body(function);
    long at = index < 0 ? -1 : statement_holding(body, call);
    if (at < 0)
        return NULL;
    CXCursor stmt = ss_ast_child(body, (unsigned)at);
    if (clang_getCursorKind(stmt) == CXCursor_ReturnStmt && ss_ast_child_count(stmt) == 1)
        stmt = ss_ast_child(stmt, 0);
    if (!ss_ast_same_node(ss_ast_strip(stmt), call) || times_named(body, param) != 1 ||
        !returns_after(body, (unsigned)at))
        return NULL;
    *via_param = (unsigned)index;
    return ss_project_stream_param_usr(function);
}

/* Whether no other unit can store into the field 'field': it is private, and its class has no
 * friend and defines every function it declares in this unit. */
static enum CXChildVisitResult find_open(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    int open = k == CXCursor_FriendDecl;
    if (k == CXCursor_CXXMethod || k == CXCursor_Constructor || k == CXCursor_Destructor ||
        k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate)
        open = ss_ast_is_null(clang_getCursorDefinition(c));
    *(int *)data = open;
    return open ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int closed_field(CXCursor field)
{
    if (clang_getCXXAccessSpecifier(field) != CX_CXXPrivate)
        return 0;
    CXCursor record = clang_getCursorDefinition(clang_getCursorSemanticParent(field));
    int open = ss_ast_is_null(record);
    if (!open)
        clang_visitChildren(record, find_open, &open);
    return !open;
}

/* Whether 'decl', memory the unit pins, is the unit's alone: a local variable of 'function',
 * a variable of internal linkage, or a closed field. */
static int own_memory(CXCursor function, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k == CXCursor_FieldDecl)
        return closed_field(decl);
    if (k != CXCursor_VarDecl)
        return 0;
    return clang_equalCursors(clang_getCursorSemanticParent(decl), function) ||
           clang_getCursorLinkage(decl) == CXLinkage_Internal;
}

/* Whether the statement 'stmt', between the call and the read, lets the host go on to the read
 * with no device work in between: a wait (for the device or a stream; error checks), or a
 * declaration or expression that queues nothing, leaves nothing and calls only the system's
 * functions. */
static int clean_between(ss_callgraph *graph, CXCursor stmt)
{
    if (ss_context_is_wait(stmt))
        return 1;
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k != CXCursor_DeclStmt && !clang_isExpression(k))
        return 0;
    int escape = 0;
    ss_ast_visit_whole(stmt, stmt, find_escape, &escape);
    return !escape && !ss_context_queues_work(graph, stmt);
}

/* Whether the stripped expression 'e' names 'decl' of the object the function works on: a
 * variable, or a field of 'this' ('h_', 'this->h_'; not 'other.h_'). */
static int is_name_of(CXCursor e, CXCursor decl)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if ((k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) ||
        !clang_equalCursors(clang_getCursorReferenced(e), decl))
        return 0;
    if (k == CXCursor_DeclRefExpr || ss_ast_child_count(e) == 0)
        return 1;
    return clang_getCursorKind(ss_ast_strip(ss_ast_child(e, 0))) == CXCursor_CXXThisExpr;
}

/* How a statement uses the pointer 'decl': through it ('*p', 'p[i]', 'p->x', a local pointer
 * initialized to 'p + i' and read through, given to a host function of the system as a pointer
 * to const), or in a way that is no read of the memory, or a read that may not run (an
 * assignment to it or through it, '&p', 'p++', given to a CUDA call or as a pointer to non-const
 * or a reference, under 'sizeof', in an arm of '?:' or the right of '&&' and '||'). */
enum { MAX_ALIASES = 8 };
typedef struct use_walk {
    CXCursor decl;
    CXCursor alias[MAX_ALIASES]; /* locals initialized to 'decl + i' */
    unsigned aliases;
    int through, other;
} use_walk;

/* Whether 'e' names the pointer or one of its aliases. */
static int names_pointer(const use_walk *w, CXCursor e)
{
    if (is_name_of(e, w->decl))
        return 1;
    for (unsigned i = 0; i < w->aliases; i++) {
        if (is_name_of(e, w->alias[i]))
            return 1;
    }
    return 0;
}

/* Whether 'e' goes through the pointer: 'p[i]', '*p', 'p->x' (of the pointer or an alias). */
static int deref_of(const use_walk *w, CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (ss_ast_child_count(e) == 0)
        return 0;
    CXCursor first = ss_ast_child(e, 0);
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr)
        return names_pointer(w, first);
    if (k == CXCursor_UnaryOperator && names_pointer(w, first)) {
        char *text = ss_expr_text(e);
        int star = text && text[0] == '*';
        free(text);
        return star;
    }
    return 0;
}

static enum CXChildVisitResult find_use(CXCursor c, CXCursor parent, CXClientData data);

/* Whether the subtree 'c' names the pointer or an alias anywhere (by declaration, whatever
 * the object: a mention is no read, so the looser match only keeps more warnings). */
static int mentions(const use_walk *w, CXCursor c)
{
    int found = names_pointer(w, c) || ss_context_mentions(c, w->decl);
    for (unsigned i = 0; i < w->aliases && !found; i++)
        found = ss_context_mentions(c, w->alias[i]);
    return found;
}

/* An operator's use: 'p = ...', 'p[i] = ...', 'p++', '&p', 'p + i' outside an alias's
 * initializer; a read that may not run ('c ? p[0] : 0', 'a && p[0]'). Returns whether the
 * operands were judged here (not to be visited again). */
static int operator_use(use_walk *w, CXCursor c, enum CXCursorKind k)
{
    char op[8] = "";
    CXCursor first = ss_ast_child_count(c) > 0 ? ss_ast_child(c, 0) : clang_getNullCursor();
    if (k == CXCursor_ConditionalOperator) {
        for (unsigned i = 1; i < ss_ast_child_count(c); i++)
            w->other |= mentions(w, ss_ast_child(c, i));
        ss_ast_visit_whole(first, first, find_use, w);
        return 1;
    }
    if (k == CXCursor_UnaryExpr) { /* sizeof, alignof: not evaluated */
        w->other |= mentions(w, c);
        return 1;
    }
    if (k == CXCursor_UnaryOperator && names_pointer(w, first)) {
        char *text = ss_expr_text(c);
        if (text && text[0] == '*')
            w->through = 1;
        else
            w->other = 1; /* '&p', 'p++' */
        free(text);
    } else if (k == CXCursor_UnaryOperator && deref_of(w, first)) {
        w->other = 1; /* '++p[0]', '&p[0]' */
    } else if (k == CXCursor_CompoundAssignOperator &&
               (names_pointer(w, first) || deref_of(w, first))) {
        w->other = 1;
    } else if (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0) {
        if (strcmp(op, "=") == 0 && (names_pointer(w, first) || deref_of(w, first))) {
            w->other = 1;
        } else if ((strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) && ss_ast_child_count(c) > 1) {
            ss_ast_visit_whole(first, first, find_use, w);
            w->other |= mentions(w, ss_ast_child(c, 1));
            return 1;
        } else if ((strcmp(op, "+") == 0 || strcmp(op, "-") == 0) &&
                   (names_pointer(w, first) ||
                    (ss_ast_child_count(c) > 1 && names_pointer(w, ss_ast_child(c, 1))))) {
            /* 'p + i' as an alias's initializer is seen at the alias; elsewhere no read */
            w->other = 1;
        }
    }
    return 0;
}

/* A call's use: the pointer given to a host function of the system as a pointer to const is a
 * read; given otherwise (to a CUDA call, to the project's function, by reference, to a pointer
 * to non-const, to a variadic one), no read. */
static void call_use(use_walk *w, CXCursor c)
{
    int n = clang_Cursor_getNumArguments(c), given = -1;
    for (int i = 0; i < n && given < 0; i++) {
        if (names_pointer(w, clang_Cursor_getArgument(c, (unsigned)i)))
            given = i;
    }
    if (given < 0)
        return;
    CXCursor callee = clang_getCursorReferenced(c);
    CXType type = clang_getCursorType(callee);
    int reads = ss_scope_callee_api(c) == NULL && !ss_ast_is_null(callee) &&
                ss_ast_in_system_header(callee) && !clang_isFunctionTypeVariadic(type) &&
                given < clang_getNumArgTypes(type);
    if (reads) {
        CXType t = clang_getCanonicalType(clang_getArgType(type, (unsigned)given));
        reads = t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
    }
    if (reads)
        w->through = 1;
    else
        w->other = 1;
}

/* A local pointer initialized to 'p + i' or 'p - i' becomes an alias: reads through it count. */
static int alias_decl(use_walk *w, CXCursor c)
{
    unsigned n = ss_ast_child_count(c);
    CXCursor init = n > 0 ? ss_ast_strip(ss_ast_child(c, n - 1)) : clang_getNullCursor();
    char op[8] = "";
    if (clang_getCursorKind(init) != CXCursor_BinaryOperator ||
        ss_ast_binary_op(init, op, sizeof op) != 0 ||
        (strcmp(op, "+") != 0 && strcmp(op, "-") != 0) ||
        !names_pointer(w, ss_ast_child(init, 0)) || w->aliases == MAX_ALIASES)
        return 0;
    CXCursor rest = ss_ast_child(init, 1);
    w->other |= mentions(w, rest);
    w->alias[w->aliases++] = c;
    return 1;
}

static enum CXChildVisitResult find_use(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    use_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_VarDecl && alias_decl(w, c))
        return CXChildVisit_Continue;
    if ((k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr) && deref_of(w, c))
        w->through = 1;
    if (operator_use(w, c, k))
        return CXChildVisit_Continue;
    if (k == CXCursor_CallExpr)
        call_use(w, c);
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' reads the memory 'decl' points to, and does nothing else with the pointer. */
static int reads_through(CXCursor stmt, CXCursor decl)
{
    use_walk w;
    memset(&w, 0, sizeof w);
    w.decl = decl;
    ss_ast_visit_whole(stmt, stmt, find_use, &w);
    return w.through && !w.other;
}

/* How the statement 'stmt', the first after the call to name 'decl', reads the memory, in words
 * ("walks 'h' in a loop", "branches on 'h'", "reads 'h'"), malloc'ed; NULL when it may not: a
 * loop that reads through it, an 'if' whose condition does (no init-statement, no condition
 * variable), or a declaration or expression that does (no lambda, no way out); none of them
 * storing into the pointer or taking its address, and none but the 'if' queueing device work
 * (a loop that queues work may do so before it reads). */
static char *read_form(ss_callgraph *graph, CXCursor stmt, CXCursor decl)
{
    CXString spelled = clang_getCursorSpelling(decl);
    const char *name = clang_getCString(spelled);
    enum CXCursorKind k = clang_getCursorKind(stmt);
    char *words = NULL;
    int escape = 0;
    if (!reads_through(stmt, decl) || (k != CXCursor_IfStmt && ss_context_queues_work(graph, stmt)))
        words = NULL;
    else if (ss_scope_is_loop(stmt))
        words = ss_xasprintf("walks '%s' in a loop", name);
    else if (k == CXCursor_IfStmt && ss_ast_if_condition(stmt) == 0 &&
             ss_ast_child_count(stmt) > 0 && reads_through(ss_ast_child(stmt, 0), decl))
        words = ss_xasprintf("branches on '%s'", name);
    else if (k == CXCursor_DeclStmt || clang_isExpression(k)) {
        ss_ast_visit_whole(stmt, stmt, find_escape, &escape);
        words = escape ? NULL : ss_xasprintf("reads '%s'", name);
    }
    clang_disposeString(spelled);
    return words;
}

/* The words of a reader ("'App::run()' calls 'decode()' at main.cpp:9 with 'h', pinned host
 * memory, and line 10 branches on it") when the call 'call' of 'callee' in 'function' gives its
 * argument 'arg' memory the unit pins and alone can store into, and the host reads it before any
 * other device work: the call is a statement of its block, and after it, up to MAX_READ_AFTER
 * statements that are waits or queue nothing (clean_between), the first statement that names
 * the memory reads it (read_form). Else NULL. */
static char *reads_after(ss_check_ctx *ctx, CXCursor function, CXCursor call, CXCursor callee,
                         CXCursor arg)
{
    CXCursor decl = named_whole(arg);
    /* The memory of the object the function works on ('h_', 'this->h_', a variable), which the
     * reads after name the same way ('other.h_' is another object's). */
    if (ss_ast_is_null(decl) || !is_name_of(arg, decl) || !own_memory(function, decl) ||
        !clang_equalCursors(ss_context_pinned_memory(ctx, function, arg), decl))
        return NULL;
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(function, call, stmts, 256, &index);
    if (n == 0 || !ss_ast_same_node(ss_ast_strip(stmts[index]), call))
        return NULL;
    ss_callgraph *graph = ss_check_graph(ctx);
    for (unsigned s = index + 1; s < n && s <= index + MAX_READ_AFTER; s++) {
        if (times_named(stmts[s], decl) == 0) {
            if (!clean_between(graph, stmts[s]))
                return NULL;
            continue;
        }
        char *form = read_form(graph, stmts[s], decl);
        if (form == NULL)
            return NULL;
        char *caller = ss_qualified_name(function), *name = ss_qualified_name(callee);
        char *place = ss_callgraph_place(call);
        CXString memory = clang_getCursorSpelling(decl);
        char *words = ss_xasprintf("'%s()' calls '%s()' at %s with '%s', pinned host memory, "
                                   "and line %u %s",
                                   caller ? caller : "?", name ? name : "?", place,
                                   clang_getCString(memory), ss_scope_line(stmts[s]), form);
        clang_disposeString(memory);
        free(caller);
        free(name);
        free(place);
        free(form);
        return words;
    }
    return NULL;
}

static ss_output_arg *add_output(ss_project_facts *facts, const char *usr, unsigned param)
{
    ss_output_arg *o = ss_xpush((void **)&facts->outputs, &facts->output_cap, &facts->output_count,
                                sizeof *facts->outputs);
    o->usr = ss_xstrdup(usr);
    o->param = param;
    return o;
}

/* Adds 'name' (taken) to the unit's loose calls, once. */
static void add_loose(ss_project_facts *f, char *name)
{
    for (size_t i = 0; i < f->loose_count; i++) {
        if (strcmp(f->loose[i], name) == 0) {
            free(name);
            return;
        }
    }
    ss_xgrow((void **)&f->loose, &f->loose_cap, f->loose_count + 1, sizeof *f->loose);
    f->loose[f->loose_count++] = name;
}

/* A call that no project function's USR stands for, by its name: its callee left unresolved,
 * or a function of a system header (not of namespace std, not a CUDA API) that takes an
 * argument: a project's function declared in a header given with -isystem is one. */
static void record_loose(output_walk *w, CXCursor call, CXCursor callee)
{
    CXString s = clang_getCursorSpelling(call);
    const char *name = clang_getCString(s);
    if ((name == NULL || name[0] == '\0') && ss_ast_child_count(call) > 0) {
        /* an unresolved callee: the name its reference (or the overload set under it) spells */
        CXCursor ref = ss_ast_strip(ss_ast_child(call, 0));
        for (unsigned i = 0; i < ss_ast_child_count(ref); i++) {
            if (clang_getCursorKind(ss_ast_child(ref, i)) == CXCursor_OverloadedDeclRef)
                ref = ss_ast_child(ref, i);
        }
        clang_disposeString(s);
        s = clang_getCursorSpelling(ref);
        name = clang_getCString(s);
    }
    int keep = name && name[0] && ss_ast_child_count(call) > 1;
    if (keep && !ss_ast_is_null(callee)) {
        char *usr = ss_ast_usr(callee);
        keep = ss_ast_in_system_header(callee) && ss_scope_callee_api(call) == NULL &&
               !(usr && strncmp(usr, "c:@N@std@", 9) == 0);
        free(usr);
    }
    if (keep)
        add_loose(w->facts, ss_xstrdup(name));
    clang_disposeString(s);
}

/* A call of a function of the project: each pointer parameter it may write through, with what
 * the caller does with its argument. */
static void record_call(output_walk *w, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    char *usr = ss_project_function_usr(callee);
    if (usr == NULL) {
        record_loose(w, call, callee);
        return;
    }
    int params = clang_Cursor_getNumArguments(callee);
    if (params < 0 || clang_Cursor_getNumArguments(call) != params ||
        clang_Cursor_isVariadic(callee)) {
        add_output(w->facts, usr, SS_OUTPUT_ANY);
        free(usr);
        return;
    }
    int judged = !w->facts->unjudged && !w->in_lambda && !ss_ast_is_null(w->function);
    /* A function of C linkage keeps its USR whatever the types another unit declares it with
     * ('const void *' for 'unsigned *'): each of its parameters is recorded. */
    int c_linkage = strncmp(usr, "c:@F@", 5) == 0;
    for (int i = 0; i < params; i++) {
        CXType t = clang_getCanonicalType(
            clang_getCursorType(clang_Cursor_getArgument(callee, (unsigned)i)));
        if (t.kind != CXType_Pointer && !c_linkage)
            continue;
        ss_output_arg *o = add_output(w->facts, usr, (unsigned)i);
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        CXCursor named = named_whole(arg);
        if (!judged)
            continue;
        if (clang_getCursorKind(named) == CXCursor_ParmDecl)
            o->via = passes_on(w->function, call, named, &o->via_param);
        else
            o->reader = reads_after(w->ctx, w->function, call, callee, arg);
    }
    free(usr);
}

/* A declaration, in a unit that cannot be judged, of a function of the project: its USR in
 * 'declared'. */
static void record_declared(output_walk *w, CXCursor c)
{
    char *usr = clang_Cursor_getNumArguments(c) != 0 ? ss_project_function_usr(c) : NULL;
    if (usr == NULL)
        return;
    ss_project_facts *f = w->facts;
    ss_xgrow((void **)&f->declared, &f->declared_cap, f->declared_count + 1, sizeof *f->declared);
    f->declared[f->declared_count++] = usr;
}

static enum CXChildVisitResult find_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    output_walk *w = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (w->facts->unjudged && (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
                               k == CXCursor_Constructor || k == CXCursor_FunctionTemplate))
        record_declared(w, c);
    if (ss_ast_is_function(c) && ss_ast_is_device_only(c))
        return CXChildVisit_Continue;
    if (ss_ast_is_function(c)) {
        CXCursor outer = w->function;
        int outer_lambda = w->in_lambda;
        if (k == CXCursor_LambdaExpr)
            w->in_lambda = 1;
        else
            w->function = c;
        clang_visitChildren(c, find_calls, w);
        w->function = outer;
        w->in_lambda = outer_lambda;
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_CallExpr)
        record_call(w, c);
    return CXChildVisit_Recurse;
}

void ss_project_record_outputs(ss_check_ctx *ctx, ss_project_facts *facts)
{
    facts->outputs_known = 1;
    facts->unjudged = has_errors(ctx->tu);
    output_walk w = {ctx, facts, clang_getNullCursor(), 0};
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_calls, &w);
}

/* ------------------------------------------------------------------------------------------
 * The project pass. */

int ss_project_called_unseen(ss_project_facts *const *facts, size_t count, const char *usr)
{
    /* The function's name, after the USR's last "@F@" ("c:@S@Post@F@decode#*I#" is 'decode'):
     * a loose call of that name may be one of it. */
    const char *at = NULL;
    for (const char *p = strstr(usr, "@F@"); p != NULL; p = strstr(p + 1, "@F@"))
        at = p + 3;
    if (at == NULL)
        return 1;
    size_t len = strcspn(at, "#");
    for (size_t u = 0; u < count; u++) {
        if (facts[u] == NULL || !facts[u]->outputs_known)
            return 1;
        for (size_t i = 0; i < facts[u]->loose_count; i++) {
            if (strlen(facts[u]->loose[i]) == len && strncmp(facts[u]->loose[i], at, len) == 0)
                return 1;
        }
        for (size_t i = 0; i < facts[u]->arg_count; i++) {
            const ss_stream_arg *a = &facts[u]->args[i];
            if ((a->param == UINT_MAX || a->param == SS_STREAM_NAMED) && strcmp(a->usr, usr) == 0)
                return 1;
        }
        for (size_t i = 0; facts[u]->unjudged && i < facts[u]->declared_count; i++) {
            if (strcmp(facts[u]->declared[i], usr) == 0)
                return 1;
        }
    }
    return 0;
}

/* Whether every call of 'usr' in the project (one at least) gives its parameter 'param' memory
 * that its caller reads right after, or a parameter of a function that passes it straight on and
 * whose every call does so in turn (up to MAX_FORWARDS). The first reader's words in '*reader'
 * (borrowed). */
static int every_call_reads(ss_project_facts *const *facts, size_t count, const char *usr,
                            unsigned param, int depth, const char **reader)
{
    if (depth > MAX_FORWARDS || ss_project_called_unseen(facts, count, usr))
        return 0;
    size_t calls = 0;
    for (size_t u = 0; u < count; u++) {
        for (size_t i = 0; i < facts[u]->output_count; i++) {
            const ss_output_arg *o = &facts[u]->outputs[i];
            if (strcmp(o->usr, usr) != 0 || (o->param != param && o->param != SS_OUTPUT_ANY))
                continue;
            calls++;
            if (o->reader) {
                *reader = *reader ? *reader : o->reader;
                continue;
            }
            if (o->via == NULL ||
                !every_call_reads(facts, count, o->via, o->via_param, depth + 1, reader))
                return 0;
        }
    }
    return calls > 0;
}

char *ss_project_outputs_read(ss_project_facts *const *facts, size_t count, const char *usr,
                              unsigned outputs, const char *words, unsigned scope)
{
    if (!(scope & SS_PROJECT_COMPLETE))
        return NULL;
    for (unsigned k = 0; k < 32; k++) {
        const char *reader = NULL;
        if ((outputs >> k & 1u) && every_call_reads(facts, count, usr, k, 0, &reader) && reader)
            return ss_xasprintf("inherent: %s, and every caller in the project reads what it "
                                "wrote right after the call, before any other device work (%s): "
                                "the host needs the kernel's output next",
                                words ? words : "its kernel writes through a parameter", reader);
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------------
 * Freeing, and the cache's form. */

void ss_project_outputs_free(ss_project_facts *facts)
{
    for (size_t i = 0; i < facts->output_count; i++) {
        free(facts->outputs[i].usr);
        free(facts->outputs[i].via);
        free(facts->outputs[i].reader);
    }
    free(facts->outputs);
    for (size_t i = 0; i < facts->declared_count; i++)
        free(facts->declared[i]);
    free(facts->declared);
    for (size_t i = 0; i < facts->loose_count; i++)
        free(facts->loose[i]);
    free(facts->loose);
}

void ss_project_outputs_encode(const ss_project_facts *facts, cJSON *o)
{
    if (!facts->outputs_known)
        return;
    cJSON *outputs = cJSON_AddArrayToObject(o, "outputs");
    for (size_t i = 0; i < facts->output_count; i++) {
        const ss_output_arg *a = &facts->outputs[i];
        cJSON *item = cJSON_CreateObject();
        ss_cache_add_string(item, "usr", a->usr);
        cJSON_AddNumberToObject(item, "param", a->param);
        ss_cache_add_string(item, "via", a->via);
        cJSON_AddNumberToObject(item, "viaParam", a->via_param);
        ss_cache_add_string(item, "reader", a->reader);
        cJSON_AddItemToArray(outputs, item);
    }
    cJSON_AddBoolToObject(o, "unjudged", facts->unjudged);
    cJSON *declared = cJSON_AddArrayToObject(o, "declared");
    for (size_t i = 0; i < facts->declared_count; i++)
        cJSON_AddItemToArray(declared, cJSON_CreateString(facts->declared[i]));
    cJSON *loose = cJSON_AddArrayToObject(o, "loose");
    for (size_t i = 0; i < facts->loose_count; i++)
        cJSON_AddItemToArray(loose, cJSON_CreateString(facts->loose[i]));
}

/* A string member of 'o', copied, or NULL. */
static char *copied(const cJSON *o, const char *name, int *bad)
{
    const char *s = ss_cache_get_string(o, name, bad);
    return s ? ss_xstrdup(s) : NULL;
}

/* A number member of 'o' as an unsigned ('*bad' set when it is not one). */
static unsigned number(const cJSON *o, const char *name, int *bad)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(n) || n->valuedouble < 0 || n->valuedouble > (double)UINT_MAX) {
        *bad = 1;
        return 0;
    }
    return (unsigned)n->valuedouble;
}

void ss_project_outputs_decode(const cJSON *o, ss_project_facts *facts, int *bad)
{
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(o, "outputs");
    const cJSON *declared = cJSON_GetObjectItemCaseSensitive(o, "declared"), *item;
    const cJSON *loose = cJSON_GetObjectItemCaseSensitive(o, "loose");
    if (outputs == NULL || loose == NULL)
        return; /* an entry written before: its calls are not known */
    if (!cJSON_IsArray(outputs) || !cJSON_IsArray(declared) || !cJSON_IsArray(loose)) {
        *bad = 1;
        return;
    }
    facts->outputs_known = 1;
    facts->unjudged = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "unjudged"));
    cJSON_ArrayForEach(item, outputs)
    {
        const char *usr = ss_cache_get_string(item, "usr", bad);
        if (usr == NULL || *bad) {
            *bad = 1;
            return;
        }
        ss_output_arg *a = add_output(facts, usr, number(item, "param", bad));
        a->via = copied(item, "via", bad);
        a->via_param = number(item, "viaParam", bad);
        a->reader = copied(item, "reader", bad);
    }
    cJSON_ArrayForEach(item, declared)
    {
        if (!cJSON_IsString(item)) {
            *bad = 1;
            return;
        }
        ss_xgrow((void **)&facts->declared, &facts->declared_cap, facts->declared_count + 1,
                 sizeof *facts->declared);
        facts->declared[facts->declared_count++] = ss_xstrdup(item->valuestring);
    }
    cJSON_ArrayForEach(item, loose)
    {
        if (!cJSON_IsString(item)) {
            *bad = 1;
            return;
        }
        add_loose(facts, ss_xstrdup(item->valuestring));
    }
}
