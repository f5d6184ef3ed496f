/* frees.c: which frees wait for nothing and which surely wait for the whole device, as
 * measured (docs/studies/validation.md, 2026-12-06 23:40): 'cudaFree' of memory from
 * 'cudaMalloc', 'cudaFreeArray' and 'cudaFreeHost' wait; a free of a null pointer and
 * 'cudaFree' of stream-ordered memory ('cudaMallocAsync', 'cudaMallocFromPoolAsync') do not
 * (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one write of a variable is. */
typedef enum write_kind {
    WRITE_NONE,
    WRITE_ORDERED, /* the out-argument of a stream-ordered allocation ('cudaMallocAsync') */
    WRITE_ALLOC,   /* '&var' as another call's first argument or an API's out-argument */
    WRITE_INIT,    /* an initializer other than a null constant */
    WRITE_OTHER    /* '=', '++', '&var' elsewhere, a reference argument or binding */
} write_kind;

/* The writes of one local variable in a function: how many, how many are stream-ordered
 * allocations, and the kind, the cursor and the callee of the last. */
typedef struct var_writes {
    CXCursor var;
    unsigned count, ordered;
    unsigned after; /* a null constant stored from this offset on is not counted (writes_after) */
    CXCursor nulled[8]; /* the variable as such stores name it */
    unsigned nulled_count;
    write_kind kind;
    CXCursor at; /* the call of an out-argument, the variable (its initializer), the write */
    char callee[40];
    CXCursor taken[32]; /* the '&var' of the out-arguments counted */
    unsigned taken_count;
} var_writes;

/* Whether 'e' is a null pointer constant as written ('0', 'NULL', 'nullptr', '(void *)0'). */
static int null_literal(CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    long long value = 1;
    return k == CXCursor_CXXNullPtrLiteralExpr || k == CXCursor_GNUNullExpr ||
           (ss_ast_eval_int(e, &value) == 0 && value == 0);
}

/* Whether 'e' is a unary operator written starting with 'op'. Returns 1 or 0. */
static int unary_is(CXCursor e, char op)
{
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator || ss_ast_child_count(e) != 1)
        return 0;
    char *text = ss_expr_text(e);
    int is = text && text[0] == op;
    free(text);
    return is;
}

/* Whether 'e' names the variable 'var' (through parentheses and casts). */
static int names(CXCursor e, CXCursor var)
{
    e = ss_ast_strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(e), var);
}

static void add_write(var_writes *w, write_kind kind, CXCursor at)
{
    w->count++;
    w->ordered += kind == WRITE_ORDERED;
    w->kind = kind;
    w->at = at;
}

/* The call 'c' where it writes w->var through an out-argument '&var' (an API's out-argument,
 * else its first): a stream-ordered allocation's (an ALLOC row that never synchronizes:
 * WRITE_ORDERED), or another's (WRITE_ALLOC, the callee named). */
static void call_write(var_writes *w, CXCursor c)
{
    const ss_api *api = ss_scope_callee_api(c);
    int out = api && api->dst_arg >= 0 ? api->dst_arg : 0;
    if (clang_Cursor_getNumArguments(c) <= out)
        return;
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(c, (unsigned)out));
    if (!unary_is(arg, '&') || !names(ss_ast_child(arg, 0), w->var) || w->taken_count >= 32)
        return;
    w->taken[w->taken_count++] = arg;
    int ordered = api && (api->klass == SS_CLASS_ALLOC || api->klass == SS_CLASS_MANAGED_ALLOC) &&
                  api->sync == SS_SYNC_NEVER;
    add_write(w, ordered ? WRITE_ORDERED : WRITE_ALLOC, c);
    char *name = ordered ? NULL : ss_scope_callee_name(c);
    snprintf(w->callee, sizeof w->callee, "%s", name ? name : "");
    free(name);
}

/* Each write of w->var: the variable named other than as a value (its parent an implicit
 * conversion) is written, its address taken or bound to a reference (WRITE_OTHER), but for
 * the out-arguments call_write counts. */
