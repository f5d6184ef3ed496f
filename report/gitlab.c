/* gitlab.c: the GitLab Code Quality report (a JSON array of Code Climate issues). */
#include "log.h"
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

/* GitLab's five severities; syncscope uses the three lowest ("critical" and "blocker" are
 * left to tools whose findings break the build). */
static const char *gitlab_severity(ss_severity severity)
{
    switch (severity) {
    case SS_SEV_NOTE:
        return "info";
    case SS_SEV_ERROR:
        return "major";
    default:
        return "minor";
    }
}

/* A finding's fingerprint and its place in the result, for numbering repeats. */
typedef struct issue_key {
    char fingerprint[17];
    size_t index;
} issue_key;

static int compare_keys(const void *a, const void *b)
{
    const issue_key *x = a, *y = b;
    int c = strcmp(x->fingerprint, y->fingerprint);
    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* GitLab keeps one issue per fingerprint, but ss_finding_fingerprint is the same for two
 * findings of one rule on identical lines of one file. The first keeps the plain
 * fingerprint (as in SARIF's partialFingerprints); the n-th repeat (n >= 1, in result order)
 * gets the FNV-1a of "<fingerprint>#<n>". Writes 17 bytes per finding into 'out'. */
static void unique_fingerprints(const ss_result *result, char (*out)[17])
{
    issue_key *keys = ss_xcalloc(result->count, sizeof *keys);
    for (size_t i = 0; i < result->count; i++) {
        ss_finding_fingerprint(&result->findings[i], keys[i].fingerprint);
        keys[i].index = i;
    }
    qsort(keys, result->count, sizeof *keys, compare_keys);
    size_t repeat = 0;
    for (size_t i = 0; i < result->count; i++) {
        if (i > 0 && strcmp(keys[i].fingerprint, keys[i - 1].fingerprint) == 0)
            repeat++;
        else
            repeat = 0;
        char *dst = out[keys[i].index];
        if (repeat == 0) {
            memcpy(dst, keys[i].fingerprint, 17);
        } else {
            char *seed = ss_xasprintf("%s#%zu", keys[i].fingerprint, repeat);
            uint64_t h = ss_fnv1a(SS_FNV1A_SEED, seed, strlen(seed));
            snprintf(dst, 17, "%016llx", (unsigned long long)h);
            free(seed);
        }
    }
    free(keys);
}

/* "message. hint [SYNC201 pageable-async-copy]": GitLab's merge request widget shows the
 * description alone, so the rule goes into it. */
static char *description(const ss_finding *f, const ss_rule *rule)
{
    const char *message = f->message ? f->message : "";
    size_t len = strlen(message);
    const char *stop = len > 0 && message[len - 1] == '.' ? "" : ".";
    if (f->hint)
        return ss_xasprintf("%s%s %s [%s %s]", message, stop, f->hint, rule->id, rule->name);
    return ss_xasprintf("%s [%s %s]", message, rule->id, rule->name);
}

/* location {path, lines {begin}}: the finding's own line, else (run findings) the innermost
 * frame that has a source file, else the program. GitLab needs a path and a line in every
 * issue: 1 when the line is unknown. */
static cJSON *location(const char *root_dir, const char *program, const ss_finding *f)
{
    const char *file = f->file;
    unsigned line = f->line;
    for (size_t i = 0; i < f->frame_count && file == NULL; i++) {
        if (f->frames[i].file) {
            file = f->frames[i].file;
            line = f->frames[i].line;
        }
    }
    cJSON *o = ss_report_json_checked(cJSON_CreateObject());
    if (file) {
        int inside = 0;
        char *path = ss_report_relative_path(root_dir, file, &inside);
        ss_report_json_add_string(o, "path", path);
        free(path);
    } else {
        ss_report_json_add_string(o, "path", program ? program : "unknown program");
    }
    cJSON *lines = ss_report_json_checked(cJSON_AddObjectToObject(o, "lines"));
    ss_report_json_add_u64(lines, "begin", line ? line : 1);
    return o;
}

int ss_report_write_gitlab(FILE *out, const ss_result *result)
{
    char *root_dir = ss_report_root_dir(result);
    char(*fingerprints)[17] = ss_xcalloc(result->count, sizeof *fingerprints);
    unique_fingerprints(result, fingerprints);
    cJSON *issues = ss_report_json_checked(cJSON_CreateArray());
    for (size_t i = 0; i < result->count; i++) {
        const ss_finding *f = &result->findings[i];
        const ss_rule *rule = ss_rules_get(f->rule);
        cJSON *issue = ss_report_json_checked(cJSON_CreateObject());
        ss_report_json_add_string(issue, "type", "issue");
        char *text = description(f, rule);
        ss_report_json_add_string(issue, "description", text);
        free(text);
        ss_report_json_add_string(issue, "check_name", rule->id);
        cJSON *categories = ss_report_json_checked(cJSON_AddArrayToObject(issue, "categories"));
        cJSON_AddItemToArray(categories, ss_report_json_checked(cJSON_CreateString("Performance")));
        ss_report_json_add_string(issue, "fingerprint", fingerprints[i]);
        ss_report_json_add_string(issue, "severity", gitlab_severity(f->severity));
        cJSON_AddItemToObject(issue, "location", location(root_dir, result->program, f));
        cJSON_AddItemToArray(issues, issue);
    }
    int rc = ss_report_json_print(out, issues);
    cJSON_Delete(issues);
    free(fingerprints);
    free(root_dir);
    return rc == 0 && !ferror(out) ? 0 : -1;
}
