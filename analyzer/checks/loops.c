/* loops.c: SYNC401 (explicit synchronization inside a loop that enqueues device work) and
 * SYNC402 (device-wide synchronizing calls, such as cudaMalloc, inside such a loop). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "context_cases.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>

/* "kernel 'k' is launched at line 12" or "'cudaMemcpyAsync' enqueues work at line 12", with
 * ", through 'f()'" when a function the loop calls does it; malloc'ed. */
static char *describe_work(const ss_loop_context *loop)
{
    CXCursor work = loop->work;
    char *via = ss_check_loop_via(loop);
    char *text;
    if (ss_scope_is_launch(work)) {
        char *name = ss_scope_kernel_name(work);
        text = name ? ss_xasprintf("kernel '%s' is launched at line %u%s", name,
                                   ss_scope_line(work), via)
                    : ss_xasprintf("a kernel is launched at line %u%s", ss_scope_line(work), via);
        free(name);
        free(via);
        return text;
    }
    char *name = ss_scope_callee_name(work);
    text = name ? ss_xasprintf("'%s' enqueues work at line %u%s", name, ss_scope_line(work), via)
                : ss_xasprintf("a call enqueues work at line %u%s", ss_scope_line(work), via);
    free(name);
    free(via);
    return text;
}

static const char *loop_words(CXCursor loop)
{
    switch (clang_getCursorKind(loop)) {
    case CXCursor_ForStmt:
        return "for loop";
    case CXCursor_CXXForRangeStmt:
        return "range-for loop";
    case CXCursor_WhileStmt:
        return "while loop";
    case CXCursor_DoStmt:
        return "do-while loop";
    default:
        return "loop";
    }
}

/* The event records of a loop, for ping-pong waits. */
typedef struct record_walk {
    CXCursor sync;     /* the cudaEventSynchronize */
    char *event;       /* its event as written */
    char *base;        /* the array of an 'events[i]' event, or NULL */
    int before_same;   /* the same event is recorded before the wait */
    int after_same;    /* ... only after it: the wait is for the previous iteration's record */
    int other_element; /* another element of the same array is recorded in the loop */
} record_walk;

/* The array of 'events[i]' as written, or NULL. */
static char *array_base(CXCursor event)
{
    CXCursor e = ss_ast_strip(event);
    if (clang_getCursorKind(e) != CXCursor_ArraySubscriptExpr)
        return NULL;
    return ss_expr_text(ss_ast_child(e, 0));
}

static enum CXChildVisitResult find_records(CXCursor c, CXCursor parent, CXClientData data)
{
    record_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    const ss_api *api = ss_scope_callee_api(c);
    if (api == NULL || api->klass != SS_CLASS_EVENT_RECORD || clang_Cursor_getNumArguments(c) < 1)
        return CXChildVisit_Recurse;
    CXCursor event = clang_Cursor_getArgument(c, 0);
    char *text = ss_expr_text(event);
    if (text && strcmp(text, w->event) == 0) {
        if (ss_ast_offset(c) < ss_ast_offset(w->sync))
            w->before_same = 1;
        else
            w->after_same = 1;
    } else if (text && w->base) {
        char *base = array_base(event);
        w->other_element |= base && strcmp(base, w->base) == 0;
        free(base);
    }
    free(text);
    return CXChildVisit_Recurse;
}

/* Whether the event wait 'call' in the loop 'loop' (of its own function) waits for an event
 * recorded in an earlier iteration: the loop records the same event only after the wait, or
 * records another element of the event's array (ping-pong buffers). The work queued since
 * stays queued: it is no drain. Returns 1 or 0. */
static int waits_for_earlier_iteration(CXCursor loop, CXCursor call)
{
    if (clang_Cursor_getNumArguments(call) < 1)
        return 0;
    CXCursor event = clang_Cursor_getArgument(call, 0);
    record_walk w = {call, ss_expr_text(event), array_base(event), 0, 0, 0};
    if (w.event == NULL) {
        free(w.base);
        return 0;
    }
    clang_visitChildren(loop, find_records, &w);
    free(w.event);
    free(w.base);
    return !w.before_same && (w.after_same || w.other_element);
}

/* SYNC401 (checks.def): stream, device and event synchronization inside a loop that
 * enqueues device work. A wait for an event recorded in an earlier iteration is not
 * reported (waits_for_earlier_iteration). */
