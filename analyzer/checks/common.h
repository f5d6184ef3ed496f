/* common.h: what several static checks share (lint_common.c): whether an argument was written,
 * how a finding names the function it is in, what a constant stream argument is, the
 * direction of a runtime copy and the pipeline a synchronous copy sits in; and what one check
 * asks of another (lint_readback.c: whether SYNC301 takes a copy). Included by the checks under
 * analyzer/checks/ (and by internal.h, for the unit tests). */
#ifndef SS_ANALYZER_CHECKS_COMMON_H
#define SS_ANALYZER_CHECKS_COMMON_H

#include <clang-c/Index.h>

#include "callgraph.h"
#include "checks.h"
#include "dataflow.h"
#include "rules.h"
#include "scope.h"

/* Whether the argument 'arg' was left out of the call and filled in from a C++ default
 * argument (it has no location in a file). Returns 1 or 0. */
int ss_check_is_omitted(CXCursor arg);

/* Whether 'type' is a stream (cudaStream_t and CUstream are both 'struct CUstream_st *').
 * Returns 1 or 0. */
int ss_check_is_stream_type(CXType type);

/* For 'call', a call of the API 'api' (or NULL): 1 when it creates a blocking stream
 * (cudaStreamCreate, or a flags argument of 0 / cudaStreamDefault), 3 when it creates a
 * non-blocking one (a constant flags argument with cudaStreamNonBlocking's bit), 2 when it
 * creates one whose flags are not a constant or another constant, 0 when it creates no
 * stream. */
int ss_check_stream_creation(CXCursor call, const ss_api *api);

/* Where the call being checked sits, for a message: "in 'f'" (the named function around it)
 * or "at file scope". Malloc'ed. */
char *ss_check_where(const ss_check_ctx *ctx);
/* The same, to follow a word: " in 'f'", or "" outside a named function. Malloc'ed. */
char *ss_check_where_suffix(const ss_check_ctx *ctx);

/* The stream argument of a launch's configuration call (grid, block, shared memory,
 * stream). */
#define SS_CONFIG_STREAM_ARG 3

/* The stream argument of 'call': for a k<<<...>>>(...) launch the configuration call's
 * (SS_CONFIG_STREAM_ARG; 'api' is not looked at), else argument 'api'->stream_arg. A null
 * cursor where there is none: 'api' is NULL or has no stream argument, or the call has too
 * few arguments (an incomplete call clang recovered from). */
CXCursor ss_check_stream_arg(CXCursor call, const ss_api *api);
/* The variable that the stream argument 'arg' names, itself or its address, or a null cursor. */
CXCursor ss_check_stream_var(CXCursor arg);

/* What a stream expression is known to be. */
typedef enum ss_stream_value {
    SS_STREAM_UNKNOWN,    /* anything the analysis cannot pin down */
    SS_STREAM_OTHER,      /* a stream that is not a default one (created, returned by a call) */
    SS_STREAM_PER_THREAD, /* cudaStreamPerThread */
    SS_STREAM_NULL,       /* 0, NULL, nullptr, an omitted stream: the default stream */
    SS_STREAM_LEGACY      /* cudaStreamLegacy, explicitly */
} ss_stream_value;

/* The value of the stream expression 'expr' when it is a constant (casts peeled off): 0 is
 * SS_STREAM_NULL, 1 (cudaStreamLegacy) SS_STREAM_LEGACY, 2 (cudaStreamPerThread)
 * SS_STREAM_PER_THREAD, any other constant SS_STREAM_OTHER; SS_STREAM_UNKNOWN when it is not
 * a constant. Whether the argument was left out is the caller's to ask
 * (ss_check_is_omitted): an omitted stream is SS_STREAM_NULL. */
ss_stream_value ss_stream_constant(CXCursor expr);

/* Whether a stream of value 'v' is the legacy default stream: cudaStreamLegacy always, and 0
 * (or an omitted stream) unless the unit's default stream is per-thread ('per_thread').
 * Returns 1 or 0. */
int ss_stream_is_legacy(ss_stream_value v, int per_thread);

/* Whether a stream of value 'v' is one of the default streams (0, cudaStreamLegacy or
 * cudaStreamPerThread). Returns 1 or 0. */
int ss_stream_is_default(ss_stream_value v);

/* The bit of the value 'v' in a set of stream values (ss_stream_values). */
#define SS_STREAM_BIT(v) (1u << (v))

