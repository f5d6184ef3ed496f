/* peer_staging.c: data moved between devices through host memory: a loop over devices whose
 * only device work is copies through host buffers, each filled from one device and emptied to
 * another; its waits and copies are what that staging costs, and a peer copy removes them. */
#include "ast.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

enum { STAGING_MAX_BUFFERS = 16 };

/* A staging loop's body: its copies' host sides (those filled from a device and those sent to
 * one), the first device switch, and whether it does any other device work. */
typedef struct staging_body {
    ss_callgraph *graph;
    CXCursor function;
    CXCursor filled[STAGING_MAX_BUFFERS], filled_at[STAGING_MAX_BUFFERS];
    CXCursor emptied[STAGING_MAX_BUFFERS], emptied_at[STAGING_MAX_BUFFERS];
    size_t filled_count, emptied_count;
    CXCursor set_device[STAGING_MAX_BUFFERS];
    size_t set_device_count;
    int other_work;
} staging_body;

static void add_buffer(CXCursor *vars, CXCursor *at, size_t *count, CXCursor var, CXCursor call,
                       int *overflow)
{
    if (*count == STAGING_MAX_BUFFERS) {
        *overflow = 1;
        return;
    }
    vars[*count] = var;
    at[(*count)++] = call;
}

/* A copy of the body: between the host and a device through a named host buffer, or other
 * work. */
static void staging_copy(staging_body *b, CXCursor call, const ss_api *api)
{
    CXCursor dst, src;
    int kind = ss_copy_kind(b->function, call, api, &dst, &src);
    CXCursor var = clang_getNullCursor();
    if (kind == SS_COPY_KIND_D2H)
        var = ss_ast_named_variable(dst);
    else if (kind == SS_COPY_KIND_H2D)
        var = ss_ast_named_variable(src);
    if (ss_ast_is_null(var))
        b->other_work = 1;
    else if (kind == SS_COPY_KIND_D2H)
        add_buffer(b->filled, b->filled_at, &b->filled_count, var, call, &b->other_work);
    else
        add_buffer(b->emptied, b->emptied_at, &b->emptied_count, var, call, &b->other_work);
}

static enum CXChildVisitResult find_staging_work(CXCursor c, CXCursor parent, CXClientData data)
{
    staging_body *b = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api && api->klass == SS_CLASS_COPY)
        staging_copy(b, c, api);
    else if (ss_scope_is_launch(c) || ss_context_call_enqueues(b->graph, c, api))
        b->other_work = 1;
    else if (api == NULL && ss_scope_is_set_device(c) && b->set_device_count < STAGING_MAX_BUFFERS)
        b->set_device[b->set_device_count++] = c;
    return b->other_work ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static size_t find_var(const CXCursor *vars, size_t count, CXCursor var)
{
    for (size_t i = 0; i < count; i++) {
        if (clang_equalCursors(vars[i], var))
            return i;
    }
    return count;
}

/* The device switch between the copy filling a buffer ('from') and the copy emptying it
 * ('to'), in the order they are written, or a null cursor. */
static CXCursor switch_between(const staging_body *b, CXCursor from, CXCursor to)
{
    unsigned begin = ss_ast_offset(from), end = ss_ast_offset(to);
    for (size_t i = 0; i < b->set_device_count; i++) {
        unsigned at = ss_ast_offset(b->set_device[i]);
        if (begin < at && at < end)
            return b->set_device[i];
    }
    return clang_getNullCursor();
}

/* "the loop at line N only moves data between devices through host memory (...)" for a
 * body whose every copy goes through a buffer that is both filled from a device and emptied to
 * one, with a device switch between the first fill and the first emptying of one of them; NULL
 * otherwise. */
static char *staging_body_words(const staging_body *b, CXCursor loop)
{
    size_t staged = b->filled_count;
    CXCursor device_switch = clang_getNullCursor();
    for (size_t i = 0; i < b->filled_count; i++) {
        size_t j = find_var(b->emptied, b->emptied_count, b->filled[i]);
        if (j == b->emptied_count)
            return NULL;
        CXCursor sw = switch_between(b, b->filled_at[i], b->emptied_at[j]);
        if (staged == b->filled_count && !ss_ast_is_null(sw)) {
            staged = i;
            device_switch = sw;
        }
    }
    for (size_t j = 0; j < b->emptied_count; j++) {
        if (find_var(b->filled, b->filled_count, b->emptied[j]) == b->filled_count)
            return NULL;
    }
    if (staged == b->filled_count)
        return NULL;
    CXString name = clang_getCursorSpelling(b->filled[staged]);
    size_t emptied = find_var(b->emptied, b->emptied_count, b->filled[staged]);
    char *words = ss_xasprintf("the loop at line %u only moves data between devices through host "
                               "memory ('%s' is copied to the host at line %u and on to another "
                               "device at line %u, after 'cudaSetDevice' at line %u)",
                               ss_scope_line(loop), clang_getCString(name),
                               ss_scope_line(b->filled_at[staged]),
                               ss_scope_line(b->emptied_at[emptied]), ss_scope_line(device_switch));
    clang_disposeString(name);
    return words;
}

