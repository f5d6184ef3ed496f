/* stream_create.c: SYNC103, streams created as blocking streams. */
#include "internal.h"

#include <stdlib.h>

void ss_check_stream_create(ss_check_ctx *ctx, CXCursor call, const ss_api *api)
{
    char *at = ctx->function_name ? ss_asprintf("in '%s'", ctx->function_name)
                                  : ss_strdup("at file scope");
    char *message = NULL;
    if (api->flags_arg < 0) {
        message = ss_asprintf("'%s' %s creates a blocking stream, which synchronizes with the "
                              "legacy default stream",
                              api->name, at);
    } else {
        int nargs = clang_Cursor_getNumArguments(call);
        long long flags;
        if (api->flags_arg < nargs &&
            ss_ast_eval_int(ss_ast_strip(clang_Cursor_getArgument(call, (unsigned)api->flags_arg)),
                            &flags) == 0 &&
            flags == 0)
            message = ss_asprintf("'%s' %s creates a blocking stream (flags 0, the default), "
                                  "which synchronizes with the legacy default stream",
                                  api->name, at);
    }
    if (message)
        ss_check_report(ctx, SS_RULE_BLOCKING_STREAM_CREATE, call, message,
                        "create it with cudaStreamCreateWithFlags(&stream, "
                        "cudaStreamNonBlocking)");
    free(message);
    free(at);
}