/* The values the stream expression 'expr' may hold where it stands in 'function' (a check
 * context's function, or the named function around it), as SS_STREAM_BIT bits, never none:
 * an omitted argument is SS_STREAM_NULL, a constant its value (ss_stream_constant), a call's
 * result SS_STREAM_OTHER. A variable, a field of a local struct or an element of a local array
 * has the values of its reaching definitions (dataflow.c), each followed in turn through up
 * to four variables ("s = t; t = 0;"): an empty initializer is SS_STREAM_NULL, a stream
 * created into it (cudaStreamCreate*(&s)) SS_STREAM_OTHER, anything else SS_STREAM_UNKNOWN.
 * The walk may stop at the first definition that is SS_STREAM_UNKNOWN or SS_STREAM_OTHER,
 * where neither test below can hold. */
unsigned ss_stream_values(CXCursor function, CXCursor expr);
/* The same for the storage location 'loc' (dataflow.h) as used at 'use': the values of its
 * reaching definitions. */
unsigned ss_stream_location_values(CXCursor function, const ss_location *loc, CXCursor use);
/* Whether every value of 'values' is the legacy default stream (ss_stream_is_legacy: 0 only
 * unless 'per_thread'). Returns 1 or 0. */
int ss_stream_all_legacy(unsigned values, int per_thread);
/* Whether every value of 'values' is one of the default streams (ss_stream_is_default).
 * Returns 1 or 0. */
int ss_stream_all_default(unsigned values);

/* cudaMemcpyKind values (driver_types.h), and SS_COPY_KIND_UNKNOWN. */
enum {
    SS_COPY_KIND_H2H = 0,
    SS_COPY_KIND_H2D = 1,
    SS_COPY_KIND_D2H = 2,
    SS_COPY_KIND_D2D = 3,
    SS_COPY_KIND_DEFAULT = 4,
    SS_COPY_KIND_UNKNOWN = -1
};

/* The direction of the runtime copy 'call' ('api' is its row): the API's fixed direction,
 * else its cudaMemcpyKind argument (a variable followed through its reaching definitions in
 * 'function' while they agree), else the 'kind' field of the local cudaMemcpy3DParms it is
 * given. Sets 'dst' and 'src' to the pointer arguments (null cursors
 * where not visible). Returns an SS_COPY_KIND_ value. */
int ss_copy_kind(CXCursor function, CXCursor call, const ss_api *api, CXCursor *dst, CXCursor *src);

/* Whether a synchronous copy of direction 'kind' (an SS_COPY_KIND_ value) returns before it
 * runs, as CUDA's API synchronization behavior says, so that it is work queued on the device:
 * one within the device or between devices, or one whose direction is not known
 * (SS_COPY_KIND_DEFAULT, SS_COPY_KIND_UNKNOWN); not one between the host and the device, which
 * returns when done or staged, nor one within the host. */
int ss_sync_copy_queued(int kind);

/* Whether the pointer 'expr' provably points to device memory (cudaMalloc...) where it stands
 * in 'function' (dataflow.h, ss_provenance_of). Returns 1 or 0. */
int ss_check_is_device_pointer(CXCursor function, CXCursor expr);

/* The unit's call graph, built the first time a check asks for it. */
ss_callgraph *ss_check_graph(ss_check_ctx *ctx);

/* The loop a call runs in, for the loop rules (SYNC401, SYNC402, SYNC202, SYNC301). */
struct ss_loop_context {
    CXCursor loop;     /* the loop */
    CXCursor work;     /* its first work (a launch, or an API call that enqueues work) */
    CXCursor via;      /* the function of the unit the loop calls that does that work, or a null
                        * cursor when the loop does it itself */
    char *chain;       /* NULL when the loop is in the call's own function; else the functions from
                        * the call's up to the one called in the loop, "'f()' called from 'g()'"
                        * (callgraph.h), malloc'ed */
    char *place;       /* with 'chain': "file.cu:160", where the loop is, malloc'ed */
    CXCursor function; /* the function the loop is in */
    /* With 'chain': the calls from the loop down to the call's function (ss_loop_reach). */
    CXCursor calls[8];
    CXCursor froms[8];
    size_t call_count;
};
typedef struct ss_loop_context ss_loop_context;

/* Finds the innermost loop around 'call' in its function that does 'what' (scope.h; work in
 * the functions of the unit the loop calls counts, and the other arm of a ?: around the call
 * does not), else a loop elsewhere in the unit that does 'what' and from which the call's
 * named function is called, directly or through other functions (not for calls inside a
 * lambda). Fills 'out' (ss_loop_context_free). Returns 1 when there is such a loop, else 0. */
int ss_check_loop(ss_check_ctx *ctx, CXCursor call, ss_scope_work what, ss_loop_context *out);
void ss_loop_context_free(ss_loop_context *loop);

/* How a message says where a call in a loop sits: "in 'f'" for a loop in its own function (as
 * ss_check_where), "in 'f()' called from the loop at file.cu:160" for a loop elsewhere.
 * Malloc'ed. */
