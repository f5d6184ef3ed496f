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
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: syncscope rules\n\nLists every rule: ID, name, default severity, "
               "which halves detect it, summary.\n");
        return SS_EXIT_CLEAN;
    }
    if (argc > 1) {
        ss_log_error("rules takes no arguments (got '%s')", argv[1]);
        return SS_EXIT_ERROR;
    }
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    for (size_t i = 0; i < n; i++)
        printf("%s  %-26s %-8s %-9s %s\n", rules[i].id, rules[i].name,
               ss_severity_name(rules[i].severity), halves_name(rules[i].halves), rules[i].summary);
    return SS_EXIT_CLEAN;
}

int ss_cli_explain(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        FILE *out = argc == 2 ? stdout : stderr;
        fprintf(out, "usage: syncscope explain RULE   (an ID like SYNC201 or a name like "
                     "pageable-async-copy)\n");
        return argc == 2 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    }
    const ss_rule *rule = ss_rules_find(argv[1]);
    if (rule == NULL) {
        ss_log_error("unknown rule '%s' (syncscope rules lists them)", argv[1]);
        return SS_EXIT_ERROR;
    }
    printf("%s %s (%s; detected by %s)\n\n%s.\n\n%s\n", rule->id, rule->name,
           ss_severity_name(rule->severity), halves_name(rule->halves), rule->summary,
           rule->explanation);
    return SS_EXIT_CLEAN;
}
