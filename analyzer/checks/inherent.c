/* inherent.c: where the host needs a readback's value at once (it branches on it, returns it,
 * sizes an allocation with it, on the call's statement or the next), where the next statement
 * waits for a pageable copy anyway, and where a function hands the data it copies to the host
 * to its caller: the wait is inherent (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------------------------------
 * Whether the host needs the value at once. */

typedef struct ref_walk {
    CXCursor var;
    int found;
    int evaluated; /* only where the value is read: not under 'sizeof', 'alignof' or 'decltype' */
    CXCursor root; /* the expression searched */
} ref_walk;

/* Whether 'c' is a member of the object a method runs on: 'axis' or 'this->axis'. */
static int is_own_member(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_MemberRefExpr)
        return 0;
    if (ss_ast_child_count(c) == 0)
        return 1; /* the implicit 'this' */
    return clang_getCursorKind(ss_ast_strip(ss_ast_child(c, 0))) == CXCursor_CXXThisExpr;
}

/* Whether 'stmt' names the field 'field' on another object than the method's own
 * ('peer_->h_counters_', 'other.count_'): a field of the same class, not the value read back
 * into this object's. */
typedef struct other_field_walk {
    CXCursor field;
    int found;
} other_field_walk;

static enum CXChildVisitResult find_other_field(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    other_field_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_MemberRefExpr && !is_own_member(c) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->field))
        w->found = 1;
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int names_other_object(CXCursor stmt, const CXCursor *vars, size_t count)
{
    other_field_walk w = {clang_getNullCursor(), 0};
    for (size_t v = 0; v < count && !w.found; v++) {
        if (clang_getCursorKind(vars[v]) != CXCursor_FieldDecl)
            continue;
        w.field = vars[v];
        ss_ast_visit_whole(stmt, stmt, find_other_field, &w);
    }
    return w.found;
}

/* Whether the readback 'copy' writes a member of the object its method runs on ('h_counters_',
 * '&this->count_', 'h_counters_ + 1', 'h_counters_.lane(0)'), not another object's
 * ('peer_->h_counters_'). */
static int copies_into_own(CXCursor copy)
{
    const ss_api *api = ss_scope_callee_api(copy);
    if (api == NULL || api->dst_arg < 0 || api->dst_arg >= clang_Cursor_getNumArguments(copy))
        return 0;
    CXCursor e = ss_ast_strip(clang_Cursor_getArgument(copy, (unsigned)api->dst_arg));
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_MemberRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_FieldDecl)
            return is_own_member(e);
        /* As destination_value walks: 'h_counters_.lane(0)' is the member's too. */
        if (k != CXCursor_UnaryOperator && k != CXCursor_ArraySubscriptExpr &&
            k != CXCursor_BinaryOperator && k != CXCursor_MemberRefExpr && k != CXCursor_CallExpr &&
            k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr &&
            k != CXCursor_CXXReinterpretCastExpr)
            return 0;
        int cast = k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
                   k == CXCursor_CXXReinterpretCastExpr;
        e = ss_ast_strip(ss_ast_child(e, cast ? ss_ast_child_count(e) - 1 : 0));
    }
    return 0;
}

/* Whether 'c' names the variable, or the member of the method's object, 'var'. */
static int names_var(CXCursor c, CXCursor var)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    /* A field stands for the value read into it, on whatever object ('ds[d].err', 'p->n'). */
    int member = k == CXCursor_MemberRefExpr &&
                 (is_own_member(c) || clang_getCursorKind(var) == CXCursor_FieldDecl);
    return (k == CXCursor_DeclRefExpr || member) &&
           clang_equalCursors(clang_getCursorReferenced(c), var);
}

/* Whether 'c', not the object of a member access ('parent'), names a whole object of the
 * structure that declares the field 'field' ('return conn_stat;' after a copy into
 * '&conn_stat.weight'): the value goes with it. */
static int names_holder(CXCursor c, CXCursor parent, CXCursor field)
{
    if (clang_getCursorKind(field) != CXCursor_FieldDecl ||
        clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(parent) == CXCursor_MemberRefExpr)
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    CXCursor record = clang_getTypeDeclaration(t);
    return !ss_ast_is_null(record) &&
           clang_equalCursors(clang_getCanonicalCursor(record),
                              clang_getCanonicalCursor(clang_getCursorSemanticParent(field)));
}

/* Whether the token 'tok' is spelled 'text'. */
static int token_is(CXTranslationUnit tu, CXToken tok, const char *text)
{
    CXString sp = clang_getTokenSpelling(tu, tok);
    int same = strcmp(clang_getCString(sp), text) == 0;
    clang_disposeString(sp);
    return same;
}

/* Whether 'c', inside the expression 'root', is written within 'decltype(...)' or
 * 'typeof(...)', where its value is not read ('static_cast<decltype(count)>(4)'): a parenthesis
 * opened before it in 'root' and not closed before it follows one of those words. */
int ss_context_in_decltype(CXCursor root, CXCursor c)
{
    static const char *const words[] = {"decltype", "__decltype", "typeof", "__typeof__",
                                        "__typeof"};
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXSourceRange range = clang_getRange(clang_getRangeStart(clang_getCursorExtent(root)),
                                         clang_getRangeStart(clang_getCursorExtent(c)));
    CXToken *tokens = NULL;
    unsigned n = 0, depth = 0;
    int found = 0;
    clang_tokenize(tu, range, &tokens, &n);
    for (unsigned i = n; i-- > 1 && !found;) {
        if (token_is(tu, tokens[i], ")"))
            depth++;
        else if (token_is(tu, tokens[i], "(") && depth > 0)
            depth--;
        else if (token_is(tu, tokens[i], "("))
            for (size_t k = 0; k < sizeof words / sizeof words[0] && !found; k++)
                found = token_is(tu, tokens[i - 1], words[k]);
    }
    clang_disposeTokens(tu, tokens, n);
    return found;
}

/* Whether 'c' is a cast written with a type ('static_cast<T>(x)', '(T)x', 'T(x)'). */
static int is_explicit_cast(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
           k == CXCursor_CXXDynamicCastExpr || k == CXCursor_CXXReinterpretCastExpr ||
           k == CXCursor_CXXConstCastExpr || k == CXCursor_CXXFunctionalCastExpr;
}

static enum CXChildVisitResult find_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    ref_walk *w = data;
    if (w->evaluated && clang_getCursorKind(c) == CXCursor_UnaryExpr)
        return CXChildVisit_Continue; /* sizeof, alignof: the value is not read */
    /* A cast's type comes before its operand, its last child: a name in the type is in a
     * 'decltype' or 'typeof', also one a macro spells ('static_cast<TYPE_OF(n)>(4)'). */
    unsigned children = ss_ast_child_count(c);
    if (w->evaluated && is_explicit_cast(c) && children > 1) {
        ss_ast_visit_whole(ss_ast_child(c, children - 1), c, find_ref, w);
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (names_var(c, w->var) || names_holder(c, parent, w->var)) {
        if (w->evaluated && ss_context_in_decltype(w->root, c))
            return CXChildVisit_Continue;
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'c' is or contains a reference to the variable (or own member) 'var'; with
 * 'evaluated', only where its value is read, not under 'sizeof', 'alignof' or 'decltype'. */
static int references(CXCursor c, CXCursor var, int evaluated)
{
    if (ss_ast_is_null(c) || ss_ast_is_null(var) ||
        (evaluated && clang_getCursorKind(c) == CXCursor_UnaryExpr))
        return 0;
    if (names_var(c, var))
        return 1;
    ref_walk w = {var, 0, evaluated, c};
    if (evaluated && is_explicit_cast(c) && ss_ast_child_count(c) > 1)
        find_ref(c, c, &w);
    else
        clang_visitChildren(c, find_ref, &w);
    return w.found;
}

static int refers_to(CXCursor c, CXCursor var)
{
    return references(c, var, 0);
}

/* Whether 'c' reads the value of 'var', not only its type: a size written 'sizeof(count)' or
 * 'static_cast<decltype(count)>(4)' is the type's, whatever the value. */
static int sized_by(CXCursor c, CXCursor var)
{
    return references(c, var, 1);
}

static const char *const allocators[] = {SS_SIZING_CALLS};

static int is_allocator(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int match = 0;
    for (size_t i = 0; name && i < sizeof allocators / sizeof allocators[0] && !match; i++)
        match = strcmp(name, allocators[i]) == 0;
    free(name);
    return match;
}

/* Whether the body of 'callee' sizes a copy with its parameter 'param': a CUDA copy whose byte
 * count reads it ('void take(T *from, int count) { cudaMemcpy(p, from, count * sizeof(T), ...);
 * }'). */
typedef struct param_copy_walk {
    CXCursor param;
    int found;
} param_copy_walk;

static enum CXChildVisitResult find_param_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    param_copy_walk *w = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && api->klass == SS_CLASS_COPY && api->size_arg >= 0 &&
        clang_Cursor_getNumArguments(c) > api->size_arg &&
        sized_by(clang_Cursor_getArgument(c, (unsigned)api->size_arg), w->param)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* "passes it to 'DevArray<T>::take()', which sizes a copy with it" when the call 'call' of the
 * function of the unit 'callee' gives it 'var' (or a value that reads it) as an argument whose
 * parameter sizes a copy in its body (find_param_copy): a wrapper's copy of as many items as
 * the value says. Malloc'ed, or NULL. */
static char *wrapped_copy_use(CXCursor call, CXCursor callee, CXCursor var)
{
    int n = clang_Cursor_getNumArguments(call);
    CXCursor body = ss_ast_body(callee);
    if (n < 0 || n > clang_Cursor_getNumArguments(callee) || ss_ast_is_null(body))
        return NULL;
    for (int i = 0; i < n; i++) {
        if (!sized_by(clang_Cursor_getArgument(call, (unsigned)i), var))
            continue;
        param_copy_walk w = {clang_Cursor_getArgument(callee, (unsigned)i), 0};
        ss_ast_visit_whole(body, body, find_param_copy, &w);
        if (w.found) {
            char *name = ss_qualified_name(callee);
            char *use = ss_xasprintf("passes it to '%s()', which sizes a copy with it", name);
            free(name);
            return use;
        }
    }
    return NULL;
}

/* How 'stmt' needs the variable 'var' at once, in words ("sizes an allocation with it"),
 * malloc'ed, or NULL. */
typedef struct use_walk {
    ss_callgraph *graph;
    CXCursor var;
    char *use;
    CXCursor at; /* the call that uses it */
} use_walk;

/* Whether argument 'a' and argument 'b' of 'call' are of one type: a range's ends. */
static int same_type_args(CXCursor call, int a, int b)
{
    CXType ta = clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)a));
    CXType tb = clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)b));
    return clang_equalTypes(clang_getCanonicalType(ta), clang_getCanonicalType(tb));
}

static int integral_arg(CXCursor call, int i)
{
    enum CXTypeKind k =
        clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i)))
            .kind;
    return k >= CXType_Bool && k <= CXType_Int128;
}

/* Whether the Thrust algorithm 'call' bounds its range with 'var': the end of its first range
 * (two arguments of one type, after the policy where there is one) reads it and its start does
 * not ('first, first + n'), or the count of an '_n' algorithm reads it ('copy_n(policy, first,
 * n, out)'); malloc'ed words that say so, or NULL. A value that only moves a range of a fixed
 * length ('p + n, p + n + 64') or that the algorithm takes as a value (a fill's value, a
 * functor's member, a lambda's capture, a constant iterator's value) could be read on the
 * device instead: it does not size the work. */
static char *thrust_range_use(CXCursor call, CXCursor var)
{
    char *name = ss_context_thrust_callee(call);
    int n = name ? clang_Cursor_getNumArguments(call) : 0, bounds = 0;
    size_t len = name ? strlen(name) : 0;
    if (len > 2 && strcmp(name + len - 2, "_n") == 0) {
        /* the count: the first integral argument after the first iterator */
        int count = n > 1 && integral_arg(call, 1) ? 1 : n > 2 && integral_arg(call, 2) ? 2 : 0;
        bounds = count > 0 && sized_by(clang_Cursor_getArgument(call, (unsigned)count), var);
    } else if (n >= 2) {
        int first = same_type_args(call, 0, 1) ? 0 : 1;
        bounds = first + 1 < n && same_type_args(call, first, first + 1) &&
                 sized_by(clang_Cursor_getArgument(call, (unsigned)first + 1), var) &&
                 !sized_by(clang_Cursor_getArgument(call, (unsigned)first), var);
    }
    char *use = bounds ? ss_xasprintf("bounds the range of '%s' with it", name) : NULL;
    free(name);
    return use;
}

static char *wrapped_launch_use(ss_callgraph *graph, CXCursor call, CXCursor callee, CXCursor var);
static int assignment_sides(CXCursor expr, CXCursor *lhs, CXCursor *rhs);
static CXCursor target_root(CXCursor lhs, int *through);

static enum CXChildVisitResult find_use(CXCursor c, CXCursor parent, CXClientData data)
{
    use_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CXXNewExpr && sized_by(c, w->var)) {
        w->use = ss_xstrdup("sizes an allocation with it");
        w->at = c;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_CallExpr) {
        w->at = c;
        if (ss_scope_is_launch(c) && sized_by(ss_ast_child(c, 1), w->var)) {
            w->use = ss_xstrdup("sizes a launch with it");
            return CXChildVisit_Break;
        }
        if (is_allocator(c) && sized_by(c, w->var)) {
            w->use = ss_xstrdup("sizes an allocation with it");
            return CXChildVisit_Break;
        }
        w->use = thrust_range_use(c, w->var);
        if (w->use)
            return CXChildVisit_Break;
        /* A copy of as many bytes as the value says (the items a count counts): the host
         * cannot queue it without the value, as a launch it sizes. */
        const ss_api *api = ss_scope_callee_api(c);
        if (api && api->klass == SS_CLASS_COPY && api->size_arg >= 0 &&
            clang_Cursor_getNumArguments(c) > api->size_arg &&
            sized_by(clang_Cursor_getArgument(c, (unsigned)api->size_arg), w->var)) {
            w->use = ss_xstrdup("sizes a copy with it");
            return CXChildVisit_Break;
        }
        /* A function of the unit that allocates (itself or two calls down), given the value,
         * or that sizes a copy with the parameter given it (a wrapper's copy). */
        CXCursor callee = ss_callgraph_callee(w->graph, c);
        CXCursor found;
        char *wrapped = ss_ast_is_null(callee) ? NULL : wrapped_copy_use(c, callee, w->var);
        if (wrapped) {
            w->use = wrapped;
            return CXChildVisit_Break;
        }
        if (!ss_ast_is_null(callee) && sized_by(c, w->var) &&
            ss_callgraph_calls_named(w->graph, callee, allocators,
                                     sizeof allocators / sizeof allocators[0], &found)) {
            char *name = ss_qualified_name(callee);
            w->use = ss_xasprintf("passes it to '%s()', which allocates", name);
            free(name);
            return CXChildVisit_Break;
        }
        /* A wrapper that sizes a launch with the parameter given it ('linear_kernel(k, 0, s,
         * n, args...)'). */
        wrapped = ss_ast_is_null(callee) ? NULL : wrapped_launch_use(w->graph, c, callee, w->var);
        if (wrapped) {
            w->use = wrapped;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The node at the root of an assignment's left side 'lhs': 'p' of '*p', 'p[i]' or 'p->n' (then
 * '*through' is 1), or 'lhs' itself, stripped (then 0). */
static CXCursor target_root(CXCursor lhs, int *through)
{
    CXCursor e = ss_ast_strip(lhs);
    enum CXCursorKind k = clang_getCursorKind(e);
    *through = 0; /* '*p', 'p[i]', 'p->m': through the pointer */
    while ((k == CXCursor_UnaryOperator || k == CXCursor_ArraySubscriptExpr ||
            k == CXCursor_MemberRefExpr) &&
           ss_ast_child_count(e) > 0) {
        *through = 1;
        e = ss_ast_strip(ss_ast_child(e, 0));
        k = clang_getCursorKind(e);
    }
    return e;
}

/* The parameter an assignment's left side 'lhs' stores into for the caller: a reference
 * parameter ('vmin = ...'), or what a pointer parameter points to ('*count = ...', 'p[0] = ...',
 * 'p->n = ...'); a null cursor otherwise. */
static CXCursor out_parameter(CXCursor lhs)
{
    CXCursor none = clang_getNullCursor();
    int through;
    CXCursor e = target_root(lhs, &through);
    enum CXCursorKind k = clang_getCursorKind(e);
    CXCursor param = clang_getCursorReferenced(e);
    if (k != CXCursor_DeclRefExpr || clang_getCursorKind(param) != CXCursor_ParmDecl)
        return none;
    CXType t = clang_getCanonicalType(clang_getCursorType(param));
    int out = t.kind == CXType_LValueReference
                  ? !clang_isConstQualifiedType(clang_getPointeeType(t))
                  : through && t.kind == CXType_Pointer;
    return out ? param : none;
}

/* The two sides of the plain assignment 'expr' ('=' or a class's 'operator='; not '+='), into
 * '*lhs' and '*rhs'. Returns 0, or -1 when 'expr' is no such assignment. */
static int assignment_sides(CXCursor expr, CXCursor *lhs, CXCursor *rhs)
{
    CXCursor e = ss_ast_strip(expr);
    char op[8];
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator &&
        ss_ast_binary_op(e, op, sizeof op) == 0 && strcmp(op, "=") == 0) {
        *lhs = ss_ast_child(e, 0);
        *rhs = ss_ast_child(e, 1);
        return 0;
    }
    if (clang_getCursorKind(e) != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 2)
        return -1;
    CXString name = clang_getCursorSpelling(e);
    int assign = strcmp(clang_getCString(name), "operator=") == 0;
    clang_disposeString(name);
    if (!assign)
        return -1;
    *lhs = clang_Cursor_getArgument(e, 0);
    *rhs = clang_Cursor_getArgument(e, 1);
    return 0;
}

/* "hands it to the caller through 'vmin'" when 'stmt' assigns a value that names 'var' (an
 * element or member of it too) to an out parameter (out_parameter), with '=' or a class's
 * 'operator='; else NULL. */
static char *handover_use(CXCursor stmt, CXCursor var)
{
    CXCursor lhs, rhs;
    if (assignment_sides(stmt, &lhs, &rhs) != 0)
        return NULL;
    CXCursor param = out_parameter(lhs);
    if (ss_ast_is_null(param) || !refers_to(rhs, var))
        return NULL;
    CXString name = clang_getCursorSpelling(param);
    char *use = ss_xasprintf("hands it to the caller through '%s'", clang_getCString(name));
    clang_disposeString(name);
    return use;
}

/* ------------------------------------------------------------------------------------------
 * A wrapper that sizes a launch with a parameter ('linear_kernel(k, 0, s, n, args...)', which
 * launches '<<<(n + 255) / 256, 256, 0, s>>>'). */

enum { MAX_CONFIG_VARS = 8, MAX_WRAPPER_DEPTH = 2 };

/* The calls of the runtime and driver APIs that launch, and the indexes of their arguments
 * that configure the launch (grid, block, shared memory, or the config struct of the Ex
 * forms); -1 ends a row. */
typedef struct launch_config_row {
    const char *name;
    int config[8];
} launch_config_row;

static const launch_config_row launch_config_rows[] = {
    {"cudaLaunchKernel", {1, 2, 4, -1}},
    {"cudaLaunchCooperativeKernel", {1, 2, 4, -1}},
    {"cudaLaunchKernelEx", {0, -1}},
    {"cudaLaunchKernelExC", {0, -1}},
    {"cuLaunchKernel", {1, 2, 3, 4, 5, 6, 7, -1}},
    {"cuLaunchCooperativeKernel", {1, 2, 3, 4, 5, 6, 7, -1}},
    {"cuLaunchKernelEx", {0, -1}},
};

/* The parameter of 'function' that its argument 'index' binds: the index-th named parameter,
 * or a null cursor where the argument falls into a parameter pack ('Types... args') or a C
 * ellipsis, or past the parameters. */
static CXCursor bound_parameter(CXCursor function, int index)
{
    unsigned n = ss_ast_child_count(function);
    int at = 0;
    for (unsigned i = 0; i < n; i++) {
        CXCursor param = ss_ast_child(function, i);
        if (clang_getCursorKind(param) != CXCursor_ParmDecl)
            continue;
        CXString type = clang_getTypeSpelling(clang_getCursorType(param));
        int pack = strstr(clang_getCString(type), "...") != NULL;
        clang_disposeString(type);
        if (pack)
            break;
        if (at++ == index)
            return param;
    }
    return clang_getNullCursor();
}

/* The search of a wrapper's body for a launch configuration or an allocation size that reads
 * one of 'vars': the parameter, and the locals computed from it before (declared with it, or
 * assigned from it: 'unsigned blocks = (n + 255) / 256;', 'config.gridDim = blocks;'). */
typedef struct config_walk {
    ss_callgraph *graph;
    CXCursor function;
    CXCursor vars[MAX_CONFIG_VARS];
    size_t count;
    int depth;         /* wrappers above this one */
    const char *found; /* "a launch" or "an allocation" */
} config_walk;

static const char *wrapper_sizes(ss_callgraph *graph, CXCursor call, CXCursor callee,
                                 const CXCursor *vars, size_t count, int depth);

static int reads_config_var(CXCursor c, const config_walk *w)
{
    for (size_t v = 0; v < w->count; v++) {
        if (sized_by(c, w->vars[v]))
            return 1;
    }
    return 0;
}

