/* idle.c: a copy on a stream with nothing queued: its staging holds up nothing
 * (context_cases.h). */
#include "ast.h"
#include "callgraph.h"
#include "common.h"
#include "context_cases.h"
#include "dataflow.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

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
    if (ss_context_call_enqueues(w->graph, c, api)) {
        w->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

int ss_context_does_device_work(ss_callgraph *graph, CXCursor stmt)
{
    if (ss_scope_has_work(stmt, SS_SCOPE_ENQUEUES, NULL))
        return 1;
    /* The statement may be the call itself. */
    unit_work_walk w = {graph, 0};
    if (find_unit_work(stmt, stmt, &w) == CXChildVisit_Recurse)
        clang_visitChildren(stmt, find_unit_work, &w);
    return w.found;
}

char *ss_context_idle_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || api->stream_arg < 0 || clang_Cursor_getNumArguments(at) <= api->stream_arg)
        return NULL;
    char *stream = ss_expr_text(clang_Cursor_getArgument(at, (unsigned)api->stream_arg));
    if (stream == NULL)
        return NULL;
    CXCursor *path = ss_xreallocarray(NULL, SS_CONTEXT_MAX_PATH, sizeof *path);
    long found = ss_context_path(ss_scope_outer_function(ctx->function), at, path);
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
            if (ss_context_does_device_work(ss_check_graph(ctx), before))
                break;
        }
        break;
    }
    free(path);
    free(stream);
    return words;
}