static enum CXChildVisitResult find_writes(CXCursor c, CXCursor parent, CXClientData data)
{
    var_writes *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr)
        call_write(w, c);
    /* 'var = <null>' from w->after on: a binary operator of a pointer type (an assignment; a
     * comparison is a bool), read so because a macro's operator token may not be at hand. */
    if (w->after && k == CXCursor_BinaryOperator && w->nulled_count < 8 &&
        ss_ast_offset(c) >= w->after &&
        clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer &&
        names(ss_ast_child(c, 0), w->var) && null_literal(ss_ast_child(c, 1)))
        w->nulled[w->nulled_count++] = ss_ast_strip(ss_ast_child(c, 0));
    if (k != CXCursor_DeclRefExpr || !clang_equalCursors(clang_getCursorReferenced(c), w->var) ||
        clang_getCursorKind(parent) == CXCursor_UnexposedExpr)
        return CXChildVisit_Recurse;
    for (unsigned i = 0; i < w->taken_count; i++) {
        if (ss_ast_same_node(parent, w->taken[i]))
            return CXChildVisit_Recurse;
    }
    for (unsigned i = 0; i < w->nulled_count; i++) {
        if (ss_ast_same_node(c, w->nulled[i]))
            return CXChildVisit_Recurse; /* 'p = nullptr;' after the free */
    }
    add_write(w, WRITE_OTHER, c);
    return CXChildVisit_Recurse;
}

/* The variable's initializer, or a null cursor where it has none. */
static CXCursor initializer(CXCursor var)
{
    for (unsigned i = 0, n = ss_ast_child_count(var); i < n; i++) {
        CXCursor c = ss_ast_child(var, i);
        if (clang_isExpression(clang_getCursorKind(c)))
            return c;
    }
    return clang_getNullCursor();
}

/* The writes of the local variable 'var' in the named function around 'function': its
 * initializer other than a null constant, and find_writes's; with 'after' not 0, a null
 * constant stored at or past that offset (a free there: 'cudaFree(p); p = nullptr;', also in
 * one macro) is not counted. */
static var_writes writes_after(CXCursor function, CXCursor var, unsigned after)
{
    var_writes w;
    memset(&w, 0, sizeof w);
    w.var = var;
    w.after = after;
    CXCursor init = initializer(var);
    if (!ss_ast_is_null(init) && !null_literal(init))
        add_write(&w, WRITE_INIT, var);
    clang_visitChildren(ss_scope_outer_function(function), find_writes, &w);
    return w;
}

static var_writes writes_of(CXCursor function, CXCursor var)
{
    return writes_after(function, var, 0);
}

/* The local variable (not a parameter, a global, a member, an element, a reference) that the
 * pointer argument 'e' names, through parentheses and casts; a null cursor for anything
 * else. */
static CXCursor local_variable(CXCursor e)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor var = clang_getCursorReferenced(e);
    enum CXTypeKind t = clang_getCursorType(var).kind;
    if (clang_getCursorKind(var) != CXCursor_VarDecl ||
        clang_getCursorLinkage(var) != CXLinkage_NoLinkage || t == CXType_LValueReference ||
        t == CXType_RValueReference)
        return clang_getNullCursor();
    return var;
}

/* The free's pointer argument, or a null cursor where 'call' is no call of 'api' with one. */
static CXCursor freed_argument(CXCursor call, const ss_api *api)
{
    if (api == NULL || api->dst_arg < 0 || clang_Cursor_getNumArguments(call) <= api->dst_arg)
        return clang_getNullCursor();
    return clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
}

/* Whether 'api' is cudaFree, cudaFreeArray or cudaFreeHost. */
static int runtime_free(const ss_api *api)
{
    return api && (api->api == SS_API_cudaFree || api->api == SS_API_cudaFreeArray ||
                   api->api == SS_API_cudaFreeHost);
}

int ss_context_free_waits_for_nothing(CXCursor function, CXCursor call)
{
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor arg = freed_argument(call, api);
    if (ss_ast_is_null(arg) || !runtime_free(api))
        return 0;
    if (null_literal(arg))
        return 1;
    CXCursor var = local_variable(arg);
    if (api->api != SS_API_cudaFree || ss_ast_is_null(var))
        return 0;
    var_writes w = writes_of(function, var);
    return w.ordered > 0 && w.ordered == w.count;
}

/* Whether 'name' is an allocator that synchronizes and whose memory the free 'api' takes:
 * cudaMalloc, cudaMallocPitch for cudaFree; cudaMallocHost, cudaHostAlloc for cudaFreeHost;
 * cudaMallocArray, cudaMalloc3DArray for cudaFreeArray. */
