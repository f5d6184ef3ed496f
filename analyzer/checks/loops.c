/* loops.c: SYNC401 (explicit synchronization inside a loop that enqueues device work) and
 * SYNC402 (device-wide synchronizing calls, such as cudaMalloc, inside such a loop). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "scope.h"

#include <stdlib.h>

/* How many loops around a call are looked at, innermost first. */
enum { MAX_LOOPS = 8 };

/* The innermost loop around 'call' that enqueues device work; its first enqueuing call goes
 * to 'work'. Returns 1, or 0 when no loop around the call does. */
static int loop_with_work(ss_check_ctx *ctx, CXCursor call, CXCursor *loop, CXCursor *work)
{
    if (ss_ast_is_null(ctx->function))
        return 0;
    CXCursor loops[MAX_LOOPS];
    size_t n = ss_scope_enclosing_loops(ctx->function, call, loops, MAX_LOOPS);
    for (size_t i = 0; i < n; i++) {
        if (ss_scope_loop_enqueues(loops[i], work)) {
            *loop = loops[i];
            return 1;
        }
    }
    return 0;
}

/* "kernel 'k' (line 12)" or "'cudaMemcpyAsync' (line 12)", malloc'ed. */
static char *describe_work(CXCursor work)
{
    char *text;
    if (ss_scope_is_launch(work)) {
        char *name = ss_scope_kernel_name(work);
        text = name ? ss_asprintf("kernel '%s' is launched at line %u", name, ss_scope_line(work))
                    : ss_asprintf("a kernel is launched at line %u", ss_scope_line(work));
        free(name);
        return text;
    }
    char *name = ss_scope_callee_name(work);
    text = name ? ss_asprintf("'%s' enqueues work at line %u", name, ss_scope_line(work))
                : ss_asprintf("a call enqueues work at line %u", ss_scope_line(work));
    free(name);
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

/* SYNC401 (checks.def): stream, device and event synchronization inside a loop that
 * enqueues device work. */
void ss_check_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    CXCursor loop, work;
    if (!loop_with_work(ctx, call, &loop, &work))
        return;
    char *at = ss_check_where(ctx);
    char *what = describe_work(work);
    char *message = ss_asprintf("'%s' %s blocks the host on every iteration of a %s (line %u) "
                                "that also enqueues device work (%s): the GPU drains and idles "
                                "while the host catches up",
                                api->name, at, loop_words(loop), ss_scope_line(loop), what);
    const char *hint;
    if (api->klass == SS_CLASS_DEVICE_SYNC)
        hint = "synchronize once after the loop; where a later step needs one result, record "
               "an event on its stream and wait for that event only (cudaStreamWaitEvent on "
               "the device, cudaEventSynchronize on the host)";
    else
        hint = "synchronize once after the loop, or let the next step wait on the device "
               "(cudaEventRecord + cudaStreamWaitEvent) instead of blocking the host each "
               "iteration";
    ss_check_report(ctx, SS_RULE_SYNC_IN_LOOP, call, message, hint);
    free(message);
    free(what);
    free(at);
}

/* SYNC402 (checks.def): a call of the device-wide synchronizing class (cudaMalloc, cudaFree,
 * cudaHostRegister, cudaDeviceSetLimit...) inside a loop that enqueues device work. */
void ss_check_device_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->sync != SS_SYNC_DEVICE)
        return;
    CXCursor loop, work;
    if (!loop_with_work(ctx, call, &loop, &work))
        return;
    char *at = ss_check_where(ctx);
    char *what = describe_work(work);
    char *message = ss_asprintf("'%s' %s inside a %s (line %u) that enqueues device work (%s) "
                                "synchronizes the whole device on every iteration",
                                api->name, at, loop_words(loop), ss_scope_line(loop), what);
    const char *hint;
    switch (api->klass) {
    case SS_CLASS_ALLOC:
    case SS_CLASS_FREE:
        hint = "allocate once before the loop and reuse the buffer, or use the stream-ordered "
               "allocator (cudaMallocAsync / cudaFreeAsync on the loop's stream)";
        break;
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_HOST_FREE:
    case SS_CLASS_HOST_REGISTER:
    case SS_CLASS_HOST_UNREGISTER:
    case SS_CLASS_MANAGED_ALLOC:
        hint = "allocate or register host memory once before the loop and reuse it";
        break;
    default:
        hint = "configure the device once before the loop";
        break;
    }
    ss_check_report(ctx, SS_RULE_DEVICE_WIDE_SYNC_CALL, call, message, hint);
    free(message);
    free(what);
    free(at);
}
