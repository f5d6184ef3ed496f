/* sync_copy.c: SYNC202, host-blocking synchronous copies and memsets in code that otherwise
 * pipelines work (a function that uses a non-default stream, or a loop that launches
 * kernels). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "dataflow.h"
#include "log.h"
#include "project_facts.h"
#include "scope.h"

#include <stdlib.h>

/* Whether the synchronous copy or memset 'call' blocks the host, as CUDA's "API
 * synchronization behavior" has it: a copy with a host side does (and so does one whose
 * direction is not known); a device-to-device copy (cudaMemcpyDeviceToDevice, or
 * cudaMemcpyDefault between two cudaMalloc buffers) and cudaMemcpyPeer do not; a memset does
 * only when its target is pinned, registered or managed memory, which must be provable here.
 * For such a memset, '*target' receives words naming the memory (malloc'ed). Returns 1 or 0. */
static int blocks_host(const ss_check_ctx *ctx, CXCursor call, const ss_api *api, char **target)
{
    *target = NULL;
    if (api->klass == SS_CLASS_MEMSET) {
        if (api->dst_arg < 0 || clang_Cursor_getNumArguments(call) <= api->dst_arg)
            return 0;
        ss_provenance p;
        ss_provenance_of(ctx->function, clang_Cursor_getArgument(call, (unsigned)api->dst_arg), &p);
        int host =
            p.kind == SS_HOST_PINNED || p.kind == SS_HOST_REGISTERED || p.kind == SS_HOST_MANAGED;
        if (host)
            *target = ss_xasprintf("%s memory from %s (line %u)", ss_host_kind_name(p.kind),
                                   p.source ? p.source : "an allocation", p.line);
        ss_provenance_free(&p);
        return host;
    }
    if (api->dir == SS_DIR_PEER || api->dir == SS_DIR_D2D)
        return 0;
    CXCursor dst, src;
    int kind = ss_copy_kind(ctx->function, call, api, &dst, &src);
    if (kind == SS_COPY_KIND_D2D)
        return 0;
    if (kind == SS_COPY_KIND_DEFAULT && ss_check_is_device_pointer(ctx->function, dst) &&
        ss_check_is_device_pointer(ctx->function, src))
        return 0;
    return 1;
}

/* SYNC202 (checks.def): a synchronous copy or memset (runtime or driver) in a function that uses a
 * non-default stream, or inside a loop that launches kernels; a copy that SYNC301 reports as a
 * scalar readback is left to it (its message names the same loop or stream). */
void ss_check_sync_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->sync != SS_SYNC_ALWAYS || ss_ast_is_null(ctx->function))
        return;
    char *target = NULL;
    ss_pipeline pipe = {0};
    int blocks = blocks_host(ctx, call, api, &target);
    int readback = blocks && ss_check_is_readback(ctx, call, api);
    if (!blocks || readback || !ss_check_pipeline(ctx, call, &pipe)) {
        /* No pipeline here: a loop of another unit may call a function that reaches the copy. */
        if (blocks && !readback && api->klass == SS_CLASS_COPY && ss_ast_is_null(pipe.loop) &&
            ss_ast_is_null(pipe.stream))
            ss_project_loop_copy(ctx, call, api);
        free(target);
        ss_pipeline_free(&pipe);
        return;
    }
    const char *fix = api->klass == SS_CLASS_MEMSET
                          ? "use the Async variant on the pipeline's stream"
                          : "use the Async variant on the pipeline's stream, with pinned host "
                            "memory, and synchronize only where the result is needed";
    char *what = target ? ss_xasprintf("memset '%s' of %s", api->name, target)
                        : ss_xasprintf("copy '%s'", api->name);
    char *message;
    if (!ss_ast_is_null(pipe.loop)) {
        char *loop = ss_check_pipeline_loop_words(&pipe);
        message = ss_xasprintf("synchronous %s %s: each iteration waits for the device to "
                               "drain, so copies and kernels never overlap",
                               what, loop);
        free(loop);
    } else {
        char *at = ctx->function_name ? ss_xasprintf("'%s'", ctx->function_name) : ss_xstrdup("it");
        char *stream = ss_expr_text(pipe.stream);
        message = ss_xasprintf("synchronous %s in %s, which also uses stream '%s' (line "
                               "%u): it blocks the host and serializes with the work on "
                               "that stream",
                               what, at, stream ? stream : "...", ss_scope_line(pipe.stream));
        free(stream);
        free(at);
    }
    ctx->loop_said = !ss_ast_is_null(pipe.loop);
    ss_check_report(ctx, SS_RULE_SYNC_COPY_IN_PIPELINE, call, message, fix);
    ss_pipeline_free(&pipe);
    free(message);
    free(what);
    free(target);
}