static int matching_allocator(const ss_api *api, const char *name)
{
    if (api->api == SS_API_cudaFree)
        return strcmp(name, "cudaMalloc") == 0 || strcmp(name, "cudaMallocPitch") == 0;
    if (api->api == SS_API_cudaFreeHost)
        return strcmp(name, "cudaMallocHost") == 0 || strcmp(name, "cudaHostAlloc") == 0;
    return strcmp(name, "cudaMallocArray") == 0 || strcmp(name, "cudaMalloc3DArray") == 0;
}

/* A call that switches the current device or context, or a jump (goto) anywhere. */
static enum CXChildVisitResult find_switch(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt) {
        *found = 1;
        return CXChildVisit_Break;
    }
    *found = k == CXCursor_CallExpr && ss_switches_device(c);
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* A goto anywhere (find_switch without the switches). */
static enum CXChildVisitResult find_goto(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    *found = k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt;
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

int ss_context_switches_device(CXCursor function)
{
    int switches = 0;
    clang_visitChildren(ss_scope_outer_function(function), find_switch, &switches);
    return switches;
}

/* Whether the node 'c', on the way from a statement of a block down to a write, runs whenever
 * that statement runs: an expression part that is no '&&', '||' or '?:', a declaration, a
 * 'do { ... } while (0)' and its body. Returns 1 or 0. */
static int unconditional(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_CallExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_ParenExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_UnaryOperator:
    case CXCursor_CompoundAssignOperator:
    case CXCursor_DeclStmt:
    case CXCursor_VarDecl:
    case CXCursor_CompoundStmt: /* a block in a block ('{ check(cudaMalloc(...)); }') */
        return 1;
    case CXCursor_DoStmt:
        return ss_ast_do_once(c);
    case CXCursor_BinaryOperator: {
        char op[8];
        return ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "&&") != 0 &&
               strcmp(op, "||") != 0 && strcmp(op, ",") != 0;
    }
    default:
        return 0;
    }
}

/* A jump (break, continue, return, goto) in a 'do { ... } while (0)' before the write. */
typedef struct jump_walk {
    unsigned before;
    int found;
} jump_walk;

