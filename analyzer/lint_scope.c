/* lint_scope.c: where a call sits inside its function: the loops around it (also through local
 * lambdas called from a loop) and whether a loop launches kernels or enqueues device work. */
#include "ast.h"
#include "log.h"
#include "report.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many local-lambda hops are followed (a lambda called from a lambda...). */
enum { MAX_LAMBDA_DEPTH = 4 };

/* The functions clang calls for a <<<...>>> configuration (CUDA 9.2+ and older). */
static const char *const launch_config_names[] = {"__cudaPushCallConfiguration",
                                                  "cudaConfigureCall"};

/* Whether the condition 'cond' of a loop is the constant false (0, false, after macro
 * expansion). */
static int is_constant_false(CXCursor cond)
{
    long long value;
    return !ss_ast_is_null(cond) && ss_ast_eval_int(ss_ast_strip(cond), &value) == 0 && value == 0;
}

int ss_scope_is_loop(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_ForStmt:
    case CXCursor_CXXForRangeStmt:
        return 1;
    case CXCursor_DoStmt: {
        /* 'do { ... } while (0)', every error-checking macro's shape, runs once. The
         * condition is the last child. */
        unsigned n = ss_ast_child_count(c);
        return n == 0 || !is_constant_false(ss_ast_child(c, n - 1));
    }
    case CXCursor_WhileStmt:
        /* 'while (0)' never runs. The condition is the first of two children (a condition
         * variable makes three). */
        return ss_ast_child_count(c) != 2 || !is_constant_false(ss_ast_child(c, 0));
    default:
        return 0;
    }
}

char *ss_scope_callee_name(CXCursor call)
{
    char *name = ss_ast_callee_name(call);
    if (name || clang_getCursorKind(call) != CXCursor_CallExpr)
        return name;
    /* A call with type-dependent arguments in a template: the callee is an unresolved
     * overload set, named by its OverloadedDeclRef. */
    CXCursor callee = ss_ast_strip(ss_ast_child(call, 0));
    /* A member of an object whose type depends on a template parameter ('p.sub.resize(n)'):
     * no declaration yet, the member's name. */
    if (clang_getCursorKind(callee) == CXCursor_MemberRefExpr &&
        ss_ast_is_null(clang_getCursorReferenced(callee)))
        return ss_ast_dependent_member(call);
    if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr) {
        CXCursor ref = ss_ast_child(callee, 0);
        for (unsigned i = 0; clang_getCursorKind(ref) == CXCursor_NamespaceRef; i++)
            ref = ss_ast_child(callee, i + 1);
        if (clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
            CXString s = clang_getCursorSpelling(ref);
            if (*clang_getCString(s))
                name = ss_xstrdup(clang_getCString(s));
            clang_disposeString(s);
        }
    }
    return ss_ast_api_name(call, name);
}

const ss_api *ss_scope_callee_api(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    const ss_api *api = name ? ss_api_find(name) : NULL;
    free(name);
    return api;
}

int ss_scope_is_launch_config(CXCursor c)
{
    if (ss_ast_is_null(c) || clang_getCursorKind(c) != CXCursor_CallExpr)
        return 0;
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    int match = 0;
    for (size_t i = 0; i < sizeof launch_config_names / sizeof launch_config_names[0]; i++)
        match |= strcmp(name, launch_config_names[i]) == 0;
    clang_disposeString(s);
    return match;
}

int ss_scope_is_launch(CXCursor call)
{
    return clang_getCursorKind(call) == CXCursor_CallExpr &&
           ss_scope_is_launch_config(ss_ast_child(call, 1));
}

char *ss_scope_kernel_name(CXCursor launch)
{
    CXCursor callee = ss_ast_strip(ss_ast_child(launch, 0));
    CXString s = clang_getCursorSpelling(callee);
    char *name = *clang_getCString(s) ? ss_xstrdup(clang_getCString(s)) : NULL;
    clang_disposeString(s);
    if (name)
        return name;
    /* A dependent launch in a template ('k<T><<<...>>>', 'ns::k<T><<<...>>>'): the callee is
     * an unresolved lookup whose overload-set reference carries the name. */
    unsigned n = ss_ast_child_count(callee);
    for (unsigned i = 0; i < n && name == NULL; i++) {
        CXCursor ref = ss_ast_child(callee, i);
        if (clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef &&
            clang_getCursorKind(ref) != CXCursor_TemplateRef)
            continue;
        CXString inner = clang_getCursorSpelling(ref);
        if (*clang_getCString(inner))
            name = ss_xstrdup(clang_getCString(inner));
        clang_disposeString(inner);
    }
    return name;
}