/* Whether the call 'c' of a launching API configures the launch with one of w's vars. */
static int api_config_reads(CXCursor c, const config_walk *w)
{
    char *name = ss_scope_callee_name(c);
    int found = 0;
    for (size_t r = 0; name && r < sizeof launch_config_rows / sizeof launch_config_rows[0]; r++) {
        if (strcmp(name, launch_config_rows[r].name) != 0)
            continue;
        for (const int *a = launch_config_rows[r].config; *a >= 0 && !found; a++)
            found = clang_Cursor_getNumArguments(c) > *a &&
                    reads_config_var(clang_Cursor_getArgument(c, (unsigned)*a), w);
    }
    free(name);
    return found;
}

/* A local computed from one of w's vars, by its declaration or an assignment to it (or to a
 * member or element of it), joins them. */
static void note_computed_local(CXCursor c, config_walk *w)
{
    CXCursor local = clang_getNullCursor(), lhs, rhs;
    int through;
    if (clang_getCursorKind(c) == CXCursor_VarDecl && reads_config_var(c, w)) {
        local = c;
    } else if (assignment_sides(c, &lhs, &rhs) == 0 && reads_config_var(rhs, w)) {
        CXCursor root = target_root(lhs, &through);
        if (clang_getCursorKind(root) == CXCursor_DeclRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(root)) == CXCursor_VarDecl)
            local = clang_getCursorReferenced(root);
    }
    for (size_t v = 0; !ss_ast_is_null(local) && v < w->count; v++) {
        if (clang_equalCursors(local, w->vars[v]))
            return;
    }
    if (!ss_ast_is_null(local) && w->count < MAX_CONFIG_VARS)
        w->vars[w->count++] = local;
}

static enum CXChildVisitResult find_config(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    config_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    note_computed_local(c, w);
    if (k == CXCursor_CXXNewExpr && reads_config_var(c, w))
        w->found = "an allocation";
    if (k != CXCursor_CallExpr || w->found)
        return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
    if (ss_scope_is_launch(c)) {
        /* The kernel's own arguments do not size the launch. */
        if (reads_config_var(ss_ast_child(c, 1), w))
            w->found = "a launch";
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (api_config_reads(c, w))
        w->found = "a launch";
    else if (is_allocator(c) && reads_config_var(c, w))
        w->found = "an allocation";
    else if (w->depth + 1 < MAX_WRAPPER_DEPTH) {
        CXCursor callee = ss_callgraph_callee(w->graph, c);
        if (!ss_ast_is_null(callee) && !clang_equalCursors(callee, w->function))
            w->found = wrapper_sizes(w->graph, c, callee, w->vars, w->count, w->depth + 1);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* What the call 'call' of the function of the unit 'callee' (a template's pattern too) sizes
 * with one of the 'vars': "a launch" when an argument that reads one binds a named parameter
 * (bound_parameter: not a pack) that reaches, in the callee's body, a launch's grid, block or
 * shared memory ('<<<...>>>', cudaLaunchKernel's, a cudaLaunchKernelEx config), directly or
 * through a local computed from it, or the same through a call of another such function one
 * level down (MAX_WRAPPER_DEPTH); "an allocation" for an allocation's size; else NULL. A value
 * that is only a kernel's argument sizes nothing. An overloaded operator's call ('op(n)') is
 * not followed: its arguments may count the object it is called on. */
static const char *wrapper_sizes(ss_callgraph *graph, CXCursor call, CXCursor callee,
                                 const CXCursor *vars, size_t count, int depth)
{
    CXString spelling = clang_getCursorSpelling(callee);
    int is_operator = strncmp(clang_getCString(spelling), "operator", 8) == 0;
    clang_disposeString(spelling);
    CXCursor body = is_operator ? clang_getNullCursor() : ss_ast_body(callee);
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n && !ss_ast_is_null(body); i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        int reads = 0;
        for (size_t v = 0; v < count && !reads; v++)
            reads = sized_by(arg, vars[v]);
        CXCursor param = reads ? bound_parameter(callee, i) : clang_getNullCursor();
        if (ss_ast_is_null(param))
            continue;
        config_walk w = {graph, callee, {param}, 1, depth, NULL};
        ss_ast_visit_whole(body, body, find_config, &w);
        if (w.found)
            return w.found;
    }
    return NULL;
}

/* "passes it to 'linear_kernel()', which sizes a launch with it" when the call 'call' of the
 * function of the unit 'callee' gives it 'var' where wrapper_sizes finds a launch's
 * configuration or an allocation's size. Malloc'ed, or NULL. */
static char *wrapped_launch_use(ss_callgraph *graph, CXCursor call, CXCursor callee, CXCursor var)
{
    const char *sizes = wrapper_sizes(graph, call, callee, &var, 1, 0);
    if (sizes == NULL)
        return NULL;
    char *name = ss_qualified_name(callee);
    char *use = ss_xasprintf("passes it to '%s()', which sizes %s with it", name, sizes);
    free(name);
    return use;
}

/* How 'stmt' sizes a launch or an allocation with 'var' (find_use), the statement itself or
 * a call in it: the words, malloc'ed, and where ('*at'); or NULL. */
static char *sizing_use(ss_callgraph *graph, CXCursor stmt, CXCursor var, CXCursor *at)
{
    use_walk w = {graph, var, NULL, clang_getNullCursor()};
    ss_ast_visit_whole(stmt, stmt, find_use, &w);
    *at = w.at;
    return w.use;
}

/* The local a statement of its own declares with a value that reads 'var' ('int blocks = (n +
 * 255) / 256;'): one declarator, its initializer reading the value (sized_by: not under
 * 'sizeof'); else a null cursor. */
static CXCursor derived_local(CXCursor stmt, CXCursor var)
{
    if (clang_getCursorKind(stmt) != CXCursor_DeclStmt || ss_ast_child_count(stmt) != 1)
        return clang_getNullCursor();
    CXCursor local = ss_ast_child(stmt, 0);
    if (clang_getCursorKind(local) != CXCursor_VarDecl || !sized_by(local, var))
        return clang_getNullCursor();
    return local;
}

/* The words for a use of the derived local 'local' ("sizes a launch with it"): "sizes a
 * launch with 'blocks', computed from 'n'". Frees 'use'. */
static char *derived_words(char *use, CXCursor local, CXCursor var)
{
    CXString name = clang_getCursorSpelling(local);
    CXString from = clang_getCursorSpelling(var);
    size_t len = strlen(use);
    char *words = len > 3 && strcmp(use + len - 3, " it") == 0
                      ? ss_xasprintf("%.*s '%s', computed from '%s'", (int)(len - 3), use,
                                     clang_getCString(name), clang_getCString(from))
                      : ss_xasprintf("%s ('%s', computed from '%s')", use, clang_getCString(name),
                                     clang_getCString(from));
    clang_disposeString(from);
    clang_disposeString(name);
    free(use);
    return words;
}

/* How the block 'body' an 'if' runs sizes work with a local it declares from 'var' ('if (n >
 * 0) { int blocks = (n + 255) / 256; k<<<blocks, 256>>>(...); }'): the words ("sizes a launch
 * with 'blocks', computed from 'n'"), malloc'ed, and where ('*at'); or NULL. Up to three such
 * locals (derived_local), each declared in a statement of its own before the use; a local
 * that any statement between names (it may be assigned, or its address taken) is dropped. */
static char *derived_sizing_use(ss_callgraph *graph, CXCursor body, CXCursor var, CXCursor *at)
{
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return NULL;
    CXCursor derived[3];
    size_t count = 0;
    unsigned n = ss_ast_child_count(body);
    for (unsigned i = 0; i < n; i++) {
        CXCursor stmt = ss_ast_child(body, i);
        for (size_t d = 0; d < count; d++) {
            char *use = sizing_use(graph, stmt, derived[d], at);
            if (use)
                return derived_words(use, derived[d], var);
        }
        size_t kept = 0;
        for (size_t d = 0; d < count; d++)
            if (!refers_to(stmt, derived[d]))
                derived[kept++] = derived[d];
        count = kept;
        CXCursor local = derived_local(stmt, var);
        if (!ss_ast_is_null(local) && count < 3)
            derived[count++] = local;
    }
    return NULL;
}

/* "branches on it" when the condition of the branch or loop 'stmt' names 'var', with ", and
 * line 14 sizes a launch with it" when the branch an 'if' runs then does so ('if (n > 0)
 * k<<<n, 256>>>(...);', or through a local the branch computes from it, derived_sizing_use:
 * '*sizes' is set to 1); else NULL. */
static char *branch_use(ss_callgraph *graph, CXCursor stmt, CXCursor var, int *sizes)
{
    /* The condition: the first child that is an expression (or a declaration); the body, and
     * an if's else, come after it. */
    unsigned n = ss_ast_child_count(stmt);
    for (unsigned i = 0; i < n; i++) {
        CXCursor c = ss_ast_child(stmt, i);
        if (!clang_isExpression(clang_getCursorKind(c)) &&
            clang_getCursorKind(c) != CXCursor_DeclStmt)
            continue;
        if (!refers_to(c, var))
            return NULL;
        CXCursor at;
        int then = clang_getCursorKind(stmt) == CXCursor_IfStmt && i + 1 < n;
        char *sized = then ? sizing_use(graph, ss_ast_child(stmt, i + 1), var, &at) : NULL;
        if (then && sized == NULL)
            sized = derived_sizing_use(graph, ss_ast_child(stmt, i + 1), var, &at);
        if (sized == NULL)
            return ss_xstrdup("branches on it");
        *sizes = 1;
        char *words =
            ss_scope_line(at) == ss_scope_line(stmt)
                ? ss_xasprintf("branches on it and %s", sized)
                : ss_xasprintf("branches on it, and line %u %s", ss_scope_line(at), sized);
        free(sized);
        return words;
    }
    return NULL;
}

/* How 'stmt' needs 'var' at once, in words ("sizes an allocation with it"), malloc'ed, or NULL;
 * '*sizes' is set to 1 when the value sizes a launch or an allocation (the host cannot queue
 * that work without it), else 0. */
static char *statement_use(ss_callgraph *graph, CXCursor stmt, CXCursor var, int *sizes)
{
    *sizes = 0;
    switch (clang_getCursorKind(stmt)) {
    case CXCursor_IfStmt:
    case CXCursor_WhileStmt:
    case CXCursor_SwitchStmt:
        return branch_use(graph, stmt, var, sizes);
    case CXCursor_ReturnStmt:
        return refers_to(stmt, var) ? ss_xstrdup("returns it") : NULL;
    default: {
        char *handover = handover_use(stmt, var);
        if (handover)
            return handover;
        /* The statement itself may be the call ('v.resize(n);'). */
        CXCursor at;
        char *use = sizing_use(graph, stmt, var, &at);
        *sizes = use != NULL;
        return use;
    }
    }
}

/* Whether 'stmt' only waits for the device or checks an error: a call of a synchronizing API
 * in it, and no other statement. */
typedef struct sync_walk {
    int found;
} sync_walk;

static enum CXChildVisitResult find_sync(CXCursor c, CXCursor parent, CXClientData data)
{
    sync_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && (api->klass == SS_CLASS_STREAM_SYNC || api->klass == SS_CLASS_DEVICE_SYNC ||
                api->klass == SS_CLASS_EVENT_SYNC)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_context_is_wait(CXCursor stmt)
{
    switch (clang_getCursorKind(stmt)) {
    case CXCursor_CallExpr:
    case CXCursor_DoStmt:       /* an error-checking macro */
    case CXCursor_CompoundStmt: /* one written as a bare block */
    case CXCursor_UnexposedExpr:
    case CXCursor_BinaryOperator: /* err = cudaStreamSynchronize(s) */
    case CXCursor_DeclStmt:
        break;
    default:
        return 0;
    }
    sync_walk w = {0};
    if (clang_getCursorKind(stmt) == CXCursor_CallExpr)
        find_sync(stmt, stmt, &w);
    if (!w.found)
        clang_visitChildren(stmt, find_sync, &w);
    return w.found;
}

/* The variable a copy's destination names: '&x', 'x', 'x.data()', '&x[0]', 'x + i'. */
static CXCursor destination_var(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr) {
            CXCursor var = clang_getCursorReferenced(e);
            enum CXCursorKind vk = clang_getCursorKind(var);
            return vk == CXCursor_VarDecl || vk == CXCursor_ParmDecl ? var : clang_getNullCursor();
        }
        if (k == CXCursor_UnaryOperator || k == CXCursor_ArraySubscriptExpr ||
            k == CXCursor_BinaryOperator || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr)
            e = ss_ast_strip(ss_ast_child(e, 0));
        else
            break;
    }
    return clang_getNullCursor();
}

/* What a copy's destination 'dst' holds the value in: the field it names, the first met from the
 * outside ('ds[d].err.data()': 'err'; '&p->n': 'n'), so that another member of the same object
 * is not taken for the value; else destination_var's variable. */
static CXCursor destination_value(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_MemberRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_FieldDecl)
            return clang_getCursorReferenced(e);
        if (k != CXCursor_UnaryOperator && k != CXCursor_ArraySubscriptExpr &&
            k != CXCursor_BinaryOperator && k != CXCursor_MemberRefExpr && k != CXCursor_CallExpr)
            break;
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    return destination_var(dst);
}

/* The variable the statement 'stmt' declares or assigns ('T x = ...', 'x = ...'), or a null
 * cursor. */
static CXCursor assigned_var(CXCursor stmt)
{
    if (clang_isExpression(clang_getCursorKind(stmt))) /* 'g = dim3(...)': its temporary's */
        stmt = ss_ast_strip(stmt);
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_DeclStmt) {
        CXCursor var = ss_ast_child(stmt, 0);
        return clang_getCursorKind(var) == CXCursor_VarDecl ? var : clang_getNullCursor();
    }
    if (k == CXCursor_BinaryOperator) /* x = ... */
        return destination_var(ss_ast_child(stmt, 0));
    if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(stmt) == 2) { /* operator= */
        CXString name = clang_getCursorSpelling(stmt);
        int assign = strcmp(clang_getCString(name), "operator=") == 0;
        clang_disposeString(name);
        if (assign)
            return destination_var(clang_Cursor_getArgument(stmt, 0));
    }
    if (k == CXCursor_CallExpr) /* what a method is called on */
        return destination_var(ss_ast_child(stmt, 0));
    return clang_getNullCursor();
}

/* The value a readback gives the host: the destination of a device-to-host copy or of a cuBLAS
 * call's host result, or the variable a call's result initializes or is assigned to ('stmt'
 * holds the call). */
static CXCursor value_var(ss_check_ctx *ctx, CXCursor at, CXCursor stmt)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api) {
        if (api->dst_arg < 0)
            return clang_getNullCursor();
        CXCursor dst, src;
        int kind = ss_copy_kind(ctx->function, at, api, &dst, &src);
        if (kind != SS_COPY_KIND_D2H)
            return clang_getNullCursor();
        /* '&axis' in a method: the member of its object. */
        CXCursor e = ss_ast_strip(dst);
        if (clang_getCursorKind(e) == CXCursor_UnaryOperator)
            e = ss_ast_strip(ss_ast_child(e, 0));
        if (is_own_member(e))
            return clang_getCursorReferenced(e);
        return destination_value(dst);
    }
    /* A cuBLAS call that returns its result into host memory: that memory. */
    CXCursor result;
    char *cublas = ss_cublas_host_result(0, at, &result);
    if (cublas) {
        free(cublas);
        return destination_value(result);
    }
    return assigned_var(stmt);
}

/* Whether 'stmt' is a 'do { ... } while (0)', the shape of a macro written as a statement. */
static int once_do(CXCursor stmt)
{
    long long value = 1;
    return ss_ast_eval_int(ss_ast_child(stmt, 1), &value) == 0 && value == 0;
}

/* The variables 'std::tie(a, b) = ...' in 'stmt' unpacks a value into. */
typedef struct tie_walk {
    CXCursor *vars;
    size_t max, count;
    int in_tie;
} tie_walk;

static enum CXChildVisitResult find_tie(CXCursor c, CXCursor parent, CXClientData data)
{
    tie_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!w->in_tie && k == CXCursor_CallExpr) {
        char *name = ss_scope_callee_name(c);
        int tie = name && strcmp(name, "tie") == 0;
        free(name);
        if (tie) {
            w->in_tie = 1;
            clang_visitChildren(c, find_tie, w);
            w->in_tie = 0;
            return CXChildVisit_Break;
        }
    }
    if (w->in_tie && k == CXCursor_DeclRefExpr && w->count < w->max) {
        CXCursor var = clang_getCursorReferenced(c);
        if (clang_getCursorKind(var) == CXCursor_VarDecl)
            w->vars[w->count++] = var;
    }
    return CXChildVisit_Recurse;
}

static size_t tie_vars(CXCursor stmt, CXCursor *vars, size_t max)
{
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k != CXCursor_CallExpr && k != CXCursor_UnexposedExpr)
        return 0;
    tie_walk w = {vars, max, 0, 0};
    clang_visitChildren(stmt, find_tie, &w);
    return w.count;
}

/* "inherent: ..." when the node 'up' holds the call (through 'child') where the host needs its
 * value at once: as the condition of a branch, the value returned or the size of an
 * allocation (only that with 'sizing_only'). Malloc'ed, or NULL. */
static char *holder_words(CXCursor up, CXCursor child, int sizing_only)
{
    enum CXCursorKind k = clang_getCursorKind(up);
    if ((k == CXCursor_CallExpr && is_allocator(up)) || k == CXCursor_CXXNewExpr)
        return ss_xstrdup("inherent: the host sizes an allocation with the value at once");
    if (sizing_only)
        return NULL;
    if ((k == CXCursor_IfStmt || k == CXCursor_WhileStmt || k == CXCursor_SwitchStmt) &&
        clang_isExpression(clang_getCursorKind(child)))
        return ss_xstrdup("inherent: the host branches on the value at once");
    if (k == CXCursor_ReturnStmt)
        return ss_xstrdup("inherent: the host returns the value at once");
    return NULL;
}

enum { MAX_BLOCK = 256 };

/* The statements of the block 'block' (MAX_BLOCK at most), the empty ones (the ';' after a
 * macro written as a block) left out, into 'stmts'. Returns how many, and sets '*index' to
 * that of 'child' (0 when it is not there). */
static unsigned block_statements(CXCursor block, CXCursor child, CXCursor *stmts, unsigned *index)
{
    unsigned n = 0;
    *index = 0;
    for (unsigned s = 0, all = ss_ast_child_count(block); s < all && n < MAX_BLOCK; s++) {
        CXCursor stmt = ss_ast_child(block, s);
        if (clang_getCursorKind(stmt) == CXCursor_NullStmt)
            continue;
        if (ss_ast_same_node(stmt, child))
            *index = n;
        stmts[n++] = stmt;
    }
    return n;
}

/* Whether an identifier names a check or a log line: one of its words (split at '_' and
 * before a capital) is one of these ('MNN_ASSERT', 'CHECK_GE', 'LOG', 'printf'). */
static const char *const aside_words[] = {
    "assert",  "check", "dcheck", "log",    "vlog",   "print",  "printf", "puts",
    "fprintf", "trace", "debug",  "verify", "expect", "ensure", "warn",   "warning"};

static int names_check_or_log(const char *name)
{
    for (const char *p = name; *p;) {
        while (*p == '_')
            p++;
        const char *start = p;
        if (*p)
            p++;
        while (*p && *p != '_' && !(p[0] >= 'A' && p[0] <= 'Z' && p[-1] >= 'a' && p[-1] <= 'z'))
            p++;
        size_t len = (size_t)(p - start);
        for (size_t i = 0; len > 0 && i < sizeof aside_words / sizeof aside_words[0]; i++) {
            if (strlen(aside_words[i]) == len && strncasecmp(start, aside_words[i], len) == 0)
                return 1;
        }
    }
    return 0;
}

/* The first token of 'stmt' where the program writes it (a macro's name for a statement a
 * macro expands to), malloc'ed, or NULL. */
static char *first_token(CXCursor stmt)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(stmt);
    CXFile file = NULL;
    unsigned offset;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(stmt)), &file, NULL, NULL,
                               &offset);
    if (file == NULL)
        return NULL;
    CXToken *tok = clang_getToken(tu, clang_getLocationForOffset(tu, file, offset));
    if (tok == NULL)
        return NULL;
    char *text = NULL;
    if (clang_getTokenKind(*tok) == CXToken_Identifier) {
        CXString sp = clang_getTokenSpelling(tu, *tok);
        text = ss_xstrdup(clang_getCString(sp));
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, tok, 1);
    return text;
}

/* What a statement between a readback and the use of its value calls and writes. */
typedef struct aside_walk {
    const CXCursor *vars;
    size_t var_count;
    int access_only; /* every call must be an overloaded '[]', '*' or '->' */
    int refused;
} aside_walk;

