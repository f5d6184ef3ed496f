/* apply.c: applies an effective configuration to a lint result, and the fail-on decision. */
#include "policy.h"

size_t ss_policy_apply(const ss_config *config, ss_result *result)
{
    size_t kept = 0, removed = 0;
    for (size_t i = 0; i < result->count; i++) {
        ss_finding *f = &result->findings[i];
        if (!ss_config_rule_enabled(config, f->rule) ||
            (f->file && ss_config_excluded(config, f->file))) {
            ss_finding_clear(f);
            removed++;
            continue;
        }
        f->severity = ss_config_rule_severity(config, f->rule);
        if (kept != i)
            result->findings[kept] = *f;
        kept++;
    }
    result->count = kept;
    return removed;
}

int ss_policy_failed(const ss_config *config, const ss_result *result)
{
    ss_fail_on level = config->fail_on_set ? config->fail_on : SS_CONFIG_DEFAULT_FAIL_ON;
    if (level == SS_FAIL_NONE)
        return 0;
    return ss_result_count_at_least(result, (ss_severity)level) > 0;
}