/* Whether 'decl' is the class clang makes for a lambda. */
static int is_closure_class(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_ClassDecl && k != CXCursor_StructDecl)
        return 0;
    CXString s = clang_getCursorSpelling(decl);
    int closure = strncmp(clang_getCString(s), "(lambda at ", 11) == 0;
    clang_disposeString(s);
    return closure;
}

CXCursor ss_scope_outer_function(CXCursor function)
{
    CXCursor fn = function;
    for (int hops = 0; hops < 16 && clang_getCursorKind(fn) == CXCursor_LambdaExpr; hops++) {
        /* A lambda's closure class is declared in the function (or the lambda's call
         * operator) that contains it. */
        CXCursor parent = clang_getTypeDeclaration(clang_getCursorType(fn));
        if (ss_ast_is_null(parent))
            return function;
        parent = clang_getCursorSemanticParent(parent);
        while (!ss_ast_is_null(parent) && clang_getCursorKind(parent) == CXCursor_CXXMethod &&
               is_closure_class(clang_getCursorSemanticParent(parent)))
            parent = clang_getCursorSemanticParent(clang_getCursorSemanticParent(parent));
        if (ss_ast_is_null(parent) || !ss_ast_is_function(parent))
            return function;
        CXCursor def = clang_getCursorDefinition(parent);
        fn = ss_ast_is_null(def) ? parent : def;
    }
    return fn;
}

/* The loops and lambdas on the path from a function down to one node. */
typedef struct path_walk {
    CXCursor target;
    unsigned offset; /* the target's expansion offset: subtrees that cannot hold it are
                      * skipped */
    int (*keep)(CXCursor);
    CXCursor *stack; /* the kept nodes around the node being visited, outermost first */
    size_t max;
    size_t depth; /* how many are on the path (may exceed 'max': only 'max' are stored) */
    CXCursor *out;
    size_t found; /* 'depth' when the target was reached */
    int done;
} path_walk;

static enum CXChildVisitResult find_path(CXCursor c, CXCursor parent, CXClientData data)
{
    path_walk *w = data;
    unsigned begin, end;
    ss_ast_range(c, &begin, &end);
    if (w->offset < begin || w->offset > end)
        return CXChildVisit_Continue;
    if (ss_ast_same_node(c, w->target)) {
        size_t n = w->depth < w->max ? w->depth : w->max;
        if (n > 0) /* a caller that wants only the depth passes no buffer */
            memcpy(w->out, w->stack, n * sizeof *w->stack);
        w->found = w->depth;
        w->done = 1;
        return CXChildVisit_Break;
    }
    if (w->keep != NULL && !w->keep(c))
        return CXChildVisit_Recurse;
    /* Containment is decided by the tree, not by offsets: the nodes of one macro expansion
     * all share the expansion's range, so a call after a loop in the same macro would
     * otherwise seem to be inside it. */
    if (w->depth < w->max)
        w->stack[w->depth] = c;
    w->depth++;
    clang_visitChildren(c, find_path, w);
    w->depth--;
    return w->done ? CXChildVisit_Break : CXChildVisit_Continue;
}

long ss_scope_path(CXCursor top, CXCursor target, int (*keep)(CXCursor), CXCursor *out, size_t max)
{
    CXCursor *stack = ss_xreallocarray(NULL, max ? max : 1, sizeof *stack);
    path_walk w = {target, ss_ast_offset(target), keep, stack, max, 0, out, 0, 0};
    clang_visitChildren(top, find_path, &w);
    free(stack);
    return w.done ? (long)w.found : -1;
}

static int is_loop_or_lambda(CXCursor c)
{
    return ss_scope_is_loop(c) || clang_getCursorKind(c) == CXCursor_LambdaExpr;
}

/* The local variable whose initializer is exactly the lambda 'lambda', or a null cursor. */
typedef struct binding_walk {
    CXCursor lambda;
    CXCursor var;
} binding_walk;