static enum CXChildVisitResult find_not_aside(CXCursor c, CXCursor parent, CXClientData data)
{
    aside_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        CXString name = clang_getCursorSpelling(callee);
        const char *text = clang_getCString(name);
        int access = text && (strcmp(text, "operator[]") == 0 || strcmp(text, "operator*") == 0 ||
                              strcmp(text, "operator->") == 0);
        clang_disposeString(name);
        /* A function of the C or C++ library, or one this unit defines (ss_context_does_device
         * work looks into those); another unit's may queue work. */
        int known = !ss_ast_is_null(callee) && (ss_ast_in_system_header(callee) ||
                                                !ss_ast_is_null(clang_getCursorDefinition(callee)));
        w->refused = w->access_only ? !access : !known;
    } else if (k == CXCursor_CXXNewExpr || k == CXCursor_LambdaExpr) {
        w->refused = 1;
    } else if (k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator ||
               k == CXCursor_UnaryOperator) {
        /* It may not write the value: 'x = ...', 'x += ...', '++x', '&x'. */
        char op[8] = "";
        CXCursor target = ss_ast_strip(ss_ast_child(c, 0));
        int writes = k == CXCursor_CompoundAssignOperator;
        if (k == CXCursor_BinaryOperator)
            writes = ss_ast_binary_op(c, op, sizeof op) == 0 && strcmp(op, "=") == 0;
        if (k == CXCursor_UnaryOperator) {
            char *text = ss_expr_text(c);
            writes = text == NULL || text[0] == '&' || strstr(text, "++") || strstr(text, "--");
            free(text);
        }
        for (size_t v = 0; writes && v < w->var_count && !w->refused; v++)
            w->refused = names_var(target, w->vars[v]);
    }
    return w->refused ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'stmt' is an 'if' whose one branch runs only when a CUDA call failed and that has no
 * other ('if ((err = cudaGetLastError()) != cudaSuccess) { report; exit(1); }',
 * ss_context_failure_branch), or a bare block of such 'if's and declarations (a checking
 * macro's '{ cudaError_t err; if (...) ... }'): an error check. */
static int failure_check(ss_callgraph *graph, CXCursor stmt)
{
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt) {
        unsigned n = ss_ast_child_count(stmt);
        int checks = n > 0;
        for (unsigned i = 0; i < n && checks; i++) {
            CXCursor part = ss_ast_child(stmt, i);
            checks = clang_getCursorKind(part) == CXCursor_DeclStmt || failure_check(graph, part);
        }
        return checks;
    }
    if (clang_getCursorKind(stmt) != CXCursor_IfStmt)
        return 0;
    int throws = 0;
    unsigned cond = ss_ast_if_condition(stmt);
    unsigned failure = ss_context_failure_branch(graph, stmt, &throws);
    return failure > 0 && failure == cond + 1 && ss_ast_child_count(stmt) == cond + 2;
}

/* Whether 'stmt', between a readback and the statement that uses its value, costs the host
 * nothing the wait could overlap: it queues no device work, calls only the C or C++ library's
 * functions or the unit's own, does not write the value, and is an assertion, a check or a log
 * line (a macro or a call named so, 'MNN_ASSERT(...)', 'assert(...)', 'printf(...)'; it may
 * read the value; or an error check, failure_check), or a declaration that does not read the value
 * and only names an element or a member ('Tensor *first = inputs[0];'). */
static int is_aside(ss_callgraph *graph, CXCursor stmt, const CXCursor *vars, size_t var_count)
{
    if (ss_context_does_device_work(graph, stmt))
        return 0;
    int declaration = clang_getCursorKind(stmt) == CXCursor_DeclStmt;
    if (declaration) {
        for (size_t v = 0; v < var_count; v++) {
            if (refers_to(stmt, vars[v]))
                return 0;
        }
    } else {
        char *name = first_token(stmt);
        int named = (name && names_check_or_log(name)) || failure_check(graph, stmt);
        free(name);
        if (!named)
            return 0;
    }
    aside_walk w = {vars, var_count, declaration, 0};
    ss_ast_visit_whole(stmt, stmt, find_not_aside, &w);
    return !w.refused;
}

/* How the statements after a readback are searched for a use of its value (next_use_words),
 * and the locals the value was copied into at the end of a block, for the block around. */
typedef struct use_search {
    int sizing_only; /* inside a loop: only a launch's or an allocation's size counts */
    CXCursor wait;   /* the search starts after this wait, past statements that do not use the
                      * value (wait_past_apart); or a null cursor */
    CXCursor copy;   /* for a wait's finding: the readback it waits for; or a null cursor */
    CXCursor writer; /* for a wait's finding: the launch it waits for that writes pinned host
                      * memory the host then reads (ss_context_pinned_writer); or a null
                      * cursor */
    CXCursor vars[3];
    size_t count;
    int past_wait; /* the statements searched come after a wait for the value (callers_words) */
} use_search;

/* The words for a use of the value at 'next' ('use': "sizes a launch with it"), as 'search'
 * found it. Malloc'ed. */
static char *use_words(const use_search *search, CXCursor next, const char *use)
{
    if (!ss_ast_is_null(search->writer))
        return ss_xasprintf("inherent: it waits for the kernel launched at line %u, which writes "
                            "pinned host memory, and the next statement reads it (line %u %s)",
                            ss_scope_line(search->writer), ss_scope_line(next), use);
    if (!ss_ast_is_null(search->copy))
        return ss_xasprintf("inherent: it waits for the value read back at line %u, and the "
                            "next statement needs it (line %u %s)",
                            ss_scope_line(search->copy), ss_scope_line(next), use);
    if (!ss_ast_is_null(search->wait))
        return ss_xasprintf("inherent: the statement after the wait at line %u needs the value "
                            "(line %u %s); the statements before the wait do not use it",
                            ss_scope_line(search->wait), ss_scope_line(next), use);
    return ss_xasprintf("inherent: the next statement needs the value (line %u %s)",
                        ss_scope_line(next), use);
}

/* ------------------------------------------------------------------------------------------
 * The next device work needs the value. */

enum { MAX_AHEAD = 12 };

/* The statements after stmts[at_index], a bare block's ('{ ... }') taken one by one in its
 * place, MAX_AHEAD at most, into 'ahead'. Returns how many. */
static unsigned statements_ahead(const CXCursor *stmts, unsigned n, unsigned at_index,
                                 CXCursor *ahead)
{
    unsigned count = 0;
    for (unsigned s = at_index + 1; s < n && count < MAX_AHEAD; s++) {
        CXCursor stmt = stmts[s];
        if (clang_getCursorKind(stmt) != CXCursor_CompoundStmt || !ss_ast_written_as(stmt, "{")) {
            ahead[count++] = stmt;
            continue;
        }
        for (unsigned c = 0, all = ss_ast_child_count(stmt); c < all && count < MAX_AHEAD; c++) {
            CXCursor inner = ss_ast_child(stmt, c);
            if (clang_getCursorKind(inner) != CXCursor_NullStmt)
                ahead[count++] = inner;
        }
    }
    return count;
}

static int host_only(ss_callgraph *graph, CXCursor stmt);

/* The first copy in 'stmt' (the statement itself or a call in it) for which 'match' is true,
 * given its row and direction (ss_copy_kind); or a null cursor. */
typedef struct copy_walk {
    CXCursor function;
    int (*match)(const ss_api *api, int kind);
    CXCursor found;
} copy_walk;

static enum CXChildVisitResult find_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    copy_walk *w = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    CXCursor dst, src;
    if (api && api->klass == SS_CLASS_COPY &&
        w->match(api, ss_copy_kind(w->function, c, api, &dst, &src)))
        w->found = c;
    return ss_ast_is_null(w->found) ? CXChildVisit_Recurse : CXChildVisit_Break;
}

static CXCursor copy_in(CXCursor function, CXCursor stmt, int (*match)(const ss_api *, int))
{
    copy_walk w = {function, match, clang_getNullCursor()};
    ss_ast_visit_whole(stmt, stmt, find_copy, &w);
    return w.found;
}

/* A copy to the host. */
static int is_copy_back(const ss_api *api, int kind)
{
    return kind == SS_COPY_KIND_D2H;
}

/* A synchronous copy within the device, or one whose direction lint cannot tell ('cudaMemcpy'
 * device to device, 'cudaMemcpyPeer', 'cudaMemcpyDefault' between device pointers): device
 * work, queued on the legacy stream, that a device-wide wait waits for, as it does for a
 * launch. */
static int is_device_copy(const ss_api *api, int kind)
{
    return api->sync == SS_SYNC_ALWAYS && ss_sync_copy_queued(kind);
}

/* Whether 'stmt' queues device work beside what ss_context_does_device_work sees: a
 * synchronous copy within the device (is_device_copy), a synchronous memset ('cudaMemset',
 * 'cuMemsetD32' of device memory return once it is queued on the legacy stream), or a call of
 * a function of the unit or a lambda that makes one (ss_scope_has_work with
 * SS_SCOPE_DEVICE_WORK, one call down). A device-wide wait waits for that work too. */
typedef struct device_call_walk {
    ss_check_ctx *ctx;
    int found;
} device_call_walk;

static enum CXChildVisitResult find_device_call(CXCursor c, CXCursor parent, CXClientData data)
{
    device_call_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    CXCursor dst, src;
    if (api && api->klass == SS_CLASS_COPY) {
        w->found = is_device_copy(api, ss_copy_kind(w->ctx->function, c, api, &dst, &src));
    } else if (api) {
        w->found = api->klass == SS_CLASS_MEMSET && api->sync == SS_SYNC_ALWAYS;
    } else {
        ss_callgraph *graph = ss_check_graph(w->ctx);
        CXCursor callee = ss_callgraph_callee(graph, c);
        if (ss_ast_is_null(callee))
            callee = ss_scope_called_lambda(c);
        w->found = !ss_ast_is_null(callee) &&
                   ss_callgraph_own_work(graph, callee, SS_SCOPE_DEVICE_WORK, NULL);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int queues_device_work(ss_check_ctx *ctx, CXCursor stmt)
{
    device_call_walk w = {ctx, 0};
    ss_ast_visit_whole(stmt, stmt, find_device_call, &w);
    return w.found;
}

/* Whether 'stmt' leaves the iteration or the function and does nothing else: 'continue;',
 * 'break;', 'return x;' (a return of host code only). */
static int only_leaves(ss_callgraph *graph, CXCursor stmt)
{
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt && ss_ast_child_count(stmt) == 1)
        stmt = ss_ast_child(stmt, 0);
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt)
        return 1;
    return k == CXCursor_ReturnStmt && host_only(graph, stmt);
}

/* Whether 'stmt' only assigns one of the 'vars' ('n = MAX;'). */
static int only_clamps(CXCursor stmt, const CXCursor *vars, size_t var_count)
{
    if (clang_getCursorKind(stmt) == CXCursor_CompoundStmt && ss_ast_child_count(stmt) == 1)
        stmt = ss_ast_child(stmt, 0);
    CXCursor var = assigned_var(stmt);
    for (size_t v = 0; !ss_ast_is_null(var) && v < var_count; v++) {
        if (clang_equalCursors(var, vars[v]))
            return clang_getCursorKind(stmt) != CXCursor_DeclStmt;
    }
    return 0;
}

/* Whether 'stmt' is a guard on the value ('if (n == 0) continue;') or a clamp of it ('if (n >
 * MAX) n = MAX;'): an 'if' without 'else' whose condition names one of the 'vars' and whose
 * branch only leaves or only assigns the value. */
static int guards_value(ss_callgraph *graph, CXCursor stmt, const CXCursor *vars, size_t var_count)
{
    if (clang_getCursorKind(stmt) != CXCursor_IfStmt || ss_ast_child_count(stmt) != 2)
        return 0;
    int named = 0;
    for (size_t v = 0; v < var_count && !named; v++)
        named = refers_to(ss_ast_child(stmt, 0), vars[v]);
    CXCursor branch = ss_ast_child(stmt, 1);
    return named && (only_leaves(graph, branch) || only_clamps(branch, vars, var_count));
}

static const char *const wall_clocks[] = {SS_WALL_CLOCK_CALLS};

/* Whether the call 'c' reads a time stamp: a function of the unit given no argument that reads
 * the wall clock (itself or two calls down; 'double t2 = get_time();'). */
static int reads_time_stamp(ss_callgraph *graph, CXCursor c)
{
    CXCursor callee = ss_callgraph_callee(graph, c), found;
    return !ss_ast_is_null(callee) && clang_Cursor_getNumArguments(c) == 0 &&
           ss_callgraph_calls_named(graph, callee, wall_clocks,
                                    sizeof wall_clocks / sizeof wall_clocks[0], &found);
}

/* Whether 'stmt' is host code of the C or C++ library only: every call in it a function of a
 * system header ('ceil', 'dim3', its '='), or a time stamp read (reads_time_stamp), no 'new',
 * no lambda, and no device work. Another function of the program, this unit's too, may do host
 * work that could come before the readback. */
typedef struct own_call_walk {
    ss_callgraph *graph;
    int refused;
} own_call_walk;

static enum CXChildVisitResult find_own_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    own_call_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        w->refused = (ss_ast_is_null(callee) || !ss_ast_in_system_header(callee)) &&
                     !reads_time_stamp(w->graph, c);
    } else if (k == CXCursor_CXXNewExpr || k == CXCursor_LambdaExpr) {
        w->refused = 1;
    }
    return w->refused ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int host_only(ss_callgraph *graph, CXCursor stmt)
{
    if (ss_context_does_device_work(graph, stmt) ||
        ss_scope_has_work(stmt, SS_SCOPE_ENQUEUES, NULL))
        return 0;
    own_call_walk w = {graph, 0};
    ss_ast_visit_whole(stmt, stmt, find_own_call, &w);
    return !w.refused;
}

int ss_context_host_only(ss_check_ctx *ctx, CXCursor stmt)
{
    return host_only(ss_check_graph(ctx), stmt) && !queues_device_work(ctx, stmt);
}

char *ss_context_sizing_use(ss_callgraph *graph, CXCursor stmt, CXCursor var, CXCursor *at)
{
    return sizing_use(graph, stmt, var, at);
}

int ss_context_reads_value(CXCursor c, CXCursor var)
{
    return sized_by(c, var);
}

/* The words for the next device work ('next') sizing itself with the value, 'use' saying how,
 * as 'search' found it. Malloc'ed. */
static char *work_words(const use_search *search, CXCursor next, const char *use)
{
    if (!ss_ast_is_null(search->writer))
        return ss_xasprintf("inherent: it waits for the kernel launched at line %u, which writes "
                            "pinned host memory, and the next device work needs what it wrote "
                            "(line %u %s)",
                            ss_scope_line(search->writer), ss_scope_line(next), use);
    if (!ss_ast_is_null(search->copy))
        return ss_xasprintf("inherent: it waits for the value read back at line %u, and the "
                            "next device work needs it (line %u %s)",
                            ss_scope_line(search->copy), ss_scope_line(next), use);
    if (!ss_ast_is_null(search->wait))
        return ss_xasprintf("inherent: the next device work after the wait at line %u needs "
                            "the value (line %u %s)",
                            ss_scope_line(search->wait), ss_scope_line(next), use);
    return ss_xasprintf("inherent: the next device work needs the value (line %u %s); the "
                        "statements before it only test, bound or compute with it on the host",
                        ss_scope_line(next), use);
}

/* How a statement's use of the value sizes the next device work, in words, for the value or
 * local 'var' (the v-th of the search's, 'given' when the caller gave it): the use as
 * statement_use says it, naming the local a value was computed into. Malloc'ed. */
static char *sized_words(const char *use, CXCursor var, int given)
{
    CXString name = clang_getCursorSpelling(var);
    size_t len = strlen(use);
    int with_it = len > 8 && strcmp(use + len - 8, " with it") == 0;
    /* A use that ends naming the local already ("..., computed from 'size'"). */
    size_t named = strlen(clang_getCString(name)) + 2;
    int names = len > named && use[len - 1] == '\'' &&
                strncmp(use + len - named + 1, clang_getCString(name), named - 2) == 0 &&
                use[len - named] == '\'';
    char *how = given     ? ss_xstrdup(use)
                : with_it ? ss_xasprintf("%.*s with '%s', computed from it", (int)(len - 8), use,
                                         clang_getCString(name))
                : names   ? ss_xasprintf("%s, computed from it", use)
                        : ss_xasprintf("%s ('%s', computed from it)", use, clang_getCString(name));
    clang_disposeString(name);
    return how;
}

/* The search for the next device work after a readback (next_work_words): the values it sizes
 * work with (the given ones first, then locals computed from them), and what it found. */
enum { WORK_FOUND, WORK_BLOCKED, WORK_PASSED, WORK_NOT_OWN };
enum { MAX_WORK_DEPTH = 2 };

typedef struct work_search {
    ss_check_ctx *ctx;
    CXCursor vars[8];
    size_t var_count, given_count;
    int waited;    /* the walk is past the wait for the value: before it, a call of the
                    * program may make the wait another stream's (inherent_rebound_calls.cu) */
    int own;       /* the value is a member of the object the walk's method runs on: a method
                    * of it may use it, and a field counts only on that object (own_fields) */
    char *how;     /* how the next device work needs the value, malloc'ed, once found */
    CXCursor next; /* the statement of the first block that holds it */
} work_search;

static int work_in(work_search *s, const CXCursor *ahead, unsigned count, int depth);
static int stores(CXCursor c);

/* Whether the statement 'stmt' only marks the stream's progress: every call in it records an
 * event or makes a stream wait for one ('cudaEventRecord', 'cudaStreamWaitEvent'), or is a
 * function of the C or C++ library (an error check's), and it stores nothing. The device has no
 * work in it that a later wait could overlap. */
typedef struct mark_walk {
    CXCursor stmt;
    int marks, other;
} mark_walk;

/* The expansion offset of the location 'loc' in its file. */
static unsigned offset_of(CXSourceLocation loc)
{
    unsigned offset = 0;
    clang_getExpansionLocation(loc, NULL, NULL, NULL, &offset);
    return offset;
}

/* Whether the store 'c' writes a local that the statement 'stmt' itself declares (an error
 * check's 'int ret; if ((ret = cudaEventRecord(...)) != 0) ...'). */
static int stores_own_local(CXCursor stmt, CXCursor c)
{
    int through = 0;
    if (clang_getCursorKind(c) == CXCursor_CallExpr || ss_ast_child_count(c) == 0)
        return 0;
    CXCursor target = target_root(ss_ast_child(c, 0), &through);
    CXCursor decl = clang_getCursorReferenced(target);
    if (through || clang_getCursorKind(target) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(decl) != CXCursor_VarDecl)
        return 0;
    CXSourceRange range = clang_getCursorExtent(stmt);
    unsigned at = offset_of(clang_getCursorLocation(decl));
    return at >= offset_of(clang_getRangeStart(range)) && at < offset_of(clang_getRangeEnd(range));
}

