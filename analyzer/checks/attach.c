/* attach.c: a stream wait that lets the host touch managed memory it attached to itself
 * ('cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachHost)' on that stream): CUDA lets the host
 * access such memory only once the attach has taken effect, so where nothing else was queued
 * on the stream since its last wait and the host touches the buffer next, the wait is
 * inherent (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* How many statements after the wait the host's use is looked for. */
enum { MAX_BETWEEN = 3 };

/* The value of cudaMemAttachHost (driver_types.h), as the flags of an attach. */
enum { ATTACH_HOST = 0x02 };

/* The pointer 'call' attaches to the host on the stream written 'stream':
 * 'cudaStreamAttachMemAsync(stream, p, len, cudaMemAttachHost)'; a null cursor when it is no
 * such attach. */
static CXCursor attached_to_host(CXCursor call, const char *stream)
{
    CXCursor none = clang_getNullCursor();
    const ss_api *api = ss_scope_callee_api(call);
    int n = clang_Cursor_getNumArguments(call);
    if (api == NULL || api->klass != SS_CLASS_ATTACH || api->stream_arg < 0 || api->dst_arg < 0 ||
        api->flags_arg < 0 || n <= api->flags_arg || n <= api->stream_arg || n <= api->dst_arg)
        return none;
    long long flags = 0;
    if (ss_ast_eval_int(clang_Cursor_getArgument(call, (unsigned)api->flags_arg), &flags) != 0 ||
        flags != ATTACH_HOST)
        return none;
    char *text = ss_expr_text(clang_Cursor_getArgument(call, (unsigned)api->stream_arg));
    int same = text && strcmp(text, stream) == 0;
    free(text);
    return same ? ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->dst_arg)) : none;
}

/* What a statement (or a loop, or an 'if' condition) queues on the way back from a wait: only
 * attaches to the host on the stream (kept, with their pointers), a wait for the stream (the
 * walk stops there), or other device work (the wait is not inherent). */
enum { MAX_ATTACHED = 8 };

typedef struct attach_walk {
    ss_callgraph *graph;
    const char *stream;
    CXCursor attaches[MAX_ATTACHED]; /* the attaches, the statements nearest the wait first */
    CXCursor pointers[MAX_ATTACHED];
    size_t count;
    CXCursor waited; /* a wait for the stream, or a device-wide one */
    int other_work;
} attach_walk;

/* Whether the call 'call' wraps an API call and is given no stream: an error-checking wrapper
 * ('check(cudaStreamSynchronize(s), ...)'), whose own work is the API call's. */
static int wraps_api_call(CXCursor call)
{
    for (int i = 0, n = clang_Cursor_getNumArguments(call); i < n; i++) {
        if (ss_check_is_stream_type(
                clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i))))
            return 0;
    }
    return ss_context_wraps_api(call);
}

/* The overload set a call left unresolved in a template names, in its callee's own nodes. */
static enum CXChildVisitResult find_overload_set(CXCursor c, CXCursor parent, CXClientData data)
{
    CXCursor *found = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_OverloadedDeclRef) {
        *found = c;
        return CXChildVisit_Break;
    }
    /* The callee's own nodes, not the arguments' calls. */
    return k == CXCursor_CallExpr ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

/* Whether the call 'call', left unresolved in a template, can only call functions of the C or
 * C++ library ('printf' given a dependent argument, 'a < b' on a dependent type): every
 * function of its overload set is declared in a system header and is none of a GPU
 * library's. */
static int host_library_call(CXCursor call)
{
    CXCursor ref = clang_getNullCursor();
    clang_visitChildren(call, find_overload_set, &ref);
    unsigned n = clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef
                     ? clang_getNumOverloadedDecls(ref)
                     : 0;
    int host = n > 0;
    for (unsigned i = 0; i < n && host; i++) {
        CXCursor decl = clang_getOverloadedDecl(ref, i);
        char *name = ss_qualified_name(decl);
        host = clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) && name &&
               strncmp(name, "cu", 2) != 0 && strncmp(name, "nccl", 4) != 0 &&
               strncmp(name, "thrust::", 8) != 0;
        free(name);
    }
    return host;
}