static enum CXChildVisitResult find_binding(CXCursor c, CXCursor parent, CXClientData data)
{
    binding_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_VarDecl)
        return CXChildVisit_Recurse;
    unsigned n = ss_ast_child_count(c);
    for (unsigned i = 0; i < n; i++) {
        CXCursor init = ss_ast_child(c, i);
        if (!clang_isExpression(clang_getCursorKind(init)))
            continue;
        /* 'auto f = [..]{..};' wraps the lambda in a copy construction. */
        CXCursor e = ss_ast_strip(init);
        for (int k = 0; k < 3 && clang_getCursorKind(e) == CXCursor_CallExpr; k++)
            e = ss_ast_strip(ss_ast_child(e, 0));
        if (ss_ast_same_node(e, w->lambda)) {
            w->var = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

CXCursor ss_scope_called_lambda(CXCursor call)
{
    CXCursor none = clang_getNullCursor();
    if (clang_getCursorKind(call) != CXCursor_CallExpr ||
        clang_getCursorKind(clang_getCursorReferenced(call)) != CXCursor_CXXMethod)
        return none;
    CXCursor object = ss_ast_strip(ss_ast_child(call, 0));
    if (clang_getCursorKind(object) != CXCursor_DeclRefExpr)
        return none;
    CXCursor var = clang_getCursorReferenced(object);
    if (clang_getCursorKind(var) != CXCursor_VarDecl)
        return none;
    unsigned n = ss_ast_child_count(var);
    for (unsigned i = 0; i < n; i++) {
        CXCursor e = ss_ast_strip(ss_ast_child(var, i));
        for (int k = 0; k < 3 && clang_getCursorKind(e) == CXCursor_CallExpr; k++)
            e = ss_ast_strip(ss_ast_child(e, 0));
        if (clang_getCursorKind(e) == CXCursor_LambdaExpr)
            return e;
    }
    return none;
}

/* Calls of the local variable 'var' (a lambda) inside a function. */
typedef struct call_walk {
    CXCursor var;
    CXCursor *calls;
    size_t count, max;
} call_walk;

static enum CXChildVisitResult find_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    call_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr &&
        clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_CXXMethod) {
        CXCursor object = ss_ast_strip(ss_ast_child(c, 0));
        if (clang_getCursorKind(object) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(object), w->var) && w->count < w->max)
            w->calls[w->count++] = c;
    }
    return CXChildVisit_Recurse;
}

static size_t loops_at(CXCursor top, CXCursor target, CXCursor *out, size_t max, int depth)
{
    CXCursor path[64];
    long found = ss_scope_path(top, target, is_loop_or_lambda, path, 64);
    if (found < 0)
        return 0;
    size_t n = 0, kept = (size_t)found < 64 ? (size_t)found : 64;
    /* Loops around the target, innermost first; the innermost lambda around it. */
    CXCursor lambda = clang_getNullCursor();
    for (size_t i = kept; i > 0; i--) {
        CXCursor c = path[i - 1];
        if (clang_getCursorKind(c) == CXCursor_LambdaExpr) {
            if (ss_ast_is_null(lambda))
                lambda = c;
        } else if (n < max) {
            out[n++] = c;
        }
    }
    if (depth >= MAX_LAMBDA_DEPTH || n >= max || ss_ast_is_null(lambda))
        return n;
    /* Inside a lambda bound to a local variable: also the loops around its calls. */
    binding_walk bw = {lambda, clang_getNullCursor()};
    clang_visitChildren(top, find_binding, &bw);
    if (ss_ast_is_null(bw.var))
        return n;
    CXCursor calls[16];
    call_walk cw = {bw.var, calls, 0, sizeof calls / sizeof calls[0]};
    clang_visitChildren(top, find_calls, &cw);
    for (size_t i = 0; i < cw.count && n < max; i++) {
        CXCursor more[32];
        size_t m = loops_at(top, calls[i], more, sizeof more / sizeof more[0], depth + 1);
        for (size_t k = 0; k < m && n < max; k++) {
            int seen = 0;
            for (size_t j = 0; j < n && !seen; j++)
                seen = ss_ast_same_node(out[j], more[k]);
            if (!seen)
                out[n++] = more[k];
        }
    }
    return n;
}

size_t ss_scope_enclosing_loops(CXCursor function, CXCursor c, CXCursor *out, size_t max)
{
    if (ss_ast_is_null(function) || max == 0)
        return 0;
    CXCursor top = ss_scope_outer_function(function);
    return loops_at(top, c, out, max, 0);
}

CXCursor ss_scope_enclosing_loop(CXCursor function, CXCursor c)
{
    CXCursor loop;
    if (ss_scope_enclosing_loops(function, c, &loop, 1) == 1)
        return loop;
    return clang_getNullCursor();
}

/* Searching a loop body for device work. */
typedef struct work_walk {
    ss_scope_work what;
    CXCursor found;
    int depth;
    CXCursor except;  /* the call the work is looked for: the other arm of a ?: around it
                       * never runs with it; or a null cursor */
    int over_devices; /* the body sets the device: 'except' itself is no work beside it */
} work_walk;

typedef struct contains_walk {
    CXCursor target;
    unsigned offset;
    int found;
} contains_walk;

