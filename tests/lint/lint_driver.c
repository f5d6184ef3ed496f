/* lint_driver.c: the end-to-end lint test: analyzes every source file at the top of a
 * folder and compares the findings with the expectations the file carries in comments:
 *   expect: SYNC101[, SYNC102]  on the line a finding must be reported at (each once);
 *   lint-args: ARG...           extra clang arguments for this file;
 *   lint-compdb: COMMAND        analyze through a compile_commands.json entry COMMAND FILE;
 *   expect-hint: TEXT           every finding's hint contains TEXT;
 *   expect-error: TEXT          a parse diagnostic in this file contains TEXT (each one at
 *                               least once); diagnostics are accepted only this way;
 *   expect-message: TEXT        (after the expect: list, up to the end of the line) a finding
 *                               on this line has a message that contains TEXT;
 *   expect-no-message: TEXT     (likewise) no finding on this line has a message that contains
 *                               TEXT (one of the two a line);
 *   expect-severity: LEVEL      (after the expect: list) every finding on this line has the
 *                               severity LEVEL (note, warning or error).
 * A file without expectations must produce no finding and no parse error. No finding's message
 * may repeat its hint (the fix is said once).
 * usage: lint_driver DIR [--cuda-path PATH] */
#include "analyzer.h"
#include "rules.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct expectation {
    unsigned line;
    ss_rule_id rule;
    int matched;
} expectation;

typedef struct message_expectation {
    unsigned line;
    char *text;
    int matched;
    int absent; /* expect-no-message: no message on the line may contain the text */
} message_expectation;

/* How many message and severity expectations one file may carry; a file with more is refused
 * (expectations past the end were once dropped without a word). */
enum { MAX_MESSAGES = 64, MAX_SEVERITIES = 128 };

typedef struct severity_expectation {
    unsigned line;
    ss_severity severity;
} severity_expectation;

typedef struct case_spec {
    expectation *expects;
    size_t count, cap;
    char *args[16];
    size_t arg_count;
    char *compdb_command;
    char *hint;
    char *errors[8];
    int error_matched[8];
    size_t error_count;
    message_expectation messages[MAX_MESSAGES];
    size_t message_count;
    severity_expectation severities[MAX_SEVERITIES];
    size_t severity_count;
} case_spec;

static char *trimmed_copy(const char *s)
{
    while (*s == ' ')
        s++;
    size_t len = strcspn(s, "\r\n");
    while (len && (s[len - 1] == ' ' || s[len - 1] == '/' || s[len - 1] == '*'))
        len--;
    return strndup(s, len);
}

static int read_spec(const char *path, case_spec *spec)
{
    FILE *in = fopen(path, "r");
    if (in == NULL)
        return -1;
    char buf[4096];
    unsigned line = 0;
    while (fgets(buf, sizeof buf, in)) {
        line++;
        const char *p;
        if ((p = strstr(buf, "lint-args:")) != NULL) {
            char *list = trimmed_copy(p + 10);
            for (char *save = NULL, *t = strtok_r(list, " ", &save); t && spec->arg_count < 16;
                 t = strtok_r(NULL, " ", &save))
                spec->args[spec->arg_count++] = strdup(t);
            free(list);
        }
        if ((p = strstr(buf, "lint-compdb:")) != NULL)
            spec->compdb_command = trimmed_copy(p + 12);
        if ((p = strstr(buf, "expect-hint:")) != NULL) {
            spec->hint = trimmed_copy(p + 12);
            continue;
        }
        if ((p = strstr(buf, "expect-error:")) != NULL) {
            if (spec->error_count < 8)
                spec->errors[spec->error_count++] = trimmed_copy(p + 13);
            continue;
        }
        if ((strstr(buf, "expect-message:") || strstr(buf, "expect-no-message:")) &&
            spec->message_count == MAX_MESSAGES) {
            fprintf(stderr, "%s:%u: more than %d message expectations\n", path, line, MAX_MESSAGES);
            fclose(in);
            return -1;
        }
        if ((p = strstr(buf, "expect-severity:")) != NULL &&
            spec->severity_count == MAX_SEVERITIES) {
            fprintf(stderr, "%s:%u: more than %d severity expectations\n", path, line,
                    MAX_SEVERITIES);
            fclose(in);
            return -1;
        }
        if ((p = strstr(buf, "expect-message:")) != NULL) {
            message_expectation *m = &spec->messages[spec->message_count++];
            m->line = line;
            m->text = trimmed_copy(p + 15);
            m->matched = 0;
            m->absent = 0;
        }
        if ((p = strstr(buf, "expect-no-message:")) != NULL) {
            message_expectation *m = &spec->messages[spec->message_count++];
            m->line = line;
            m->text = trimmed_copy(p + 18);
            m->matched = 0;
            m->absent = 1;
        }
        if ((p = strstr(buf, "expect-severity:")) != NULL) {
            char *level = trimmed_copy(p + 16);
            size_t len = strcspn(level, " ");
            level[len] = '\0';
            severity_expectation *e = &spec->severities[spec->severity_count++];
            e->line = line;
            if (ss_severity_parse(level, &e->severity) != 0) {
                fprintf(stderr, "%s:%u: unknown severity '%s'\n", path, line, level);
                free(level);
                fclose(in);
                return -1;
            }
            free(level);
        }
        if ((p = strstr(buf, "expect:")) == NULL)
            continue;
        p += 7;
        for (;;) {
            while (*p == ' ' || *p == ',')
                p++;
            size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
            if (len == 0)
                break;
            char id[32];
            snprintf(id, sizeof id, "%.*s", (int)len, p);
            const ss_rule *rule = ss_rules_find(id);
            if (rule == NULL) {
                fprintf(stderr, "%s:%u: unknown rule '%s' in expectation\n", path, line, id);
                fclose(in);
                return -1;
            }
            if (spec->count == spec->cap) {
                spec->cap = spec->cap ? spec->cap * 2 : 16;
                spec->expects = realloc(spec->expects, spec->cap * sizeof *spec->expects);
            }
            spec->expects[spec->count++] = (expectation){line, rule->rule, 0};
            p += len;
        }
    }
    fclose(in);
    return 0;
}