static enum CXChildVisitResult find_attach_work(CXCursor c, CXCursor parent, CXClientData data)
{
    attach_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    CXCursor pointer = attached_to_host(c, w->stream);
    if (!ss_ast_is_null(pointer)) {
        if (w->count < MAX_ATTACHED) {
            w->attaches[w->count] = c;
            w->pointers[w->count++] = pointer;
        }
    } else if (ss_context_waits_for_stream(c, w->stream)) {
        w->waited = c;
    } else if (ss_scope_is_launch(c) || ss_context_call_enqueues(w->graph, c, api) ||
               (api == NULL && ss_ast_is_null(ss_callgraph_callee(w->graph, c)) &&
                !wraps_api_call(c) && !host_library_call(c) && ss_context_library_enqueues(c))) {
        w->other_work = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Looks at 'c' as one piece run before the wait: its attaches are kept and other device work
 * sets 'other_work'; with 'stops', a statement that is a wait for the stream is noted in
 * 'waited' and ends the walk (not one in a branch, which may not run). Returns 1 when the walk
 * back may go on past it. */
static int walk_back_over(attach_walk *w, CXCursor c, int stops)
{
    CXCursor waited = w->waited;
    w->waited = clang_getNullCursor();
    ss_ast_visit_whole(c, c, find_attach_work, w);
    int stop = stops && !ss_ast_is_null(w->waited) && ss_context_is_wait(c);
    if (!stop)
        w->waited = waited;
    return !w->other_work && !stop;
}

/* The walk back from the wait 'at' to the last wait for its stream, or to the start of its
 * function: the statements of each block before the one that holds the wait, an 'if'
 * condition (not the other branch), and a loop of the function as a whole (its earlier
 * iterations, whose waits may not run on every way). */
static void walk_back(ss_check_ctx *ctx, CXCursor at, attach_walk *w)
{
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
    int going = found > 0;
    for (long i = found - 1; i >= 0 && going; i--) {
        CXCursor node = path[i], child = i + 1 < found ? path[i + 1] : at;
        enum CXCursorKind k = clang_getCursorKind(node);
        if (k == CXCursor_LambdaExpr) {
            w->other_work = 1; /* called from anywhere */
            break;
        }
        if (ss_scope_is_loop(node)) {
            going = walk_back_over(w, node, 0);
            continue;
        }
        unsigned n = ss_ast_child_count(node), index = n;
        for (unsigned c = 0; c < n && index == n; c++) {
            if (ss_ast_same_node(ss_ast_child(node, c), child))
                index = c;
        }
        for (unsigned c = index; c-- > 0 && index < n && going;) {
            CXCursor before = ss_ast_child(node, c);
            if (k == CXCursor_IfStmt && !clang_isExpression(clang_getCursorKind(before)) &&
                clang_getCursorKind(before) != CXCursor_DeclStmt)
                continue;
            going = walk_back_over(w, before, 1);
        }
    }
    free(path);
}

/* Whether 'c' is or holds an expression written as 'text'. */
typedef struct text_walk {
    const char *text;
    int found;
} text_walk;

static enum CXChildVisitResult find_text(CXCursor c, CXCursor parent, CXClientData data)
{
    text_walk *w = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        char *text = ss_expr_text(c);
        w->found = text && strcmp(text, w->text) == 0;
        free(text);
        if (w->found)
            return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static int names_text(CXCursor stmt, const char *text)
{
    text_walk t = {text, 0};
    ss_ast_visit_whole(stmt, stmt, find_text, &t);
    return t.found;
}

/* A call of the host given an argument written with 'text' (not a CUDA API call, no device
 * work), or a null cursor. */
typedef struct host_text_walk {
    ss_callgraph *graph;
    const char *text;
    CXCursor found;
} host_text_walk;

static enum CXChildVisitResult find_host_text_call(CXCursor c, CXCursor parent, CXClientData data)
{
    host_text_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || ss_scope_callee_api(c) != NULL ||
        ss_scope_is_launch(c))
        return CXChildVisit_Recurse;
    for (int i = 0, n = clang_Cursor_getNumArguments(c); i < n; i++) {
        if (names_text(clang_Cursor_getArgument(c, (unsigned)i), w->text)) {
            w->found = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* How the statement 'stmt' uses the pointer written 'text': "passes 't.x' to 'gemv()'", or
 * "uses 't.x'". Malloc'ed. */
static char *use_words(ss_callgraph *graph, CXCursor stmt, const char *text)
{
    host_text_walk w = {graph, text, clang_getNullCursor()};
    ss_ast_visit_whole(stmt, stmt, find_host_text_call, &w);
    char *called = ss_ast_is_null(w.found) ? NULL : ss_scope_callee_name(w.found);
    char *words = called ? ss_xasprintf("passes '%s' to '%s()'", text, called)
                         : ss_xasprintf("uses '%s'", text);
    free(called);
    return words;
}

char *ss_context_attach_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (rule != SS_RULE_SYNC_IN_LOOP || api == NULL || api->klass != SS_CLASS_STREAM_SYNC ||
        api->stream_arg < 0 || clang_Cursor_getNumArguments(at) <= api->stream_arg)
        return NULL;
    CXCursor stmts[256];
    unsigned index = 0, n = ss_context_statements_around(ss_scope_outer_function(ctx->function), at,
                                                         stmts, 256, &index);
    char *stream =
        n > 0 ? ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg)) : NULL;
    if (stream == NULL)
        return NULL;
    ss_callgraph *graph = ss_check_graph(ctx);
    CXCursor none = clang_getNullCursor();
    attach_walk w = {graph, stream, {none}, {none}, 0, none, 0};
    walk_back(ctx, at, &w);
    char *words = NULL;
    /* The host touches an attached buffer soon after, with no device work between. */
    for (unsigned s = index + 1; s < n && s <= index + MAX_BETWEEN && !w.other_work && w.count > 0;
         s++) {
        if (ss_context_does_device_work(graph, stmts[s]))
            break;
        size_t a = 0;
        char *pointer = NULL;
        for (; a < w.count; a++) {
            pointer = ss_expr_text(w.pointers[a]);
            if (pointer && names_text(stmts[s], pointer))
                break;
            free(pointer);
            pointer = NULL;
        }
        if (pointer == NULL)
            continue;
        char *use = use_words(graph, stmts[s], pointer);
        char *attach = ss_scope_callee_name(w.attaches[a]);
        char *since;
        if (ss_ast_is_null(w.waited)) {
            char *name = ss_qualified_name(ss_scope_outer_function(ctx->function));
            since = ss_xasprintf("the start of '%s()'", name ? name : "...");
            free(name);
        } else {
            char *name = ss_scope_callee_name(w.waited);
            since = ss_xasprintf("'%s' at line %u", name ? name : "...", ss_scope_line(w.waited));
            free(name);
        }
        words = ss_xasprintf("inherent: the host may touch '%s' only once its attach to the host "
                             "('%s' at line %u) has taken effect, which this wait ensures: line "
                             "%u %s, and nothing else was queued on '%s' since %s",
                             pointer, attach ? attach : "...", ss_scope_line(w.attaches[a]),
                             ss_scope_line(stmts[s]), use, stream, since);
        free(attach);
        free(since);
        free(use);
        free(pointer);
        break;
    }
    free(stream);
    return words;
}