static enum CXChildVisitResult find_jump(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    jump_walk *j = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_ReturnStmt) &&
        ss_ast_offset(c) <= j->before) {
        j->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The index of the child 'c' of 'block', or the child count. */
static unsigned child_index(CXCursor block, CXCursor c)
{
    unsigned n = ss_ast_child_count(block), i = 0;
    while (i < n && !ss_ast_same_node(ss_ast_child(block, i), c))
        i++;
    return i;
}

/* Where a write runs whenever a wait runs: the block around both ('path' index 'depth - 1'
 * of the wait's path, a '{ ... }' no switch holds) and the statements of it that hold the
 * write and the wait, the write's before. */
typedef struct before_wait {
    CXCursor wait_path[SS_CONTEXT_MAX_PATH];
    long wait_depth;
    unsigned depth, write_index, wait_index;
} before_wait;

/* Whether the write 'write' (a call, or a variable's declaration) runs whenever the wait
 * 'wait' runs, in the named function 'top': a statement of a block around the wait, before
 * the wait's, holds it where it runs whenever that statement runs (unconditional; in an
 * 'if's condition; in a 'do { ... } while (0)', after no jump). '*where' receives the block.
 * Returns 1 or 0. */
static int runs_before(CXCursor top, CXCursor write, CXCursor wait, before_wait *where)
{
    CXCursor wp[SS_CONTEXT_MAX_PATH];
    long nw = ss_context_path(top, write, wp);
    where->wait_depth = ss_context_path(top, wait, where->wait_path);
    CXCursor *ap = where->wait_path;
    if (nw < 0 || nw >= SS_CONTEXT_MAX_PATH || where->wait_depth < 0 ||
        where->wait_depth >= SS_CONTEXT_MAX_PATH)
        return 0;
    wp[nw++] = write; /* the paths hold the nodes themselves */
    ap[where->wait_depth++] = wait;
    long m = 0;
    while (m < nw && m < where->wait_depth && ss_ast_same_node(wp[m], ap[m]))
        m++;
    if (m < 1 || m >= nw || m >= where->wait_depth ||
        clang_getCursorKind(ap[m - 1]) != CXCursor_CompoundStmt)
        return 0;
    for (long i = 0; i < where->wait_depth; i++) {
        if (clang_getCursorKind(ap[i]) == CXCursor_SwitchStmt)
            return 0;
    }
    for (long i = m; i < nw; i++) {
        int body = clang_getCursorKind(wp[i]) == CXCursor_CompoundStmt && i > m &&
                   clang_getCursorKind(wp[i - 1]) == CXCursor_DoStmt;
        int condition = clang_getCursorKind(wp[i]) == CXCursor_IfStmt && i + 1 < nw &&
                        child_index(wp[i], wp[i + 1]) == ss_ast_if_condition(wp[i]);
        if (!unconditional(wp[i]) && !body && !condition)
            return 0;
        jump_walk j = {ss_ast_offset(write), 0};
        if (body)
            clang_visitChildren(wp[i], find_jump, &j);
        if (j.found)
            return 0;
    }
    where->depth = (unsigned)m;
    where->write_index = child_index(ap[m - 1], wp[m]);
    where->wait_index = child_index(ap[m - 1], ap[m]);
    return where->write_index < where->wait_index;
}

/* A break, continue or goto: a branch that leaves by one may not leave the function. */
static enum CXChildVisitResult find_loop_jump(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    *found = k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt;
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the branch 'then' leaves the function: 'return ...;', or a block that ends so with no
 * break, continue or goto in it. Returns 1 or 0. */
static int branch_returns(CXCursor then)
{
    if (clang_getCursorKind(then) == CXCursor_CompoundStmt) {
        unsigned n = ss_ast_child_count(then);
        int jumps = 0;
        clang_visitChildren(then, find_loop_jump, &jumps);
        if (n == 0 || jumps)
            return 0;
        then = ss_ast_child(then, n - 1);
    }
    return clang_getCursorKind(then) == CXCursor_ReturnStmt;
}

/* Whether 's' is 'if (!var) { ...; return ...; }' or 'if (var == NULL) return ...;' (the
 * constant on either side): an 'if' that tests 'var' for null and then leaves the function.
 * Returns 1 or 0. */
static int leaves_if_null(CXCursor s, CXCursor var)
{
    unsigned ci = clang_getCursorKind(s) == CXCursor_IfStmt ? ss_ast_if_condition(s) : 0;
    if (clang_getCursorKind(s) != CXCursor_IfStmt || ci + 1 >= ss_ast_child_count(s))
        return 0;
    CXCursor cond = ss_ast_strip(ss_ast_child(s, ci)), then = ss_ast_child(s, ci + 1);
    char op[8];
    int tests = (unary_is(cond, '!') && names(ss_ast_child(cond, 0), var)) ||
                (clang_getCursorKind(cond) == CXCursor_BinaryOperator &&
                 ss_ast_binary_op(cond, op, sizeof op) == 0 && strcmp(op, "==") == 0 &&
                 ((names(ss_ast_child(cond, 0), var) && null_literal(ss_ast_child(cond, 1))) ||
                  (names(ss_ast_child(cond, 1), var) && null_literal(ss_ast_child(cond, 0)))));
    return tests && branch_returns(then);
}

/* Whether an 'if' that tests 'var' for null and leaves the function (leaves_if_null) runs
 * whenever the wait runs, after the write: a statement of a block on the wait's path
 * ('where', runs_before), before the wait's statement there and, in the write's block, after
 * the write's. Returns 1 or 0. */
static int tested_before(const before_wait *where, CXCursor var)
{
    for (long d = where->depth - 1; d + 1 < where->wait_depth; d++) {
        CXCursor block = where->wait_path[d];
        if (clang_getCursorKind(block) != CXCursor_CompoundStmt)
            continue;
        unsigned from = d == (long)where->depth - 1 ? where->write_index + 1 : 0;
        unsigned to = child_index(block, where->wait_path[d + 1]);
        for (unsigned i = from; i < to; i++) {
            if (leaves_if_null(ss_ast_child(block, i), var))
                return 1;
        }
    }
    return 0;
}

/* ss_context_free_waits, with 'switches' whether to refuse a function that switches the device
 * or context anywhere: the write of the freed variable where the free surely waits, else a null
 * cursor; '*where' the block that holds the write's statement and the wait's. */
static CXCursor waiting_write(CXCursor function, CXCursor call, CXCursor wait, int switches,
                              before_wait *where, CXCursor *freed)
{
    CXCursor none = clang_getNullCursor();
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor arg = freed_argument(call, api);
    if (ss_ast_is_null(arg) || !runtime_free(api) || null_literal(arg))
        return none;
    CXCursor var = local_variable(arg), top = ss_scope_outer_function(function);
    *freed = var;
    int found = 0;
    if (ss_ast_is_null(var))
        return none;
    /* A switch anywhere, or a goto; without 'switches' only a goto. */
    clang_visitChildren(top, switches ? find_switch : find_goto, &found);
    var_writes w = writes_after(function, var, ss_ast_offset(call));
    if (found || w.count != 1 || !runs_before(top, w.at, wait, where))
        return none;
    if (w.kind == WRITE_ALLOC)
        return matching_allocator(api, w.callee) ? w.at : none;
    if (w.kind != WRITE_INIT || api->api != SS_API_cudaFreeArray ||
        clang_getCursorKind(ss_ast_strip(initializer(var))) != CXCursor_CallExpr)
        return none;
    return tested_before(where, var) ? w.at : none;
}

int ss_context_free_waits(CXCursor function, CXCursor call, CXCursor wait)
{
    before_wait where;
    CXCursor var;
    return !ss_ast_is_null(waiting_write(function, call, wait, 1, &where, &var));
}

/* How deep may_switch follows the functions a call reaches, and how many calls it asks about
 * for one free at most (past that, a call may switch). */
enum { MAX_SWITCH_DEPTH = 3, MAX_SWITCH_CALLS = 256 };

/* A walk for a call that may switch the device or context (may_switch), with the calls it may
 * still ask about ('budget', shared by the whole question). */
typedef struct switch_walk {
    ss_callgraph *graph;
    int depth, found;
    int *budget;
} switch_walk;

static int may_switch(switch_walk *w, CXCursor call);

static enum CXChildVisitResult find_may_switch(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    switch_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && may_switch(w, c))
        w->found = 1;
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the library function 'decl', which the headers only declare, is named as one that
 * sets the device ('set_device', 'setDevice', 'SetDevice': c10's, OpenCV's), case aside. */
static int sets_device_named(CXCursor decl)
{
    CXString s = clang_getCursorSpelling(decl);
    char folded[64];
    size_t n = 0;
    for (const char *p = clang_getCString(s); *p && n + 1 < sizeof folded; p++) {
        if (*p != '_')
            folded[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    }
    folded[n] = '\0';
    clang_disposeString(s);
    return strstr(folded, "setdevice") != NULL;
}

/* Whether 'decl' is a member of namespace std (the C++ library, which touches no device). */
static int in_std(CXCursor decl)
{
    for (CXCursor p = clang_getCursorSemanticParent(decl);
         !ss_ast_is_null(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        if (clang_getCursorKind(p) != CXCursor_Namespace)
            continue;
        CXString name = clang_getCursorSpelling(p);
        int std = strcmp(clang_getCString(name), "std") == 0;
        clang_disposeString(name);
        if (std)
            return 1;
    }
    return 0;
}

/* Whether the call 'call' may switch the device or context: a call of such an API
 * (ss_switches_device, or cudaDeviceReset, which tears the context down), or of a
 * function lint cannot follow (through a pointer, a virtual or call operator, a dependent name,
 * one the unit only declares outside the system headers), or of a function whose body makes
 * such a call itself (the unit's, or a library's defined in a header: a device guard's
 * constructor), MAX_SWITCH_DEPTH calls deep at most, or of a library function the headers only
 * declare that is named as one that sets the device (sets_device_named). A launch, another CUDA
 * call, the C++ library and a library's other functions do not. Returns 1 or 0. */
static int may_switch(switch_walk *w, CXCursor call)
{
    if (--*w->budget < 0 || ss_switches_device(call))
        return 1;
    const ss_api *api = ss_scope_callee_api(call);
    if (api) /* a reset tears the context down: the free then frees nothing */
        return api->api == SS_API_cudaDeviceReset;
    if (ss_scope_is_launch(call))
        return 0;
    CXCursor decl = clang_getCursorReferenced(call);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (ss_ast_is_null(decl) || (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod &&
                                 k != CXCursor_Constructor && k != CXCursor_FunctionTemplate))
        return 1;
    CXString spelling = clang_getCursorSpelling(decl);
    int operator_call = strcmp(clang_getCString(spelling), "operator()") == 0;
    clang_disposeString(spelling);
    if (operator_call || (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(decl)))
        return 1;
    CXCursor body = ss_callgraph_callee(w->graph, call);
    if (ss_ast_is_null(body)) {
        if (!ss_foreign_decl(decl))
            return 1;
        if (in_std(decl))
            return 0;
        body = clang_getCursorDefinition(decl);
        if (ss_ast_is_null(body))
            return sets_device_named(decl);
    }
    if (w->depth >= MAX_SWITCH_DEPTH)
        return 1;
    switch_walk inner = {w->graph, w->depth + 1, 0, w->budget};
    clang_visitChildren(body, find_may_switch, &inner);
    return inner.found;
}

/* The frees of the runtime's that a walk counts, of the variable 'var'. */
typedef struct free_walk {
    CXCursor var;
    unsigned count;
} free_walk;

static enum CXChildVisitResult find_frees_of(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    free_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        const ss_api *api = ss_scope_callee_api(c);
        CXCursor arg = freed_argument(c, api);
        w->count += runtime_free(api) && !ss_ast_is_null(arg) && names(arg, w->var);
    }
    return CXChildVisit_Recurse;
}

/* Whether the free the path 'where' leads to runs once for each run of its allocation: its way
 * down from the block the two share crosses no loop (a free of memory allocated before the loop,
 * freed again on every iteration after the first) and no lambda (run later, or again), and the
 * function frees the variable 'var' nowhere else. Returns 1 or 0. */
static int frees_once(CXCursor top, const before_wait *where, CXCursor var)
{
    for (long d = where->depth; d < where->wait_depth; d++) {
        CXCursor c = where->wait_path[d];
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_CXXForRangeStmt ||
            k == CXCursor_LambdaExpr || (k == CXCursor_DoStmt && !ss_ast_do_once(c)))
            return 0;
    }
    free_walk w = {var, 0};
    clang_visitChildren(top, find_frees_of, &w);
    return w.count == 1;
}

CXCursor ss_context_free_allocation(ss_callgraph *graph, CXCursor function, CXCursor call)
{
    before_wait where;
    CXCursor var, none = clang_getNullCursor();
    CXCursor alloc = waiting_write(function, call, call, 0, &where, &var);
    /* The toolkit's allocator itself, called by name (not a member or a wrapper of the same name,
     * not an array a call's result initializes, which a callee may keep). */
    CXCursor decl = ss_ast_is_null(alloc) ? none : clang_getCursorReferenced(alloc);
    if (ss_ast_is_null(alloc) || clang_getCursorKind(alloc) != CXCursor_CallExpr ||
        clang_getCursorKind(decl) != CXCursor_FunctionDecl || !ss_foreign_decl(decl) ||
        !frees_once(ss_scope_outer_function(function), &where, var))
        return none;
    /* The statements from the allocation's to the free's, both included. */
    CXCursor block = where.wait_path[where.depth - 1];
    int budget = MAX_SWITCH_CALLS;
    switch_walk w = {graph, 0, 0, &budget};
    for (unsigned i = where.write_index; i <= where.wait_index && !w.found; i++)
        ss_ast_visit_whole(ss_ast_child(block, i), ss_ast_child(block, i), find_may_switch, &w);
    return w.found ? none : alloc;
}

/* ------------------------------------------------------------------------------------------
 * Memory a helper makes through a reference parameter (ASTRA's createArrayAndTextureObject2D:
 * 'if (!createArrayAndTextureObject2D(data, array, tex, ...)) return false;'). */

int ss_context_allocator_frees(const char *free_name, const char *allocator)
{
    const ss_api *api =
        free_name && strcmp(free_name, "cudaFree") == 0        ? ss_api_find("cudaFree")
        : free_name && strcmp(free_name, "cudaFreeHost") == 0  ? ss_api_find("cudaFreeHost")
        : free_name && strcmp(free_name, "cudaFreeArray") == 0 ? ss_api_find("cudaFreeArray")
                                                               : NULL;
    return api && allocator && matching_allocator(api, allocator);
}

/* The uses of a reference parameter in its function's body (makes_out_uses). */
typedef struct out_walk {
    CXCursor param;
    CXCursor alloc, taken; /* the call whose out-argument '&param' is, that '&param' */
    CXCursor frees[8];     /* the frees given it */
    unsigned allocs, others, free_count, lambdas;
    unsigned last_null; /* the offset of the last 'param = 0' */
    char callee[40];
} out_walk;

/* Each use of w->param: the out-argument of a call (w->alloc; more than one counted), a free of
 * the runtime's given it, a read (its parent an implicit conversion), 'param = <null>', or any
 * other use (w->others: a write, a reference bound, its address taken elsewhere); lambdas
 * counted. */
static enum CXChildVisitResult find_out_uses(CXCursor c, CXCursor parent, CXClientData data)
{
    out_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    w->lambdas += k == CXCursor_LambdaExpr;
    if (k == CXCursor_CallExpr) {
        var_writes cw;
        memset(&cw, 0, sizeof cw);
        cw.var = w->param;
        call_write(&cw, c);
        if (cw.taken_count == 1) {
            w->allocs++;
            w->alloc = c;
            w->taken = cw.taken[0];
            snprintf(w->callee, sizeof w->callee, "%s", cw.callee);
        }
        const ss_api *api = ss_scope_callee_api(c);
        CXCursor arg = freed_argument(c, api);
        if (runtime_free(api) && !ss_ast_is_null(arg) && names(arg, w->param) && w->free_count < 8)
            w->frees[w->free_count++] = c;
    }
    if (k != CXCursor_DeclRefExpr || !clang_equalCursors(clang_getCursorReferenced(c), w->param))
        return CXChildVisit_Recurse;
    enum CXCursorKind pk = clang_getCursorKind(parent);
    char op[8];
    if (pk == CXCursor_UnexposedExpr ||
        (!ss_ast_is_null(w->taken) && ss_ast_same_node(parent, w->taken)))
        return CXChildVisit_Recurse;
    if (pk == CXCursor_BinaryOperator && ss_ast_binary_op(parent, op, sizeof op) == 0 &&
        strcmp(op, "=") == 0 && ss_ast_same_node(ss_ast_strip(ss_ast_child(parent, 0)), c) &&
        null_literal(ss_ast_child(parent, 1))) {
        w->last_null = ss_ast_offset(parent);
        return CXChildVisit_Recurse;
    }
    w->others++;
    return CXChildVisit_Recurse;
}

/* Whether 'e' is a '!' operator (its first token; the text of a long one is not read). Returns 1
 * or 0. */
static int negation(CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator || ss_ast_child_count(e) != 1)
        return 0;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *tok = clang_getToken(tu, clang_getRangeStart(clang_getCursorExtent(e)));
    if (tok == NULL)
        return 0;
    CXString spelling = clang_getTokenSpelling(tu, *tok);
    int is = strcmp(clang_getCString(spelling), "!") == 0;
    clang_disposeString(spelling);
    clang_disposeTokens(tu, tok, 1);
    return is;
}

/* Whether 'e' is an integer constant 0 ('false', '0'). */
static int false_constant(CXCursor e)
{
    long long value = 1;
    return !ss_ast_is_null(e) && ss_ast_eval_int(ss_ast_strip(e), &value) == 0 && value == 0;
}

/* Every 'return' of 'body' (a walk): those before 'before' (an offset) that return anything but
 * a constant 0 counted in 'early'. */
typedef struct return_walk {
    unsigned before, early;
} return_walk;

static enum CXChildVisitResult find_early_return(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    return_walk *r = data;
    if (clang_getCursorKind(c) != CXCursor_ReturnStmt || ss_ast_offset(c) >= r->before)
        return CXChildVisit_Recurse;
    r->early += ss_ast_child_count(c) == 0 || !false_constant(ss_ast_child(c, 0));
    return CXChildVisit_Recurse;
}

/* Whether the free 'call' (of the parameter) is a statement of a block that then returns a
 * constant 0 ('{ cudaFreeArray(a); return false; }'), with no break, continue or goto in it.
 * Returns 1 or 0. */
static int frees_then_fails(CXCursor body, CXCursor call)
{
    CXCursor path[SS_CONTEXT_MAX_PATH];
    long found = ss_context_path(body, call, path);
    long b = found - 1;
    while (b >= 0 && clang_getCursorKind(path[b]) != CXCursor_CompoundStmt)
        b--;
    if (b < 0)
        return 0;
    unsigned n = ss_ast_child_count(path[b]);
    CXCursor last = n ? ss_ast_child(path[b], n - 1) : clang_getNullCursor();
    int jumps = 0;
    clang_visitChildren(path[b], find_loop_jump, &jumps);
    return !jumps && clang_getCursorKind(last) == CXCursor_ReturnStmt &&
           ss_ast_child_count(last) == 1 && false_constant(ss_ast_child(last, 0));
}

int ss_context_makes_out(CXCursor function, unsigned index, char *allocator, size_t size)
{
    unsigned n = ss_ast_child_count(function), seen = 0;
    CXCursor body = n ? ss_ast_child(function, n - 1) : clang_getNullCursor(), param = body;
    for (unsigned i = 0; i + 1 < n && seen <= index; i++) {
        if (clang_getCursorKind(ss_ast_child(function, i)) == CXCursor_ParmDecl && seen++ == index)
            param = ss_ast_child(function, i);
    }
    CXType t = clang_getCursorType(param);
    int switches = 0;
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt ||
        clang_getCursorKind(param) != CXCursor_ParmDecl || t.kind != CXType_LValueReference ||
        clang_getCanonicalType(clang_getPointeeType(t)).kind != CXType_Pointer ||
        ss_ast_child_count(body) < 2)
        return 0;
    clang_visitChildren(function, find_switch, &switches);
    out_walk w;
    memset(&w, 0, sizeof w);
    w.param = param;
    clang_visitChildren(body, find_out_uses, &w);
    before_wait where;
    CXCursor last = ss_ast_child(body, ss_ast_child_count(body) - 1);
    if (switches || w.allocs != 1 || w.others || w.lambdas || w.callee[0] == '\0' ||
        ss_ast_offset(w.alloc) < w.last_null || !runs_before(function, w.alloc, last, &where) ||
        !ss_ast_same_node(where.wait_path[where.depth - 1], body))
        return 0;
    /* Every way out before the allocation's statement fails; a free of it fails next. */
    CXCursor holder = ss_ast_child(body, where.write_index);
    if (ss_ast_is_null(holder))
        return 0;
    CXSourceRange range = clang_getCursorExtent(holder);
    unsigned end = 0;
    clang_getSpellingLocation(clang_getRangeEnd(range), NULL, NULL, NULL, &end);
    return_walk r = {end, 0};
    clang_visitChildren(body, find_early_return, &r);
    for (unsigned i = 0; i < w.free_count && r.early == 0; i++)
        r.early += !frees_then_fails(body, w.frees[i]);
    if (r.early || w.free_count == 8)
        return 0;
    snprintf(allocator, size, "%s", w.callee);
    return 1;
}