static enum CXChildVisitResult find_target(CXCursor c, CXCursor parent, CXClientData data)
{
    contains_walk *w = data;
    unsigned begin, end;
    ss_ast_range(c, &begin, &end);
    if (w->offset < begin || w->offset > end)
        return CXChildVisit_Continue;
    if (ss_ast_same_node(c, w->target)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'node' is 'target' or contains it (by the tree). */
static int contains(CXCursor node, CXCursor target)
{
    if (ss_ast_same_node(node, target))
        return 1;
    contains_walk w = {target, ss_ast_offset(target), 0};
    clang_visitChildren(node, find_target, &w);
    return w.found;
}

static int is_work(CXCursor call, ss_scope_work what)
{
    if (ss_scope_is_launch(call))
        return 1;
    const ss_api *api = ss_scope_callee_api(call);
    if (api == NULL)
        return 0;
    if (what == SS_SCOPE_LAUNCHES)
        return api->klass == SS_CLASS_LAUNCH || api->klass == SS_CLASS_GRAPH_LAUNCH;
    /* An event record or a stream wait is ordering, not work: a loop that only creates
     * streams and records events on them (setup code) leaves nothing for a sync to drain. */
    if (api->klass == SS_CLASS_EVENT_RECORD || api->klass == SS_CLASS_STREAM_WAIT)
        return 0;
    if (what == SS_SCOPE_DEVICE_WORK &&
        (api->klass == SS_CLASS_COPY || api->klass == SS_CLASS_MEMSET))
        return 1;
    return ss_api_enqueues(api);
}

static enum CXChildVisitResult find_work(CXCursor c, CXCursor parent, CXClientData data);

/* Visits 'c' itself and, as find_work asks, its children. */
static void find_work_in(CXCursor c, CXCursor parent, work_walk *w)
{
    ss_ast_visit_whole(c, parent, find_work, w);
}

static enum CXChildVisitResult find_work(CXCursor c, CXCursor parent, CXClientData data)
{
    work_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_ConditionalOperator && !ss_ast_is_null(w->except) &&
        ss_ast_child_count(c) == 3) {
        /* 'a ? cudaMallocAsync(...) : cudaMalloc(...)': one arm runs, never both, so the
         * arm without the call is no work beside it. */
        CXCursor cond = ss_ast_child(c, 0), yes = ss_ast_child(c, 1), no = ss_ast_child(c, 2);
        int in_yes = contains(yes, w->except), in_no = !in_yes && contains(no, w->except);
        if (in_yes || in_no) {
            find_work_in(cond, c, w);
            if (ss_ast_is_null(w->found))
                find_work_in(in_yes ? yes : no, c, w);
            return ss_ast_is_null(w->found) ? CXChildVisit_Continue : CXChildVisit_Break;
        }
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    if (is_work(c, w->what)) {
        /* In a loop over the devices, the call itself is no work beside it: a loop that
         * repeats only that call on each device (an upload to each GPU) runs it once per
         * device, and does not put it between other work. */
        if (w->over_devices && ss_ast_same_node(c, w->except))
            return CXChildVisit_Continue;
        w->found = c;
        return CXChildVisit_Break;
    }
    CXCursor lambda = ss_scope_called_lambda(c);
    if (!ss_ast_is_null(lambda) && w->depth < MAX_LAMBDA_DEPTH) {
        w->depth++;
        clang_visitChildren(lambda, find_work, w);
        w->depth--;
        if (!ss_ast_is_null(w->found))
            return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_scope_has_work(CXCursor body, ss_scope_work what, CXCursor *first)
{
    return ss_scope_has_work_beside(body, what, clang_getNullCursor(), first);
}

int ss_scope_is_set_device(CXCursor call)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return 0;
    char *name = ss_scope_callee_name(call);
    int yes = name && strcmp(name, "cudaSetDevice") == 0;
    free(name);
    return yes;
}

typedef struct set_device_walk {
    int own; /* leave the inner loops out */
    int found;
} set_device_walk;

static enum CXChildVisitResult find_set_device(CXCursor c, CXCursor parent, CXClientData data)
{
    set_device_walk *w = data;
    if (w->own && ss_scope_is_loop(c))
        return CXChildVisit_Continue;
    w->found = ss_scope_is_set_device(c);
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

int ss_scope_sets_device(CXCursor body, int own)
{
    set_device_walk w = {own, 0};
    if (!ss_ast_is_null(body))
        clang_visitChildren(body, find_set_device, &w);
    return w.found;
}

int ss_scope_has_work_beside(CXCursor body, ss_scope_work what, CXCursor call, CXCursor *first)
{
    int over_devices = !ss_ast_is_null(call) && ss_scope_sets_device(body, 0);
    work_walk w = {what, clang_getNullCursor(), 0, call, over_devices};
    if (!ss_ast_is_null(body))
        clang_visitChildren(body, find_work, &w);
    if (first)
        *first = w.found;
    return !ss_ast_is_null(w.found);
}

int ss_scope_loop_launches(CXCursor loop, CXCursor *first)
{
    return ss_scope_has_work(loop, SS_SCOPE_LAUNCHES, first);
}

int ss_scope_loop_enqueues(CXCursor loop, CXCursor *first)
{
    return ss_scope_has_work(loop, SS_SCOPE_ENQUEUES, first);
}

unsigned ss_scope_line(CXCursor c)
{
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
    return line;
}
