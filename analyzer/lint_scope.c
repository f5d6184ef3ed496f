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

/* The lambda a call invokes through a local variable ('step(i)' with 'auto step = [..]..'),
 * or a null cursor. */
static CXCursor called_lambda(CXCursor call)
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

/* ------------------------------------------------------------------------------------------
 * Whether a lambda written in a loop runs in it: invoked there, or kept somewhere the loop
 * then names otherwise than by storing into it. */

/* The methods of a standard container that keep what they are given ('later.push_back(f)'). */
static const char *const store_methods[] = {"push_back",     "emplace_back", "push_front",
                                            "emplace_front", "insert",       "emplace",
                                            "push",          "assign"};

/* The deepest path followed from a loop down to a use of a lambda. */
enum { MAX_USE_PATH = 48 };

/* Whether the cursor 'c' is spelled 'name' (a call: the name of what it calls). */
static int named(CXCursor c, const char *name)
{
    CXString s = clang_getCursorSpelling(c);
    int yes = clang_getCString(s) && strcmp(clang_getCString(s), name) == 0;
    clang_disposeString(s);
    return yes;
}

/* Whether the type of 'e' holds std::function values (a std::function, or a container of
 * them): what is stored there is called later, by whoever calls it. */
static int holds_functions(CXCursor e)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(e)));
    const char *t = clang_getCString(s);
    int yes = t && (strstr(t, "std::function<") || strstr(t, "std::__1::function<"));
    clang_disposeString(s);
    return yes;
}

/* Whether 'c' only carries the value below it on: an implicit conversion, parentheses,
 * std::move or std::forward, the making of a std::function or a copy of a closure from it, or
 * its conversion to a function pointer. */
static int carries_value(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr)
        return 1;
    if (k != CXCursor_CallExpr)
        return 0;
    CXCursor callee = clang_getCursorReferenced(c);
    enum CXCursorKind ck = clang_getCursorKind(callee);
    if (ck == CXCursor_Constructor || ck == CXCursor_ConversionFunction)
        return is_closure_class(clang_getCursorSemanticParent(callee)) || holds_functions(c);
    if (ck != CXCursor_FunctionDecl || !ss_ast_in_system_header(callee))
        return 0;
    return named(callee, "move") || named(callee, "forward");
}

/* Whether 'c' takes an element of the value below it ('v[i]', the base of a subscript). */
static int takes_element(CXCursor c, CXCursor below)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ArraySubscriptExpr && k != CXCursor_CallExpr)
        return 0;
    if (k == CXCursor_CallExpr && !named(c, "operator[]"))
        return 0;
    return ss_ast_same_node(ss_ast_child(c, 0), below);
}

/* The declaration a value is kept in: 'v' for 'v', 'v[i]' or 'this->v', a variable for its
 * own declaration; a null cursor for anything else. */
static CXCursor kept_in(CXCursor target)
{
    if (clang_getCursorKind(target) == CXCursor_VarDecl)
        return target;
    CXCursor e = ss_ast_strip(target);
    for (int hops = 0; hops < 4 && takes_element(e, ss_ast_child(e, 0)); hops++)
        e = ss_ast_strip(ss_ast_child(e, 0));
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(e);
}

/* Whether the member call 'call' is a standard container's store (store_methods) into an
 * object that holds std::function values. */
static int is_store(CXCursor call)
{
    CXCursor member = ss_ast_strip(ss_ast_child(call, 0));
    CXCursor method = clang_getCursorReferenced(call);
    if (clang_getCursorKind(member) != CXCursor_MemberRefExpr ||
        clang_getCursorKind(method) != CXCursor_CXXMethod || !ss_ast_in_system_header(method) ||
        !holds_functions(ss_ast_child(member, 0)))
        return 0;
    int yes = 0;
    for (size_t i = 0; i < sizeof store_methods / sizeof store_methods[0] && !yes; i++)
        yes = named(call, store_methods[i]);
    return yes;
}

static int may_run(CXCursor scope, CXCursor use, int depth);

/* Calls in a loop that may run what a field or global holds: any but the system's, CUDA's and
 * kernel launches (lambda bodies aside). */
