/* checks.c: the table of static checks (checks.def) and the dispatch of one call expression to
 * the checks that take it; a check records its finding through ss_check_report
 * (checks/record.c). */
#include "checks.h"
#include "scope.h"

#include <stdlib.h>

/* One bit per rule and per API class in the table's columns. */
_Static_assert(SS_RULE_COUNT <= 64, "checks.def's rules column has one bit per rule");
_Static_assert(SS_CLASS_GRAPH_UPLOAD < 64, "checks.def's classes column has one bit per class");

static const ss_check checks[] = {
#define SS_CHECK(family, entry, on, classes, rules)                                                \
    {#family, #entry, entry, SS_CHECK_##on, classes, rules},
#include "checks.def"
};

const ss_check *ss_checks_all(size_t *count)
{
    *count = sizeof checks / sizeof checks[0];
    return checks;
}

/* Runs, in table order, the rows of 'on' that take 'api' (for SS_CHECK_API, by its class). */
static void run_rows(ss_check_ctx *ctx, ss_check_on on, CXCursor call, const ss_api *api)
{
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        const ss_check *check = &checks[i];
        if (check->on != on)
            continue;
        if (on == SS_CHECK_API && !(check->classes & (UINT64_C(1) << api->klass)))
            continue;
        check->entry(ctx, call, api);
    }
}

void ss_checks_dispatch(ss_check_ctx *ctx, CXCursor call)
{
    /* A <<<...>>> launch: the callee, then the configuration call, then the arguments. */
    if (ss_scope_is_launch(call)) {
        run_rows(ctx, SS_CHECK_LAUNCH, call, NULL);
        return;
    }
    const ss_api *api = ss_scope_callee_api(call);
    run_rows(ctx, SS_CHECK_CALL, call, api);
    if (api)
        run_rows(ctx, SS_CHECK_API, call, api);
}
