/* apply.c: applies an effective configuration to a lint result, and the fail-on decision. */
#include "policy.h"

static int drop_by_config(const ss_finding *f, void *config)
{
    return !ss_config_rule_enabled(config, f->rule) ||
           (f->file && ss_config_excluded(config, f->file));
}

static int below_min(const ss_finding *f, void *data)
{
    const ss_config *config = data;
    return f->severity < config->min_severity;
}

size_t ss_policy_apply(const ss_config *config, ss_result *result)
{
    size_t removed = ss_result_remove_if(result, drop_by_config, (void *)config);
    for (size_t i = 0; i < result->count; i++) {
        ss_finding *f = &result->findings[i];
        /* A check may report one finding below its rule's default (SYNC101 where nothing in
         * the unit uses another stream): that stands unless a severity is configured. */
        int configured = config->severity_set[f->rule] && !config->severity_default[f->rule];
        if (configured || f->origin != SS_ORIGIN_STATIC)
            f->severity = ss_config_rule_severity(config, f->rule);
    }
    if (config->min_severity_set && config->min_severity > SS_SEV_NOTE)
        removed += ss_result_remove_if(result, below_min, (void *)config);
    return removed;
}

int ss_policy_failed(const ss_config *config, const ss_result *result)
{
    ss_fail_on level = config->fail_on_set ? config->fail_on : SS_CONFIG_DEFAULT_FAIL_ON;
    if (level == SS_FAIL_NONE)
        return 0;
    return ss_result_count_at_least(result, (ss_severity)level) > 0;
}
