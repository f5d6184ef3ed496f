/* clean_up.c: a free in a loop whose only device work is frees (a list of deferred frees
 * drained once a graph capture ends): the first free that waits drains the device and the
 * later ones find nothing new to wait for, so the loop is clean-up, not a stall on every
 * iteration (docs/lint.md, "clean-up"). The finding stays; only its severity and words change. */
#include "ast.h"
#include "callgraph.h"
#include "context_cases.h"
#include "log.h"
#include "scope.h"

#include <stdlib.h>

/* How many calls down the walk follows the unit's functions (as the call graph's own walk of
 * work does), and how many functions one walk visits. */
enum { MAX_DEPTH = 8, MAX_SEEN = 64, MAX_LOOPS = 8 };

/* Whether the API row 'api' gives memory back: a free of device, host or array memory (classes
 * FREE and HOST_FREE, stream-ordered or not) or a host unregistration. */
static int gives_back(const ss_api *api)
{
    return api->klass == SS_CLASS_FREE || api->klass == SS_CLASS_HOST_FREE ||
           api->klass == SS_CLASS_HOST_UNREGISTER;
}

/* Whether the API row 'api' is device work other than giving memory back: a launch, a copy, a
 * memset, an allocation or registration (which may wait as a free does, and makes the loop
 * churn memory: allocating once before it is the remedy there), a prefetch, an attachment, a
 * host function, a graph upload, a device setting, or any other call that enqueues work. Waits,
 * queries, event records and stream waits (ordering, not work) are not. */
static int other_work(const ss_api *api)
{
    switch (api->klass) {
    case SS_CLASS_LAUNCH:
    case SS_CLASS_GRAPH_LAUNCH:
    case SS_CLASS_COPY:
    case SS_CLASS_MEMSET:
    case SS_CLASS_ALLOC:
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_MANAGED_ALLOC:
    case SS_CLASS_HOST_REGISTER:
    case SS_CLASS_HOST_FUNC:
    case SS_CLASS_PREFETCH:
    case SS_CLASS_ATTACH:
    case SS_CLASS_DEVICE_CONFIG:
    case SS_CLASS_GRAPH_UPLOAD:
        return 1;
    case SS_CLASS_EVENT_RECORD:
    case SS_CLASS_STREAM_WAIT:
        return 0;
    default:
        return !gives_back(api) && ss_api_enqueues(api);
    }
}

typedef struct free_walk {
    ss_callgraph *graph;
    CXCursor seen[MAX_SEEN];
    size_t seen_count;
    int depth;
    int other; /* other device work found, or the walk stopped short */
} free_walk;

static void walk_body(free_walk *w, CXCursor body);

/* Walks the definition 'function' of the unit once, a call deeper; past MAX_DEPTH or MAX_SEEN
 * the walk has not shown that it only frees. */
static void walk_function(free_walk *w, CXCursor function)
{
    for (size_t i = 0; i < w->seen_count; i++) {
        if (clang_equalCursors(w->seen[i], function))
            return;
    }
    if (w->depth >= MAX_DEPTH || w->seen_count == MAX_SEEN) {
        w->other = 1;
        return;
    }
    w->seen[w->seen_count++] = function;
    w->depth++;
    walk_body(w, function);
    w->depth--;
}

/* Each call: a launch or an API call of other work ends the walk; a local lambda called through
 * a variable and a function of the unit are walked in turn; anything else (a free, a wait, a
 * library's function) is passed. */
static enum CXChildVisitResult find_other_work(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    free_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    int launch = ss_scope_is_launch(c);
    const ss_api *api = launch ? NULL : ss_scope_callee_api(c);
    if (launch || (api && other_work(api))) {
        w->other = 1;
        return CXChildVisit_Break;
    }
    CXCursor lambda = ss_scope_called_lambda(c);
    CXCursor callee = api ? clang_getNullCursor() : ss_callgraph_callee(w->graph, c);
    if (!ss_ast_is_null(lambda))
        walk_function(w, lambda);
    if (!ss_ast_is_null(callee))
        walk_function(w, callee);
    return w->other ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static void walk_body(free_walk *w, CXCursor body)
{
    clang_visitChildren(body, find_other_work, w);
}

/* Whether 'body' (a loop) does no device work but give memory back, itself and in the unit's
 * functions it calls, as far as the walk of the call graph goes (a function the unit only
 * declares, a call through a pointer are not seen, as for the loop's work). Returns 1 or 0. */
static int only_frees(ss_callgraph *graph, CXCursor body)
{
    free_walk *w = ss_xcalloc(1, sizeof *w);
    w->graph = graph;
    walk_body(w, body);
    int only = !w->other;
    free(w);
    return only;
}

/* Whether every loop around 'call' in the function 'function' (a loop that does no work at all
 * included) only frees; more loops than are looked at count as not. */
static int loops_only_free(ss_callgraph *graph, CXCursor function, CXCursor call)
{
    CXCursor loops[MAX_LOOPS];
    size_t n = ss_scope_enclosing_loops(function, call, loops, MAX_LOOPS);
    if (n == MAX_LOOPS)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!only_frees(graph, loops[i]))
            return 0;
    }
    return 1;
}

/* For ss_callgraph_reached_unless: a chain that starts in a loop every loop around whose call
 * only frees is skipped; one that starts in a loop doing other work is followed all the way. */
static int skip_freeing(CXCursor from, CXCursor call, void *data)
{
    if (!ss_scope_is_loop(from))
        return 0;
    CXCursor function = ss_context_function_of(call);
    return !ss_ast_is_null(function) && loops_only_free(data, function, call);
}

char *ss_context_clean_up_words(ss_check_ctx *ctx, const ss_loop_context *loop, CXCursor at)
{
    const ss_api *api =
        clang_getCursorKind(at) == CXCursor_CallExpr ? ss_scope_callee_api(at) : NULL;
    if (api == NULL || !gives_back(api) ||
        clang_getCursorKind(ctx->function) == CXCursor_LambdaExpr)
        return NULL;
    ss_callgraph *graph = ss_check_graph(ctx);
    /* The loops of its own function, then every chain of calls from a loop that works. */
    if (!loops_only_free(graph, ctx->function, at) ||
        ss_callgraph_reached_unless(graph, ctx->function, SS_SCOPE_ENQUEUES, skip_freeing, graph))
        return NULL;
    char *where =
        loop->chain ? ss_xstrdup(loop->place) : ss_xasprintf("line %u", ss_scope_line(loop->loop));
    char *words = ss_xasprintf("clean-up: the only device work of the loop at %s is freeing "
                               "memory, and no loop that runs it does other work: the first free "
                               "waits for the "
                               "work queued before the loop, the later ones find nothing new to "
                               "wait for",
                               where);
    free(where);
    return words;
}