static enum CXChildVisitResult find_mark(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    mark_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* An error check's 'if ((err = cudaEventRecord(...)) != 0) { report; }': the mark is in the
     * condition, and the branch, which runs only on failure, queues no device work. */
    unsigned n = k == CXCursor_IfStmt ? ss_ast_child_count(c) : 0;
    if (n >= 2) {
        int marks = w->marks;
        ss_ast_visit_whole(ss_ast_child(c, 0), ss_ast_child(c, 0), find_mark, w);
        for (unsigned i = 1; i < n && w->marks > marks && !w->other; i++)
            w->other = ss_scope_has_work(ss_ast_child(c, i), SS_SCOPE_ENQUEUES, NULL);
        if (w->marks > marks || w->other)
            return w->other ? CXChildVisit_Break : CXChildVisit_Continue;
        return CXChildVisit_Recurse;
    }
    if (k == CXCursor_LambdaExpr || (stores(c) && !stores_own_local(w->stmt, c))) {
        w->other = 1;
    } else if (k == CXCursor_CallExpr) {
        const ss_api *api = ss_scope_callee_api(c);
        CXCursor callee = clang_getCursorReferenced(c);
        if (api && (api->klass == SS_CLASS_EVENT_RECORD || api->klass == SS_CLASS_STREAM_WAIT))
            w->marks++;
        else if (api || ss_ast_is_null(callee) || !ss_ast_in_system_header(callee))
            w->other = 1;
    }
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int only_marks(CXCursor stmt)
{
    mark_walk w = {stmt, 0, 0};
    ss_ast_visit_whole(stmt, stmt, find_mark, &w);
    return w.marks > 0 && !w.other;
}

/* Whether 'stmt', which reads the value, is host code lint can see whole: no device work (here
 * or in the unit's functions it calls), no 'new' or lambda, and every call a function of the C
 * or C++ library or one whose definition the unit has, or inside a statement that is a check
 * or a log line, or a call written so ('LOG_WARN << ...', 'assert(...)'; names_check_or_log).
 * Such a statement
 * cannot come before the readback, since it reads what the readback brings. */
typedef struct seen_walk {
    int refused, depth; /* depth: the unit's functions entered (their bodies are seen too) */
} seen_walk;

enum { MAX_SEEN_DEPTH = 3 };

static enum CXChildVisitResult find_unseen(CXCursor c, CXCursor parent, CXClientData data)
{
    seen_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((clang_isStatement(k) && k != CXCursor_CompoundStmt) || k == CXCursor_CallExpr) {
        char *name = first_token(c);
        int aside = name && names_check_or_log(name);
        free(name);
        if (aside)
            return CXChildVisit_Continue;
    }
    if (k == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        CXCursor def = ss_ast_is_null(callee) ? callee : clang_getCursorDefinition(callee);
        int library = !ss_ast_is_null(callee) && ss_ast_in_system_header(callee);
        w->refused = ss_ast_is_null(callee) || (!library && ss_ast_is_null(def));
        /* The unit's function is seen whole where its body is: another unit's function it calls
         * ('report(c)' calling 'publish(c[0].end)') may queue device work; an override of a
         * virtual one is not seen. */
        if (!w->refused && !library) {
            CXCursor body = ss_ast_body(def);
            w->refused = w->depth >= MAX_SEEN_DEPTH || ss_ast_is_null(body) ||
                         (clang_getCursorKind(callee) == CXCursor_CXXMethod &&
                          clang_CXXMethod_isVirtual(callee));
            if (!w->refused) {
                w->depth++;
                ss_ast_visit_whole(body, body, find_unseen, w);
                w->depth--;
            }
        }
    } else if (k == CXCursor_CXXNewExpr || k == CXCursor_LambdaExpr) {
        w->refused = 1;
    }
    (void)parent;
    return w->refused ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int seen_host_code(ss_check_ctx *ctx, CXCursor stmt)
{
    if (ss_context_does_device_work(ss_check_graph(ctx), stmt) ||
        ss_scope_has_work(stmt, SS_SCOPE_ENQUEUES, NULL) || queues_device_work(ctx, stmt))
        return 0;
    seen_walk w = {0};
    ss_ast_visit_whole(stmt, stmt, find_unseen, &w);
    return !w.refused;
}

/* For a statement that is a call of a method on the same object ('CopyQueue();',
 * 'this->CopyQueue();'), the search through the method's body with the members among the
 * values (work_in): WORK_FOUND with '*s' saying "calls 'Decoder::CopyQueue()', whose first
 * device work, at line 52, sizes a copy with it", WORK_PASSED when the body ends with no device
 * work, WORK_BLOCKED when other device work comes first or the body may leave early;
 * WORK_NOT_OWN when the statement is no such call. */
static int own_method_work(work_search *s, CXCursor stmt, int depth)
{
    CXCursor call = ss_ast_strip(stmt);
    ss_callgraph *graph = ss_check_graph(s->ctx);
    if (!s->own || depth >= MAX_WORK_DEPTH || clang_getCursorKind(call) != CXCursor_CallExpr ||
        ss_ast_child_count(call) == 0 || !is_own_member(ss_ast_strip(ss_ast_child(call, 0))))
        return WORK_NOT_OWN;
    CXCursor callee = ss_callgraph_callee(graph, call);
    CXCursor body = ss_ast_is_null(callee) ? callee : ss_ast_body(callee);
    if (ss_ast_is_null(body) || clang_getCursorKind(callee) != CXCursor_CXXMethod ||
        clang_CXXMethod_isVirtual(callee))
        return WORK_NOT_OWN;
    work_search inner = {.ctx = s->ctx, .waited = s->waited, .own = 1};
    for (size_t v = 0; v < s->var_count; v++) {
        if (clang_getCursorKind(s->vars[v]) == CXCursor_FieldDecl)
            inner.vars[inner.var_count++] = s->vars[v];
    }
    inner.given_count = inner.var_count;
    if (inner.var_count == 0)
        return WORK_NOT_OWN;
    CXCursor stmts[MAX_AHEAD + 1];
    unsigned n = 1, all = ss_ast_child_count(body);
    stmts[0] = clang_getNullCursor();
    for (unsigned i = 0; i < all && n <= MAX_AHEAD; i++)
        stmts[n++] = ss_ast_child(body, i);
    CXCursor ahead[MAX_AHEAD];
    unsigned count = statements_ahead(stmts, n, 0, ahead);
    int found = work_in(&inner, ahead, count, depth + 1);
    /* A body longer than the walk looks at may queue work past its end. */
    if (found == WORK_PASSED && (all > MAX_AHEAD || count == MAX_AHEAD))
        found = WORK_BLOCKED;
    if (found == WORK_FOUND) {
        char *name = ss_qualified_name(callee);
        s->how = ss_xasprintf("calls '%s()', whose first device work, at line %u, %s", name,
                              ss_scope_line(inner.next), inner.how);
        free(name);
    }
    free(inner.how);
    return found;
}

/* Whether 'stmt' overwrites one of the 'vars' (or an element or a member of it) with what does
 * not read it, anywhere in it ('n = 64;', 'h_counters_[0].end = 0;', 'memset(h_counters_, 0,
 * size)'): the work after it may no longer need what was read back (the review's 'Reset()').
 * A clamp under a guard ('if (n > MAX) n = MAX;') is taken before this is asked. */
typedef struct overwrite_walk {
    const CXCursor *vars;
    size_t count;
    int found;
} overwrite_walk;

/* Whether the storage the expression 'dst' writes names 'var' on its way in ('h[3].end',
 * '&h[0]', 'p->n', 'v.data()'). */
static int stores_into_var(CXCursor dst, CXCursor var)
{
    CXCursor e = ss_ast_strip(dst);
    for (int hops = 0; hops < 8 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
            clang_equalCursors(clang_getCursorReferenced(e), var))
            return 1;
        if (k != CXCursor_UnaryOperator && k != CXCursor_ArraySubscriptExpr &&
            k != CXCursor_BinaryOperator && k != CXCursor_MemberRefExpr && k != CXCursor_CallExpr)
            return 0;
        e = ss_ast_child_count(e) > 0 ? ss_ast_strip(ss_ast_child(e, 0)) : clang_getNullCursor();
    }
    return 0;
}

static int overwrites_here(CXCursor e, const CXCursor *vars, size_t count)
{
    CXCursor lhs = clang_getNullCursor(), rhs = clang_getNullCursor();
    if (assignment_sides(e, &lhs, &rhs) != 0 && clang_getCursorKind(e) == CXCursor_CallExpr &&
        clang_Cursor_getNumArguments(e) >= 1) {
        CXString name = clang_getCursorSpelling(e);
        const char *n = clang_getCString(name);
        int fills =
            n && (strcmp(n, "memset") == 0 || strcmp(n, "memcpy") == 0 ||
                  strcmp(n, "memmove") == 0 || strcmp(n, "fill") == 0 || strcmp(n, "fill_n") == 0);
        clang_disposeString(name);
        if (fills)
            lhs = clang_Cursor_getArgument(e, 0);
    }
    for (size_t v = 0; !ss_ast_is_null(lhs) && v < count; v++) {
        if (stores_into_var(lhs, vars[v]) && (ss_ast_is_null(rhs) || !refers_to(rhs, vars[v])))
            return 1;
    }
    return 0;
}

static enum CXChildVisitResult find_overwrite(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    overwrite_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_BinaryOperator || k == CXCursor_CallExpr) &&
        overwrites_here(c, w->vars, w->count))
        w->found = 1;
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int overwrites(CXCursor stmt, const CXCursor *vars, size_t count)
{
    overwrite_walk w = {vars, count, 0};
    ss_ast_visit_whole(stmt, stmt, find_overwrite, &w);
    return w.found;
}

/* The walk of next_work_words over the statements 'ahead' (a block's, from the readback on; at
 * 'depth' > 0 a method's body, own_method_work): WORK_FOUND at the first statement that sizes
 * a launch or a copy with one of the values, WORK_BLOCKED at one that queues other device work
 * or does host work the readback could come after, WORK_PASSED when none of them does either. */
static int work_in(work_search *s, const CXCursor *ahead, unsigned count, int depth)
{
    ss_callgraph *graph = ss_check_graph(s->ctx);
    for (unsigned i = 0; i < count; i++) {
        CXCursor next = ahead[i];
        /* Another object's counters size its work, not the value read back into this one's. */
        if (s->own && names_other_object(next, s->vars, s->given_count))
            return WORK_BLOCKED;
        for (size_t v = 0; v < s->var_count; v++) {
            int sizes = 0;
            char *use = statement_use(graph, next, s->vars[v], &sizes);
            if (use && sizes && (strstr(use, "sizes a launch") || strstr(use, "sizes a copy"))) {
                s->how = sized_words(use, s->vars[v], v < s->given_count);
                s->next = next;
                free(use);
                return WORK_FOUND;
            }
            free(use);
        }
        /* In a method, a way out before its work leaves the next work to the caller. */
        if (depth > 0 && ss_context_may_leave(next))
            return WORK_BLOCKED;
        if (depth == 0 && guards_value(graph, next, s->vars, s->given_count))
            continue;
        if (overwrites(next, s->vars, s->given_count))
            return WORK_BLOCKED;
        /* Past the value's wait, later waits and event marks queue nothing. */
        if (s->waited && (ss_context_is_wait(next) || only_marks(next)))
            continue;
        int own = s->waited ? own_method_work(s, next, depth) : WORK_NOT_OWN;
        if (own == WORK_FOUND)
            s->next = next;
        if (own != WORK_NOT_OWN && own != WORK_PASSED)
            return own;
        if (own == WORK_PASSED)
            continue;
        int reads = 0;
        for (size_t v = 0; v < s->var_count && !reads; v++)
            reads = refers_to(next, s->vars[v]);
        if ((!host_only(graph, next) || queues_device_work(s->ctx, next)) &&
            !(s->waited && reads && seen_host_code(s->ctx, next)))
            return WORK_BLOCKED;
        s->waited |= ss_context_is_wait(next);
        CXCursor var = assigned_var(next);
        int computed = 0;
        for (size_t v = 0; !ss_ast_is_null(var) && v < s->var_count && !computed; v++)
            computed = refers_to(next, s->vars[v]) && !clang_equalCursors(var, s->vars[v]);
        if (computed && s->var_count < 8)
            s->vars[s->var_count++] = var;
    }
    return WORK_PASSED;
}

/* "inherent: ..." when the first statement after stmts[at_index] that queues device work is a
 * launch whose grid or block it sizes, or a copy whose byte count it sizes (the items a count
 * counts), with one of the 'vars' or with a local computed from one, the statements before it
 * library code only (host_only; no synchronous copy within the device or memset:
 * queues_device_work), host code lint sees whole that reads the value (seen_host_code), event
 * records and waits (only_marks), or calls of methods of the same object whose bodies are such
 * statements: guards on the value that leave ('if (n == 0) continue;'), bounds ('if (n > MAX)
 * n = MAX;'), computations ('grid = dim3((n + 3) / 4, 4);'), checks of it. The work may be a
 * method's of the same object, a member of it being the value (own_method_work, two calls
 * down). The host cannot queue that work without the value, in a loop or not. Malloc'ed, or
 * NULL. */
static char *next_work_words(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n,
                             unsigned at_index, const CXCursor *given, size_t given_count,
                             const use_search *search)
{
    CXCursor ahead[MAX_AHEAD];
    work_search s = {.ctx = ctx,
                     .waited = !ss_ast_is_null(search->copy) || !ss_ast_is_null(search->writer) ||
                               !ss_ast_is_null(search->wait) || search->past_wait,
                     .own = search->past_wait ||
                            (!ss_ast_is_null(search->copy) && copies_into_own(search->copy))};
    for (size_t v = 0; v < given_count && s.var_count < 4; v++)
        s.vars[s.var_count++] = given[v];
    s.given_count = s.var_count;
    unsigned count = statements_ahead(stmts, n, at_index, ahead);
    char *words =
        work_in(&s, ahead, count, 0) == WORK_FOUND ? work_words(search, s.next, s.how) : NULL;
    free(s.how);
    return words;
}

static char *out_param_words(ss_check_ctx *ctx, CXCursor stmt, const CXCursor *vars,
                             size_t var_count);

/* "inherent: ..." when one of the (at most three) statements after 'stmts[at_index]' needs one
 * of the 'vars' at once (statement_use; with 'search->sizing_only', to size a launch or an
 * allocation), the statements between only waiting for the device or standing aside (is_aside:
 * checks, log lines, declarations that name an element), or, before a return, computing with
 * no device work other values that the return gives with this one. Malloc'ed, or NULL. */
static char *next_use_words(ss_check_ctx *ctx, const CXCursor *stmts, unsigned n, unsigned at_index,
                            const CXCursor *vars, size_t var_count, use_search *carried)
{
    char *words = NULL;
    CXCursor computed[3];
    size_t computed_count = 0;
    unsigned s = at_index + 1;
    for (; s < n && s <= at_index + 3; s++) {
        CXCursor next = stmts[s];
        char *use = NULL;
        int sizes = 0;
        for (size_t v = 0; v < var_count && use == NULL; v++)
            use = statement_use(ss_check_graph(ctx), next, vars[v], &sizes);
        /* In a caller of the method that read the member back, another object's is not it. */
        if (carried->past_wait && names_other_object(next, vars, var_count)) {
            free(use);
            break;
        }
        int returns = use && strcmp(use, "returns it") == 0;
        for (size_t c = 0; returns && c < computed_count; c++)
            returns = refers_to(next, computed[c]);
        /* Inside a loop, only a use that sizes work makes the wait inherent: a value the host
         * only tests could be tested less often, or on the device. */
        int counts = use && (sizes || !carried->sizing_only);
        if (counts && computed_count == 0)
            words = use_words(carried, next, use);
        else if (use && computed_count == 0 && !carried->past_wait)
            words = out_param_words(ctx, next, vars, var_count);
        else if (counts && returns)
            words = ss_xasprintf("inherent: the function returns the value (line %u), "
                                 "computing only the other values it returns in between",
                                 ss_scope_line(next));
        free(use);
        if (use)
            break;
        if (ss_context_is_wait(next) ||
            (computed_count == 0 && is_aside(ss_check_graph(ctx), next, vars, var_count)))
            continue;
        CXCursor var = assigned_var(next);
        if (ss_ast_is_null(var) || ss_scope_has_work(next, SS_SCOPE_ENQUEUES, NULL))
            break;
        computed[computed_count++] = var;
    }
    /* The block ends with the value only copied into locals ('resf = resf4.w;' closing an
     * 'else'): what follows the block may use them. */
    int copied =
        words == NULL && s == n && computed_count > 0 && at_index + 1 + computed_count == n;
    for (size_t c = 0; copied && c < computed_count; c++) {
        int from = 0;
        for (size_t v = 0; v < var_count && !from; v++)
            from = refers_to(stmts[at_index + 1 + c], vars[v]);
        copied &= from;
    }
    carried->count = copied ? computed_count : 0;
    for (size_t c = 0; c < carried->count; c++)
        carried->vars[c] = computed[c];
    if (words == NULL && carried->count == 0)
        words = next_work_words(ctx, stmts, n, at_index, vars, var_count, carried);
    return words;
}

/* Whether 'stmt', between an asynchronous readback and a wait, stands apart from the value: it
 * does not name any of the 'vars', copies nothing to the host (it uses no result of the
 * device), leaves nothing (no return, break, continue or goto) and queues no device work that
 * lint sees (a launch, an API call that enqueues, a function of the unit that does, a
 * synchronous copy within the device or memset, here or one call down (queues_device_work):
 * the wait would wait for that too,
 * where an event recorded after the copy would not); so that it could as well come before the
 * copy. A function of another unit may be called: lint cannot tell
 * its host work from queued work. */
typedef struct apart_walk {
    CXCursor function;
    int refused;
} apart_walk;

static enum CXChildVisitResult find_host_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    apart_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    const ss_api *api = k == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (k == CXCursor_LambdaExpr || k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
        k == CXCursor_ContinueStmt || k == CXCursor_GotoStmt) {
        w->refused = 1;
    } else if (api && api->klass == SS_CLASS_COPY) {
        CXCursor dst, src;
        int kind = ss_copy_kind(w->function, c, api, &dst, &src);
        w->refused = kind != SS_COPY_KIND_H2D && kind != SS_COPY_KIND_D2D;
    }
    return w->refused ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int stands_apart(ss_check_ctx *ctx, CXCursor stmt, const CXCursor *vars, size_t var_count)
{
    for (size_t v = 0; v < var_count; v++) {
        if (refers_to(stmt, vars[v]))
            return 0;
    }
    if (ss_context_does_device_work(ss_check_graph(ctx), stmt) || queues_device_work(ctx, stmt))
        return 0;
    apart_walk w = {ctx->function, 0};
    ss_ast_visit_whole(stmt, stmt, find_host_copy, &w);
    return !w.refused;
}

/* Whether the next statement waits for the asynchronous copy itself (next_waits_for_copy): it
 * waits for the device, synchronizes the copy's stream as written (a null handle written '0',
 * 'NULL' or 'nullptr', or none given, is one stream), or synchronizes an event it recorded on
 * that stream first (a do-once macro, a bare block). 'stream': the copy's stream, NULL for the
 * legacy one; 'events': the events recorded on it so far in the statement. */
typedef struct next_wait_walk {
    const char *stream;
    char *events[4];
    unsigned event_count;
    int found;
} next_wait_walk;

/* The text of a stream or an event that lint cannot spell (longer than ss_expr_text spells, a
 * form of a macro it cannot place): it names no stream or event, not even one spelled the
 * same way, and it is not the legacy stream. */
static const char unspelled[] = "\x01";

static int is_unspelled(const char *text)
{
    return text != NULL && text[0] == unspelled[0];
}

