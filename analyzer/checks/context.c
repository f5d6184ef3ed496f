/* context.c: a finding's severity from where its call runs: per iteration (a warning), once or
 * where the host needs the value at once (a note), or neither (the check's own severity). */
#include "context.h"
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether the severity of 'rule' depends on where its call runs. */
static int context_rule(ss_rule_id rule)
{
    switch (rule) {
    case SS_RULE_DEFAULT_STREAM_LAUNCH:
    case SS_RULE_DEFAULT_STREAM_ASYNC_CALL:
    case SS_RULE_PAGEABLE_ASYNC_COPY:
    case SS_RULE_SYNC_COPY_IN_PIPELINE:
    case SS_RULE_SCALAR_READBACK:
    case SS_RULE_SYNC_IN_LOOP:
    case SS_RULE_DEVICE_WIDE_SYNC_CALL:
        return 1;
    default:
        return 0;
    }
}

int ss_context_is_hot_function(const ss_check_ctx *ctx, const char *name)
{
    if (name == NULL)
        return 0;
    const char *last = name;
    for (const char *p = strstr(name, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    for (size_t i = 0; i < ctx->hot_count; i++) {
        if (fnmatch(ctx->hot_functions[i], name, 0) == 0 ||
            fnmatch(ctx->hot_functions[i], last, 0) == 0)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * The path from a function down to a node. */

enum { MAX_PATH = 96 };

/* The nodes from 'top' down to 'target', outermost first, into 'path' (MAX_PATH of them).
 * Returns how many, or -1 when the target is not there or lies deeper than MAX_PATH. */
static long path_to(CXCursor top, CXCursor target, CXCursor *path)
{
    long n = ss_scope_path(top, target, NULL, path, MAX_PATH);
    return n > MAX_PATH ? -1 : n;
}

/* ------------------------------------------------------------------------------------------
 * Whether the host needs the value at once. */

typedef struct ref_walk {
    CXCursor var;
    int found;
} ref_walk;

static enum CXChildVisitResult find_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    ref_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), w->var)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'c' is or contains a reference to the variable 'var'. */
static int refers_to(CXCursor c, CXCursor var)
{
    if (ss_ast_is_null(c) || ss_ast_is_null(var))
        return 0;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), var))
        return 1;
    ref_walk w = {var, 0};
    clang_visitChildren(c, find_ref, &w);
    return w.found;
}

/* Calls that size an allocation with their arguments: the allocators of C and CUDA, and a
 * container's resize (also capitalized, as some C++ libraries name it). */
#define SIZING_CALLS                                                                               \
    "malloc", "calloc", "realloc", "aligned_alloc", "cudaMalloc", "cudaMallocHost",                \
        "cudaHostAlloc", "cudaMallocManaged", "cudaMallocAsync", "cudaMallocPitch",                \
        "cudaMallocFromPoolAsync", "resize", "Resize", "reserve", "Reserve", "assign"
static const char *const allocators[] = {SIZING_CALLS};

static int is_allocator(CXCursor call)
{
    char *name = ss_scope_callee_name(call);
    int match = 0;
    for (size_t i = 0; name && i < sizeof allocators / sizeof allocators[0] && !match; i++)
        match = strcmp(name, allocators[i]) == 0;
    free(name);
    return match;
}

/* How 'stmt' needs the variable 'var' at once, in words ("sizes an allocation with it"),
 * malloc'ed, or NULL. */
typedef struct use_walk {
    ss_callgraph *graph;
    CXCursor var;
    char *use;
} use_walk;