/* The words of staging_body_words for 'loop', which switches devices and does no device work
 * but copies through host buffers; NULL otherwise. */
static char *staging_loop_words(ss_callgraph *graph, CXCursor function, CXCursor loop)
{
    CXCursor none = clang_getNullCursor();
    staging_body b = {graph, function, {none}, {none}, {none}, {none}, 0, 0, {none}, 0, 0};
    clang_visitChildren(loop, find_staging_work, &b);
    if (b.other_work || b.filled_count == 0 || b.set_device_count == 0)
        return NULL;
    return staging_body_words(&b, loop);
}

/* The first staging loop in a statement (itself or inside it), as staging_loop_words. */
typedef struct staging_find {
    ss_callgraph *graph;
    CXCursor function;
    char *words;
} staging_find;

static enum CXChildVisitResult find_staging_loop(CXCursor c, CXCursor parent, CXClientData data)
{
    staging_find *w = data;
    if (ss_scope_is_loop(c))
        w->words = staging_loop_words(w->graph, w->function, c);
    return w->words ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static char *staging_in(ss_check_ctx *ctx, CXCursor stmt)
{
    staging_find w = {ss_check_graph(ctx), ctx->function, NULL};
    ss_ast_visit_whole(stmt, stmt, find_staging_loop, &w);
    return w.words;
}

/* Whether 'stmt' only checks for errors: an error-checking macro's 'do { ... } while (0)'. */
static int error_check(CXCursor stmt)
{
    return clang_getCursorKind(stmt) == CXCursor_DoStmt && ss_ast_do_once(stmt);
}

/* For a wait that joins the devices (itself in its block, or in a loop over the devices that
 * only waits), the staging loop in the statement right before or after it in its block (error
 * checks aside), in words: "it joins the devices for the exchange that follows: the loop at
 * line N ...". */
static char *join_words(ss_check_ctx *ctx, CXCursor at)
{
    const ss_api *api = ss_scope_callee_api(at);
    if (api == NULL || (api->klass != SS_CLASS_DEVICE_SYNC && api->klass != SS_CLASS_STREAM_SYNC))
        return NULL;
    CXCursor anchor = at, loop = ss_scope_enclosing_loop(ctx->function, at);
    if (!ss_ast_is_null(loop) && ss_scope_path(loop, at, NULL, NULL, 0) >= 0 &&
        !ss_scope_loop_enqueues(loop, NULL))
        anchor = loop;
    CXCursor stmts[256];
    unsigned index = 0;
    unsigned n = ss_context_statements_around(ctx->function, anchor, stmts, 256, &index);
    char *words = NULL;
    for (unsigned s = index + 1; n > 0 && s < n && words == NULL; s++) {
        if (!error_check(stmts[s])) {
            char *what = staging_in(ctx, stmts[s]);
            words =
                what ? ss_xasprintf("it joins the devices for the exchange that follows: %s", what)
                     : NULL;
            free(what);
            break;
        }
    }
    for (unsigned s = index; n > 0 && s-- > 0 && words == NULL;) {
        if (!error_check(stmts[s])) {
            char *what = staging_in(ctx, stmts[s]);
            words = what ? ss_xasprintf("it waits for the end of the exchange before it: %s", what)
                         : NULL;
            free(what);
            break;
        }
    }
    return words;
}

char *ss_context_peer_staging_words(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at)
{
    if (rule != SS_RULE_SYNC_IN_LOOP && rule != SS_RULE_SYNC_COPY_IN_PIPELINE &&
        rule != SS_RULE_DEFAULT_STREAM_ASYNC_CALL)
        return NULL;
    CXCursor loop = ss_scope_enclosing_loop(ctx->function, at);
    char *what = NULL;
    if (!ss_ast_is_null(loop) && ss_scope_path(loop, at, NULL, NULL, 0) >= 0)
        what = staging_loop_words(ss_check_graph(ctx), ctx->function, loop);
    if (what == NULL && rule == SS_RULE_SYNC_IN_LOOP)
        what = join_words(ctx, at);
    if (what == NULL)
        return NULL;
    char *words = ss_xasprintf(
        "staged: %s: its waits and copies are what staging through the host costs, with "
        "several devices only; a peer copy ('cudaMemcpyPeerAsync' on a stream, ordered by "
        "'cudaEventRecord' and 'cudaStreamWaitEvent') moves the data with no host wait and no "
        "staging buffer",
        what);
    free(what);
    return words;
}