static int null_stream(const char *text)
{
    return text == NULL || strcmp(text, "0") == 0 || strcmp(text, "NULL") == 0 ||
           strcmp(text, "nullptr") == 0;
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    /* A conversion to the handle ('operator cudaStream_t() const' of a wrapper) is no call
     * written in the text. */
    *(int *)data |=
        clang_getCursorKind(c) == CXCursor_CallExpr &&
        clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_ConversionFunction;
    return *(int *)data ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* The text of the stream or event argument 'arg' (malloc'ed): NULL when it is a null cursor, left
 * out (a default argument) or a null handle lint cannot spell, otherwise as written, or
 * 'unspelled': also a handle written with a call ('pool.next()', 'next_stream()'), which may give
 * another stream each time it runs, so that two such texts never name the same one. */
static char *handle_text(CXCursor arg)
{
    if (ss_ast_is_null(arg) || ss_check_is_omitted(arg))
        return NULL;
    int calls = 0;
    ss_ast_visit_whole(arg, arg, find_call, &calls);
    char *text = calls ? NULL : ss_expr_text(arg);
    if (text == NULL && (calls || ss_stream_constant(arg) != SS_STREAM_NULL))
        text = ss_xstrdup(unspelled);
    return text;
}

/* The text of argument 'arg' of 'call' (handle_text), or NULL when the call gives none. */
static char *arg_text(CXCursor call, int arg)
{
    if (arg < 0 || clang_Cursor_getNumArguments(call) <= arg)
        return NULL;
    return handle_text(clang_Cursor_getArgument(call, (unsigned)arg));
}

/* Whether the call's argument 'arg' is the stream 'stream' (NULL: the legacy one; 'unspelled'
 * matches nothing). */
static int on_stream(CXCursor call, int arg, const char *stream)
{
    char *text = arg_text(call, arg);
    int same = is_unspelled(text) || is_unspelled(stream) ? 0
               : null_stream(text)                        ? null_stream(stream)
                                                          : stream && strcmp(text, stream) == 0;
    free(text);
    return same;
}

/* The index of the event written 'text' in w->events, or -1 ('unspelled' is none). */
static int recorded_event(const next_wait_walk *w, const char *text)
{
    for (unsigned e = 0; text && !is_unspelled(text) && e < w->event_count; e++)
        if (strcmp(w->events[e], text) == 0)
            return (int)e;
    return -1;
}

/* cudaEventRecord(ev, stream): 'ev' now stands for the copy's stream if 'stream' is it, and no
 * longer does otherwise. */
static void note_record(next_wait_walk *w, CXCursor call, const ss_api *api)
{
    char *event = arg_text(call, 0);
    int at = recorded_event(w, event);
    if (on_stream(call, api->stream_arg, w->stream) && at < 0 && event && w->event_count < 4) {
        w->events[w->event_count++] = event;
        return;
    }
    if (!on_stream(call, api->stream_arg, w->stream) && at >= 0) {
        free(w->events[at]);
        w->events[at] = w->events[--w->event_count];
    }
    free(event);
}

static enum CXChildVisitResult find_next_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    next_wait_walk *w = data;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api == NULL)
        return CXChildVisit_Recurse;
    if (api->klass == SS_CLASS_DEVICE_SYNC)
        w->found = 1;
    else if (api->klass == SS_CLASS_STREAM_SYNC)
        w->found = on_stream(c, api->stream_arg, w->stream);
    else if (api->klass == SS_CLASS_EVENT_RECORD)
        note_record(w, c, api);
    else if (api->klass == SS_CLASS_EVENT_SYNC) {
        char *event = arg_text(c, 0);
        w->found = recorded_event(w, event) >= 0;
        free(event);
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether 'stmt' waits for the stream written 'stream' (NULL: the legacy one): for the device,
 * for that stream, or for an event it records on it first (find_next_wait). */
static int waits_on_stream(CXCursor stmt, const char *stream)
{
    next_wait_walk w = {stream, {NULL}, 0, 0};
    ss_ast_visit_whole(stmt, stmt, find_next_wait, &w);
    for (unsigned e = 0; e < w.event_count; e++)
        free(w.events[e]);
    return w.found;
}

/* Whether 'stmt' only records events on the stream written 'stream' (NULL: the legacy one):
 * a cudaEventRecord (or its flag form) on it that runs whenever the statement does
 * (ss_context_runs_whenever: not under an 'if', a '?:' arm or the right of '&&'; an
 * error-checking macro's 'do { ... } while (0)' runs), no record on another stream (an event
 * copied before, 'e2 = done', may be the same one), no other call but of the C or C++ library
 * or the toolkit's headers (the macro's fprintf and exit, cudaGetErrorString), and nothing
 * that stores into a variable ('i = 1 - i', 'i ^= 1', '++i', an 'operator=' or a 'swap'):
 * the event's or the stream's name could then stand for another one. */
typedef struct record_walk {
    CXCursor stmt;
    const char *stream;
    int any_stream; /* records on any stream count (a first look, before the copy is known) */
    int records, other;
} record_walk;

/* Whether the expression 'c' stores into something: an assignment, '++' or '--', a call of an
 * 'operator=' or of a 'swap' or 'exchange'. */
/* Whether 'c' is an assignment: '=' or a compound one ('i ^= 1'). */
static int assigns(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8] = "";
    return k == CXCursor_CompoundAssignOperator ||
           (k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
            strcmp(op, "=") == 0);
}

static int stores(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (assigns(c))
        return 1;
    if (k == CXCursor_UnaryOperator)
        return ss_expr_steps(c) == 1;
    if (k != CXCursor_CallExpr)
        return 0;
    CXString name = clang_getCursorSpelling(c);
    const char *n = clang_getCString(name);
    int store =
        n && (strcmp(n, "operator=") == 0 || strcmp(n, "swap") == 0 || strcmp(n, "exchange") == 0);
    clang_disposeString(name);
    return store;
}

static enum CXChildVisitResult find_record(CXCursor c, CXCursor parent, CXClientData data)
{
    record_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr || stores(c)) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    CXCursor callee = clang_getCursorReferenced(c);
    if (api && api->klass == SS_CLASS_EVENT_RECORD && ss_context_runs_whenever(w->stmt, c) &&
        (w->any_stream || on_stream(c, api->stream_arg, w->stream)))
        w->records++;
    else if (api || ss_ast_is_null(callee) || !ss_ast_in_system_header(callee))
        w->other = 1;
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int only_records(CXCursor stmt, const char *stream, int any_stream)
{
    record_walk w = {stmt, stream, any_stream, 0, 0};
    if (stores(stmt))
        return 0;
    ss_ast_visit_whole(stmt, stmt, find_record, &w);
    return w.records > 0 && !w.other;
}

/* ------------------------------------------------------------------------------------------
 * Whether a stream's name, as a copy or a launch writes it, may stand for another stream by
 * the time of a wait: the statements from the call's own (whole) up to the wait store into a
 * variable or field whose name is a word of the stream's text ('s', 'i' of 'st[i]', 'c' of
 * 'c.s'): '=', 'op=', '++', '--', '&s' handed to a call, a class's 'operator=' ('cs = next;',
 * 'c = spare;'), 'swap' or 'exchange', a non-const reference parameter ('std::swap(s, o)',
 * 'pick(s, o)' taking 'cudaStream_t &'), a non-const method of it (outside the call itself);
 * or they store through a pointer or a reference ('*ps = other;', 'r = other;') while the
 * function makes one to a name of it ('&s' but as a CUDA call's argument, 'cudaStream_t &r =
 * s;', 'cudaStream_t *q = st;'); or, where a name of it may be reached otherwise (REACH_*: a
 * field, a variable of static storage, a pointer or a reference), they store a value that may
 * hold a stream through a pointer or a reference ('*kept = other;') or, for a name that refers
 * through something else, anywhere ('st[0] = other;' for 'cudaStream_t &s = st[0]'), hand an
 * array or a pointer of it to a call that may store through it ('std::fill', 'memcpy'), or call
 * a function that may store into a name of it (note_callee_body: 'rotate();', a function that
 * turns a global stream, a lambda that captures it by reference). Texts are compared as the
 * rest of the file compares them: a name is a word. */

/* Whether 'word' is a word of 'text' ('i' in 'st[i]', not in 'it'); with 'whole', one not
 * followed by a member access ('cs' in 'cs', not 'c' in 'c.s'). */
static int word_in(const char *text, const char *word, int whole)
{
    size_t len = strlen(word);
    for (const char *at = text; len > 0 && (at = strstr(at, word)) != NULL; at++) {
        int before = at > text && (isalnum((unsigned char)at[-1]) || at[-1] == '_');
        int after = isalnum((unsigned char)at[len]) || at[len] == '_' ||
                    (whole && (at[len] == '.' || strncmp(at + len, "->", 2) == 0));
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* What else may reach a name of the stream's text than the function's own statements: a member
 * of the object the method runs on (its other methods), a variable of static storage (any
 * function), a field or such a variable (a pointer or reference kept anywhere: '*ps = other;'
 * with 'ps = &s' made in the constructor, a reference member), a pointer or a reference, or a
 * name lint cannot place (a structured binding): what it refers to may be stored into under
 * another name ('st[0] = other;' for 'cudaStream_t &s = st[0]', 'pool[0]' with 'pool == st'). */
enum { REACH_OWN = 1, REACH_GLOBAL = 2, REACH_SHARED = 4, REACH_THROUGH = 8 };

static enum CXChildVisitResult find_reach(CXCursor c, CXCursor parent, CXClientData data)
{
    unsigned *reach = data;
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return CXChildVisit_Recurse;
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(decl)).kind;
    if (dk == CXCursor_FieldDecl)
        *reach |= REACH_SHARED | (is_own_member(c) ? REACH_OWN : 0);
    else if (dk == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(decl) == 1)
        *reach |= REACH_SHARED | REACH_GLOBAL;
    else if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl && dk != CXCursor_EnumConstantDecl &&
             dk != CXCursor_NonTypeTemplateParameter)
        *reach |= REACH_THROUGH;
    if (t == CXType_Pointer || t == CXType_LValueReference || t == CXType_RValueReference)
        *reach |= REACH_THROUGH;
    return CXChildVisit_Recurse;
}

/* Whether a value of type 't' may hold a stream of type 'stream': that type, an array of it, or
 * a structure with such a field (three levels down). */
typedef struct hold_walk {
    CXType stream;
    int depth;
    int found;
} hold_walk;

static int may_hold(CXType t, CXType stream, int depth);

static enum CXVisitorResult find_held(CXCursor field, CXClientData data)
{
    hold_walk *w = data;
    w->found = may_hold(clang_getCursorType(field), w->stream, w->depth + 1);
    return w->found ? CXVisit_Break : CXVisit_Continue;
}

/* Whether the canonical types 'a' and 'b' are the same but for their own qualifiers (const,
 * volatile). clang_getUnqualifiedType is libclang 16's; before it, pointers compare their
 * pointees, records and enums their declarations, builtin types their kind. */
static int same_unqualified(CXType a, CXType b)
{
#if CINDEX_VERSION_MAJOR == 0 && CINDEX_VERSION_MINOR < 63
    if (clang_equalTypes(a, b))
        return 1;
    if (a.kind != b.kind)
        return 0;
    switch (a.kind) {
    case CXType_Pointer:
        return clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(a)),
                                clang_getCanonicalType(clang_getPointeeType(b)));
    case CXType_Record:
    case CXType_Enum:
        return clang_equalCursors(clang_getTypeDeclaration(a), clang_getTypeDeclaration(b));
    default:
        return a.kind >= CXType_FirstBuiltin && a.kind <= CXType_LastBuiltin;
    }
#else
    return clang_equalTypes(clang_getUnqualifiedType(a), clang_getUnqualifiedType(b));
#endif
}

static int may_hold(CXType t, CXType stream, int depth)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    if (same_unqualified(t, stream))
        return 1;
    if (t.kind != CXType_Record || depth >= 3)
        return 0;
    hold_walk w = {stream, depth, 0};
    clang_Type_visitFields(t, find_held, &w);
    return w.found;
}

/* Whether 'c' is a variable or a field whose name is a word of 'text' (word_in), not a local
 * of the function 'local_to' (a null cursor: any). */
static int named_in(CXCursor c, const char *text, int whole, CXCursor local_to)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
        return 0;
    CXCursor decl = clang_getCursorReferenced(c);
    if (!ss_ast_is_null(local_to) &&
        clang_equalCursors(clang_getCanonicalCursor(clang_getCursorSemanticParent(decl)),
                           clang_getCanonicalCursor(local_to)))
        return 0;
    CXString name = clang_getCursorSpelling(decl);
    int found = word_in(text, clang_getCString(name), whole);
    clang_disposeString(name);
    return found;
}

/* Whether the unary operator 'c' is written starting with 'prefix' ('*', '&'). */
static int unary_is(CXCursor c, const char *prefix)
{
    char *text = ss_expr_text(c);
    int is = text && strncmp(text, prefix, strlen(prefix)) == 0 && strncmp(text, "&&", 2) != 0;
    free(text);
    return is;
}

static int is_pointer(CXCursor e)
{
    return clang_getCanonicalType(clang_getCursorType(e)).kind == CXType_Pointer;
}

static int is_reference(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_LValueReference || k == CXType_RValueReference;
}

/* Whether the named declaration 'e' refers to refers through something else: a reference
 * variable or field, or a name lint cannot place (a structured binding's). */
static int names_through(CXCursor e)
{
    CXCursor decl = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(decl);
    return is_reference(clang_getCursorType(decl)) ||
           (k != CXCursor_VarDecl && k != CXCursor_ParmDecl && k != CXCursor_FieldDecl);
}

/* Whether the store into 'target' may change what 'text' names: a name of it stored into
 * ('s', 'st[j]' for 'st[i]', 'c' for 'c.s'; not a local of 'local_to'), or a member of an object
 * the text names whole ('cs.h' for 'cs'; not 'c.count' for 'c.s'). '*indirect' is set when it
 * stores through a pointer or a reference ('*ps', 'p[i]', 'r' declared 'T &r', a reference
 * member, a structured binding, 'this->*pm', a '?:' or ',' result); '*this' is the whole object. */
static int target_named(CXCursor target, const char *text, CXCursor local_to, int *indirect)
{
    CXCursor e = ss_ast_strip(target);
    int member = 0; /* a member of 'e' is stored into, not 'e' whole */
    for (int hops = 0; hops < 8 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (named_in(e, text, member, local_to))
            return 1;
        if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
            *indirect |= names_through(e);
        if (k == CXCursor_DeclRefExpr)
            return 0;
        if (k == CXCursor_CXXThisExpr)
            return hops > 0 && !member;
        if (k == CXCursor_BinaryOperator || k == CXCursor_ConditionalOperator)
            *indirect = 1;
        if ((k != CXCursor_UnaryOperator && k != CXCursor_ArraySubscriptExpr &&
             k != CXCursor_MemberRefExpr) ||
            ss_ast_child_count(e) == 0)
            return 0;
        CXCursor inner = ss_ast_strip(ss_ast_child(e, 0));
        if (k == CXCursor_UnaryOperator)
            *indirect |= unary_is(e, "*");
        else if (k == CXCursor_ArraySubscriptExpr)
            *indirect |= is_pointer(inner);
        member |= k == CXCursor_MemberRefExpr;
        e = inner;
    }
    return 0;
}

/* Whether the function makes a pointer or a reference to a name of 'text': '&x' (but as an
 * argument of a CUDA call, which keeps no pointer: 'cudaStreamCreate(&s)'), a non-const
 * reference declared to it ('cudaStream_t &r = s;', 'auto &[a, b] = pair;'), or a pointer
 * declared or assigned from it ('cudaStream_t *q = st;', 'q = pool;'). */
typedef struct alias_walk {
    const char *text;
    int found;
} alias_walk;

static enum CXChildVisitResult find_alias(CXCursor c, CXCursor parent, CXClientData data)
{
    alias_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    int indirect = 0;
    CXCursor none = clang_getNullCursor();
    if (k == CXCursor_UnaryOperator && unary_is(c, "&") && ss_ast_child_count(c) > 0 &&
        !(clang_getCursorKind(parent) == CXCursor_CallExpr && ss_scope_callee_api(parent)))
        w->found = target_named(ss_ast_child(c, 0), w->text, none, &indirect);
    if (clang_isDeclaration(k) && ss_ast_child_count(c) > 0) {
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        CXCursor init = ss_ast_child(c, ss_ast_child_count(c) - 1);
        w->found =
            (t.kind == CXType_Pointer || (t.kind == CXType_LValueReference &&
                                          !clang_isConstQualifiedType(clang_getPointeeType(t)))) &&
            clang_isExpression(clang_getCursorKind(init)) &&
            target_named(init, w->text, none, &indirect);
    }
    if (assigns(c) && ss_ast_child_count(c) > 1 && is_pointer(ss_ast_child(c, 0)))
        w->found = target_named(ss_ast_child(c, 1), w->text, none, &indirect);
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

typedef struct rebind_walk {
    ss_callgraph *graph;
    CXCursor function; /* where a pointer or a reference to the stream may be made */
    const char *text;  /* the stream as written */
    CXCursor call;     /* the copy or launch */
    CXType type;       /* the stream's type */
    unsigned reach;    /* REACH_* of the text's names */
    CXCursor local_to; /* the function of the unit whose body the walk is in, or null */
    int depth;         /* how many calls down the walk is */
    int in_call;       /* the walk is inside 'call' */
    int aliased;       /* find_alias's answer for 'function'; -1 until asked */
    int found;
} rebind_walk;

/* Notes in 'w' whether the store into 'target' may rebind the stream: a name of it, a store
 * through a pointer or a reference where the function makes one to it, and a store of a value
 * that may hold a stream through a pointer or a reference where a name of it is shared, or
 * anywhere where a name of it refers through something else (REACH_*). */
static void note_store(rebind_walk *w, CXCursor target)
{
    int indirect = 0;
    w->found = target_named(target, w->text, w->local_to, &indirect);
    if (!w->found && indirect && w->aliased < 0) {
        alias_walk a = {w->text, 0};
        ss_ast_visit_whole(w->function, w->function, find_alias, &a);
        w->aliased = a.found;
    }
    w->found |= indirect && w->aliased > 0;
    w->found |= ((w->reach & REACH_THROUGH) || (indirect && (w->reach & REACH_SHARED))) &&
                may_hold(clang_getCursorType(target), w->type, 0);
}

/* The type of the function a call calls, also through a pointer to a function. */
static CXType callee_type(CXCursor callee)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(callee));
    return t.kind == CXType_Pointer ? clang_getCanonicalType(clang_getPointeeType(t)) : t;
}

/* Whether the parameter 'index' of the function type 'type' is a reference to non-const
 * (pointer: a pointer to non-const). */
static int by_reference(CXType type, int index, int pointer)
{
    if (index < 0 || index >= clang_getNumArgTypes(type))
        return 0;
    CXType t = clang_getCanonicalType(clang_getArgType(type, (unsigned)index));
    if (pointer)
        return t.kind == CXType_Pointer && !clang_isConstQualifiedType(clang_getPointeeType(t));
    return t.kind == CXType_RValueReference ||
           (t.kind == CXType_LValueReference &&
            !clang_isConstQualifiedType(clang_getPointeeType(t)));
}

/* A pointer handed to a call that may store through it ('memcpy(st, o, sizeof st)',
 * 'std::fill(st, st + 2, other)', 'helper(this)'): a name of the text it points at, the object
 * the method runs on where a name is its member, or a value that may hold a stream where a name
 * is shared or refers through something else. */
static void note_pointee(rebind_walk *w, CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    int indirect = 0;
    if (clang_getCursorKind(e) == CXCursor_CXXThisExpr) {
        w->found = (w->reach & REACH_OWN) != 0;
        return;
    }
    CXType t = clang_getCanonicalType(clang_getCursorType(e));
    int array = t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray;
    if ((t.kind != CXType_Pointer && !array) ||
        !may_hold(array ? clang_getArrayElementType(t) : clang_getPointeeType(t), w->type, 0))
        return;
    w->found = target_named(e, w->text, w->local_to, &indirect) ||
               (w->reach & (REACH_THROUGH | REACH_SHARED));
}

static enum CXChildVisitResult find_rebinding(CXCursor c, CXCursor parent, CXClientData data);

enum { MAX_REBIND_DEPTH = 3 };

int ss_context_calls_on_this(CXCursor call, int *is_const)
{
    CXCursor decl = clang_getCursorReferenced(call);
    if (clang_getCursorKind(decl) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(decl) ||
        ss_ast_child_count(call) == 0)
        return 0;
    *is_const = clang_CXXMethod_isConst(decl);
    return is_own_member(ss_ast_child(call, 0));
}

/* A call that may reach a name of the text in its body: a method on the object where a name is
 * its member, a lambda (its captures), any function where a name is of static storage. A
 * function of the unit, or a lambda, is walked as the statements are (its own locals are not
 * the text's names, and its declarations shadow nothing here), MAX_REBIND_DEPTH calls down;
 * deeper, or without a body in the unit, a lambda, a non-const method on the object or a
 * function outside the system headers (where a name is of static storage) may rebind it. */
static void note_callee_body(rebind_walk *w, CXCursor call)
{
    if (ss_scope_callee_api(call) != NULL || ss_scope_is_launch(call))
        return;
    int is_const = 0;
    int on_this = ss_context_calls_on_this(call, &is_const);
    CXCursor lambda = ss_scope_called_lambda(call);
    CXCursor object =
        ss_ast_child_count(call) > 0 ? ss_ast_strip(ss_ast_child(call, 0)) : clang_getNullCursor();
    if (ss_ast_is_null(lambda) && clang_getCursorKind(object) == CXCursor_LambdaExpr)
        lambda = object;
    int reaches =
        !ss_ast_is_null(lambda) || (w->reach & REACH_GLOBAL) || (on_this && (w->reach & REACH_OWN));
    if (!reaches)
        return;
    CXCursor body = ss_ast_is_null(lambda) ? ss_callgraph_callee(w->graph, call) : lambda;
    if (ss_ast_is_null(body) || w->depth >= MAX_REBIND_DEPTH) {
        CXCursor decl = clang_getCursorReferenced(call);
        w->found =
            !ss_ast_is_null(lambda) || (on_this && !is_const) ||
            ((w->reach & REACH_GLOBAL) && (ss_ast_is_null(decl) || !ss_ast_in_system_header(decl)));
        return;
    }
    CXCursor local_to = w->local_to;
    w->local_to = ss_ast_is_null(lambda) ? body : clang_getNullCursor();
    w->depth++;
    clang_visitChildren(body, find_rebinding, w);
    w->depth--;
    w->local_to = local_to;
}

/* The stores of the call 'call' (rebind_walk): its reference parameters (also of a function
 * called through a pointer), what its pointer parameters point at (note_pointee), an
 * assignment operator's left side, a swap's arguments, the object of a non-const method, and
 * what its body may store into (note_callee_body). */
static void note_call_stores(rebind_walk *w, CXCursor call)
{
    CXString spelling = clang_getCursorSpelling(call);
    const char *name = clang_getCString(spelling);
    size_t len = name ? strlen(name) : 0;
    int assign = len > 8 && strncmp(name, "operator", 8) == 0 && name[len - 1] == '=' &&
                 strchr("=!<>", name[len - 2]) == NULL;
    int swap = name && (strcmp(name, "swap") == 0 || strcmp(name, "exchange") == 0);
    clang_disposeString(spelling);
    CXCursor callee = clang_getCursorReferenced(call);
    CXType type = callee_type(callee);
    int method = clang_getCursorKind(callee) == CXCursor_CXXMethod &&
                 !clang_CXXMethod_isStatic(callee) && !clang_CXXMethod_isConst(callee);
    int argc = clang_Cursor_getNumArguments(call);
    /* An operator that is a method: its object is argument 0. */
    int object_arg = method && argc == clang_getNumArgTypes(type) + 1;
    for (int i = 0; i < argc && !w->found; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        if ((i == 0 && (assign || object_arg)) || swap || by_reference(type, i - object_arg, 0))
            note_store(w, arg);
        else if (by_reference(type, i - object_arg, 1) && !ss_scope_callee_api(call))
            note_pointee(w, arg);
    }
    CXCursor member = ss_ast_child_count(call) > 0 ? ss_ast_child(call, 0) : call;
    if (!w->found && method && !object_arg && !w->in_call &&
        clang_getCursorKind(member) == CXCursor_MemberRefExpr && ss_ast_child_count(member) > 0)
        note_store(w, ss_ast_child(member, 0));
    if (!w->found && !w->in_call)
        note_callee_body(w, call);
}

/* Whether the declaration 'decl' declares a name that is a word of 'text' (word_in). */
static int declares_name(CXCursor decl, const char *text)
{
    CXString name = clang_getCursorSpelling(decl);
    int found = word_in(text, clang_getCString(name), 0);
    clang_disposeString(name);
    return found;
}

