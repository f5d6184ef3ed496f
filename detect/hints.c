/* hints.c: the advice of rules/hints.def for a runtime finding whose call site is a Python frame
 * (a pinned DataLoader rather than cudaMallocHost, a device-side accumulator rather than .item()
 * in the loop). */
#include "detect_int.h"

#include <string.h>

/* Where a finding's call site is, as rules/hints.def names it. */
typedef enum ss_hint_context { PYTHON, PYTHON_HTOD, PYTHON_DTOH } ss_hint_context;

static const struct hint {
    ss_rule_id rule;
    ss_hint_context context;
    const char *text;
} hints[] = {
#define SS_HINT(rule, context, text) {SS_RULE_##rule, context, text},
#include "hints.def"
};

const char *det_hint(ss_rule_id rule, int python, const char *direction)
{
    if (!python)
        return NULL;
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        const struct hint *h = &hints[i];
        if (h->rule != rule)
            continue;
        if (h->context == PYTHON ||
            (h->context == PYTHON_HTOD && direction != NULL && strcmp(direction, "HtoD") == 0) ||
            (h->context == PYTHON_DTOH && direction != NULL && strcmp(direction, "DtoH") == 0))
            return h->text;
    }
    return NULL;
}