char *ss_check_loop_where(const ss_check_ctx *ctx, const ss_loop_context *loop);
/* ", through 'f()'" when the loop's work is in a function it calls, else "". Malloc'ed. */
char *ss_check_loop_via(const ss_loop_context *loop);

/* The pipeline a synchronous copy or memset holds up (rules.md, SYNC202): the loop it runs in
 * that launches kernels (ss_check_loop), else an explicit non-default stream used in its
 * function. */
typedef struct ss_pipeline {
    ss_loop_context in; /* the loop (in.loop a null cursor when there is none) */
    CXCursor loop;      /* in.loop */
    CXCursor work;      /* the loop's first launch (a k<<<...>>> launch or an API call) */
    CXCursor stream;    /* without such a loop: the first stream argument in the named function
                         * around the call that is not provably a default stream */
} ss_pipeline;

/* Finds the pipeline around the call 'call' in the check context's function (nothing outside
 * a function). Fills 'out' (null cursors where there is none; ss_pipeline_free). Returns 1
 * when the call sits in a pipeline (a loop or a stream was found), else 0. */
int ss_check_pipeline(ss_check_ctx *ctx, CXCursor call, ss_pipeline *out);
void ss_pipeline_free(ss_pipeline *pipe);
/* How a SYNC202 or SYNC301 message names the pipeline's loop: "inside the loop at line 11,
 * which launches kernel 'k' (line 12)", or "in 'f()' called from the loop at k.cu:30, which
 * launches ...". Malloc'ed. */
char *ss_check_pipeline_loop_words(const ss_pipeline *pipe);

/* How a message names the work 'work' of a pipeline's loop: "kernel 'k'" (or "a kernel") for a
 * k<<<...>>> launch, "'cudaLaunchKernel'" for a call. Malloc'ed. */
char *ss_check_work_name(CXCursor work);

/* Whether the SYNC301 check of raw copies (lint_readback.c) reports the runtime copy 'call' ('api'
 * is its row): a device-to-host copy of one scalar that the host waits for. SYNC202 leaves
 * such a copy to SYNC301, so that one call has one finding. Returns 1 or 0. */
