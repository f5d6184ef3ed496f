/* host_reads.c: a buffer copied back to the host that the host goes through at once (a loop over
 * its elements, a host function given it), inside a loop: the host computes with the data, so
 * the copy's wait is inherent there; unless it is one value (a flag or a sum the device could
 * test) or the host sends the data back to the device in the same iteration (the host is a
 * stage of a device pipeline). */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many statements after the copy (or its wait) the host's read is looked for. */
enum { MAX_BETWEEN = 3 };

/* The declaration a copy's destination names: the field of 'm->losses' or 'm.losses', the
 * variable of 'x', '&x', 'x.data()', '&x[0]', 'x + i'; a null cursor when it names none. */
static CXCursor copied_decl(CXCursor dst)
{
    CXCursor e = ss_ast_strip(dst);
    for (int hops = 0; hops < 6 && !ss_ast_is_null(e); hops++) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
            CXCursor decl = clang_getCursorReferenced(e);
            enum CXCursorKind dk = clang_getCursorKind(decl);
            if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl || dk == CXCursor_FieldDecl)
                return decl;
            if (k == CXCursor_DeclRefExpr)
                break;
        }
        /* 'x + i', '&x', '&x[0]', 'x.data()': the first child names the storage. */
        if (k == CXCursor_UnaryOperator || k == CXCursor_ArraySubscriptExpr ||
            k == CXCursor_BinaryOperator || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr)
            e = ss_ast_strip(ss_ast_child(e, 0));
        else
            break;
    }
    return clang_getNullCursor();
}

/* Whether 'c' is or holds a reference to 'decl'. */
static int names_decl(CXCursor c, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), decl))
        return 1;
    return ss_context_mentions(c, decl);
}

/* A call of the host given the buffer: not a CUDA API call, and no work on the device. */
typedef struct host_call_walk {
    ss_callgraph *graph;
    CXCursor decl;
    CXCursor found;
} host_call_walk;

