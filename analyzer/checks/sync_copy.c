/* sync_copy.c: SYNC202, host-blocking synchronous copies and memsets in code that otherwise
 * pipelines work (a function that uses a non-default stream, or a loop that launches
 * kernels). */
#include "ast.h"
#include "checks.h"
#include "common.h"
#include "dataflow.h"
#include "scope.h"

#include <stdlib.h>

/* How deep "s = t; t = 0;" chains are followed. */
enum { MAX_CHAIN = 4 };

/* Whether a stream expression is provably a default stream: 0/NULL/nullptr,
 * cudaStreamLegacy (1), cudaStreamPerThread (2), or a variable always holding one. */
static int is_default_stream(CXCursor function, CXCursor expr, int depth)
{
    if (ss_check_is_omitted(expr))
        return 1;
    CXCursor e = ss_ast_strip(expr);
    ss_stream_value constant = ss_stream_constant(e);
    if (constant != SS_STREAM_UNKNOWN)
        return ss_stream_is_default(constant);
    if (depth > MAX_CHAIN)
        return 0;
    ss_location loc;
    if (ss_location_of(e, NULL, &loc) != 0)
        return 0;
    ss_defs defs = {0};
    ss_dataflow_reaching(function, &loc, e, &defs);
    int all_default = defs.count > 0;
    for (size_t i = 0; i < defs.count && all_default; i++) {
        if (defs.v[i].kind == SS_DEF_ZERO)
            continue;
        all_default = defs.v[i].kind == SS_DEF_VALUE &&
                      is_default_stream(function, defs.v[i].value, depth + 1);
    }
    ss_defs_free(&defs);
    ss_location_free(&loc);
    return all_default;
}

/* The first explicit non-default stream used in a function. */
typedef struct stream_walk {
    CXCursor function;
    CXCursor found;
} stream_walk;

/* The stream argument of 'call' (a launch or an API call with one), or a null cursor. */
static CXCursor stream_argument(CXCursor call)
{
    if (ss_scope_is_launch(call))
        return ss_check_stream_arg(call, NULL);
    char *name = ss_scope_callee_name(call);
    const ss_api *api = name ? ss_api_find(name) : NULL;
    free(name);
    CXCursor arg = ss_check_stream_arg(call, api);
    if (ss_ast_is_null(arg))
        return arg;
    /* A stream is a pointer to an opaque struct; a pointer to a complete struct is a launch
     * configuration (cudaLaunchKernelEx), whose stream field is not followed here. */
    CXType t = clang_getCanonicalType(clang_getCursorType(ss_ast_strip(arg)));
    CXType pointee = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind == CXType_Pointer && pointee.kind == CXType_Record &&
        clang_Type_getSizeOf(pointee) > 0)
        return clang_getNullCursor();
    return arg;
}

static enum CXChildVisitResult find_stream(CXCursor c, CXCursor parent, CXClientData data)
{
    stream_walk *w = data;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor arg = stream_argument(c);
    if (!ss_ast_is_null(arg) && !is_default_stream(w->function, arg, 0)) {
        w->found = arg;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static char *kernel_or_call_name(CXCursor call)
{
    if (ss_scope_is_launch(call)) {
        char *kernel = ss_scope_kernel_name(call);
        char *name = kernel ? ss_asprintf("kernel '%s'", kernel) : ss_strdup("a kernel");
        free(kernel);
        return name;
    }
    char *callee = ss_scope_callee_name(call);
    char *name = ss_asprintf("'%s'", callee ? callee : "a launch");
    free(callee);
    return name;
}

/* Whether the pointer 'expr' provably points to device memory (cudaMalloc). */
static int is_device_pointer(CXCursor function, CXCursor expr)
{
    if (ss_ast_is_null(expr))
        return 0;
    ss_provenance p;
    ss_provenance_of(function, expr, &p);
    int device = p.kind == SS_HOST_DEVICE;
    ss_provenance_free(&p);
    return device;
}

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
            *target = ss_asprintf("%s memory from %s (line %u)", ss_host_kind_name(p.kind),
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
    if (kind == SS_COPY_KIND_DEFAULT && is_device_pointer(ctx->function, dst) &&
        is_device_pointer(ctx->function, src))
        return 0;
    return 1;
}

/* SYNC202 (checks.def): a synchronous runtime copy or memset in a function that uses a
 * non-default stream, or inside a loop that launches kernels. */
void ss_check_sync_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    if (api->domain != SS_DOMAIN_RT || api->sync != SS_SYNC_ALWAYS || ss_ast_is_null(ctx->function))
        return;
    char *target = NULL;
    if (!blocks_host(ctx, call, api, &target))
        return;
    const char *fix = api->klass == SS_CLASS_MEMSET
                          ? "use the Async variant on the pipeline's stream"
                          : "use the Async variant on the pipeline's stream, with pinned host "
                            "memory, and synchronize only where the result is needed";
    char *what = target ? ss_asprintf("memset '%s' of %s", api->name, target)
                        : ss_asprintf("copy '%s'", api->name);
    char *at = ctx->function_name ? ss_asprintf("'%s'", ctx->function_name) : ss_strdup("it");
    char *message = NULL;
    CXCursor loops[8];
    size_t nloops = ss_scope_enclosing_loops(ctx->function, call, loops, 8);
    for (size_t i = 0; i < nloops && message == NULL; i++) {
        CXCursor work;
        if (!ss_scope_loop_launches(loops[i], &work))
            continue;
        char *launch = kernel_or_call_name(work);
        message = ss_asprintf("synchronous %s inside the loop at line %u, which launches "
                              "%s (line %u): each iteration waits for the device to drain, so "
                              "copies and kernels never overlap",
                              what, ss_scope_line(loops[i]), launch, ss_scope_line(work));
        free(launch);
    }
    if (message == NULL) {
        CXCursor top = ss_scope_outer_function(ctx->function);
        stream_walk w = {top, clang_getNullCursor()};
        clang_visitChildren(top, find_stream, &w);
        if (!ss_ast_is_null(w.found)) {
            char *stream = ss_expr_text(w.found);
            message = ss_asprintf("synchronous %s in %s, which also uses stream '%s' (line "
                                  "%u): it blocks the host and serializes with the work on "
                                  "that stream",
                                  what, at, stream ? stream : "...", ss_scope_line(w.found));
            free(stream);
        }
    }
    if (message)
        ss_check_report(ctx, SS_RULE_SYNC_COPY_IN_PIPELINE, call, message, fix);
    free(message);
    free(at);
    free(what);
    free(target);
}