static enum CXChildVisitResult find_use(CXCursor c, CXCursor parent, CXClientData data)
{
    use_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CXXNewExpr && refers_to(c, w->var)) {
        w->use = ss_xstrdup("sizes an allocation with it");
        return CXChildVisit_Break;
    }
    if (k == CXCursor_CallExpr) {
        if (ss_scope_is_launch(c) && refers_to(ss_ast_child(c, 1), w->var)) {
            w->use = ss_xstrdup("sizes a launch with it");
            return CXChildVisit_Break;
        }
        if (is_allocator(c) && refers_to(c, w->var)) {
            w->use = ss_xstrdup("sizes an allocation with it");
            return CXChildVisit_Break;
        }
        /* A function of the unit that allocates (itself or two calls down), given the value. */
        CXCursor callee = ss_callgraph_callee(w->graph, c);
        CXCursor found;
        if (!ss_ast_is_null(callee) && refers_to(c, w->var) &&
            ss_callgraph_calls_named(w->graph, callee, allocators,
                                     sizeof allocators / sizeof allocators[0], &found)) {
            char *name = ss_qualified_name(callee);
            w->use = ss_xasprintf("passes it to '%s()', which allocates", name);
            free(name);
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static char *statement_use(ss_callgraph *graph, CXCursor stmt, CXCursor var)
{
    switch (clang_getCursorKind(stmt)) {
    case CXCursor_IfStmt:
    case CXCursor_WhileStmt:
    case CXCursor_SwitchStmt: {
        /* The condition: the children before the last (the body; an if's else comes later,
         * so look at the first child that is an expression). */
        unsigned n = ss_ast_child_count(stmt);
        for (unsigned i = 0; i < n; i++) {
            CXCursor c = ss_ast_child(stmt, i);
            if (clang_isExpression(clang_getCursorKind(c)) ||
                clang_getCursorKind(c) == CXCursor_DeclStmt)
                return refers_to(c, var) ? ss_xstrdup("branches on it") : NULL;
        }
        return NULL;
    }
    case CXCursor_ReturnStmt:
        return refers_to(stmt, var) ? ss_xstrdup("returns it") : NULL;
    default: {
        /* The statement itself may be the call ('v.resize(n);'). */
        use_walk w = {graph, var, NULL};
        if (find_use(stmt, stmt, &w) == CXChildVisit_Recurse)
            clang_visitChildren(stmt, find_use, &w);
        return w.use;
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

static int is_wait(CXCursor stmt)
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

/* The variable the statement 'stmt' declares or assigns ('T x = ...', 'x = ...'), or a null
 * cursor. */
static CXCursor assigned_var(CXCursor stmt)
{
    enum CXCursorKind k = clang_getCursorKind(stmt);
    if (k == CXCursor_DeclStmt) {
        CXCursor var = ss_ast_child(stmt, 0);
        return clang_getCursorKind(var) == CXCursor_VarDecl ? var : clang_getNullCursor();
    }
    if (k == CXCursor_BinaryOperator || k == CXCursor_CallExpr) /* x = ..., or operator= */
        return destination_var(ss_ast_child(stmt, 0));
    return clang_getNullCursor();
}

/* The value a readback gives the host: the destination of a device-to-host copy, or the
 * variable a call's result initializes or is assigned to ('stmt' holds the call). */
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
        return destination_var(dst);
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

/* "inherent: ..." when the host uses the readback's value at once: the call is the condition
 * of a branch, the value returned, or the size of an allocation, or the next statement (after
 * waits for the device) does one of these with it. Malloc'ed, or NULL. */
static char *inherent_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SCALAR_READBACK && rule != SS_RULE_SYNC_COPY_IN_PIPELINE &&
        rule != SS_RULE_PAGEABLE_ASYNC_COPY)
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, MAX_PATH, sizeof *path);
    long found = path_to(ss_scope_outer_function(ctx->function), at, path);
    char *words = NULL;
    /* A CUDA API call returns an error code, not the value: an error-checking macro's 'if
     * ((err = call) != cudaSuccess)' branches on the code. */
    char *callee = ss_scope_callee_name(at);
    int returns_value = callee == NULL || ss_api_find(callee) == NULL;
    free(callee);
    /* The statement of a block that holds the call, and what it holds the call in. */
    for (size_t i = found > 0 ? (size_t)found : 0; i > 0 && words == NULL; i--) {
        CXCursor up = path[i - 1];
        CXCursor child = i < (size_t)found ? path[i] : at;
        enum CXCursorKind k = clang_getCursorKind(up);
        if (!returns_value && k != CXCursor_CompoundStmt)
            continue;
        if ((k == CXCursor_IfStmt || k == CXCursor_WhileStmt || k == CXCursor_SwitchStmt) &&
            clang_isExpression(clang_getCursorKind(child))) {
            words = ss_xstrdup("inherent: the host branches on the value at once");
            break;
        }
        if (k == CXCursor_ReturnStmt) {
            words = ss_xstrdup("inherent: the host returns the value at once");
            break;
        }
        if ((k == CXCursor_CallExpr && is_allocator(up)) || k == CXCursor_CXXNewExpr) {
            words = ss_xstrdup("inherent: the host sizes an allocation with the value at once");
            break;
        }
        if (k != CXCursor_CompoundStmt)
            continue;
        /* 'child' is the statement; what follows it in the block. */
        /* The block's statements, the empty ones (the ';' after a macro written as a block)
         * left out. */
        CXCursor stmts[256];
        unsigned n = 0, at_index = 0;
        for (unsigned s = 0, all = ss_ast_child_count(up); s < all && n < 256; s++) {
            CXCursor stmt = ss_ast_child(up, s);
            if (clang_getCursorKind(stmt) == CXCursor_NullStmt)
                continue;
            if (ss_ast_same_node(stmt, child))
                at_index = n;
            stmts[n++] = stmt;
        }
        /* The last statement of a bare block (an error-checking macro's '{ ... }') or of an
         * 'if' block: what follows is in the block around it. The body of an error-checking
         * macro's 'do { ... } while (0)' is one statement of the block around it. */
        enum CXCursorKind around = i >= 2 ? clang_getCursorKind(path[i - 2]) : CXCursor_NoDeclFound;
        if (at_index + 1 >= n && (around == CXCursor_CompoundStmt || around == CXCursor_IfStmt))
            continue;
        if (around == CXCursor_DoStmt && once_do(path[i - 2]))
            continue;
        /* So is a block that a macro expands to ('{ auto status = (op); if (...) ... }'). */
        if (around == CXCursor_CompoundStmt && !ss_ast_written_as(up, "{"))
            continue;
        /* An asynchronous copy of pageable memory that the next statement waits for: the host
         * waits for it anyway, and the staging costs nothing more. */
        if (rule == SS_RULE_PAGEABLE_ASYNC_COPY && at_index + 1 < n &&
            is_wait(stmts[at_index + 1])) {
            words = ss_xasprintf("inherent: the next statement (line %u) waits for the copy "
                                 "anyway",
                                 ss_scope_line(stmts[at_index + 1]));
            break;
        }
        CXCursor vars[8];
        size_t var_count = tie_vars(child, vars, 8);
        if (var_count == 0) {
            vars[0] = value_var(ctx, at, child);
            var_count = ss_ast_is_null(vars[0]) ? 0 : 1;
        }
        if (var_count == 0)
            break;
        /* The statements between may wait for the device; before a return, they may also
         * compute, with no device work, other values that the return gives with this one. */
        CXCursor computed[3];
        size_t computed_count = 0;
        for (unsigned s = at_index + 1; s < n && s <= at_index + 3; s++) {
            CXCursor next = stmts[s];
            char *use = NULL;
            for (size_t v = 0; v < var_count && use == NULL; v++)
                use = statement_use(ss_check_graph(ctx), next, vars[v]);
            int returns = use && strcmp(use, "returns it") == 0;
            for (size_t c = 0; returns && c < computed_count; c++)
                returns = refers_to(next, computed[c]);
            if (use && computed_count == 0)
                words = ss_xasprintf("inherent: the next statement needs the value (line %u %s)",
                                     ss_scope_line(next), use);
            else if (use && returns)
                words = ss_xasprintf("inherent: the function returns the value (line %u), "
                                     "computing only the other values it returns in between",
                                     ss_scope_line(next));
            free(use);
            if (use)
                break;
            if (is_wait(next))
                continue;
            CXCursor var = assigned_var(next);
            if (ss_ast_is_null(var) || ss_scope_has_work(next, SS_SCOPE_ENQUEUES, NULL))
                break;
            computed[computed_count++] = var;
        }
        break;
    }
    free(path);
    return words;
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
        if (find_variable(init, var, &next) == CXChildVisit_Recurse)
            clang_visitChildren(init, find_variable, &next);
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

/* Whether the call 'c' (of the API 'api', or NULL) puts work on the device: a launch, an API
 * call that enqueues work (event records and stream waits aside), or a call of a function of
 * the unit that does. */
static int call_enqueues(ss_callgraph *graph, CXCursor c, const ss_api *api)
{
    if (ss_scope_is_launch(c))
        return 1;
    if (api != NULL)
        return ss_api_enqueues(api) && api->klass != SS_CLASS_EVENT_RECORD &&
               api->klass != SS_CLASS_STREAM_WAIT;
    CXCursor callee = ss_callgraph_callee(graph, c);
    return !ss_ast_is_null(callee) && ss_scope_has_work(callee, SS_SCOPE_ENQUEUES, NULL);
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
    if (!call_enqueues(w->graph, c, api))
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

/* "inherent: the function hands the data to its caller (...)" when the pageable copy 'at'
 * copies to the host into an out parameter (a pointer or reference parameter, also through a
 * local pointer or reference into it) or into a local the function returns, and the function
 * does no device work after it (for a copy in a loop: in the loop or after it) but more copies
 * to the host. Malloc'ed, or NULL. */
static char *handover_words(ss_check_ctx *ctx, CXCursor at)
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
    if (words == NULL)
        return NULL;
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

/* ------------------------------------------------------------------------------------------
 * A copy on a stream with nothing queued. */

/* A wait for the stream written 'stream': its cudaStreamSynchronize (as written), or a
 * device-wide wait. */
typedef struct stream_wait_walk {
    const char *stream;
    CXCursor found;
} stream_wait_walk;

static enum CXChildVisitResult find_stream_wait(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_wait_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    int waits = api && api->klass == SS_CLASS_DEVICE_SYNC;
    if (api && api->klass == SS_CLASS_STREAM_SYNC && api->stream_arg >= 0 &&
        clang_Cursor_getNumArguments(c) > api->stream_arg) {
        char *text = ss_expr_text(clang_Cursor_getArgument(c, (unsigned)api->stream_arg));
        waits = text && strcmp(text, w->stream) == 0;
        free(text);
    }
    if (waits) {
        w->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether 'stmt' does device work: a launch or a call that enqueues work, or a call of a
 * function of the unit that does. */
typedef struct unit_work_walk {
    ss_callgraph *graph;
    int found;
} unit_work_walk;

static enum CXChildVisitResult find_unit_work(CXCursor c, CXCursor parent, CXClientData data)
{
    unit_work_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (call_enqueues(w->graph, c, api)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int does_device_work(ss_callgraph *graph, CXCursor stmt)
{
    if (ss_scope_has_work(stmt, SS_SCOPE_ENQUEUES, NULL))
        return 1;
    /* The statement may be the call itself. */
    unit_work_walk w = {graph, 0};
    if (find_unit_work(stmt, stmt, &w) == CXChildVisit_Recurse)
        clang_visitChildren(stmt, find_unit_work, &w);
    return w.found;
}

/* "idle: the stream 's' was synchronized at line 30 and nothing was queued since: ..." when an
 * earlier statement of the block written around the copy 'at' (the innermost '{ ... }' the
 * program writes, an error-checking macro's own block left out) waits for the copy's stream
 * (its cudaStreamSynchronize, or a device-wide wait), and no statement between does device
 * work: the stream is idle, and the copy's staging holds up nothing. Malloc'ed, or NULL. */
static char *idle_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->stream_arg < 0 || clang_Cursor_getNumArguments(at) <= api->stream_arg)
        return NULL;
    char *stream = ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg));
    if (stream == NULL)
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, MAX_PATH, sizeof *path);
    long found = path_to(ss_scope_outer_function(ctx->function), at, path);
    char *words = NULL;
    for (long i = found - 1; i >= 0; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt ||
            !ss_ast_written_as(path[i], "{"))
            continue;
        CXCursor stmt = i + 1 < found ? path[i + 1] : at;
        unsigned n = ss_ast_child_count(path[i]), index = n;
        for (unsigned c = 0; c < n && index == n; c++) {
            if (ss_ast_same_node(ss_ast_child(path[i], c), stmt))
                index = c;
        }
        for (unsigned c = index; c-- > 0 && index < n;) {
            CXCursor before = ss_ast_child(path[i], c);
            stream_wait_walk w = {stream, clang_getNullCursor()};
            if (find_stream_wait(before, path[i], &w) == CXChildVisit_Recurse)
                clang_visitChildren(before, find_stream_wait, &w);
            if (!ss_ast_is_null(w.found)) {
                words = ss_xasprintf("idle: the stream '%s' was synchronized at line %u and "
                                     "nothing was queued since: the copy has nothing to overlap "
                                     "with",
                                     stream, ss_scope_line(w.found));
                break;
            }
            if (does_device_work(ss_check_graph(ctx), before))
                break;
        }
        break;
    }
    free(path);
    free(stream);
    return words;
}

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

static enum CXChildVisitResult find_decl_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    ref_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), w->var)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
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
            ref_walk r = {decl, 0};
            clang_visitChildren(w->cond, find_decl_ref, &r);
            if (r.found) {
                w->found = decl;
                return CXChildVisit_Break;
            }
        }
    }
    return CXChildVisit_Recurse;
}