static enum CXChildVisitResult find_host_call(CXCursor c, CXCursor parent, CXClientData data)
{
    host_call_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api != NULL || ss_scope_is_launch(c) || ss_context_call_enqueues(w->graph, c, api))
        return CXChildVisit_Recurse;
    int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; i++) {
        if (names_decl(clang_Cursor_getArgument(c, (unsigned)i), w->decl)) {
            w->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* How the statement 'stmt' reads the buffer 'decl' as a whole, in words ("reads 'h' in a loop",
 * "passes 'h' to 'std::max_element()'"), malloc'ed, or NULL when it does not: a loop that names
 * it, or a call of the host given it. */
static char *read_words(ss_callgraph *graph, CXCursor stmt, CXCursor decl)
{
    CXString spelled = clang_getCursorSpelling(decl);
    char *name = ss_xstrdup(clang_getCString(spelled));
    clang_disposeString(spelled);
    char *words = NULL;
    if (ss_scope_is_loop(stmt)) {
        words = ss_xasprintf("reads '%s' in a loop", name);
    } else {
        host_call_walk w = {graph, decl, clang_getNullCursor()};
        if (find_host_call(stmt, stmt, &w) == CXChildVisit_Recurse)
            clang_visitChildren(stmt, find_host_call, &w);
        CXCursor callee = ss_ast_is_null(w.found) ? w.found : clang_getCursorReferenced(w.found);
        /* A call left unresolved in a template (a lambda argument) by the name it is given. */
        char *called = !ss_ast_is_null(callee)    ? ss_qualified_name(callee)
                       : !ss_ast_is_null(w.found) ? ss_scope_callee_name(w.found)
                                                  : NULL;
        if (called)
            words = ss_xasprintf("passes '%s' to '%s()'", name, called);
        free(called);
    }
    free(name);
    return words;
}

/* Whether 'c' is a copy to the device whose source names 'decl'. */
typedef struct send_walk {
    CXCursor function;
    CXCursor decl;
    int found;
} send_walk;

static enum CXChildVisitResult find_send(CXCursor c, CXCursor parent, CXClientData data)
{
    send_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api == NULL || api->klass != SS_CLASS_COPY || api->src_arg < 0)
        return CXChildVisit_Recurse;
    CXCursor dst, src;
    int kind = ss_copy_kind(w->function, c, api, &dst, &src);
    if ((kind == SS_COPY_KIND_H2D || kind == SS_COPY_KIND_DEFAULT) && !ss_ast_is_null(src) &&
        names_decl(src, w->decl)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the data goes back to the device in the same iteration: a copy to the device from
 * 'decl' in the innermost loop around 'at', or, for a loop elsewhere, in its function. */
static int sent_back(ss_check_ctx *ctx, CXCursor at, CXCursor decl)
{
    CXCursor top = ss_scope_outer_function(ctx->function);
    CXCursor loop = ss_scope_enclosing_loop(ctx->function, at);
    send_walk w = {ctx->function, decl, 0};
    clang_visitChildren(ss_ast_is_null(loop) ? top : loop, find_send, &w);
    return w.found;
}

/* The statements of the innermost block written '{ ... }' around 'at' (an error-checking
 * macro's own block left out, and the empty statements), into 'stmts' (at most 'max');
 * '*index' receives the one that holds 'at'. Returns how many, or 0. */
static unsigned statements_around(ss_check_ctx *ctx, CXCursor at, CXCursor *stmts, unsigned max,
                                  unsigned *index)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
    unsigned n = 0;
    for (long i = found - 1; i >= 0 && n == 0; i--) {
        if (clang_getCursorKind(path[i]) != CXCursor_CompoundStmt ||
            !ss_ast_written_as(path[i], "{"))
            continue;
        CXCursor holder = i + 1 < found ? path[i + 1] : at;
        unsigned all = ss_ast_child_count(path[i]);
        *index = all;
        for (unsigned c = 0; c < all && n < max; c++) {
            CXCursor stmt = ss_ast_child(path[i], c);
            if (clang_getCursorKind(stmt) == CXCursor_NullStmt)
                continue;
            if (ss_ast_same_node(stmt, holder))
                *index = n;
            stmts[n++] = stmt;
        }
        if (*index >= n)
            n = 0;
        break;
    }
    free(path);
    return n;
}

/* A copy to the host in 'stmt' (the statement itself or a call in it). */
static enum CXChildVisitResult find_copy(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_COPY && api->dst_arg >= 0) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The copy the finding is about: the call 'at' itself (SYNC202), or for a wait (SYNC401) a copy
 * in the statement right before it, which must not be a readback of one value (SYNC301's).
 * A null cursor when there is none. */
static CXCursor the_copy(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const CXCursor *stmts,
                         unsigned index)
{
    if (rule == SS_RULE_SYNC_COPY_IN_PIPELINE)
        return at;
    CXCursor copy = clang_getNullCursor();
    if (index == 0)
        return copy;
    if (find_copy(stmts[index - 1], stmts[index - 1], &copy) == CXChildVisit_Recurse)
        clang_visitChildren(stmts[index - 1], find_copy, &copy);
    if (!ss_ast_is_null(copy) && ss_check_is_readback(ctx, copy, ss_scope_callee_api(copy)))
        copy = clang_getNullCursor();
    return copy;
}

char *ss_context_host_read_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SYNC_COPY_IN_PIPELINE && rule != SS_RULE_SYNC_IN_LOOP)
        return NULL;
    CXCursor stmts[256];
    unsigned index = 0, n = statements_around(ctx, at, stmts, 256, &index);
    if (n == 0)
        return NULL;
    CXCursor copy = the_copy(ctx, rule, at, stmts, index);
    const ss_api *api = ss_ast_is_null(copy) ? NULL : ss_scope_callee_api(copy);
    if (api == NULL || api->dst_arg < 0)
        return NULL;
    CXCursor dst, src;
    if (ss_copy_kind(ctx->function, copy, api, &dst, &src) != SS_COPY_KIND_D2H)
        return NULL;
    CXCursor decl = copied_decl(dst);
    if (ss_ast_is_null(decl))
        return NULL;
    ss_callgraph *graph = ss_check_graph(ctx);
    char *words = NULL;
    for (unsigned s = index + 1; s < n && s <= index + MAX_BETWEEN; s++) {
        if (names_decl(stmts[s], decl)) {
            char *use = read_words(graph, stmts[s], decl);
            if (use && !sent_back(ctx, at, decl))
                words = ss_xasprintf("inherent: the next statement needs the value (line %u %s)",
                                     ss_scope_line(stmts[s]), use);
            free(use);
            break;
        }
        if (!ss_context_is_wait(stmts[s]) && ss_context_does_device_work(graph, stmts[s]))
            break;
    }
    return words;
}
