/* rules.c: `syncscope rules` lists the catalog; `syncscope explain RULE` prints one rule. */
#include "rules.h"
#include "cli.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

static const char *halves_name(int halves)
{
    switch (halves) {
    case SS_HALF_STATIC:
        return "lint";
    case SS_HALF_RUNTIME:
        return "run";
    default:
        return "lint+run";
    }
}

int ss_cli_rules(int argc, char **argv)
{
    ss_cli_args args;
    int rc = ss_cli_parse(SS_CMD_RULES, argc, argv, 0, &args);
    if (rc == 0 && args.operand_count > 0) {
        ss_log_error("rules takes no arguments (got '%s')", args.operands[0]);
        rc = -1;
    }
    ss_cli_args_free(&args);
    if (rc != 0)
        return rc > 0 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    for (size_t i = 0; i < n; i++)
        printf("%s  %-26s %-8s %-9s %s\n", rules[i].id, rules[i].name,
               ss_severity_name(rules[i].severity), halves_name(rules[i].halves), rules[i].summary);
    return SS_EXIT_CLEAN;
}

int ss_cli_explain(int argc, char **argv)
{
    ss_cli_args args;
    int rc = ss_cli_parse(SS_CMD_EXPLAIN, argc, argv, 0, &args);
    const ss_rule *rule = NULL;
    if (rc == 0 && args.operand_count != 1) {
        if (args.operand_count == 0)
            ss_log_error("explain needs a rule: an ID like SYNC201 or a name like "
                         "pageable-async-copy (syncscope rules lists them)");
        else
            ss_log_error("explain takes one rule (got '%s' and '%s')", args.operands[0],
                         args.operands[1]);
        rc = -1;
    } else if (rc == 0) {
        rule = ss_cli_find_rule(NULL, args.operands[0]);
        rc = rule ? 0 : -1;
    }
    ss_cli_args_free(&args);
    if (rc != 0)
        return rc > 0 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    printf("%s %s (%s; detected by %s)\n\n%s.\n\n%s\n", rule->id, rule->name,
           ss_severity_name(rule->severity), halves_name(rule->halves), rule->summary,
           rule->explanation);
    return SS_EXIT_CLEAN;
}