CXCursor ss_context_free_helper(CXCursor function, CXCursor call, CXCursor wait, unsigned *index)
{
    CXCursor none = clang_getNullCursor();
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor arg = freed_argument(call, api);
    if (ss_ast_is_null(arg) || !runtime_free(api) || null_literal(arg))
        return none;
    CXCursor var = local_variable(arg), top = ss_scope_outer_function(function);
    int switches = 0;
    if (ss_ast_is_null(var))
        return none;
    clang_visitChildren(top, find_switch, &switches);
    var_writes w = writes_of(function, var);
    if (switches || w.count != 1 || w.kind != WRITE_OTHER)
        return none;
    /* The write: the variable handed as an argument of a call, to a reference parameter. */
    CXCursor path[SS_CONTEXT_MAX_PATH];
    long found = ss_context_path(top, w.at, path);
    CXCursor helper = found > 0 ? path[found - 1] : none;
    if (clang_getCursorKind(helper) != CXCursor_CallExpr)
        return none;
    int count = clang_Cursor_getNumArguments(helper), at = -1;
    for (int i = 0; i < count && at < 0; i++) {
        if (ss_ast_same_node(clang_Cursor_getArgument(helper, (unsigned)i), w.at))
            at = i;
    }
    CXCursor decl = clang_getCursorReferenced(helper);
    if (at < 0 || clang_getCursorKind(decl) != CXCursor_FunctionDecl ||
        clang_Cursor_getNumArguments(decl) <= at ||
        clang_getCursorType(clang_Cursor_getArgument(decl, (unsigned)at)).kind !=
            CXType_LValueReference)
        return none;
    /* 'if (!helper(...)) return ...;', a statement of a block around the wait, before it. */
    before_wait where;
    if (!runs_before(top, helper, wait, &where))
        return none;

    CXCursor s = ss_ast_child(where.wait_path[where.depth - 1], where.write_index);
    unsigned ci = clang_getCursorKind(s) == CXCursor_IfStmt ? ss_ast_if_condition(s) : 0;
    if (clang_getCursorKind(s) != CXCursor_IfStmt || ci + 1 >= ss_ast_child_count(s) ||
        ci + 2 < ss_ast_child_count(s))
        return none;
    CXCursor cond = ss_ast_strip(ss_ast_child(s, ci));
    if (!negation(cond) || !ss_ast_same_node(ss_ast_strip(ss_ast_child(cond, 0)), helper) ||
        !branch_returns(ss_ast_child(s, ci + 1)))
        return none;
    *index = (unsigned)at;
    return helper;
}