/* Calls that make a buffer larger: those that size an allocation, and a host buffer pinned. */
static const char *const growers[] = {SIZING_CALLS, "cudaHostRegister"};

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
    ref_walk r = {decl, 0};
    clang_visitChildren(cond, find_decl_ref, &r);
    if (r.found)
        *object = decl;
    return r.found;
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
    if (clang_getCursorKind(e) != CXCursor_UnaryOperator)
        return 0;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(e);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(e), &tokens, &n);
    int negation = 0;
    if (n > 0) {
        CXString t = clang_getTokenSpelling(tu, tokens[0]);
        negation = strcmp(clang_getCString(t), "!") == 0;
        clang_disposeString(t);
    }
    clang_disposeTokens(tu, tokens, n);
    return negation;
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
        ref_walk r = {named, 0};
        clang_visitChildren(cond, find_decl_ref, &r);
        if (r.found) {
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

/* "line 17 compares with 'capacity' and the branch records the new size" ("file.cu:17" with
 * 'with_file') when 'at' is in the branch of an 'if' (between 'from' and 'at') that compares
 * sizes ('<', '>', '<=', '>='), makes a buffer larger (an allocation, a pinning or a resize,
 * itself or in a function it calls), and records the new size in what the condition compares
 * with, by an assignment or a resize ('if (n > capacity) { free; malloc; capacity = n; }',
 * 'if (v.size() < n) { unpin; v.resize(2 * n); pin; }'): it runs when the buffer grows, not
 * on every iteration. Malloc'ed, or NULL. */
static char *grow_guard_words(ss_callgraph *graph, CXCursor from, CXCursor at, int with_file,
                              int *lazy)
{
    int lazy_here = 0;
    CXCursor *path = ss_xreallocarray(NULL, MAX_PATH, sizeof *path);
    long found = path_to(from, at, path);
    char *words = NULL;
    for (long i = found - 1; i >= 0 && words == NULL; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_IfStmt)
            continue;
        CXCursor branch = i + 1 < found ? path[i + 1] : at;
        CXCursor cond = clang_getNullCursor();
        unsigned n = ss_ast_child_count(path[i]), c = 0;
        for (; c < n && ss_ast_is_null(cond); c++) {
            CXCursor child = ss_ast_child(path[i], c);
            if (clang_isExpression(clang_getCursorKind(child)))
                cond = child;
        }
        /* The branch taken when the condition holds: the child right after it. */
        if (ss_ast_is_null(cond) || c >= n || !ss_ast_same_node(ss_ast_child(path[i], c), branch))
            continue;
        CXCursor cmp = ss_ast_strip(cond);
        char op[8];
        lazy_here = is_null_test(cmp);
        if (!lazy_here && (clang_getCursorKind(cmp) != CXCursor_BinaryOperator ||
                           ss_ast_binary_op(cmp, op, sizeof op) != 0 ||
                           (strcmp(op, "<") != 0 && strcmp(op, ">") != 0 && strcmp(op, "<=") != 0 &&
                            strcmp(op, ">=") != 0)))
            continue;
        CXCursor grows;
        if (!ss_callgraph_calls_named(graph, branch, growers, sizeof growers / sizeof growers[0],
                                      &grows))
            continue;
        record_walk w = {graph, cmp, clang_getNullCursor(), 0, 0};
        if (find_record(branch, path[i], &w) == CXChildVisit_Recurse)
            clang_visitChildren(branch, find_record, &w);
        if (ss_ast_is_null(w.found))
            continue;
        CXString name = clang_getCursorSpelling(w.found);
        char *where = with_file ? ss_callgraph_place(path[i])
                                : ss_xasprintf("line %u", ss_scope_line(path[i]));
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
    free(path);
    return words;
}

/* For ss_callgraph_reached_unless: a call under a grow guard is skipped. */
static int skip_grow_guarded(CXCursor from, CXCursor call, void *data)
{
    char *words = grow_guard_words(data, from, call, 0, NULL);
    free(words);
    return words != NULL;
}

/* "grow-only: ..." when the call 'at' runs when a buffer grows: a grow guard around it inside
 * the loop (or, for a loop elsewhere, in its function), or, for a loop elsewhere, a grow guard
 * on every chain of calls from a loop that enqueues device work down to its function (the
 * words name the one on the loop's chain). Malloc'ed, or NULL. */
static char *grow_only_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    ss_callgraph *graph = ss_check_graph(ctx);
    int lazy = 0;
    char *guard = grow_guard_words(
        graph, loop->chain ? ss_scope_outer_function(ctx->function) : loop->loop, at, 0, &lazy);
    if (guard) {
        char *words = lazy
                          ? ss_xasprintf("lazy: it runs only while the buffer is unset (%s)", guard)
                          : ss_xasprintf("grow-only: it runs when the buffer grows (%s)", guard);
        free(guard);
        return words;
    }
    if (loop->chain == NULL)
        return NULL;
    for (size_t i = 0; i < loop->call_count && guard == NULL; i++)
        guard = grow_guard_words(graph, loop->froms[i], loop->calls[i], 1, &lazy);
    char *words = NULL;
    if (guard && !ss_callgraph_reached_unless(graph, ss_scope_outer_function(ctx->function),
                                              SS_SCOPE_ENQUEUES, skip_grow_guarded, graph))
        words = lazy ? ss_xasprintf("lazy: every call from a loop runs only while the buffer is "
                                    "unset (%s)",
                                    guard)
                     : ss_xasprintf("grow-only: every call from a loop runs when a buffer grows "
                                    "(%s)",
                                    guard);
    free(guard);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Loops that time themselves. */

/* Calls that read a clock: a loop that makes one measures its own iterations (a benchmark),
 * and a wait in it is how the measurement ends. */
static const char *const clocks[] = {"cudaEventElapsedTime",
                                     "cuEventElapsedTime",
                                     "sdkStopTimer",
                                     "sdkGetTimerValue",
                                     "sdkGetAverageTimerValue",
                                     "clock_gettime",
                                     "gettimeofday",
                                     "omp_get_wtime",
                                     "MPI_Wtime",
                                     "now"};

/* The clock call among the (at most four) statements that follow 'loop' in its block, in the
 * function 'function': a loop timed from outside ('record; for (...) {...}; record; sync;
 * elapsed'). A null cursor when there is none. */
static CXCursor clock_after(ss_check_ctx *ctx, CXCursor function, CXCursor loop)
{
    CXCursor none = clang_getNullCursor();
    CXCursor *path = ss_xreallocarray(NULL, MAX_PATH, sizeof *path);
    long depth = path_to(function, loop, path);
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

/* "the loop times its iterations ('cudaEventElapsedTime' at line 20): ..." when the loop
 * reads a clock (itself or in a function it calls), or is timed by the statements right after
 * it; or NULL. Malloc'ed. */
static char *timing_words(ss_check_ctx *ctx, const ss_loop_context *loop)
{
    CXCursor found;
    const char *what = "the loop times its iterations";
    if (!ss_callgraph_calls_named(ss_check_graph(ctx), loop->loop, clocks,
                                  sizeof clocks / sizeof clocks[0], &found)) {
        if (loop->chain != NULL)
            return NULL;
        found = clock_after(ctx, ss_scope_outer_function(ctx->function), loop->loop);
        if (ss_ast_is_null(found))
            return NULL;
        what = "the loop is timed";
    }
    char *name = ss_scope_callee_name(found);
    char *words = ss_xasprintf("%s ('%s' at line %u): the wait is part of a measurement", what,
                               name ? name : "a clock", ss_scope_line(found));
    free(name);
    return words;
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

/* "bounded: the loop at line 31 runs once per element of 'block_sizes' (4, a constant array),
 * and 'main' runs once" when the loop sweeps over an array of constant size (sweep_size, at
 * most MAX_BOUNDED_TRIPS elements: a benchmark's or a test's settings), lies in no other loop,
 * is in a function that runs once (ss_callgraph_runs_once), and the call 'at' is in no other
 * loop on the way (in its function, and in each function of the chain of calls from the loop):
 * what runs on its iterations costs a fixed few calls in a run. Malloc'ed, or NULL. */
static char *bounded_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    CXCursor array;
    long long trips = sweep_size(loop->loop, &array);
    if (trips < 0 || trips > MAX_BOUNDED_TRIPS)
        return NULL;
    CXCursor loops[2];
    if (loop->chain == NULL) {
        if (ss_scope_enclosing_loops(ctx->function, at, loops, 2) != 1 ||
            !ss_ast_same_node(loops[0], loop->loop))
            return NULL;
    } else {
        if (loop->call_count == 0 || !outside_loops(ctx->function, at) ||
            ss_scope_enclosing_loops(loop->function, loop->calls[0], loops, 2) != 1 ||
            !ss_ast_same_node(loops[0], loop->loop))
            return NULL;
        for (size_t i = 1; i < loop->call_count; i++) {
            if (!outside_loops(loop->froms[i], loop->calls[i]))
                return NULL;
        }
    }
    char *why = NULL;
    if (!ss_callgraph_runs_once(ss_check_graph(ctx), loop->function, &why)) {
        free(why);
        return NULL;
    }
    char *where =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    CXString name = clang_getCursorSpelling(array);
    char *words = ss_xasprintf("bounded: the loop at %s runs once per element of '%s' (%lld, a "
                               "constant array), and %s",
                               where, clang_getCString(name), trips, why);
    clang_disposeString(name);
    free(where);
    free(why);
    return words;
}

/* ------------------------------------------------------------------------------------------
 * Applying it. */

static void append(ss_finding *f, const char *words)
{
    char *longer = ss_xasprintf("%s; %s", f->message, words);
    free(f->message);
    f->message = longer;
}

/* The severity of a finding whose call runs on every iteration of 'loop': a warning, or a note
 * where the loop times itself, runs during set-up, or the call is inherent there or runs when
 * a buffer grows. 'said_loop': the message already names the loop. */
static void apply_in_loop(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f,
                          const ss_loop_context *loop, int said_loop, ss_severity raised)
{
    /* Per iteration, but a note: a benchmark's loop (on purpose), a set-up function's loop
     * (once per program or object), a pageable copy whose next statement waits for it (the
     * wait in the loop is the cost, a SYNC401 of its own) or that hands the data to the
     * caller, a buffer that only grows or is allocated on first use. */
    char *note = timing_words(ctx, loop);
    char *set_up = NULL;
    if (note == NULL && ss_callgraph_sets_up(loop->function, &set_up)) {
        char *where = loop->chain ? ss_xstrdup(loop->place)
                                  : ss_xasprintf("line %u", ss_scope_line(loop->loop));
        note = ss_xasprintf("set-up: the loop at %s runs during set-up: %s", where, set_up);
        free(where);
        free(set_up);
    }
    if (note == NULL)
        note = bounded_words(ctx, loop, at);
    if (note == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY) {
        note = inherent_words(ctx, rule, at);
        if (note && strstr(note, "waits for the copy anyway") == NULL) {
            free(note);
            note = NULL;
        }
    }
    if (note == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        note = handover_words(ctx, at);
    if (note == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        note = idle_words(ctx, at);
    if (note == NULL)
        note = grow_only_words(ctx, loop, at);
    if (note) {
        f->severity = SS_SEV_NOTE;
        append(f, note);
        free(note);
        return;
    }
    f->severity = raised;
    if (said_loop)
        return;
    char *words;
    if (loop->chain)
        words = ss_xasprintf("it runs on every iteration: %s is called from the loop at %s, "
                             "which enqueues device work",
                             loop->chain, loop->place);
    else
        words = ss_xasprintf("it runs on every iteration of the loop at line %u, which enqueues "
                             "device work",
                             ss_scope_line(loop->loop));
    append(f, words);
    free(words);
}

void ss_context_apply(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, ss_finding *f)
{
    int said_loop = ctx->loop_said;
    const ss_loop_context *given = ctx->loop;
    ctx->loop_said = 0;
    ctx->loop = NULL;
    if (!context_rule(rule) || ctx->legacy_note || ss_ast_is_null(ctx->function))
        return;
    ss_severity raised = f->severity < SS_SEV_WARNING ? SS_SEV_WARNING : f->severity;
    /* Per iteration: the loop the check found (ctx->loop), else found here. */
    if (given) {
        apply_in_loop(ctx, rule, at, f, given, said_loop, raised);
        return;
    }
    ss_loop_context loop;
    if (ss_check_loop(ctx, at, SS_SCOPE_ENQUEUES, &loop)) {
        apply_in_loop(ctx, rule, at, f, &loop, said_loop, raised);
        ss_loop_context_free(&loop);
        return;
    }
    CXCursor top = ss_scope_outer_function(ctx->function);
    char *name = ss_ast_is_null(top) ? NULL : ss_qualified_name(top);
    int hot = ss_context_is_hot_function(ctx, name);
    if (hot) {
        f->severity = raised;
        char *words = ss_xasprintf("'%s' is marked hot in the configuration (hot-functions)", name);
        append(f, words);
        free(words);
        free(name);
        return;
    }
    free(name);
    /* The host needs the value at once. */
    char *inherent = inherent_words(ctx, rule, at);
    if (inherent == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        inherent = handover_words(ctx, at);
    if (inherent == NULL && rule == SS_RULE_PAGEABLE_ASYNC_COPY)
        inherent = idle_words(ctx, at);
    if (inherent) {
        f->severity = SS_SEV_NOTE;
        append(f, inherent);
        free(inherent);
        return;
    }
    /* Once: outside any loop of a function that runs once (not in a lambda, which may be
     * called from anywhere). */
    char *why = NULL;
    if (clang_getCursorKind(ctx->function) != CXCursor_LambdaExpr &&
        ss_ast_is_null(ss_scope_enclosing_loop(ctx->function, at)) &&
        ss_callgraph_runs_once(ss_check_graph(ctx), ctx->function, &why)) {
        f->severity = SS_SEV_NOTE;
        char *words = ss_xasprintf("it runs once: outside any loop, and %s", why);
        append(f, words);
        free(words);
    }
    free(why);
}
