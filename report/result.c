/* result.c: the finding model: building, sorting, counting and fingerprinting results. */
#include "log.h"
#include "report_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void ss_result_init(ss_result *result, ss_result_kind kind)
{
    memset(result, 0, sizeof *result);
    result->kind = kind;
    result->rank = -1;
}

void ss_finding_clear(ss_finding *f)
{
    free(f->file);
    free(f->function);
    free(f->message);
    free(f->hint);
    free(f->line_text);
    for (size_t i = 0; i < f->frame_count; i++) {
        free(f->frames[i].function);
        free(f->frames[i].file);
        free(f->frames[i].module);
    }
    free(f->frames);
    free(f->evidence.api);
    free(f->evidence.direction);
    free(f->evidence.host_kind);
    free(f->evidence.waited_for);
    free(f->evidence.stream);
    for (size_t i = 0; i < f->extra_count; i++) {
        free(f->extra[i].key);
        free(f->extra[i].value);
    }
    free(f->extra);
    free(f->via_file);
    free(f->via_function);
    free(f->module);
    for (size_t i = 0; i < f->fixit_count; i++)
        free(f->fixits[i].text);
    free(f->fixits);
    free(f->macro);
    free(f->unshown);
    memset(f, 0, sizeof *f);
}

void ss_finding_add_fixit(ss_finding *finding, unsigned line, unsigned column, unsigned end_column,
                          const char *text)
{
    finding->fixits =
        ss_xreallocarray(finding->fixits, finding->fixit_count + 1, sizeof *finding->fixits);
    ss_fixit *x = &finding->fixits[finding->fixit_count++];
    x->line = line;
    x->column = column;
    x->end_column = end_column;
    x->text = ss_xstrdup(text);
}

void ss_result_free(ss_result *result)
{
    for (size_t i = 0; i < result->count; i++)
        ss_finding_clear(&result->findings[i]);
    free(result->findings);
    for (size_t i = 0; i < result->diag_count; i++) {
        free(result->diags[i].file);
        free(result->diags[i].message);
    }
    free(result->diags);
    free(result->root);
    free(result->program);
    free(result->command_line);
    free(result->hostname);
    free(result->gpu);
    free(result->driver);
    free(result->cuda);
    free(result->cuda_runtime);
    free(result->started_at);
    for (size_t i = 0; i < result->files.with_errors_count; i++) {
        free(result->files.with_errors[i]);
        if (result->files.first_errors)
            free(result->files.first_errors[i]);
    }
    free(result->files.with_errors);
    free(result->files.first_errors);
    for (size_t i = 0; i < result->files.not_analyzed_count; i++)
        free(result->files.not_analyzed[i].file);
    free(result->files.not_analyzed);
    memset(result, 0, sizeof *result);
}

static void *grow(void *base, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return base;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            ss_out_of_memory();
        ncap *= 2;
    }
    void *p = ss_xreallocarray(base, ncap, size);
    *cap = ncap;
    return p;
}

ss_finding *ss_result_add(ss_result *result)
{
    result->findings =
        grow(result->findings, &result->cap, result->count + 1, sizeof *result->findings);
    ss_finding *f = &result->findings[result->count++];
    memset(f, 0, sizeof *f);
    f->evidence.device = -1;
    return f;
}

void ss_result_add_diag(ss_result *result, ss_severity severity, const char *file, unsigned line,
                        unsigned column, const char *message)
{
    result->diags =
        grow(result->diags, &result->diag_cap, result->diag_count + 1, sizeof *result->diags);
    ss_diag *d = &result->diags[result->diag_count++];
    d->severity = severity;
    d->file = ss_xstrdup(file);
    d->line = line;
    d->column = column;
    d->message = ss_xstrdup(message);
}

void ss_finding_add_extra(ss_finding *finding, const char *key, const char *value)
{
    finding->extra =
        ss_xreallocarray(finding->extra, finding->extra_count + 1, sizeof *finding->extra);
    finding->extra[finding->extra_count].key = ss_xstrdup(key);
    finding->extra[finding->extra_count].value = ss_xstrdup(value);
    finding->extra_count++;
}

const char *ss_report_short_path(const char *path)
{
    static const char *const parts[] = {"/site-packages/", "/dist-packages/"};
    const char *best = NULL;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        for (const char *p = strstr(path, parts[i]); p != NULL; p = strstr(p + 1, parts[i]))
            best = p + strlen(parts[i]);
    }
    if (best != NULL && *best != '\0')
        return best;
    /* The standard library: .../lib/python3.12/x.py */
    for (const char *p = strstr(path, "/lib/python3."); p != NULL;
         p = strstr(p + 1, "/lib/python3.")) {
        const char *q = p + strlen("/lib/python3.");
        while (*q >= '0' && *q <= '9')
            q++;
        if (*q == '/' && q[1] != '\0')
            best = q + 1;
    }
    return best != NULL ? best : path;
}