static enum CXChildVisitResult find_other_call(CXCursor c, CXCursor parent, CXClientData data)
{
    int *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k != CXCursor_CallExpr || ss_scope_is_launch(c) || ss_scope_is_launch_config(c) ||
        ss_scope_callee_api(c) != NULL)
        return CXChildVisit_Recurse;
    CXCursor callee = clang_getCursorReferenced(c);
    if (ss_ast_is_null(callee) || !ss_ast_in_system_header(callee)) {
        *found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'decl' is a local variable or a parameter: only its own function can name it. */
static int is_local(CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    return k == CXCursor_ParmDecl ||
           (k == CXCursor_VarDecl && ss_ast_is_function(clang_getCursorSemanticParent(decl)));
}

/* The names of 'decl' in a loop, each asked whether it may run what it holds. */
typedef struct kept_walk {
    CXCursor decl;
    CXCursor scope;
    int depth;
    int runs;
} kept_walk;

static enum CXChildVisitResult find_kept_use(CXCursor c, CXCursor parent, CXClientData data)
{
    kept_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->decl) &&
        may_run(w->scope, c, w->depth)) {
        w->runs = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether what 'target' keeps (a lambda stored or assigned there) may run in 'scope': the
 * loop names it otherwise than by storing into it or assigning to it; or it is no local and
 * the loop calls a function that may reach it; or it cannot be told. */
static int kept_runs(CXCursor scope, CXCursor target, int depth)
{
    CXCursor decl = kept_in(target);
    if (ss_ast_is_null(decl) || depth >= MAX_LAMBDA_DEPTH)
        return 1;
    int other_call = 0;
    if (!is_local(decl))
        clang_visitChildren(scope, find_other_call, &other_call);
    if (other_call)
        return 1;
    kept_walk w = {decl, scope, depth + 1, 0};
    clang_visitChildren(scope, find_kept_use, &w);
    return w.runs;
}

/* How 'holder' (the node above the value, 'below' its child on the way there, 'above' the node
 * above it or a null cursor) uses the value: 1 when it may run it (called, handed to a call,
 * anything not known), else 0 (stored, assigned, stored into or assigned to). */
static int holder_runs(CXCursor scope, CXCursor holder, CXCursor below, CXCursor above, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(holder);
    int first = ss_ast_same_node(ss_ast_child(holder, 0), below);
    char op[4] = "";
    if (k == CXCursor_VarDecl)
        return kept_runs(scope, holder, depth);
    if (k == CXCursor_BinaryOperator && ss_ast_binary_op(holder, op, sizeof op) == 0 &&
        strcmp(op, "=") == 0)
        return first ? 0 : kept_runs(scope, ss_ast_child(holder, 0), depth);
    if (k == CXCursor_MemberRefExpr && clang_getCursorKind(above) == CXCursor_CallExpr &&
        ss_ast_same_node(ss_ast_strip(ss_ast_child(above, 0)), holder))
        return !is_store(above); /* the object of a store is stored into */
    if (k != CXCursor_CallExpr)
        return 1;
    if (named(holder, "operator=") && holds_functions(ss_ast_child(holder, 0)))
        return first ? 0 : kept_runs(scope, ss_ast_child(holder, 0), depth);
    if (!first && is_store(holder))
        return kept_runs(scope, ss_ast_child(ss_ast_strip(ss_ast_child(holder, 0)), 0), depth);
    return 1;
}

/* Whether the value at 'use' (a lambda, or a name of what keeps one) may run in 'scope'. */
static int may_run(CXCursor scope, CXCursor use, int depth)
{
    CXCursor path[MAX_USE_PATH];
    long found = ss_scope_path(scope, use, NULL, path, MAX_USE_PATH);
    if (found < 1 || found > MAX_USE_PATH)
        return 1;
    CXCursor below = use;
    long i = found - 1;
    while (i > 0 && (carries_value(path[i]) || takes_element(path[i], below)))
        below = path[i--];
    return holder_runs(scope, path[i], below, i > 0 ? path[i - 1] : clang_getNullCursor(), depth);
}

int ss_scope_runs_lambda(CXCursor loop, CXCursor lambda)
{
    return may_run(loop, lambda, 0);
}

/* Whether the loop 'loop' runs the lambdas 'lambdas' (on the path from it to a call, the
 * innermost first), so that the call runs in it. */
static int runs_lambdas(CXCursor loop, const CXCursor *lambdas, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (!ss_scope_runs_lambda(loop, lambdas[i]))
            return 0;
    }
    return 1;
}

static size_t loops_at(CXCursor top, CXCursor target, CXCursor *out, size_t max, int depth)
{
    CXCursor path[64];
    long found = ss_scope_path(top, target, is_loop_or_lambda, path, 64);
    if (found < 0)
        return 0;
    size_t n = 0, kept = (size_t)found < 64 ? (size_t)found : 64;
    /* Loops around the target that run it, innermost first (a loop runs a call in a lambda
     * only where it runs the lambda); the innermost lambda around it. */
    CXCursor lambdas[MAX_LAMBDA_DEPTH];
    size_t lambda_count = 0;
    for (size_t i = kept; i > 0; i--) {
        CXCursor c = path[i - 1];
        if (clang_getCursorKind(c) == CXCursor_LambdaExpr) {
            if (lambda_count < MAX_LAMBDA_DEPTH)
                lambdas[lambda_count++] = c;
        } else if (n < max && runs_lambdas(c, lambdas, lambda_count)) {
            out[n++] = c;
        }
    }
    CXCursor lambda = lambda_count > 0 ? lambdas[0] : clang_getNullCursor();
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
    CXCursor loop;    /* the body, when it is a loop: a lambda it does not run does no work
                       * there; else a null cursor */
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
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr && !ss_ast_is_null(w->loop) &&
        !ss_scope_runs_lambda(w->loop, c))
        return CXChildVisit_Continue;
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
    CXCursor lambda = called_lambda(c);
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
    CXCursor loop = ss_scope_is_loop(body) ? body : clang_getNullCursor();
    work_walk w = {what, clang_getNullCursor(), 0, call, over_devices, loop};
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
