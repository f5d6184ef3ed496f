/* frees.c: which frees wait for the whole device, as measured (docs/studies/validation.md,
 * 2026-12-06 23:40): 'cudaFree' of memory from 'cudaMalloc', 'cudaFreeArray' and 'cudaFreeHost'
 * do; 'cudaFree' of a null pointer and of stream-ordered memory ('cudaMallocAsync',
 * 'cudaMallocFromPoolAsync') do not (context_cases.h). */
#include "ast.h"
#include "common.h"
#include "context_cases.h"
#include "scope.h"

#include <stddef.h>

/* The allocations of one variable that a function makes: in stream order ('cudaMallocAsync',
 * 'cudaMallocFromPoolAsync' and the driver's forms: an ALLOC row that never synchronizes), or
 * with another allocator of device memory. */
typedef struct alloc_walk {
    CXCursor var;
    int ordered, other;
} alloc_walk;

static enum CXChildVisitResult find_allocs(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    alloc_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api == NULL || (api->klass != SS_CLASS_ALLOC && api->klass != SS_CLASS_MANAGED_ALLOC) ||
        api->dst_arg < 0 || clang_Cursor_getNumArguments(c) <= api->dst_arg)
        return CXChildVisit_Recurse;
    CXCursor dst = clang_Cursor_getArgument(c, (unsigned)api->dst_arg);
    if (!ss_context_mentions(dst, w->var))
        return CXChildVisit_Recurse;
    if (api->sync == SS_SYNC_NEVER)
        w->ordered = 1;
    else
        w->other = 1;
    return CXChildVisit_Recurse;
}

/* Whether 'e' is a null pointer constant as written ('0', 'NULL', 'nullptr', '(void *)0'). */
static int null_literal(CXCursor e)
{
    e = ss_ast_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    long long value = 1;
    return k == CXCursor_CXXNullPtrLiteralExpr || k == CXCursor_GNUNullExpr ||
           (ss_ast_eval_int(e, &value) == 0 && value == 0);
}

/* The variable (a local, a parameter or a global) that the pointer argument 'e' names, through
 * parentheses and casts; a null cursor for anything else (a member, an element, a call). */
static CXCursor pointer_variable(CXCursor e)
{
    e = ss_ast_strip(e);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor var = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(var);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? var : clang_getNullCursor();
}

/* The allocations of 'var' in 'function' (find_allocs). */
static alloc_walk allocs_of(CXCursor function, CXCursor var)
{
    alloc_walk w = {var, 0, 0};
    if (!ss_ast_is_null(var))
        clang_visitChildren(ss_scope_outer_function(function), find_allocs, &w);
    return w;
}

/* The free's pointer argument, or a null cursor where 'call' is no call of 'api' with one. */
static CXCursor freed_argument(CXCursor call, const ss_api *api)
{
    if (api == NULL || api->dst_arg < 0 || clang_Cursor_getNumArguments(call) <= api->dst_arg)
        return clang_getNullCursor();
    return clang_Cursor_getArgument(call, (unsigned)api->dst_arg);
}

int ss_context_free_waits_for_nothing(CXCursor function, CXCursor call)
{
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor arg = freed_argument(call, api);
    if (ss_ast_is_null(arg) || api->api != SS_API_cudaFree)
        return 0;
    if (null_literal(arg))
        return 1;
    alloc_walk w = allocs_of(function, pointer_variable(arg));
    return w.ordered && !w.other;
}

int ss_context_free_waits(CXCursor function, CXCursor call)
{
    const ss_api *api = ss_scope_callee_api(call);
    CXCursor arg = freed_argument(call, api);
    if (ss_ast_is_null(arg) || null_literal(arg))
        return 0;
    if (api->api == SS_API_cudaFreeArray || api->api == SS_API_cudaFreeHost)
        return 1;
    if (api->api != SS_API_cudaFree)
        return 0;
    CXCursor var = pointer_variable(arg);
    return !ss_ast_is_null(var) && !allocs_of(function, var).ordered;
}