void ss_check_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    ss_loop_context loop;
    if (!ss_check_loop(ctx, call, SS_SCOPE_ENQUEUES, &loop)) {
        /* No loop here: one in another unit may call a function that reaches the wait. */
        ss_project_loop_wait(ctx, call, api);
        return;
    }
    if (api->klass == SS_CLASS_EVENT_SYNC && loop.chain == NULL &&
        waits_for_earlier_iteration(loop.loop, call)) {
        ss_loop_context_free(&loop);
        return;
    }
    char *at = ss_check_loop_where(ctx, &loop);
    char *what = describe_work(&loop);
    char *message =
        loop.chain
            ? ss_xasprintf("'%s' %s blocks the host on every iteration of that %s, which "
                           "also enqueues device work (%s): the GPU drains and idles while "
                           "the host catches up",
                           api->name, at, loop_words(loop.loop), what)
            : ss_xasprintf("'%s' %s blocks the host on every iteration of a %s (line %u) "
                           "that also enqueues device work (%s): the GPU drains and idles "
                           "while the host catches up",
                           api->name, at, loop_words(loop.loop), ss_scope_line(loop.loop), what);
    const char *hint;
    if (api->klass == SS_CLASS_DEVICE_SYNC)
        hint = "synchronize once after the loop; where a later step needs one result, record "
               "an event on its stream and wait for that event only (cudaStreamWaitEvent on "
               "the device, cudaEventSynchronize on the host)";
    else
        hint = "synchronize once after the loop, or let the next step wait on the device "
               "(cudaEventRecord + cudaStreamWaitEvent) instead of blocking the host each "
               "iteration";
    ctx->loop_said = 1;
    ctx->loop = &loop;
    ss_check_report(ctx, SS_RULE_SYNC_IN_LOOP, call, message, hint);
    ss_loop_context_free(&loop);
    free(message);
    free(what);
    free(at);
}

/* Where the SYNC402 finding 'f' at 'call' is still a warning and the device would have nothing
 * queued at the call were the functions the unit only declares, called before it, waits for the
 * whole device: the question for the project pass, which makes it a note where each of them is
 * one (ss_project_ask_between); where a synchronous copy drained it that does not answer for
 * other units' streams, the question whether any stream holds such work
 * (ss_project_ask_streams_block). */
static void ask_drained_elsewhere(ss_check_ctx *ctx, CXCursor call, const ss_finding *f)
{
    if (f->severity != SS_SEV_WARNING)
        return;
    ss_assumed_waits assumed = {0};
    char *words = ss_context_drained_call_words(ctx, call, &assumed);
    if (words)
        ss_project_ask_between(ctx, SS_RULE_DEVICE_WIDE_SYNC_CALL, f, words, &assumed);
    ss_assumed_waits_free(&assumed);
    free(words);
    /* Or drained by a synchronous copy that does not answer for other units' streams. */
    words = ss_context_drained_call_blocking_words(ctx, call);
    ss_project_ask_streams_block(ctx, SS_RULE_DEVICE_WIDE_SYNC_CALL, f, words);
    free(words);
}

/* The fix a SYNC402 finding suggests for a call of 'api'. */
static const char *device_wide_hint(const ss_api *api)
{
    if (api->api == SS_API_cudaFreeArray)
        return "make the array once before the loop and reuse it, refilling it on the stream "
               "(cudaMemcpy2DToArrayAsync, cudaMemcpy3DAsync): CUDA arrays have no "
               "stream-ordered allocator";
    switch (api->klass) {
    case SS_CLASS_ALLOC:
    case SS_CLASS_FREE:
        return "allocate once before the loop and reuse the buffer, or use the stream-ordered "
               "allocator (cudaMallocAsync / cudaFreeAsync on the loop's stream)";
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_HOST_FREE:
    case SS_CLASS_HOST_REGISTER:
    case SS_CLASS_HOST_UNREGISTER:
    case SS_CLASS_MANAGED_ALLOC:
        return "allocate or register host memory once before the loop and reuse it";
    default:
        return "configure the device once before the loop";
    }
}

/* SYNC402 (checks.def): a call of the device-wide synchronizing class (cudaMalloc, cudaFree,
 * cudaFreeArray, cudaHostRegister, cudaDeviceSetLimit...) inside a loop that enqueues device
 * work; not a free that waits for nothing (a null pointer's, stream-ordered memory's:
 * ss_context_free_waits_for_nothing). */
void ss_check_device_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->sync != SS_SYNC_DEVICE || ss_context_free_waits_for_nothing(ctx->function, call))
        return;
    ss_loop_context loop;
    if (!ss_check_loop(ctx, call, SS_SCOPE_ENQUEUES, &loop)) {
        /* No loop here: one in another unit may call a function that reaches the call. */
        ss_project_loop_alloc(ctx, call, api, device_wide_hint(api));
        return;
    }
    char *at = ss_check_loop_where(ctx, &loop);
    char *what = describe_work(&loop);
    char *message =
        loop.chain
            ? ss_xasprintf("'%s' %s, a %s that enqueues device work (%s), synchronizes the "
                           "whole device on every iteration",
                           api->name, at, loop_words(loop.loop), what)
            : ss_xasprintf("'%s' %s inside a %s (line %u) that enqueues device work (%s) "
                           "synchronizes the whole device on every iteration",
                           api->name, at, loop_words(loop.loop), ss_scope_line(loop.loop), what);
    ctx->loop_said = 1;
    ctx->loop = &loop;
    size_t count = ctx->result->count;
    ss_check_report(ctx, SS_RULE_DEVICE_WIDE_SYNC_CALL, call, message, device_wide_hint(api));
    if (ctx->result->count > count)
        ask_drained_elsewhere(ctx, call, &ctx->result->findings[count]);
    ss_loop_context_free(&loop);
    free(message);
    free(what);
    free(at);
}