const char *ss_finding_via_text(const ss_finding *f, char *out, size_t size)
{
    if (f->via_file != NULL && f->via_line > 0)
        snprintf(out, size, "%s:%u", ss_report_short_path(f->via_file), f->via_line);
    else if (f->via_file != NULL)
        snprintf(out, size, "%s", ss_report_short_path(f->via_file));
    else
        snprintf(out, size, "%s", f->via_function != NULL ? f->via_function : "");
    return out;
}

const char *ss_finding_module_text(const ss_finding *f, char *out, size_t size)
{
    if (f->file != NULL || f->module == NULL) {
        snprintf(out, size, "%s", "");
        return out;
    }
    const char *base = strrchr(f->module, '/');
    base = base != NULL ? base + 1 : f->module;
    snprintf(out, size, "%s%s(%s+0x%llx)", f->function != NULL ? f->function : "",
             f->function != NULL ? " " : "", base, (unsigned long long)f->module_offset);
    return out;
}

static int cmp_str(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

int ss_finding_compare(const ss_finding *a, const ss_finding *b)
{
    int c = cmp_str(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->column != b->column)
        return a->column < b->column ? -1 : 1;
    if (a->rule != b->rule)
        return a->rule < b->rule ? -1 : 1;
    return cmp_str(a->message, b->message);
}

static int cmp_lint(const void *pa, const void *pb)
{
    return ss_finding_compare(pa, pb);
}

static int cmp_run(const void *pa, const void *pb)
{
    const ss_finding *a = pa, *b = pb;
    if (a->evidence.total_ns != b->evidence.total_ns)
        return a->evidence.total_ns > b->evidence.total_ns ? -1 : 1;
    return ss_finding_compare(a, b);
}

void ss_result_sort(ss_result *result)
{
    if (result->count > 1)
        qsort(result->findings, result->count, sizeof *result->findings,
              result->kind == SS_RESULT_RUN ? cmp_run : cmp_lint);
}

size_t ss_result_remove_if(ss_result *result, ss_finding_pred remove, void *context)
{
    size_t kept = 0, removed = 0;
    for (size_t i = 0; i < result->count; i++) {
        ss_finding *f = &result->findings[i];
        if (remove(f, context)) {
            ss_finding_clear(f);
            removed++;
            continue;
        }
        if (kept != i)
            result->findings[kept] = *f;
        kept++;
    }
    result->count = kept;
    return removed;
}

size_t ss_result_count_at_least(const ss_result *result, ss_severity threshold)
{
    size_t n = 0;
    for (size_t i = 0; i < result->count; i++)
        n += result->findings[i].severity >= threshold;
    return n;
}

/* 'h' extended by 'text' as the JSON and text writers spell it: each byte that starts no valid
 * UTF-8 sequence as U+FFFD, so a finding read back from its JSON keeps its fingerprint; with
 * 'skip_space', ASCII whitespace left out; with 'terminate', a NUL after it. */
static uint64_t hash_as_written(uint64_t h, const char *text, int skip_space, int terminate)
{
    size_t len = strlen(text);
    for (size_t i = 0; i < len;) {
        uint32_t code_point;
        unsigned char c = (unsigned char)text[i];
        size_t n = c < 0x80 ? 1 : ss_utf8_decode(text + i, len - i, &code_point);
        if (n == 0) {
            h = ss_fnv1a(h, "\xef\xbf\xbd", 3);
            i++;
            continue;
        }
        if (!(skip_space && n == 1 && isspace(c)))
            h = ss_fnv1a(h, text + i, n);
        i += n;
    }
    return terminate ? ss_fnv1a(h, "", 1) : h;
}

void ss_finding_fingerprint(const ss_finding *finding, char *out)
{
    uint64_t h = SS_FNV1A_SEED;
    const ss_rule *rule = ss_rules_get(finding->rule);
    h = ss_fnv1a(h, rule->id, strlen(rule->id) + 1);
    if (finding->file)
        h = hash_as_written(h, finding->file, 0, 1);
    /* The line's text with all whitespace removed: moving or re-indenting keeps it. */
    h = hash_as_written(h, finding->line_text ? finding->line_text : "", 1, 0);
    if (finding->line_text == NULL && finding->function)
        h = hash_as_written(h, finding->function, 0, 0);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}