static enum CXChildVisitResult find_rebinding(CXCursor c, CXCursor parent, CXClientData data)
{
    rebind_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    (void)parent;
    if (assigns(c) || (k == CXCursor_UnaryOperator && (stores(c) || unary_is(c, "&"))))
        note_store(w, ss_ast_child(c, 0));
    else if (k == CXCursor_CallExpr)
        note_call_stores(w, c);
    else if ((k == CXCursor_VarDecl || k == CXCursor_ParmDecl) && w->depth == 0)
        w->found = declares_name(c, w->text);
    if (!w->found && !w->in_call && w->depth == 0 && ss_ast_same_node(c, w->call)) {
        w->in_call = 1;
        clang_visitChildren(c, find_rebinding, w);
        w->in_call = 0;
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the stream 'stream' of the copy or launch 'call' (in stmts[from]; a null cursor for
 * none) may stand for another stream after stmts[from] up to the wait's statement stmts[to],
 * whole ('s = other, cudaStreamSynchronize(s);'): the walk above, or a declaration of a name of
 * it ('cudaStream_t s = other;' shadowing a member 's'). A stream lint cannot spell
 * ('unspelled', also one written with a call) may always. */
static int stream_rebound(ss_check_ctx *ctx, CXCursor call, CXCursor stream, const CXCursor *stmts,
                          unsigned from, unsigned to)
{
    char *text = handle_text(stream);
    rebind_walk w = {ss_check_graph(ctx),
                     ss_scope_outer_function(ctx->function),
                     text,
                     call,
                     clang_getCanonicalType(clang_getCursorType(stream)),
                     0,
                     clang_getNullCursor(),
                     0,
                     0,
                     -1,
                     is_unspelled(text)};
    if (text && !w.found)
        ss_ast_visit_whole(stream, stream, find_reach, &w.reach);
    for (unsigned s = from; text && s <= to && !w.found; s++)
        ss_ast_visit_whole(stmts[s], stmts[s], find_rebinding, &w);
    free(text);
    return w.found;
}

/* The text of the stream of the copy or launch 'call' (in stmts[from]) as the wait stmts[to]
 * sees it (malloc'ed; NULL for the legacy stream): as written, or 'unspelled' where it may
 * stand for another stream by then (stream_rebound), so that only a wait for the whole device
 * waits for it. */
static char *stream_at_wait(ss_check_ctx *ctx, CXCursor call, const CXCursor *stmts, unsigned from,
                            unsigned to)
{
    CXCursor stream = ss_check_stream_arg(call, ss_scope_callee_api(call));
    if (stream_rebound(ctx, call, stream, stmts, from, to))
        return ss_xstrdup(unspelled);
    return handle_text(stream);
}

/* Whether stmts[at_index + 1] waits for the asynchronous copy 'at' (in stmts[at_index]). */
static int next_waits_for_copy(ss_check_ctx *ctx, const CXCursor *stmts, unsigned at_index,
                               CXCursor at)
{
    if (ss_scope_callee_api(at) == NULL || !ss_context_is_wait(stmts[at_index + 1]))
        return 0;
    char *stream = stream_at_wait(ctx, at, stmts, at_index, at_index + 1);
    int waits = waits_on_stream(stmts[at_index + 1], stream);
    free(stream);
    return waits;
}

/* Whether stmts[to] waits for the asynchronous copy 'copy' (in stmts[from]) and the statements
 * between stand apart from the value 'vars' (stands_apart) and, the copy's own statement too,
 * leave the copy's stream as written naming the same stream (stream_rebound). Between them, a
 * statement that only records events (only_records) is no device work the wait waits for, and an
 * event it records on the copy's stream marks the copy's end: a cudaEventSynchronize of that event
 * waits for the copy (find_next_wait), as a wait for its stream or the device does. Once an event
 * is recorded, only such statements may come before the wait: another could make the event's name
 * stand for another event ('done = spare;', 'i = 1 - i;' before 'ev[i]'). */
static int waits_past(ss_check_ctx *ctx, CXCursor copy, const CXCursor *stmts, unsigned from,
                      unsigned to, const CXCursor *vars, size_t var_count)
{
    const ss_api *api = ss_scope_callee_api(copy);
    if (api == NULL || !ss_context_is_wait(stmts[to]))
        return 0;
    char *stream = stream_at_wait(ctx, copy, stmts, from, to);
    next_wait_walk w = {stream, {NULL}, 0, 0};
    int apart = 1;
    for (unsigned s = from + 1; s < to && apart; s++) {
        if (only_records(stmts[s], stream, 0))
            ss_ast_visit_whole(stmts[s], stmts[s], find_next_wait, &w);
        else
            apart = w.event_count == 0 && stands_apart(ctx, stmts[s], vars, var_count);
    }
    if (apart && !w.found)
        ss_ast_visit_whole(stmts[to], stmts[to], find_next_wait, &w);
    for (unsigned e = 0; e < w.event_count; e++)
        free(w.events[e]);
    free(stream);
    return apart && w.found;
}

/* The wait for the asynchronous readback 'at' (in stmts[at_index]) that comes within the next
 * three statements, after statements that stand apart from its value (stands_apart: they could
 * as well come before the copy) or only record events. Its index, or 0 when there is none. */
static unsigned wait_index(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts, unsigned n,
                           unsigned at_index, const CXCursor *vars, size_t var_count)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->sync == SS_SYNC_ALWAYS || api->sync == SS_SYNC_DEVICE)
        return 0;
    for (unsigned s = at_index + 1; s < n && s <= at_index + 3; s++) {
        if (waits_past(ctx, at, stmts, at_index, s, vars, var_count))
            return s;
        if (!stands_apart(ctx, stmts[s], vars, var_count) && !only_records(stmts[s], NULL, 1))
            return 0;
    }
    return 0;
}

/* The wait of wait_index, past statements standing apart: the host waits there for the copy
 * anyway, so what matters is whether the statement after the wait needs the value. Its index,
 * or 0 when there is none (also when the wait is the next statement: next_use_words goes past
 * it). */
static unsigned wait_past_apart(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts, unsigned n,
                                unsigned at_index, const CXCursor *vars, size_t var_count)
{
    unsigned s = wait_index(ctx, at, stmts, n, at_index, vars, var_count);
    return s > at_index + 1 ? s : 0;
}

unsigned ss_context_readback_wait(ss_check_ctx *ctx, CXCursor copy, const CXCursor *stmts,
                                  unsigned n, unsigned from, CXCursor var)
{
    return wait_index(ctx, copy, stmts, n, from, &var, 1);
}

/* "inherent: ..." from what follows the statement 'stmt' (stmts[at_index]) of its block that
 * holds the call 'at': for a pageable copy, a wait for it; otherwise a use of its value at
 * once (next_use_words), also after a wait for the copy past statements that stand apart from
 * the value (wait_past_apart). Malloc'ed, or NULL. */
static char *following_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, CXCursor stmt,
                             const CXCursor *stmts, unsigned n, unsigned at_index,
                             use_search *carried)
{
    /* An asynchronous copy of pageable memory that the next statement waits for (not a wait
     * for another stream: next_waits_for_copy, nor one the copy's statement rebinds:
     * stream_rebound): the host waits for it anyway, and the staging costs nothing more. */
    if (!carried->sizing_only && rule == SS_RULE_PAGEABLE_ASYNC_COPY && at_index + 1 < n &&
        next_waits_for_copy(ctx, stmts, at_index, at))
        return ss_xasprintf("inherent: the next statement (line %u) waits for the copy anyway",
                            ss_scope_line(stmts[at_index + 1]));
    CXCursor vars[8];
    size_t var_count = carried->count;
    for (size_t c = 0; c < carried->count; c++)
        vars[c] = carried->vars[c];
    if (var_count == 0)
        var_count = tie_vars(stmt, vars, 8);
    if (var_count == 0) {
        vars[0] = value_var(ctx, at, stmt);
        var_count = ss_ast_is_null(vars[0]) ? 0 : 1;
    }
    if (var_count == 0)
        return NULL;
    char *words = next_use_words(ctx, stmts, n, at_index, vars, var_count, carried);
    unsigned wait = words || carried->count > 0
                        ? 0
                        : wait_past_apart(ctx, at, stmts, n, at_index, vars, var_count);
    if (wait > 0) {
        carried->wait = stmts[wait];
        words = next_use_words(ctx, stmts, n, wait, vars, var_count, carried);
        carried->count = 0;
    }
    return words;
}

/* The parameter through which the destination 'dst' of a copy writes the caller's variable: a
 * pointer parameter itself or an element or member of what it points to ('a', 'a + i', '&a[i]',
 * '&a->n'), or the address of a reference parameter not to const ('&r', '&r.n'), as
 * out_parameter takes them; a null cursor otherwise. */
static CXCursor copied_out_parameter(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && unary_is(e, "&"))
        return out_parameter(ss_ast_child(e, 0));
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator) /* 'a + i' */
        e = ss_ast_strip(ss_ast_child(e, 0));
    CXCursor param = clang_getCursorReferenced(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
        clang_getCursorKind(param) != CXCursor_ParmDecl ||
        clang_getCanonicalType(clang_getCursorType(param)).kind != CXType_Pointer)
        return clang_getNullCursor();
    return param;
}

/* Whether the full expression 'full' stands as a statement of its own in 'parent': one of a
 * block's, or the body of a loop or a branch of an 'if' (not a condition, whose value is
 * tested). Returns 1 or 0. */
static int stands_as_statement(CXCursor parent, CXCursor full)
{
    enum CXCursorKind k = clang_getCursorKind(parent);
    unsigned n = ss_ast_child_count(parent), index = n;
    for (unsigned i = 0; i < n && index == n; i++)
        if (ss_ast_same_node(ss_ast_child(parent, i), full))
            index = i;
    if (index == n)
        return 0;
    switch (k) {
    case CXCursor_CompoundStmt:
        return 1;
    case CXCursor_IfStmt:
        return index > ss_ast_if_condition(parent);
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_CXXForRangeStmt:
        return index + 1 == n;
    case CXCursor_DoStmt:
        return index == 0;
    default:
        return 0;
    }
}

/* The out parameter (out_parameter) that the statement holding the call 'at' stores its value
 * into: the call's full expression, reached through expressions only (no lambda between), is a
 * plain assignment that stands as a statement (stands_as_statement), the call on its right
 * side ('t[c][0] = thrust::reduce(...);', 'out = v[0];'). A null cursor otherwise. */
static CXCursor stored_out_parameter(CXCursor top, CXCursor at)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(top, at, path), full = found;
    while (full > 0) {
        enum CXCursorKind k = clang_getCursorKind(path[full - 1]);
        if (!clang_isExpression(k) || k == CXCursor_LambdaExpr)
            break;
        full--;
    }
    CXCursor param = clang_getNullCursor(), lhs, rhs;
    if (full > 0 && full < found && stands_as_statement(path[full - 1], path[full]) &&
        assignment_sides(path[full], &lhs, &rhs) == 0) {
        /* On the right side and not the left (a macro's arguments share one place). */
        unsigned begin, end, at_begin, at_end, lhs_begin, lhs_end;
        ss_ast_range(rhs, &begin, &end);
        ss_ast_range(lhs, &lhs_begin, &lhs_end);
        ss_ast_range(at, &at_begin, &at_end);
        if (begin <= at_begin && at_end <= end && (at_end <= lhs_begin || at_begin >= lhs_end))
            param = out_parameter(lhs);
    }
    free(path);
    return param;
}

/* Whether the store target 'lhs' ('t[c][1]', '*out', 'p->n') names 'param' only as its root:
 * no index on the way names it. Returns 1 or 0. */
static int names_only_as_root(CXCursor lhs, CXCursor param)
{
    CXCursor e = ss_ast_strip(lhs);
    while (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr ||
           clang_getCursorKind(e) == CXCursor_UnaryOperator ||
           clang_getCursorKind(e) == CXCursor_MemberRefExpr) {
        if (ss_ast_child_count(e) == 0)
            return 0;
        if (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr &&
            refers_to(ss_ast_child(e, 1), param))
            return 0;
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    return 1;
}

/* Whether the function names the out parameter 'param' anywhere but as the root of a plain
 * store's target ('t[c][1] = ...', '*out = ...', 'r = ...'; names_only_as_root), the stored
 * value searched too: a read of what it stored ('while (*err > tol)', '*out += x'), an alias,
 * the pointer itself stored into ('out = &scratch;') or given away. Then the value is not only
 * the caller's. */
typedef struct store_only_walk {
    CXCursor param;
    int found;
} store_only_walk;

static enum CXChildVisitResult find_param_read(CXCursor c, CXCursor parent, CXClientData data)
{
    store_only_walk *w = data;
    CXCursor lhs, rhs;
    if (clang_isExpression(clang_getCursorKind(c)) && assignment_sides(c, &lhs, &rhs) == 0 &&
        clang_equalCursors(out_parameter(lhs), w->param) && names_only_as_root(lhs, w->param)) {
        ss_ast_visit_whole(rhs, c, find_param_read, w);
        return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), w->param)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the function 'top' calls the OpenMP runtime ('omp_get_thread_num': the code runs in
 * a parallel region, each thread of it running the code after it). */
static enum CXChildVisitResult find_omp_call(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *found = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXString name = clang_getCursorSpelling(c);
    const char *n = clang_getCString(name);
    *found = n && strncmp(n, "omp_", 4) == 0;
    clang_disposeString(name);
    return *found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the text of the function 'top' holds an OpenMP directive ('#pragma omp parallel',
 * '_Pragma("omp ...")'): lint leaves OpenMP out, so that such a region reads as plain code,
 * yet each thread of it runs the code after it (both arms of one 'if' in one call). */
static int has_omp_pragma(CXCursor top)
{
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(top);
    CXToken *tokens = NULL;
    unsigned n = 0;
    int found = 0;
    clang_tokenize(tu, clang_getCursorExtent(top), &tokens, &n);
    for (unsigned i = 0; i + 2 < n && !found; i++) {
        if (token_is(tu, tokens[i], "#") && token_is(tu, tokens[i + 1], "pragma")) {
            found = token_is(tu, tokens[i + 2], "omp");
        } else if (token_is(tu, tokens[i], "_Pragma") || token_is(tu, tokens[i], "__pragma")) {
            CXString sp = clang_getTokenSpelling(tu, tokens[i + 2]);
            const char *t = clang_getCString(sp);
            found = t && (strncmp(t, "\"omp", 4) == 0 || strncmp(t, "omp", 3) == 0);
            clang_disposeString(sp);
        }
    }
    clang_disposeTokens(tu, tokens, n);
    return found;
}

/* Whether one call of the function 'top' runs each of its statements once at most, and one
 * at a time, where no loop is around them: no goto or call that returns twice
 * (ss_callgraph_holds_jump), no OpenMP region (find_omp_call, has_omp_pragma), and no call of a
 * function of its name, itself or in the functions it calls, two calls deep
 * (ss_callgraph_calls_named: a deeper level of the recursion runs the other arm of an 'if' before
 * this level runs its own). Returns 1 or 0. */
static int runs_once_per_call(ss_callgraph *graph, CXCursor top)
{
    int omp = 0;
    clang_visitChildren(top, find_omp_call, &omp);
    if (omp || ss_callgraph_holds_jump(top) || has_omp_pragma(top))
        return 0;
    CXString name = clang_getCursorSpelling(top);
    const char *names[] = {clang_getCString(name)};
    CXCursor found;
    int recursive = names[0] && ss_callgraph_calls_named(graph, top, names, 1, &found);
    clang_disposeString(name);
    return !recursive;
}

/* Which arm of the 'if' statement 'if_stmt' its child 'child' is: 1 the first, 2 the 'else';
 * 0 neither (the condition, an initializer). */
static int if_arm(CXCursor if_stmt, CXCursor child)
{
    unsigned cond = ss_ast_if_condition(if_stmt), n = ss_ast_child_count(if_stmt);
    for (unsigned i = cond + 1; i < n && i <= cond + 2; i++)
        if (ss_ast_same_node(ss_ast_child(if_stmt, i), child))
            return (int)(i - cond);
    return 0;
}

/* Whether the paths 'pa' and 'pb' (na and nb nodes, ss_context_path) down to two nodes of one
 * function part at an 'if', one under its first arm and the other under its 'else', with no
 * loop around that 'if' and no lambda on either path: one pass through the 'if' runs one of
 * the two nodes at most. Returns the line of the 'if', or 0. */
static unsigned paths_split_at_if(const CXCursor *pa, long na, const CXCursor *pb, long nb)
{
    long common = 0;
    while (common < na && common < nb && ss_ast_same_node(pa[common], pb[common]))
        common++;
    if (common == 0 || common == na || common == nb ||
        clang_getCursorKind(pa[common - 1]) != CXCursor_IfStmt)
        return 0;
    int arm_a = if_arm(pa[common - 1], pa[common]), arm_b = if_arm(pa[common - 1], pb[common]);
    if (arm_a == 0 || arm_b == 0 || arm_a == arm_b)
        return 0;
    for (long i = 0; i + 1 < common; i++)
        if (ss_scope_is_loop(pa[i]))
            return 0;
    for (long i = 0; i < na; i++)
        if (clang_getCursorKind(pa[i]) == CXCursor_LambdaExpr)
            return 0;
    for (long i = 0; i < nb; i++)
        if (clang_getCursorKind(pb[i]) == CXCursor_LambdaExpr)
            return 0;
    return ss_scope_line(pa[common - 1]);
}

/* Whether one pass through an 'if' of the function 'top' runs at most one of its nodes 'a' and
 * 'b': they lie on its two arms (paths_split_at_if). Returns the line of the 'if', or 0. */
static unsigned on_exclusive_arms(CXCursor top, CXCursor a, CXCursor b)
{
    CXCursor *pa = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *pa);
    CXCursor *pb = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *pb);
    long na = ss_context_path(top, a, pa), nb = ss_context_path(top, b, pb);
    /* each path ends with its node: an arm may be the node itself ('else r = 0;') */
    unsigned line = 0;
    if (na >= 0 && na < SS_CONTEXT_MAX_PATH && nb >= 0 && nb < SS_CONTEXT_MAX_PATH) {
        pa[na++] = a;
        pb[nb++] = b;
        line = paths_split_at_if(pa, na, pb, nb);
    }
    free(pa);
    free(pb);
    return line;
}

/* Whether the name 'ref' of the out parameter 'param' (out_parameter) is the root of the target
 * of a plain store that stands as a statement ('r = 0.0;', '*out = 0;', 'p->n = 0;';
 * names_only_as_root), whose value does not name 'param', on the other arm of an 'if' than the
 * copy 'copy' (on_exclusive_arms): one call runs the copy or the store, never both, and the
 * caller gets the copy's value whenever the copy runs. Returns the line of the 'if', or 0. */
static unsigned exclusive_store(CXCursor top, CXCursor copy, CXCursor param, CXCursor ref)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(top, ref, path), full = found;
    while (full > 0) {
        enum CXCursorKind k = clang_getCursorKind(path[full - 1]);
        if (!clang_isExpression(k) || k == CXCursor_LambdaExpr)
            break;
        full--;
    }
    CXCursor lhs, rhs;
    int through, store = full > 0 && full < found &&
                         stands_as_statement(path[full - 1], path[full]) &&
                         assignment_sides(path[full], &lhs, &rhs) == 0;
    free(path);
    if (!store || !clang_equalCursors(out_parameter(lhs), param) ||
        !names_only_as_root(lhs, param) || !ss_ast_same_node(target_root(lhs, &through), ref) ||
        refers_to(rhs, param))
        return 0;
    return on_exclusive_arms(top, copy, ref);
}

/* Whether the name 'ref' of a parameter, in the function 'top', makes an alias of what the
 * caller gave: it is in a lambda (a capture by reference, or of the pointer, reaches it when
 * the lambda runs later), or the expression it is in is stored into a pointer ('w = v + 1;')
 * or gives the first value of a pointer or reference variable ('double &w = v;',
 * 'double *w = v;', 'unsigned *s = &t->seen;'). What is read or stored through the alias goes
 * unseen. Returns 1 or 0. */
static int makes_alias(CXCursor top, CXCursor ref)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long n = ss_context_path(top, ref, path), up = n;
    int alias = 0;
    for (long i = 0; i < n && !alias; i++)
        alias = clang_getCursorKind(path[i]) == CXCursor_LambdaExpr;
    CXCursor child = ref, lhs, rhs;
    while (up > 0 && !alias && clang_isExpression(clang_getCursorKind(path[up - 1]))) {
        CXCursor e = path[--up];
        alias = assignment_sides(e, &lhs, &rhs) == 0 && !ss_ast_same_node(lhs, child) &&
                is_pointer(lhs);
        child = e;
    }
    if (!alias && up > 0 && clang_getCursorKind(path[up - 1]) == CXCursor_VarDecl) {
        CXType t = clang_getCursorType(path[up - 1]);
        alias = clang_getCanonicalType(t).kind == CXType_Pointer || is_reference(t);
    }
    free(path);
    return alias;
}

/* Whether the function 'top', outside the copy 'copy', names the parameter 'param' after the
 * copy begins (a read of the value, another copy into it), or before it stores into the
 * parameter itself ('a = scratch;', 'a++', '&a') or makes an alias of it (makes_alias): then
 * the copy's value is not simply what the caller gets. A store on the other arm of an 'if' than
 * the copy's (exclusive_store) does not count where one call runs each statement once at most
 * (runs_once_per_call; 'once' is -1 until asked). */
typedef struct param_walk {
    ss_check_ctx *ctx;
    CXCursor top, param, copy;
    unsigned copy_at;
    int found, once;
    unsigned other_arm; /* the line of the first 'if' with such a store (any), or 0 */
} param_walk;

static enum CXChildVisitResult find_param_use(CXCursor c, CXCursor parent, CXClientData data)
{
    param_walk *w = data;
    if (ss_ast_same_node(c, w->copy))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
        !clang_equalCursors(clang_getCursorReferenced(c), w->param))
        return CXChildVisit_Recurse;
    int operand = ss_ast_same_node(ss_ast_child(parent, 0), c);
    int stored = operand &&
                 (stores(parent) ||
                  (clang_getCursorKind(parent) == CXCursor_UnaryOperator && unary_is(parent, "&")));
    int counts = ss_ast_offset(c) >= w->copy_at || stored || makes_alias(w->top, c);
    if (!counts && w->other_arm > 0)
        return CXChildVisit_Continue;
    if (w->once < 0)
        w->once = runs_once_per_call(ss_check_graph(w->ctx), w->top);
    /* one that does not count is looked at too, for the words ('*out = 0;' before the copy) */
    unsigned arm = w->once ? exclusive_store(w->top, w->copy, w->param, c) : 0;
    w->found = counts && arm == 0;
    if (w->other_arm == 0)
        w->other_arm = arm;
    return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* "inherent: its statement hands it to the caller through 't' (...)" where the value that a
 * call returns (a Thrust or CUB reduction, a one-value readback: no CUDA API call) is stored
 * straight into the caller's memory (stored_out_parameter), which the function names nowhere
 * but as such a store's target (find_param_read); else NULL. */
