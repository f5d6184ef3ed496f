/* checks.h: what a static check is given (the per-unit context), how it reports, and
 * the checks' entry points. Private to the analyzer. */
#ifndef SS_ANALYZER_CHECKS_H
#define SS_ANALYZER_CHECKS_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "report.h"
#include "rules.h"

/* What one translation unit knows while its checks run (tu.c). */
typedef struct ss_check_ctx {
    CXTranslationUnit tu;
    ss_result *result;
    int per_thread;          /* the default stream is per-thread in this TU */
    int torch;               /* the TU includes ATen/torch headers */
    CXCursor function;       /* innermost function-like cursor around the call, or null */
    char *function_name;     /* the named function around the call, or NULL */
    unsigned readback_bytes; /* SYNC301: the largest device-to-host copy that is a readback
                              * (the file's effective readback-bytes setting) */
    int stream_use;          /* SYNC101: 0 not looked at yet, 1 the unit uses another stream or
                              * an asynchronous copy, 2 it does not */
} ss_check_ctx;

/* Adds a finding of 'rule' at 'at' (its expansion location) to the context's result, unless
 * it lies in a system header. 'message' and 'hint' are copied; 'hint' may be NULL. */
void ss_check_report(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                     const char *hint);

/* Checks, dispatched from tu.c by API class and by kernel-launch syntax. */
/* An API call ('api' is its row) with a stream argument: SYNC101 for launches, graph launches
 * and host functions, SYNC102 for the asynchronous classes. */
void ss_check_default_stream_call(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* A k<<<grid, block, shmem, stream>>>(...) launch; 'config' is its configuration call. */
void ss_check_default_stream_launch(ss_check_ctx *ctx, CXCursor launch, CXCursor config);
/* cudaStreamCreate and friends: SYNC103. */
void ss_check_stream_create(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* Stream, device and event synchronization inside a loop that enqueues device work:
 * SYNC401 (loops.c). */
void ss_check_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* A call of the device-wide synchronizing class (cudaMalloc, cudaFree, cudaHostRegister,
 * cudaDeviceSetLimit...) inside a loop that enqueues device work: SYNC402 (loops.c). */
void ss_check_device_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* cudaStreamBeginCapture: capture-unsafe calls before the matching EndCapture in the same
 * function, SYNC501 (capture.c). */
void ss_check_capture(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* cudaMemcpyKind values (driver_types.h), and SS_COPY_KIND_UNKNOWN. */
enum {
    SS_COPY_KIND_H2H = 0,
    SS_COPY_KIND_H2D = 1,
    SS_COPY_KIND_D2H = 2,
    SS_COPY_KIND_D2D = 3,
    SS_COPY_KIND_DEFAULT = 4,
    SS_COPY_KIND_UNKNOWN = -1
};

/* The direction of the runtime copy 'call' ('api' is its row; checks/pageable_copy.c): the
 * API's fixed direction, else its cudaMemcpyKind argument (a variable followed through its
 * reaching definitions in 'function' while they agree), else the 'kind' field of the local
 * cudaMemcpy3DParms it is given. Sets 'dst' and 'src' to the pointer arguments (null cursors
 * where not visible). Returns an SS_COPY_KIND_ value. */
int ss_copy_kind(CXCursor function, CXCursor call, const ss_api *api, CXCursor *dst, CXCursor *src);

/* Checks of the copy rules (checks/pageable_copy.c, checks/sync_copy.c, checks/readback.c),
 * dispatched from tu.c. */
/* SYNC201: an asynchronous copy whose host side is provably pageable (class COPY). */
void ss_check_pageable_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* SYNC202: a synchronous runtime copy or memset in a function that uses a non-default stream
 * or inside a loop that launches kernels (classes COPY and MEMSET). */
void ss_check_sync_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* SYNC301: a device-to-host copy of a scalar that the host waits for (class COPY). */
void ss_check_readback_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* SYNC301: Thrust and libtorch readbacks; called for every call, whatever its callee. */
void ss_check_readback_call(ss_check_ctx *ctx, CXCursor call);

#endif