static void free_spec(case_spec *spec)
{
    free(spec->expects);
    for (size_t i = 0; i < spec->arg_count; i++)
        free(spec->args[i]);
    free(spec->compdb_command);
    free(spec->hint);
    for (size_t i = 0; i < spec->error_count; i++)
        free(spec->errors[i]);
    for (size_t i = 0; i < spec->message_count; i++)
        free(spec->messages[i].text);
}

/* Writes DIR/compile_commands.json with one entry for 'file'. Returns 0 or -1. */
static int write_compdb(const char *dir, const char *file, const char *command)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    FILE *out = fopen(path, "w");
    if (out == NULL)
        return -1;
    fprintf(out, "[{\"directory\": \"%s\", \"command\": \"%s %s\", \"file\": \"%s\"}]\n", dir,
            command, file, file);
    return fclose(out);
}

/* Runs one case; returns the number of failures. */
static int run_case(const char *dir, const char *name, const char *cuda_path)
{
    char path[PATH_MAX], real[PATH_MAX], include[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (realpath(path, real) == NULL)
        return 1;
    case_spec spec;
    memset(&spec, 0, sizeof spec);
    if (read_spec(real, &spec) != 0)
        return 1;
    snprintf(include, sizeof include, "-I%s/include", dir);
    const char *extra[18];
    size_t extra_count = 0;
    extra[extra_count++] = include;
    for (size_t i = 0; i < spec.arg_count; i++)
        extra[extra_count++] = spec.args[i];
    const char *inputs[] = {real};
    ss_lint_options options = {.inputs = inputs,
                               .input_count = 1,
                               .extra_args = extra,
                               .extra_arg_count = extra_count,
                               .cuda_path = cuda_path};
    char build_dir[] = "/tmp/ss-lint-driver-XXXXXX";
    int have_build_dir = 0;
    if (spec.compdb_command) {
        if (mkdtemp(build_dir) == NULL || write_compdb(build_dir, real, spec.compdb_command)) {
            fprintf(stderr, "%s: cannot write a compile database\n", name);
            free_spec(&spec);
            return 1;
        }
        have_build_dir = 1;
        options.build_dir = build_dir;
    }
    ss_result result;
    ss_result_init(&result, SS_RESULT_LINT);
    int status = ss_analyzer_run(&options, &result);
    int failures = 0;
    /* With expected parse errors, the one translation unit had some. */
    if (status != (spec.error_count ? 1 : 0)) {
        fprintf(stderr, "%s: analyzer status %d\n", name, status);
        failures++;
    }
    for (size_t i = 0; i < result.diag_count; i++) {
        const ss_diag *d = &result.diags[i];
        char dreal[PATH_MAX];
        int in_case = d->file && realpath(d->file, dreal) && strcmp(dreal, real) == 0;
        int expected = 0;
        for (size_t k = 0; k < spec.error_count && in_case; k++) {
            if (strstr(d->message, spec.errors[k])) {
                spec.error_matched[k] = 1;
                expected = 1;
            }
        }
        if (expected)
            continue;
        fprintf(stderr, "%s: unexpected diagnostic %s:%u:%u: %s\n", name, d->file ? d->file : "",
                d->line, d->column, d->message);
        failures++;
    }
    for (size_t i = 0; i < result.count; i++) {
        const ss_finding *f = &result.findings[i];
        char freal[PATH_MAX];
        int same_file = f->file && realpath(f->file, freal) && strcmp(freal, real) == 0;
        int found = 0;
        for (size_t k = 0; k < spec.count && same_file && !found; k++) {
            expectation *e = &spec.expects[k];
            if (!e->matched && e->line == f->line && e->rule == f->rule) {
                e->matched = 1;
                found = 1;
            }
        }
        for (size_t k = 0; k < spec.message_count && same_file; k++) {
            message_expectation *m = &spec.messages[k];
            if (m->line != f->line || f->message == NULL || !strstr(f->message, m->text))
                continue;
            m->matched = 1;
            if (m->absent) {
                fprintf(stderr, "%s:%u: a message contains '%s': %s\n", name, f->line, m->text,
                        f->message);
                failures++;
            }
        }
        if (!found) {
            fprintf(stderr, "%s: unexpected %s at %s:%u:%u: %s\n", name, ss_rules_get(f->rule)->id,
                    f->file, f->line, f->column, f->message);
            failures++;
        }
        if (f->function == NULL || f->line_text == NULL || f->message == NULL) {
            fprintf(stderr, "%s:%u: finding lacks its function, line text or message\n", name,
                    f->line);
            failures++;
        }
        for (size_t k = 0; k < spec.severity_count && same_file; k++) {
            const severity_expectation *e = &spec.severities[k];
            if (e->line == f->line && e->severity != f->severity) {
                fprintf(stderr, "%s:%u: %s is a %s, expected a %s\n", name, f->line,
                        ss_rules_get(f->rule)->id, ss_severity_name(f->severity),
                        ss_severity_name(e->severity));
                failures++;
            }
        }
        if (f->hint && f->message && strstr(f->message, f->hint)) {
            fprintf(stderr, "%s:%u: the message repeats its hint: %s\n", name, f->line, f->message);
            failures++;
        }
        if (spec.hint && (f->hint == NULL || strstr(f->hint, spec.hint) == NULL)) {
            fprintf(stderr, "%s:%u: hint '%s' lacks '%s'\n", name, f->line,
                    f->hint ? f->hint : "(none)", spec.hint);
            failures++;
        }
    }
    for (size_t k = 0; k < spec.error_count; k++) {
        if (!spec.error_matched[k]) {
            fprintf(stderr, "%s: expected a diagnostic with '%s', none\n", name, spec.errors[k]);
            failures++;
        }
    }
    for (size_t k = 0; k < spec.message_count; k++) {
        if (!spec.messages[k].matched && !spec.messages[k].absent) {
            fprintf(stderr, "%s:%u: no finding whose message contains '%s'\n", name,
                    spec.messages[k].line, spec.messages[k].text);
            failures++;
        }
    }
    for (size_t k = 0; k < spec.count; k++) {
        if (!spec.expects[k].matched) {
            fprintf(stderr, "%s:%u: expected %s, not reported\n", name, spec.expects[k].line,
                    ss_rules_get(spec.expects[k].rule)->id);
            failures++;
        }
    }
    printf("%-28s %zu expected, %zu reported, %s\n", name, spec.count, result.count,
           failures ? "FAILED" : "ok");
    ss_result_free(&result);
    if (have_build_dir) {
        char file[PATH_MAX + 32];
        snprintf(file, sizeof file, "%s/compile_commands.json", build_dir);
        unlink(file);
        rmdir(build_dir);
    }
    free_spec(&spec);
    return failures;
}

static int is_case(const struct dirent *e)
{
    static const char *const exts[] = {".cu", ".cpp", ".c"};
    const char *dot = strrchr(e->d_name, '.');
    if (dot == NULL || e->d_name[0] == '.')
        return 0;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        if (strcmp(dot, exts[i]) == 0)
            return strcmp(e->d_name, "lint_driver.c") != 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: lint_driver DIR [--cuda-path PATH]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *cuda_path = NULL;
    if (argc == 4 && strcmp(argv[2], "--cuda-path") == 0)
        cuda_path = argv[3];
    struct dirent **entries;
    int n = scandir(argv[1], &entries, is_case, alphasort);
    if (n <= 0) {
        fprintf(stderr, "no cases under %s\n", argv[1]);
        return 1;
    }
    int failures = 0;
    for (int i = 0; i < n; i++) {
        failures += run_case(argv[1], entries[i]->d_name, cuda_path);
        free(entries[i]);
    }
    free(entries);
    printf("%d case(s), %d failure(s)\n", n, failures);
    return failures ? 1 : 0;
}
