/* cmd_rules.c: `syncscope rules` lists the catalog; `syncscope explain RULE` prints one rule. */
#include "cli.h"
#include "detect.h"
#include "log.h"
#include "report.h"
#include "rules.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* The catalog as a JSON array: each rule's ID, name, default severity, the commands that
 * detect it, whether the light mode reports it, summary and explanation. Returns 0, or -1
 * when writing failed. */
static int write_rules_json(FILE *out, const ss_rule *rules, size_t n)
{
    cJSON *array = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        cJSON *rule = cJSON_CreateObject();
        cJSON_AddStringToObject(rule, "id", rules[i].id);
        cJSON_AddStringToObject(rule, "name", rules[i].name);
        cJSON_AddStringToObject(rule, "severity", ss_severity_name(rules[i].severity));
        cJSON *by = cJSON_AddArrayToObject(rule, "detectedBy");
        if (rules[i].halves & SS_HALF_STATIC)
            cJSON_AddItemToArray(by, cJSON_CreateString("lint"));
        if (rules[i].halves & SS_HALF_RUNTIME)
            cJSON_AddItemToArray(by, cJSON_CreateString("run"));
        /* Whether `syncscope run --mode light` reports it (docs/run.md, "Modes"). */
        cJSON_AddBoolToObject(rule, "lightMode",
                              (rules[i].halves & SS_HALF_RUNTIME) &&
                                  ss_detect_light_rule(rules[i].rule));
        cJSON_AddStringToObject(rule, "summary", rules[i].summary);
        cJSON_AddStringToObject(rule, "explanation", rules[i].explanation);
        cJSON_AddItemToArray(array, rule);
    }
    char *text = cJSON_Print(array);
    cJSON_Delete(array);
    int rc = text != NULL && fprintf(out, "%s\n", text) >= 0 && fflush(out) == 0 ? 0 : -1;
    free(text);
    return rc;
}

/* --format of rules: 0 text, 1 json, -1 refused (message printed). */
static int rules_format(const ss_cli_args *args)
{
    const ss_cli_given *given = ss_cli_last(args, SS_OPT_RULES_FORMAT);
    static const char *const names[] = {"text", "json"};
    if (given == NULL)
        return 0;
    for (int i = 0; i < 2; i++)
        if (strcasecmp(given->value, names[i]) == 0)
            return i;
    const char *near = ss_suggest(given->value, names, 2);
    if (near != NULL)
        ss_log_error("unknown %s '%s' (did you mean '%s'?)", given->spelled, given->value, near);
    else
        ss_log_error("unknown %s '%s' (text or json)", given->spelled, given->value);
    return -1;
}

int ss_cli_rules(int argc, char **argv)
{
    ss_cli_args args;
    int rc = ss_cli_parse(SS_CMD_RULES, argc, argv, 0, &args);
    if (rc == 0 && args.operand_count > 0) {
        ss_log_error("rules takes no arguments (got '%s')", args.operands[0]);
        rc = -1;
    }
    int format = rc == 0 ? rules_format(&args) : 0;
    ss_cli_args_free(&args);
    if (rc != 0 || format < 0)
        return rc > 0 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    if (format == 1) {
        if (write_rules_json(stdout, rules, n) == 0)
            return SS_EXIT_CLEAN;
        ss_log_error("cannot write the rules: %s", strerror(errno));
        return SS_EXIT_ERROR;
    }
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