static char *stored_handover_words(ss_check_ctx *ctx, CXCursor at)
{
    CXCursor top = ss_scope_outer_function(ctx->function);
    CXCursor param = stored_out_parameter(top, at);
    if (ss_ast_is_null(param))
        return NULL;
    store_only_walk w = {param, 0};
    clang_visitChildren(top, find_param_read, &w);
    if (w.found)
        return NULL;
    CXString name = clang_getCursorSpelling(param);
    char *words = ss_xasprintf("inherent: its statement hands it to the caller through '%s' (it "
                               "stores the value straight into the caller's variable, which the "
                               "function only stores into)",
                               clang_getCString(name));
    clang_disposeString(name);
    return words;
}

char *ss_context_direct_handover_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SCALAR_READBACK)
        return NULL;
    CXCursor dst = clang_getNullCursor(), src;
    /* a cuBLAS reduction into host memory hands its result over as a copy does */
    char *cublas = ss_cublas_host_result(0, at, &dst);
    int library = 0;
    if (cublas) {
        library = 1;
        free(cublas);
    }
    const ss_api *api = ss_scope_callee_api(at);
    if (!library && api == NULL)
        return stored_handover_words(ctx, at);
    if (!library &&
        (api->dst_arg < 0 || ss_copy_kind(ctx->function, at, api, &dst, &src) != SS_COPY_KIND_D2H))
        return NULL;
    if (ss_ast_is_null(dst))
        return NULL;
    CXCursor param = copied_out_parameter(dst);
    if (ss_ast_is_null(param))
        return NULL;
    CXCursor top = ss_scope_outer_function(ctx->function);
    param_walk w = {ctx, top, param, at, ss_ast_offset(at), 0, -1, 0};
    clang_visitChildren(top, find_param_use, &w);
    if (w.found)
        return NULL;
    char *again = w.other_arm > 0 ? ss_xasprintf("names again only where it sets it on the "
                                                 "other branch of the 'if' at line %u",
                                                 w.other_arm)
                                  : ss_xstrdup("does not name again");
    CXString name = clang_getCursorSpelling(param);
    char *words = ss_xasprintf("inherent: the %s hands it to the caller through '%s' (it reads "
                               "the value straight into the caller's variable, which the "
                               "function %s)",
                               library ? "call" : "copy", clang_getCString(name), again);
    clang_disposeString(name);
    free(again);
    return words;
}

/* ss_context_inherent_words, searching as 'carried' says (use_search). */
static char *inherent_search(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, use_search *carried)
{
    if (rule != SS_RULE_SCALAR_READBACK && rule != SS_RULE_SYNC_COPY_IN_PIPELINE &&
        rule != SS_RULE_PAGEABLE_ASYNC_COPY)
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
    char *words = NULL;
    /* A CUDA API call returns an error code, not the value: an error-checking macro's 'if
     * ((err = call) != cudaSuccess)' branches on the code. */
    char *callee = ss_scope_callee_name(at);
    char *cublas = ss_cublas_host_result(0, at, NULL); /* returns a status, too */
    int returns_value = (callee == NULL || ss_api_find(callee) == NULL) && cublas == NULL;
    free(callee);
    free(cublas);
    /* The statement of a block that holds the call, and what it holds the call in. */
    for (size_t i = found > 0 ? (size_t)found : 0; i > 0 && words == NULL; i--) {
        CXCursor up = path[i - 1];
        CXCursor child = i < (size_t)found ? path[i] : at;
        enum CXCursorKind k = clang_getCursorKind(up);
        if (!returns_value && k != CXCursor_CompoundStmt)
            continue;
        words = holder_words(up, child, carried->sizing_only);
        if (words != NULL || k != CXCursor_CompoundStmt)
            continue;
        /* 'child' is the statement; what follows it in the block. */
        CXCursor stmts[MAX_BLOCK];
        unsigned at_index;
        unsigned n = block_statements(up, child, stmts, &at_index);
        /* The last statement of a bare block (an error-checking macro's '{ ... }') or of an
         * 'if' block: what follows is in the block around it. The body of an error-checking
         * macro's 'do { ... } while (0)' is one statement of the block around it. So is a
         * block that a macro expands to ('{ auto status = (op); if (...) ... }'). */
        enum CXCursorKind around = i >= 2 ? clang_getCursorKind(path[i - 2]) : CXCursor_NoDeclFound;
        if ((at_index + 1 >= n && (around == CXCursor_CompoundStmt || around == CXCursor_IfStmt)) ||
            (around == CXCursor_DoStmt && once_do(path[i - 2])) ||
            (around == CXCursor_CompoundStmt && !ss_ast_written_as(up, "{")))
            continue;
        words = following_words(ctx, rule, at, child, stmts, n, at_index, carried);
        /* Copied into locals at the end of an 'if' block: the statement after the 'if'. */
        if (carried->count == 0 || around != CXCursor_IfStmt)
            break;
    }
    free(path);
    return words;
}

char *ss_context_inherent_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    use_search search = {
        0, clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), {{0}}, 0, 0};
    return inherent_search(ctx, rule, at, &search);
}

/* The asynchronous readback of one value (with 'any_size', of any size: a table of counters)
 * that the wait 'at' (stmts[index]) waits for: the last such copy to the host in the three
 * statements before it (with 'any_size', also one a method called there ends with:
 * own_call_copy), the statements between standing apart from its value (stands_apart),
 * the copy running whenever its statement does (ss_context_runs_whenever: a readback under
 * 'if (k % every == 0)' leaves the other ways waiting with nothing read back). Sets '*var' to
 * its value; a null cursor when there is none. */
/* The last statement of the block 'body' that is not empty (the ';' after a macro that expands
 * to a whole block), or a null cursor. */
static CXCursor last_statement(CXCursor body)
{
    for (unsigned i = ss_ast_is_null(body) ? 0 : ss_ast_child_count(body); i-- > 0;) {
        CXCursor stmt = ss_ast_child(body, i);
        if (clang_getCursorKind(stmt) != CXCursor_NullStmt)
            return stmt;
    }
    return clang_getNullCursor();
}

/* The copy to the host that the statement 'stmt' makes as the last statement of a method it
 * calls on the same object ('CountersToHostAsync();' whose body ends with the copy), the
 * method not virtual, its copy running whenever its last statement does and no statement of
 * its body leaving it early; else a null cursor. */
static CXCursor own_call_copy(ss_check_ctx *ctx, CXCursor stmt)
{
    CXCursor call = ss_ast_strip(stmt), none = clang_getNullCursor();
    if (clang_getCursorKind(call) != CXCursor_CallExpr || ss_ast_child_count(call) == 0 ||
        !is_own_member(ss_ast_strip(ss_ast_child(call, 0))))
        return none;
    CXCursor callee = ss_callgraph_callee(ss_check_graph(ctx), call);
    CXCursor body = ss_ast_is_null(callee) ? callee : ss_ast_body(callee);
    unsigned n = ss_ast_is_null(body) ? 0 : ss_ast_child_count(body);
    if (n == 0 || clang_getCursorKind(callee) != CXCursor_CXXMethod ||
        clang_CXXMethod_isVirtual(callee))
        return none;
    for (unsigned i = 0; i < n; i++) {
        if (ss_context_may_leave(ss_ast_child(body, i)))
            return none;
    }
    CXCursor last = last_statement(body);
    CXCursor copy = copy_in(callee, last, is_copy_back);
    return !ss_ast_is_null(copy) && ss_context_runs_whenever(last, copy) ? copy : none;
}

static CXCursor readback_waited(ss_check_ctx *ctx, CXCursor at, const CXCursor *stmts,
                                unsigned index, CXCursor *var, int any_size)
{
    for (unsigned back = 1; back <= 3 && back <= index; back++) {
        CXCursor stmt = stmts[index - back];
        CXCursor copy = copy_in(ctx->function, stmt, is_copy_back), site = copy;
        if (ss_ast_is_null(copy) && any_size) {
            copy = own_call_copy(ctx, stmt);
            site = ss_ast_strip(stmt); /* the call of the method */
        }
        if (ss_ast_is_null(copy)) {
            if (!stands_apart(ctx, stmt, NULL, 0) && !only_records(stmt, NULL, 1))
                break;
            continue;
        }
        const ss_api *api = ss_scope_callee_api(copy);
        *var = value_var(ctx, copy, stmt);
        if (!ss_ast_is_null(*var) && api->sync != SS_SYNC_ALWAYS && api->sync != SS_SYNC_DEVICE &&
            ss_context_runs_whenever(stmt, site) &&
            (any_size || ss_check_copies_one_value(ctx, copy, api)) &&
            waits_past(ctx, copy, stmts, index - back, index, var, 1))
            return copy;
        break;
    }
    return clang_getNullCursor();
}

/* ------------------------------------------------------------------------------------------
 * Pinned host memory that a kernel writes directly (a wait's finding). */

/* The calls that give the device's address of mapped pinned host memory: (out, host, ...). */
static const char *const alias_calls[] = {"cudaHostGetDevicePointer", "cuMemHostGetDevicePointer",
                                          "cuMemHostGetDevicePointer_v2"};

/* The pointer an argument names: the field of 'buf' (a member), 'p->buf' or 's.buf', the
 * variable of 'x', 'x + i'; with 'address', only as '&x' ('(void **)&x'). A null cursor when it
 * names none. */
static CXCursor pointer_named(CXCursor arg, int address)
{
    CXCursor e = ss_ast_strip(arg);
    if (address) {
        char *text = clang_getCursorKind(e) == CXCursor_UnaryOperator ? ss_expr_text(e) : NULL;
        int taken = text && text[0] == '&';
        free(text);
        if (!taken)
            return clang_getNullCursor();
        e = ss_ast_strip(ss_ast_child(e, 0));
    }
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator) /* 'x + i' */
        e = ss_ast_strip(ss_ast_child(e, 0));
    enum CXCursorKind k = clang_getCursorKind(e);
    CXCursor decl = clang_getCursorReferenced(e);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl || dk == CXCursor_FieldDecl))
        return decl;
    return clang_getNullCursor();
}

/* How the unit stores into the pointer 'decl' (a variable or a field), in any of its
 * functions: allocations of pinned host memory into it ('cudaMallocHost((void **)&p, n)'), of
 * managed memory ('cudaMallocManaged(&p, n)'), the device's address of pinned host memory
 * ('cudaHostGetDevicePointer(&p, host, 0)': 'host'), and any other store ('p = ...' but a null
 * pointer, '&p' given to another call, an initializer). */
typedef struct pinned_walk {
    CXCursor decl;
    int pinned, managed, other;
    int one_value; /* a pinned or managed allocation of one element ('sizeof(unsigned)') */
    CXCursor host;
} pinned_walk;

/* The stores into every variable and field of the unit (pinned_walk), found by one walk of the
 * whole unit the first time a check asks (the checks ask for many pointers, at many calls),
 * kept for the unit: 'stores' indexed by an open-addressing table of clang_hashCursor. */
typedef struct ss_check_memo {
    int walked;
    pinned_walk *stores;
    unsigned *hashes; /* clang_hashCursor of each 'decl' */
    size_t count, cap, hash_cap;
    size_t *slots; /* index + 1 into 'stores', 0 for an empty slot; a power of two of them */
    size_t slot_count;
} ss_check_memo;

ss_check_memo *ss_check_memo_new(void)
{
    return ss_xcalloc(1, sizeof(ss_check_memo));
}

void ss_check_memo_free(ss_check_memo *memo)
{
    if (memo == NULL)
        return;
    free(memo->stores);
    free(memo->hashes);
    free(memo->slots);
    free(memo);
}

/* The slot of 'decl' (hash 'hash') in 'm': its entry's, or the empty one it would take. */
static size_t memo_slot(const ss_check_memo *m, CXCursor decl, unsigned hash)
{
    size_t mask = m->slot_count - 1, i = hash & mask;
    while (m->slots[i] != 0) {
        size_t at = m->slots[i] - 1;
        if (m->hashes[at] == hash && clang_equalCursors(m->stores[at].decl, decl))
            break;
        i = (i + 1) & mask;
    }
    return i;
}

static void memo_grow_slots(ss_check_memo *m)
{
    free(m->slots);
    m->slot_count = m->slot_count ? m->slot_count * 2 : 64;
    m->slots = ss_xcalloc(m->slot_count, sizeof *m->slots);
    for (size_t at = 0; at < m->count; at++)
        m->slots[memo_slot(m, m->stores[at].decl, m->hashes[at])] = at + 1;
}

/* The entry of 'decl' in 'm', or NULL. Entries are keyed by the canonical declaration: a
 * variable declared 'extern' and defined later is one variable, whichever declaration a use or a
 * store names. */
static pinned_walk *memo_find(const ss_check_memo *m, CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    if (m->slot_count == 0)
        return NULL;
    size_t slot = m->slots[memo_slot(m, decl, clang_hashCursor(decl))];
    return slot ? &m->stores[slot - 1] : NULL;
}

/* The entry of 'decl' in 'm', made empty if it has none. */
static pinned_walk *memo_entry(ss_check_memo *m, CXCursor decl)
{
    decl = clang_getCanonicalCursor(decl);
    pinned_walk *found = memo_find(m, decl);
    if (found)
        return found;
    if (2 * (m->count + 1) > m->slot_count)
        memo_grow_slots(m);
    unsigned hash = clang_hashCursor(decl);
    ss_xgrow((void **)&m->stores, &m->cap, m->count + 1, sizeof *m->stores);
    ss_xgrow((void **)&m->hashes, &m->hash_cap, m->count + 1, sizeof *m->hashes);
    m->hashes[m->count] = hash;
    m->stores[m->count] = (pinned_walk){decl, 0, 0, 0, 0, clang_getNullCursor()};
    m->slots[memo_slot(m, decl, hash)] = m->count + 1;
    return &m->stores[m->count++];
}

/* Whether the allocation 'call' ('api') gives 'decl' room for one element at most. */
static int allocates_one(CXCursor call, const ss_api *api, CXCursor decl)
{
    long long bytes = -1;
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    long long element =
        t.kind == CXType_Pointer ? clang_Type_getSizeOf(clang_getPointeeType(t)) : -1;
    return api->size_arg >= 0 && clang_Cursor_getNumArguments(call) > api->size_arg &&
           ss_ast_eval_int(clang_Cursor_getArgument(call, (unsigned)api->size_arg), &bytes) == 0 &&
           element > 0 && bytes <= element;
}

static int is_alias_call(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int match = 0;
    for (size_t i = 0; name && i < sizeof alias_calls / sizeof alias_calls[0] && !match; i++)
        match = strcmp(name, alias_calls[i]) == 0;
    free(name);
    return match;
}

/* The variable or field 'arg' may be the address of ('&decl', '&decl[i]', '&(decl + i)'): a
 * unary operator on it, or on 'decl + i', without reading its text; a null cursor if none. */
static CXCursor address_taken_of(CXCursor arg)
{
    CXCursor e = ss_ast_strip(arg);
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator)
        return clang_getNullCursor();
    e = ss_ast_strip(ss_ast_child(e, 0));
    if (clang_getCursorKind(e) == CXCursor_BinaryOperator)
        e = ss_ast_strip(ss_ast_child(e, 0));
    return clang_getCursorReferenced(e);
}

/* The stores the call 'call' makes through the addresses of pointers it is given. */
static void call_stores(ss_check_memo *m, CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        CXCursor decl = address_taken_of(arg);
        if (ss_ast_is_null(decl) || !clang_equalCursors(pointer_named(arg, 1), decl))
            continue;
        pinned_walk *w = memo_entry(m, decl);
        const ss_api *api = ss_scope_callee_api(call);
        if (i == 0 && api &&
            (api->klass == SS_CLASS_HOST_ALLOC || api->klass == SS_CLASS_MANAGED_ALLOC)) {
            *(api->klass == SS_CLASS_HOST_ALLOC ? &w->pinned : &w->managed) += 1;
            w->one_value |= allocates_one(call, api, w->decl);
            continue;
        }
        CXCursor host = i == 0 && n > 1 && is_alias_call(call)
                            ? pointer_named(clang_Cursor_getArgument(call, 1), 0)
                            : clang_getNullCursor();
        /* The address of one host memory; another's, or another store, is not known. */
        if (!ss_ast_is_null(host) && (ss_ast_is_null(w->host) || clang_equalCursors(w->host, host)))
            w->host = host;
        else
            w->other++;
    }
}

/* Whether 'value' is a null pointer constant ('0', 'NULL', 'nullptr'). */
static int is_null_pointer(CXCursor value)
{
    CXCursor e = ss_ast_strip(value);
    long long v = 1;
    return clang_getCursorKind(e) == CXCursor_CXXNullPtrLiteralExpr ||
           clang_getCursorKind(e) == CXCursor_GNUNullExpr ||
           (ss_ast_eval_int(e, &v) == 0 && v == 0);
}

/* A constructor's initializers of fields ('Post() : h_count(other) {}'): each a store unless a
 * null pointer. */
static void initializer_stores(ss_check_memo *m, CXCursor constructor)
{
    unsigned n = ss_ast_child_count(constructor);
    for (unsigned i = 0; i + 1 < n; i++) {
        CXCursor c = ss_ast_child(constructor, i), init = ss_ast_child(constructor, i + 1);
        if (clang_getCursorKind(c) == CXCursor_MemberRef &&
            clang_isExpression(clang_getCursorKind(init)) && !is_null_pointer(init))
            memo_entry(m, clang_getCursorReferenced(c))->other++;
    }
}

static enum CXChildVisitResult find_pinned_stores(CXCursor c, CXCursor parent, CXClientData data)
{
    ss_check_memo *m = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8] = "";
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && ss_ast_in_system_header(c))
        return CXChildVisit_Continue;
    if (k == CXCursor_CallExpr)
        call_stores(m, c);
    if (k == CXCursor_Constructor)
        initializer_stores(m, c);
    if ((k == CXCursor_BinaryOperator && ss_ast_binary_op(c, op, sizeof op) == 0 &&
         strcmp(op, "=") == 0) ||
        k == CXCursor_CompoundAssignOperator) {
        CXCursor lhs = ss_ast_strip(ss_ast_child(c, 0));
        enum CXCursorKind lk = clang_getCursorKind(lhs);
        CXCursor decl = clang_getCursorReferenced(lhs);
        if ((lk == CXCursor_DeclRefExpr || lk == CXCursor_MemberRefExpr) && !ss_ast_is_null(decl) &&
            (k == CXCursor_CompoundAssignOperator || !is_null_pointer(ss_ast_child(c, 1))))
            memo_entry(m, decl)->other++;
    }
    if (k == CXCursor_VarDecl && ss_ast_child_count(c) > 0) {
        CXCursor init = ss_ast_child(c, ss_ast_child_count(c) - 1);
        if (clang_isExpression(clang_getCursorKind(init)) && !is_null_pointer(init))
            memo_entry(m, c)->other++;
    }
    return CXChildVisit_Recurse;
}

/* How the unit of 'ctx' stores into 'decl' (pinned_walk), from the unit's one walk, kept in the
 * context's memo (or, without one, in 'scratch'). The answer lives until the next call. */
static const pinned_walk *stores_into(ss_check_ctx *ctx, CXCursor decl, pinned_walk *scratch)
{
    ss_check_memo *m = ctx->memo, *own = NULL;
    if (m == NULL)
        m = own = ss_check_memo_new();
    if (!m->walked) {
        m->walked = 1;
        clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), find_pinned_stores, m);
    }
    const pinned_walk *found = memo_find(m, decl);
    *scratch = found ? *found : (pinned_walk){decl, 0, 0, 0, 0, clang_getNullCursor()};
    ss_check_memo_free(own);
    return found && own == NULL ? found : scratch;
}

/* The host memory the pointer 'arg' of 'function' points into, as ss_context_pinned_memory
 * finds it; with 'managed', managed memory too (the function's data flow says so, or the unit
 * stores into the variable or field only managed allocations), '*is_managed' then set. */
static CXCursor host_memory(ss_check_ctx *ctx, CXCursor function, CXCursor arg, int managed,
                            int *is_managed)
{
    CXCursor decl = pointer_named(arg, 0), none = clang_getNullCursor();
    CXType t = clang_getCanonicalType(clang_getCursorType(arg));
    *is_managed = 0;
    /* A parameter's memory is the caller's to say. */
    if (ss_ast_is_null(decl) || t.kind != CXType_Pointer ||
        clang_getCursorKind(decl) == CXCursor_ParmDecl)
        return none;
    ss_provenance p;
    ss_provenance_of(function, arg, &p);
    ss_host_kind kind = p.kind;
    ss_provenance_free(&p);
    *is_managed = managed && kind == SS_HOST_MANAGED;
    if (kind == SS_HOST_PINNED || *is_managed)
        return decl;
    if (kind != SS_HOST_UNKNOWN)
        return none;
    pinned_walk scratch;
    const pinned_walk *w = stores_into(ctx, decl, &scratch);
    int pinned = w->pinned > 0, own = w->managed > 0;
    /* One kind of memory only: a pointer that may hold either is not known. */
    if (w->other > 0 || (own && (!managed || pinned || !ss_ast_is_null(w->host))) ||
        (pinned || own) == !ss_ast_is_null(w->host))
        return none;
    *is_managed = own;
    return pinned || own ? decl : w->host;
}