int ss_check_is_readback(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* Whether the call 'call' of 'function' reads one element of a Thrust device container on
 * the host, as the SYNC301 check of Thrust (lint_readback.c) reports it: an element access whose
 * value reaches the host ('v[i]', 'v.back()'), or a device reference converted to its value.
 * Such a read is a synchronous copy from the device on the default stream. Returns 1 or 0. */
int ss_check_thrust_element_read(CXCursor function, CXCursor call);

/* Whether the runtime or driver copy 'call' ('api' is its row) copies one scalar from the device
 * to the host (the size SYNC301 reads back: sizeof a scalar, 1 * sizeof, a constant within the
 * readback limit), wherever it is and whatever waits for it. Returns 1 or 0. */
int ss_check_copies_one_value(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* Whether the byte count of the copy 'call' ('api' is its row) is that of one scalar, as
 * ss_check_copies_one_value asks, whatever the copy's direction. Returns 1 or 0. */
int ss_check_one_value_size(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* Whether the byte count 'size' is one value of a template's type parameter: 'sizeof(T)', or
 * 'sizeof x' of an x of type T (or a reference to one), where clang cannot evaluate it.
 * '*param_name' receives the parameter's name (malloc'ed; NULL when the answer is 0), and
 * '*largest' the largest size the instantiations the unit makes of a function template give
 * it: LLONG_MAX where one has a size clang cannot tell, or where the unit may not show them all
 * (none seen, an explicit instantiation, a use from another template's body whose arguments
 * depend on its parameters, a class template's parameter). Returns 1 or 0. */
int ss_check_template_value_size(ss_check_ctx *ctx, CXCursor size, char **param_name,
                                 long long *largest);

/* default_stream.c. What the synchronous call 'call' ('api' its row) does on the device without
 * blocking the host, queued on the legacy stream: "copies device to device" (cudaMemcpy within
 * the device, or cudaMemcpyDefault between two device buffers), "sets device memory" (a memset
 * of device memory), or NULL for anything else; '*target' receives its destination argument. */
const char *ss_default_stream_device_side(CXCursor function, CXCursor call, const ss_api *api,
                                          CXCursor *target);

/* default_stream.c. A call of the unit that creates a stream or queues work on a stream other
 * than the legacy one that the legacy one can hold up, and the function it is in. */
typedef struct ss_stream_use {
    CXCursor call;
    CXCursor function;
} ss_stream_use;
/* Every such call of the unit, in code that runs here (as the unit's test of other streams
 * finds the first), decided in the unit alone: a stream parameter or field that the project
 * pass would follow counts. '*uses' receives them (malloc'ed, NULL when none). Returns how
 * many. */
size_t ss_check_stream_uses(ss_check_ctx *ctx, ss_stream_use **uses);

/* other_branch.c. Words for a legacy-stream note where no other stream of the unit can hold
 * work when the legacy-stream work 'at' (in ctx->function) runs, or be given work before the
 * device is drained after it: every stream the unit uses is a local variable of its function,
 * created there and named only as a creation's target and the stream of CUDA calls and
 * launches; those of at's function only on the other branch of an 'if' (outside any loop)
 * whose other branch holds 'at'; and a wait for the whole device follows each stream's work
 * and 'at' in their functions, with no return, goto or throw before it and no call between
 * that may reach the other's function. NULL where that is not shown. Malloc'ed. */
char *ss_context_other_branch_words(ss_check_ctx *ctx, CXCursor at);

/* convention.c. Words for a legacy-stream note where such work is the convention of the file
 * holding 'at': of the unit's work in that file (launches and asynchronous calls, by their
 * stream; the device-side synchronous copies and memsets, on the legacy stream), none or fewer
 * than half is queued on other streams ("convention: this file queues most of its device work
 * on the legacy stream (9 of 11 ...)"). NULL where the file queues at least as much on other
 * streams, or without ctx->convention. Malloc'ed. */
char *ss_context_convention_words(ss_check_ctx *ctx, CXCursor at);

/* cuBLAS (rules/readback.def, the CUBLAS_ rows). What the unit does with cuBLAS handles, looked
 * at once per unit and kept in ctx->cublas: SS_CUBLAS_DEVICE_MODE where a call may set a
 * handle's pointer mode to the device (a cublasSetPointerMode whose mode is not the constant
 * CUBLAS_POINTER_MODE_HOST), SS_CUBLAS_STREAM_SET where a handle's stream may be another than
 * the legacy one of the current device (the unit calls cublasSetStream, switches the device, or
 * its default stream is per-thread). */
enum { SS_CUBLAS_LOOKED = 1, SS_CUBLAS_DEVICE_MODE = 2, SS_CUBLAS_STREAM_SET = 4 };
int ss_cublas_unit(ss_check_ctx *ctx);

/* Where 'call' calls a cuBLAS function that returns one scalar into host memory (a
 * CUBLAS_HOST_RESULT row whose first parameter is a cublasHandle_t, its result the last
 * argument), in a unit whose facts 'unit' (ss_cublas_unit) say it never sets the device pointer
 * mode: the name as code writes it ("cublasSasum" for cublasSasum_v2, "cublasIsamax_64" for
 * cublasIsamax_v2_64), malloc'ed, with '*result' (when not NULL) its result argument. Else
 * NULL. */
char *ss_cublas_host_result(int unit, CXCursor call, CXCursor *result);
/* Whether declaration 'c' is not the unit's own code: a system header's (or a builtin's), or one
 * of the declarations served from memory in place of a toolkit ('/__syncscope__/'). */
int ss_foreign_decl(CXCursor c);
/* Whether 'call' makes another device (or context) the current one (cudaSetDevice,
 * cuCtxSetCurrent, cuCtxPushCurrent, cuCtxPopCurrent, cuCtxCreate, which makes the new
 * context current, cuCtxDestroy, which pops the current one). */
int ss_switches_device(CXCursor call);
/* A visitor: the first wait for the whole device (cudaDeviceSynchronize, cuCtxSynchronize) in
 * what it visits, into the CXCursor 'data' points to (left as it was where there is none). */
enum CXChildVisitResult ss_find_device_wait(CXCursor c, CXCursor parent, CXClientData data);

/* Whether the handle of the cuBLAS call 'call' is the function's own: a local variable, not
 * static, of a pointer type, without an initializer or with a null one, which its function
 * names nowhere but as the handle (first argument) of cuBLAS calls and, by its address, as the
 * argument of cublasCreate; so that no code outside the unit can set its pointer mode or its
 * stream. Remembered in 'memo' (NULL: not) by the handle. Returns 1 or 0. */
int ss_cublas_own_handle(ss_cublas_memo *memo, CXCursor call);

/* Whether the handle of the cuBLAS call 'call' is on the legacy default stream of the current
 * device: the function's own (ss_cublas_own_handle), in a unit that sets no handle's stream and
 * switches no device ('unit', ss_cublas_unit), its function calling nothing that may switch the
 * device (no function of another unit, no call through a pointer, no C++ library function that
 * may call back). Returns 1 or 0. */
int ss_cublas_legacy_handle(ss_cublas_memo *memo, int unit, CXCursor call);

#endif
