/* cmd_suggest.c: "did you mean" for a mistyped rule ID or name on the command line. */
#include "log.h"
#include "options.h"

const ss_rule *ss_cli_find_rule(const char *context, const char *key)
{
    const ss_rule *rule = ss_rules_find(key);
    if (rule != NULL)
        return rule;
    size_t n;
    const char *const *keys = ss_rules_keys(&n);
    const char *near = ss_suggest(key, keys, n);
    const char *sep = context ? ": " : "";
    context = context ? context : "";
    if (near)
        ss_log_error("%s%sunknown rule '%s' (did you mean '%s'?)", context, sep, key, near);
    else
        ss_log_error("%s%sunknown rule '%s' (syncscope rules lists them)", context, sep, key);
    return NULL;
}
