/* hints.c: the advice of rules/hints.def for a runtime finding whose call site is a Python frame
 * (a pinned DataLoader rather than cudaMallocHost, a device-side accumulator rather than .item()
 * in the loop). */
#include "detect_int.h"

#include <string.h>

/* Where a finding's call site is and what made the call, as rules/hints.def names it. */
typedef enum ss_hint_context {
    PYTHON,
    PYTHON_HTOD,
    PYTHON_DTOH,
    TORCH_FREE,
    TORCH_ALLOC,
    TORCH_HOST_ALLOC
} ss_hint_context;

static const struct hint {
    ss_rule_id rule;
    ss_hint_context context;
    const char *text;
} hints[] = {
#define SS_HINT(rule, context, text) {SS_RULE_##rule, context, text},
#include "hints.def"
};

/* Whether PyTorch made the call: a frame of its stack is in an installed torch package (its
 * Python files, its libraries in torch/lib), '.../site-packages/torch/' or 'dist-packages'. */
static int made_by_torch(const det_ctx *ctx, const det_call *c)
{
    const ss_event_log *log = ctx->log;
    if (c->ev->stack == 0 || c->ev->stack >= log->stack_count)
        return 0;
    const ss_stack *s = &log->stacks[c->ev->stack];
    for (uint32_t i = 0; i < s->depth; i++) {
        uint32_t where = s->frames[i].file != 0 ? s->frames[i].file : s->frames[i].module;
        if (where != 0 && where < log->string_count &&
            strstr(log->strings[where], "packages/torch/"))
            return 1;
    }
    return 0;
}

const char *det_hint(const det_ctx *ctx, uint32_t call, ss_rule_id rule, int python,
                     const char *direction)
{
    if (!python)
        return NULL;
    const det_call *c = &ctx->calls[call];
    int klass = c->row != NULL ? (int)c->row->klass : -1;
    int torch = -1;
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        const struct hint *h = &hints[i];
        if (h->rule != rule)
            continue;
        int want = h->context == TORCH_FREE         ? SS_CLASS_FREE
                   : h->context == TORCH_ALLOC      ? SS_CLASS_ALLOC
                   : h->context == TORCH_HOST_ALLOC ? SS_CLASS_HOST_ALLOC
                                                    : -1;
        if (want >= 0) {
            if (klass != want)
                continue;
            if (torch < 0)
                torch = made_by_torch(ctx, c);
            if (torch)
                return h->text;
            continue;
        }
        if (h->context == PYTHON ||
            (h->context == PYTHON_HTOD && direction != NULL && strcmp(direction, "HtoD") == 0) ||
            (h->context == PYTHON_DTOH && direction != NULL && strcmp(direction, "DtoH") == 0))
            return h->text;
    }
    return NULL;
}