CXCursor ss_context_pinned_memory(ss_check_ctx *ctx, CXCursor function, CXCursor arg)
{
    int managed;
    return host_memory(ctx, function, arg, 0, &managed);
}

CXCursor ss_context_readable_memory(ss_check_ctx *ctx, CXCursor function, CXCursor arg,
                                    int *managed)
{
    return host_memory(ctx, function, arg, 1, managed);
}

int ss_context_pinned_one_value(ss_check_ctx *ctx, CXCursor memory)
{
    pinned_walk scratch;
    return stores_into(ctx, memory, &scratch)->one_value;
}

int ss_context_const_parameter(CXCursor launch, unsigned index)
{
    CXCursor kernel = clang_getCursorReferenced(launch);
    if (ss_ast_is_null(kernel) || clang_Cursor_getNumArguments(kernel) <= (int)index)
        return 0;
    CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(kernel, index)));
    return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* The pinned host memory (ss_context_pinned_memory) that the launch 'launch' is given a pointer to,
 * where the kernel's parameter is not a pointer to const, into 'memory' (SS_CONTEXT_MAX_PINNED at
 * most); with 'kinds', managed memory too, 'kinds' saying which is managed (1) or pinned (0).
 * Returns how many. */
static size_t written_memory(ss_check_ctx *ctx, CXCursor launch, CXCursor *memory, int *kinds)
{
    size_t count = 0;
    int n = clang_Cursor_getNumArguments(launch);
    for (int i = 0; i < n && count < SS_CONTEXT_MAX_PINNED; i++) {
        if (ss_context_const_parameter(launch, (unsigned)i))
            continue;
        int managed = 0;
        CXCursor m = host_memory(ctx, ctx->function, clang_Cursor_getArgument(launch, (unsigned)i),
                                 kinds != NULL, &managed);
        for (size_t j = 0; j < count && !ss_ast_is_null(m); j++) {
            if (clang_equalCursors(memory[j], m))
                m = clang_getNullCursor();
        }
        if (kinds && !ss_ast_is_null(m))
            kinds[count] = managed;
        if (!ss_ast_is_null(m))
            memory[count++] = m;
    }
    return count;
}

/* The last launch in 'stmt' (the statement itself or one in it: an error-checking macro). */
static enum CXChildVisitResult find_launch(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr && ss_scope_is_launch(c))
        *found = c;
    return CXChildVisit_Recurse;
}

static CXCursor launch_in(CXCursor stmt)
{
    CXCursor found = clang_getNullCursor();
    if (clang_getCursorKind(stmt) == CXCursor_CallExpr && ss_scope_is_launch(stmt))
        return stmt;
    clang_visitChildren(stmt, find_launch, &found);
    return found;
}

/* The last launch in the three statements before the wait, where it runs whenever its
 * statement does (ss_context_runs_whenever) and writes pinned host memory (written_memory), the
 * statements between stand apart from it (stands_apart) and its stream as written names the
 * same stream at the wait (stream_rebound). */
static CXCursor memory_writer(ss_check_ctx *ctx, const CXCursor *stmts, unsigned index,
                              CXCursor *memory, int *kinds, size_t *count)
{
    *count = 0;
    for (unsigned back = 1; back <= 3 && back <= index; back++) {
        CXCursor stmt = stmts[index - back];
        CXCursor launch = launch_in(stmt);
        if (ss_ast_is_null(launch)) {
            if (!stands_apart(ctx, stmt, NULL, 0))
                break;
            continue;
        }
        *count =
            ss_context_runs_whenever(stmt, launch) ? written_memory(ctx, launch, memory, kinds) : 0;
        int apart = *count > 0;
        for (unsigned s = index - back + 1; s < index && apart; s++)
            apart = stands_apart(ctx, stmts[s], memory, *count);
        char *stream = apart ? stream_at_wait(ctx, launch, stmts, index - back, index) : NULL;
        apart = apart && waits_on_stream(stmts[index], stream);
        free(stream);
        if (apart)
            return launch;
        break;
    }
    *count = 0;
    return clang_getNullCursor();
}

CXCursor ss_context_pinned_writer(ss_check_ctx *ctx, const CXCursor *stmts, unsigned index,
                                  CXCursor *memory, size_t *count)
{
    return memory_writer(ctx, stmts, index, memory, NULL, count);
}

CXCursor ss_context_readable_writer(ss_check_ctx *ctx, const CXCursor *stmts, unsigned index,
                                    CXCursor *memory, int *managed, size_t *count)
{
    return memory_writer(ctx, stmts, index, memory, managed, count);
}

/* The calls of a function that hands a value to its callers (callers_words, out_param_words),
 * and the words for the first whose caller needs the value next. */
enum { MAX_NEEDING_CALLS = 16 };

typedef struct needing_calls {
    ss_check_ctx *ctx;
    CXCursor var;   /* the member read back (callers_words) */
    unsigned param; /* the out parameter (out_param_words) */
    int reference;  /* that parameter is a reference: the caller gives the local itself */
    CXCursor calls[MAX_NEEDING_CALLS], callers[MAX_NEEDING_CALLS];
    long count;
    char *words; /* malloc'ed */
} needing_calls;

/* The function the call 'call' of 'nc''s function is made in, or a null cursor. */
static CXCursor needing_caller(const needing_calls *nc, CXCursor call)
{
    return ss_context_caller_of(nc->calls, nc->callers,
                                nc->count < MAX_NEEDING_CALLS ? nc->count : MAX_NEEDING_CALLS,
                                call);
}

/* Whether the call 'call', a statement of its own in 'caller', is followed there by device work
 * that needs 'var' (next_use_words, as for a readback written in the caller); the first such
 * call's words go into nc->words. Returns 1 or 0. */
static int caller_needs(needing_calls *nc, CXCursor caller, CXCursor call, CXCursor var)
{
    CXCursor stmts[MAX_BLOCK];
    unsigned index = 0;
    unsigned n = ss_ast_is_null(caller) || ss_ast_is_null(var)
                     ? 0
                     : ss_context_statements_around(caller, call, stmts, MAX_BLOCK, &index);
    if (n == 0 || !ss_ast_same_node(ss_ast_strip(stmts[index]), call))
        return 0;
    ss_check_ctx there = *nc->ctx;
    there.function = caller;
    use_search search = {
        1, clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), {{0}}, 0, 1};
    char *use = next_use_words(&there, stmts, n, index, &var, 1, &search);
    if (use && nc->words == NULL) {
        const char *lead = "inherent: ";
        const char *said = strncmp(use, lead, strlen(lead)) == 0 ? use + strlen(lead) : use;
        char *place = ss_callgraph_place(call);
        nc->words = ss_xasprintf("the call at %s: %s", place, said);
        free(place);
    }
    int needs = use != NULL;
    free(use);
    return needs;
}

/* For ss_callgraph_reached_unless: a call of the method is skipped when it is a statement of its
 * own, on the same object ('CountersToHostSync();'), and the device work its caller queues next
 * needs the member (caller_needs). */
static int skip_needing_call(CXCursor from, CXCursor call, void *data)
{
    (void)from;
    needing_calls *nc = data;
    if (ss_ast_child_count(call) == 0 || !is_own_member(ss_ast_strip(ss_ast_child(call, 0))))
        return 0;
    return caller_needs(nc, needing_caller(nc, call), call, nc->var);
}

/* "inherent: every call from a loop is followed by device work that needs the value read back
 * at line 30 (...)" when the wait, the last statement of a method (not virtual, not a lambda),
 * waits for a readback into a member of its object, and every chain of calls from a loop that
 * enqueues device work down to the method ends with a call of it whose caller's next device
 * work needs the member (skip_needing_call). Malloc'ed, or NULL. */
static char *callers_words(ss_check_ctx *ctx, CXCursor wait_stmt, CXCursor var, CXCursor copy)
{
    CXCursor method = ctx->function;
    CXCursor last = last_statement(ss_ast_body(method));
    if (clang_getCursorKind(method) != CXCursor_CXXMethod || clang_CXXMethod_isVirtual(method) ||
        clang_getCursorKind(var) != CXCursor_FieldDecl || ss_ast_is_null(last) ||
        !ss_ast_same_node(last, wait_stmt) || !copies_into_own(copy))
        return NULL;
    needing_calls nc = {.ctx = ctx, .var = var};
    char *words = NULL;
    if (ss_context_every_loop_call(ss_check_graph(ctx), method, nc.calls, nc.callers,
                                   MAX_NEEDING_CALLS, &nc.count, skip_needing_call, &nc) &&
        nc.words)
        words = ss_xasprintf("inherent: every call from a loop is followed by device work that "
                             "needs the value read back at line %u (%s)",
                             ss_scope_line(copy), nc.words);
    free(nc.words);
    return words;
}

/* The plain local of its caller that the call 'call' gives the out parameter ('&size', or
 * 'size' for a reference), or a null cursor. */
static CXCursor given_local(const needing_calls *oc, CXCursor call)
{
    CXCursor none = clang_getNullCursor();
    if ((unsigned)clang_Cursor_getNumArguments(call) <= oc->param)
        return none;
    CXCursor arg = ss_ast_strip(clang_Cursor_getArgument(call, oc->param));
    if (!oc->reference) {
        if (clang_getCursorKind(arg) != CXCursor_UnaryOperator || !unary_is(arg, "&"))
            return none;
        arg = ss_ast_strip(ss_ast_child(arg, 0));
    }
    CXCursor local = clang_getCursorReferenced(arg);
    return clang_getCursorKind(arg) == CXCursor_DeclRefExpr && ss_context_plain_local(local) ? local
                                                                                             : none;
}

/* For ss_callgraph_reached_unless: a call of the function is skipped when it is a statement of
 * its own that gives the out parameter a plain local of its caller, and the device work the
 * caller queues next needs that local (caller_needs). */
static int skip_out_call(CXCursor from, CXCursor call, void *data)
{
    (void)from;
    needing_calls *nc = data;
    CXCursor caller = needing_caller(nc, call);
    return caller_needs(nc, caller, call, ss_ast_is_null(caller) ? caller : given_local(nc, call));
}

/* "inherent: it hands the value to its caller through 'size', and every call from a loop is
 * followed by device work that needs it (the call at step.cu:14: ...)" when 'stmt', the last
 * statement of a function that is no lambda and not virtual, assigns a value that names one of
 * 'vars' to what a pointer parameter points to, or to a reference parameter, and every chain of
 * calls from a loop that enqueues device work down to the function ends with a call that gives
 * that parameter a plain local whose next use in the caller sizes device work (skip_out_call):
 * the host needs the value to queue that work, as where the caller reads it back itself.
 * Malloc'ed, or NULL. */
static char *out_param_words(ss_check_ctx *ctx, CXCursor stmt, const CXCursor *vars,
                             size_t var_count)
{
    CXCursor function = ctx->function, lhs, rhs;
    enum CXCursorKind k = clang_getCursorKind(function);
    if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) ||
        (k == CXCursor_CXXMethod && clang_CXXMethod_isVirtual(function)) ||
        !ss_ast_same_node(last_statement(ss_ast_body(function)), stmt) ||
        assignment_sides(stmt, &lhs, &rhs) != 0)
        return NULL;
    int names = 0;
    for (size_t v = 0; v < var_count && !names; v++)
        names = refers_to(rhs, vars[v]);
    CXCursor param = names ? out_parameter(lhs) : clang_getNullCursor();
    int index = ss_ast_is_null(param) ? -1 : ss_context_parameter_index(function, param);
    if (index < 0)
        return NULL;
    needing_calls oc = {.ctx = ctx, .param = (unsigned)index};
    oc.reference =
        clang_getCanonicalType(clang_getCursorType(param)).kind == CXType_LValueReference;
    char *words = NULL;
    if (ss_context_every_loop_call(ss_check_graph(ctx), function, oc.calls, oc.callers,
                                   MAX_NEEDING_CALLS, &oc.count, skip_out_call, &oc) &&
        oc.words) {
        CXString name = clang_getCursorSpelling(param);
        words = ss_xasprintf("inherent: it hands the value to its caller through '%s', and "
                             "every call from a loop is followed by device work that needs it "
                             "(%s)",
                             clang_getCString(name), oc.words);
        clang_disposeString(name);
    }
    free(oc.words);
    return words;
}

char *ss_context_sized_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    use_search search = {
        1, clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), {{0}}, 0, 0};
    if (rule != SS_RULE_SYNC_IN_LOOP)
        return inherent_search(ctx, rule, at, &search);
    CXCursor stmts[MAX_BLOCK];
    unsigned index;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, MAX_BLOCK, &index);
    CXCursor var = clang_getNullCursor();
    if (n == 0 || index == 0)
        return NULL;
    search.copy = readback_waited(ctx, at, stmts, index, &var, 1);
    if (!ss_ast_is_null(search.copy)) {
        char *words = next_use_words(ctx, stmts, n, index, &var, 1, &search);
        if (words == NULL && index + 1 == n)
            words = callers_words(ctx, stmts[index], var, search.copy);
        return words;
    }
    CXCursor memory[SS_CONTEXT_MAX_PINNED];
    size_t count = 0;
    search.writer = ss_context_pinned_writer(ctx, stmts, index, memory, &count);
    if (ss_ast_is_null(search.writer))
        return NULL;
    return next_use_words(ctx, stmts, n, index, memory, count, &search);
}

CXCursor ss_context_loop_value(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, CXCursor *copy,
                               CXCursor *stmts, unsigned max, unsigned *count, unsigned *from)
{
    CXCursor none = clang_getNullCursor(), var = none;
    *copy = none;
    *count = ss_context_statements_around(ctx->function, at, stmts, max, from);
    if (*count == 0)
        return none;
    if (rule == SS_RULE_SYNC_IN_LOOP) {
        if (*from > 0)
            *copy = readback_waited(ctx, at, stmts, *from, &var, 0);
        return ss_ast_is_null(*copy) ? none : var;
    }
    if (rule != SS_RULE_SCALAR_READBACK && rule != SS_RULE_SYNC_COPY_IN_PIPELINE &&
        rule != SS_RULE_PAGEABLE_ASYNC_COPY)
        return none;
    const ss_api *api = ss_scope_callee_api(at);
    if (api && (api->klass != SS_CLASS_COPY || !ss_check_copies_one_value(ctx, at, api)))
        return none;
    if (!api && rule != SS_RULE_SCALAR_READBACK)
        return none;
    *copy = at;
    return value_var(ctx, at, stmts[*from]);
}

/* ------------------------------------------------------------------------------------------
 * A copy that hands the data to the caller. */

static enum CXChildVisitResult find_variable(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        enum CXCursorKind k = clang_getCursorKind(ref);
        if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
            *found = ref;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static int is_pointer_or_reference(CXType type)
{
    enum CXTypeKind k = clang_getCanonicalType(type).kind;
    return k == CXType_Pointer || k == CXType_LValueReference || k == CXType_RValueReference;
}

/* The variable whose storage 'var' points into: a local pointer or reference is followed to the
 * first variable its initializer names ('char *tail = out->data() + n', 'auto &column =
 * out.columns.back()'), up to four times. */
static CXCursor storage_root(CXCursor var)
{
    for (int hops = 0; hops < 4; hops++) {
        if (clang_getCursorKind(var) != CXCursor_VarDecl ||
            !is_pointer_or_reference(clang_getCursorType(var)))
            break;
        unsigned n = ss_ast_child_count(var);
        CXCursor init = n > 0 ? ss_ast_child(var, n - 1) : clang_getNullCursor();
        if (ss_ast_is_null(init) || !clang_isExpression(clang_getCursorKind(init)))
            break;
        CXCursor next = clang_getNullCursor();
        ss_ast_visit_whole(init, var, find_variable, &next);
        if (ss_ast_is_null(next) || clang_equalCursors(next, var))
            break;
        var = next;
    }
    return var;
}

typedef struct return_walk {
    CXCursor var;
    CXCursor found; /* the return statement */
} return_walk;

static enum CXChildVisitResult find_return(CXCursor c, CXCursor parent, CXClientData data)
{
    return_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_ReturnStmt && refers_to(c, w->var)) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Device work in a function after a copy to the host: a launch, a call that enqueues work
 * (event records and stream waits aside) or a function of the unit that does, at or after
 * 'start'; other copies to the host do not count. */
typedef struct after_walk {
    ss_callgraph *graph;
    CXCursor function;
    CXCursor copy;
    unsigned start;
    int found;
} after_walk;

static enum CXChildVisitResult find_work_after(CXCursor c, CXCursor parent, CXClientData data)
{
    after_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_ast_same_node(c, w->copy) ||
        ss_ast_offset(c) < w->start)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (!ss_context_call_enqueues(w->graph, c, api))
        return CXChildVisit_Recurse;
    if (api && api->klass == SS_CLASS_COPY && api->dst_arg >= 0) {
        CXCursor dst, src;
        int kind = ss_copy_kind(w->function, c, api, &dst, &src);
        if (kind == SS_COPY_KIND_D2H ||
            (kind == SS_COPY_KIND_DEFAULT && !ss_check_is_device_pointer(w->function, dst)))
            return CXChildVisit_Recurse;
    }
    w->found = 1;
    return CXChildVisit_Break;
}

/* The waits for a stream or an event (not for the whole device) in a function at or after
 * 'start' (an offset), counted. */
typedef struct later_wait_walk {
    unsigned start;
    unsigned count;
} later_wait_walk;

static enum CXChildVisitResult find_later_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    later_wait_walk *w = data;
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    const ss_api *api = clang_getCursorKind(c) == CXCursor_CallExpr ? ss_scope_callee_api(c) : NULL;
    if (api && (api->klass == SS_CLASS_STREAM_SYNC || api->klass == SS_CLASS_EVENT_SYNC) &&
        ss_ast_offset(c) >= w->start)
        w->count++;
    return CXChildVisit_Recurse;
}

/* Whether every wait after the copy 'at' in its function waits for the copy: each wait for a
 * stream or an event is in a later statement of the copy's block that waits for the copy's
 * stream as written (waits_on_stream), not rebound by then (stream_rebound). A wait for other
 * work after the copy (another stream, the stream rebound, or one lint cannot place) is work
 * a pinned buffer's copy could overlap with: the staging stall is not the caller's need. */
static int later_waits_cover(ss_check_ctx *ctx, CXCursor at)
{
    later_wait_walk all = {ss_ast_offset(at) + 1, 0};
    clang_visitChildren(ss_scope_outer_function(ctx->function), find_later_wait, &all);
    if (all.count == 0)
        return 1;
    CXCursor stmts[MAX_BLOCK];
    unsigned at_index;
    unsigned n = ss_context_statements_around(ctx->function, at, stmts, MAX_BLOCK, &at_index);
    unsigned covered = 0;
    for (unsigned s = at_index + 1; s < n; s++) {
        later_wait_walk one = {0, 0};
        ss_ast_visit_whole(stmts[s], stmts[s], find_later_wait, &one);
        char *stream = stream_at_wait(ctx, at, stmts, at_index, s);
        covered += one.count == 1 && waits_on_stream(stmts[s], stream);
        free(stream);
    }
    return covered == all.count;
}

char *ss_context_handover_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->dst_arg < 0)
        return NULL;
    CXCursor dst, src;
    int kind = ss_copy_kind(ctx->function, at, api, &dst, &src);
    if (kind != SS_COPY_KIND_D2H && kind != SS_COPY_KIND_DEFAULT)
        return NULL;
    ss_provenance p;
    ss_provenance_of(ctx->function, dst, &p);
    int pageable = p.kind == SS_HOST_PAGEABLE;
    ss_provenance_free(&p);
    if (!pageable)
        return NULL;
    CXCursor top = ss_scope_outer_function(ctx->function);
    CXCursor root = storage_root(destination_var(dst));
    char *words = NULL;
    if (clang_getCursorKind(root) == CXCursor_ParmDecl &&
        is_pointer_or_reference(clang_getCursorType(root))) {
        CXString name = clang_getCursorSpelling(root);
        words = ss_xasprintf("inherent: the function hands the data to its caller (through the "
                             "parameter '%s')",
                             clang_getCString(name));
        clang_disposeString(name);
    } else if (clang_getCursorKind(root) == CXCursor_VarDecl) {
        return_walk r = {root, clang_getNullCursor()};
        clang_visitChildren(top, find_return, &r);
        if (!ss_ast_is_null(r.found)) {
            CXString name = clang_getCursorSpelling(root);
            words = ss_xasprintf("inherent: the function hands the data to its caller (it "
                                 "returns '%s' at line %u)",
                                 clang_getCString(name), ss_scope_line(r.found));
            clang_disposeString(name);
        }
    }
    if (words == NULL || !later_waits_cover(ctx, at)) {
        free(words);
        return NULL;
    }
    CXCursor loops[8];
    size_t loop_count = ss_scope_enclosing_loops(ctx->function, at, loops, 8);
    after_walk w = {ss_check_graph(ctx), ctx->function, at,
                    ss_ast_offset(loop_count > 0 ? loops[loop_count - 1] : at), 0};
    clang_visitChildren(top, find_work_after, &w);
    if (w.found) {
        free(words);
        words = NULL;
    }
    return words;
}
