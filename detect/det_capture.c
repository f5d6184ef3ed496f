/* det_capture.c: SYNC501 at run time: stream captures that ended with a capture error, and the
 * call made during the capture that broke it. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>

/* cudaError_t / CUresult values (driver_types.h, cuda.h: the same numbers). */
#define ERR_CAPTURE_UNSUPPORTED 900
#define ERR_CAPTURE_INVALIDATED 901
#define ERR_CAPTURE_IMPLICIT 906
#define ERR_CAPTURE_FIRST 900 /* cudaErrorStreamCapture* and cudaErrorCapturedEvent ... */
#define ERR_CAPTURE_LAST 908  /* ... through cudaErrorStreamCaptureWrongThread */

/* One thread's capture in progress. */
typedef struct capture_state {
    uint32_t begin;  /* DET_NONE: no capture open */
    uint32_t failed; /* first call whose own result was a capture error */
    uint32_t unsafe; /* first capture-unsafe call */
} capture_state;

static const char *capture_error_name(int32_t code)
{
    switch (code) {
    case ERR_CAPTURE_UNSUPPORTED:
        return "cudaErrorStreamCaptureUnsupported";
    case ERR_CAPTURE_INVALIDATED:
        return "cudaErrorStreamCaptureInvalidated";
    case ERR_CAPTURE_IMPLICIT:
        return "cudaErrorStreamCaptureImplicit";
    default:
        return NULL;
    }
}

/* Whether a call is not allowed while a stream captures (global mode): anything that
 * synchronizes or queries, and work on the legacy default stream. */
static int capture_unsafe(const det_call *c)
{
    const ss_api *row = c->row;
    if (row == NULL)
        return 0;
    if (row->sync == SS_SYNC_ALWAYS || row->sync == SS_SYNC_DEVICE ||
        row->sync == SS_SYNC_EXPLICIT || row->klass == SS_CLASS_QUERY)
        return 1;
    return ss_api_enqueues(row) && det_call_on_legacy(c);
}

/* SYNC501: captures that ended with a capture error, at the call that broke them. Returns 0
 * or -1. */
static int capture_run(det_ctx *ctx)
{
    ss_map by_thread = {0};
    capture_state *states = NULL;
    size_t nstates = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        const det_call *c = &ctx->calls[i];
        if (c->enclosed || c->row == NULL)
            continue;
        uint32_t t = ss_map_get(&by_thread, c->ev->thread, 0);
        if (t == DET_NONE) {
            if (ss_grow((void **)&states, &cap, nstates + 1, sizeof *states) < 0) {
                rc = -1;
                break;
            }
            t = (uint32_t)nstates++;
            states[t] = (capture_state){DET_NONE, DET_NONE, DET_NONE};
            if ((rc = ss_map_put(&by_thread, c->ev->thread, 0, t)) < 0)
                break;
        }
        capture_state *st = &states[t];
        if (c->row->klass == SS_CLASS_CAPTURE_BEGIN) {
            *st = (capture_state){(uint32_t)i, DET_NONE, DET_NONE};
            continue;
        }
        if (c->row->klass != SS_CLASS_CAPTURE_END) {
            if (st->begin == DET_NONE)
                continue;
            if (st->failed == DET_NONE && c->ev->result >= ERR_CAPTURE_FIRST &&
                c->ev->result <= ERR_CAPTURE_LAST)
                st->failed = (uint32_t)i;
            if (st->unsafe == DET_NONE && capture_unsafe(c))
                st->unsafe = (uint32_t)i;
            continue;
        }
        if (capture_error_name(c->ev->result) != NULL) {
            uint32_t breaker = st->failed != DET_NONE   ? st->failed
                               : st->unsafe != DET_NONE ? st->unsafe
                                                        : (uint32_t)i;
            det_hit hit = {
                .rule = SS_RULE_CAPTURE_UNSAFE_CALL,
                .call = breaker,
                .stream_id = c->ev->stream_id,
                .device = det_call_device(ctx, c),
                .figures.capture = {.capture_error = c->ev->result, .end_call = (uint32_t)i},
            };
            rc = det_report(ctx, &hit);
        }
        *st = (capture_state){DET_NONE, DET_NONE, DET_NONE};
    }
    free(states);
    ss_map_free(&by_thread);
    return rc;
}

static char *capture_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    int32_t code = agg->figures.capture.capture_error;
    uint32_t end_call = agg->figures.capture.end_call;
    char times[32];
    det_times(agg->count, times, sizeof times);
    const char *error = capture_error_name(code);
    ss_finding_add_extra(finding, "capture_error", error);
    const char *end = det_call_name(ctx, &ctx->calls[end_call]);
    if (end_call == agg->call)
        return ss_xasprintf("%s returned %s (%" PRId32 ") %s; no call that broke the capture "
                            "was recorded on this thread",
                            end, error, code, times);
    const ss_stack_frame *site = det_call_site(ctx, end_call);
    if (site != NULL && site->file != 0 && site->line != 0) {
        char *where = ss_xasprintf("%s:%" PRIu32, ctx->log->strings[site->file], site->line);
        ss_finding_add_extra(finding, "capture_ended_at", where);
        free(where);
    }
    return ss_xasprintf("%s broke a stream capture %s: %s then returned %s (%" PRId32 ")",
                        det_call_name(ctx, &ctx->calls[agg->call]), times, end, error, code);
}

/* A finding names the capture error and the cudaStreamEndCapture call of its first
 * occurrence (no fold). */
const det_family det_family_capture = {
    .run = capture_run,
    .message = capture_message,
};
