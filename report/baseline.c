/* baseline.c: the baseline file of accepted findings (lint's and the run's): writing,
 * loading, filtering. */
#include "files.h"
#include "log.h"
#include "report_int.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds 'text' and its terminating NUL to the hash 'h' ("" for NULL). */
static uint64_t hash_text(uint64_t h, const char *text)
{
    if (text == NULL)
        text = "";
    return ss_fnv1a(h, text, strlen(text) + 1);
}

/* The source file last read for a run finding's line, kept while one result is keyed. */
typedef struct source_cache {
    char *path; /* NULL: none read yet */
    char *text; /* NULL: 'path' could not be read */
    size_t len;
} source_cache;

static void source_cache_free(source_cache *cache)
{
    free(cache->path);
    free(cache->text);
    memset(cache, 0, sizeof *cache);
}

/* Adds the text of line 'line' of file 'path' to the hash '*h', whitespace left out (so that
 * re-indenting keeps the key, as lint's does). Returns 1, or 0 when the file cannot be read
 * here (ss_read_file: a regular file within the limit) or has no such line. */
static int hash_source_line(source_cache *cache, const char *path, unsigned line, uint64_t *h)
{
    if (cache->path == NULL || strcmp(cache->path, path) != 0) {
        source_cache_free(cache);
        cache->path = ss_xstrdup(path);
        cache->text = ss_read_file(path, &cache->len);
    }
    if (cache->text == NULL || line == 0)
        return 0;
    const char *p = cache->text, *end = cache->text + cache->len;
    for (unsigned n = 1; n < line; n++) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (p == NULL)
            return 0;
        p++;
    }
    if (p >= end)
        return 0;
    for (; p < end && *p != '\n'; p++) {
        if (!isspace((unsigned char)*p))
            *h = ss_fnv1a(*h, p, 1);
    }
    *h = ss_fnv1a(*h, "", 1);
    return 1;
}

/* ss_baseline_fingerprint, with the source files read through 'cache'. */
static void fingerprint(const ss_finding *finding, source_cache *cache, char *out)
{
    if (finding->origin != SS_ORIGIN_RUNTIME) {
        ss_finding_fingerprint(finding, out);
        return;
    }
    const ss_rule *rule = ss_rules_get(finding->rule);
    uint64_t h = hash_text(SS_FNV1A_SEED, "run");
    h = hash_text(h, rule->id);
    h = hash_text(h, finding->evidence.api);
    h = hash_text(h, finding->file != NULL ? ss_report_short_path(finding->file) : NULL);
    /* The line's text, as lint keys its findings; where the source cannot be read, the
     * function stands for it. Neither holds the line number. */
    if (finding->file == NULL || !hash_source_line(cache, finding->file, finding->line, &h)) {
        h = hash_text(h, finding->function);
        if (finding->file == NULL && finding->module != NULL) {
            const char *slash = strrchr(finding->module, '/');
            h = hash_text(h, slash != NULL ? slash + 1 : finding->module);
        }
    }
    /* The library function the call went through, not its line (a library's version moves
     * its lines). */
    h = hash_text(h, finding->via_file != NULL ? ss_report_short_path(finding->via_file) : NULL);
    h = hash_text(h, finding->via_function);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void ss_baseline_fingerprint(const ss_finding *finding, char *out)
{
    source_cache cache = {0};
    fingerprint(finding, &cache, out);
    source_cache_free(&cache);
}

/* Returns 'item', or aborts when cJSON could not allocate it: a baseline missing findings
 * would hide them from later runs. */
static cJSON *must(cJSON *item)
{
    if (item == NULL)
        ss_out_of_memory();
    return item;
}

/* File, line, column, rule: the order findings are written in, so the file diffs well. */
static int cmp_finding_ptr(const void *pa, const void *pb)
{
    return ss_finding_compare(*(const ss_finding *const *)pa, *(const ss_finding *const *)pb);
}

/* The JSON text of a baseline holding the findings of 'result'. Returns a malloc'ed string. */
static char *baseline_json(const ss_result *result)
{
    cJSON *root = must(cJSON_CreateObject());
    must(cJSON_AddNumberToObject(root, "version", SS_BASELINE_VERSION));
    must(cJSON_AddStringToObject(root, "tool", "syncscope"));
    must(cJSON_AddStringToObject(root, "tool_version", SS_VERSION));
    cJSON *list = must(cJSON_AddArrayToObject(root, "findings"));
    const ss_finding **order = ss_xreallocarray(NULL, result->count, sizeof *order);
    for (size_t i = 0; i < result->count; i++)
        order[i] = &result->findings[i];
    if (result->count > 1)
        qsort(order, result->count, sizeof *order, cmp_finding_ptr);
    source_cache cache = {0};
    for (size_t i = 0; i < result->count; i++) {
        const ss_finding *f = order[i];
        char key[17];
        fingerprint(f, &cache, key);
        cJSON *item = must(cJSON_CreateObject());
        cJSON_AddItemToArray(list, item);
        must(cJSON_AddStringToObject(item, "rule", ss_rules_get(f->rule)->id));
        must(cJSON_AddStringToObject(item, "fingerprint", key));
        if (f->file)
            must(cJSON_AddStringToObject(item, "file", f->file));
        must(cJSON_AddNumberToObject(item, "line", f->line));
        if (f->message)
            must(cJSON_AddStringToObject(item, "message", f->message));
    }
    source_cache_free(&cache);
    free(order);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text == NULL)
        ss_out_of_memory();
    return text;
}

static int put_text(FILE *out, void *text)
{
    return fputs(text, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
}

int ss_baseline_write(const char *path, const ss_result *result, char *err, size_t err_size)
{
    char *text = baseline_json(result);
    ss_write_status status = ss_write_atomic(path, put_text, text);
    cJSON_free(text);
    if (status == SS_WRITE_CREATE_FAILED) {
        ss_set_error(err, err_size, "%s: cannot create a temporary file: %s", path,
                     ss_file_error());
        return -1;
    }
    if (status != SS_WRITE_OK) {
        ss_set_error(err, err_size, "%s: cannot write the baseline: %s", path, ss_file_error());
        return -1;
    }
    return 0;
}

void ss_baseline_free(ss_baseline *baseline)
{
    free(baseline->entries);
    memset(baseline, 0, sizeof *baseline);
}

static int is_fingerprint(const char *s)
{
    if (s == NULL || strlen(s) != 16)
        return 0;
    for (const char *p = s; *p; p++) {
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return 0;
    }
    return 1;
}

static int cmp_entry(const void *pa, const void *pb)
{
    const ss_baseline_entry *a = pa, *b = pb;
    return strcmp(a->fingerprint, b->fingerprint);
}

/* Converts the byte offset 'pos' of 'text' into a 1-based line and column. */
static void position_of(const char *text, size_t pos, size_t *line, size_t *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < pos; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}

/* Checks that the parsed document is an object of the version this syncscope reads.
 * Returns 0, or -1 with the reason in 'err'. */
static int check_header(const char *path, const cJSON *root, char *err, size_t err_size)
{
    if (!cJSON_IsObject(root)) {
        ss_set_error(err, err_size, "%s: malformed baseline: the top level must be a JSON object",
                     path);
        return -1;
    }
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (version == NULL) {
        ss_set_error(err, err_size, "%s: malformed baseline: no 'version' field", path);
        return -1;
    }
    if (!cJSON_IsNumber(version) || version->valuedouble != SS_BASELINE_VERSION) {
        char *shown = cJSON_PrintUnformatted(version);
        ss_set_error(err, err_size,
                     "%s: unsupported baseline version %s (this syncscope reads version %d)", path,
                     shown ? shown : "?", SS_BASELINE_VERSION);
        cJSON_free(shown);
        return -1;
    }
    return 0;
}

/* Sorts the 'n' entries of 'all' and folds repeated fingerprints into counts. Returns the
 * number of distinct fingerprints, now first in 'all'. */
static size_t fold_repeats(ss_baseline_entry *all, size_t n)
{
    if (n > 1)
        qsort(all, n, sizeof *all, cmp_entry);
    size_t unique = 0;
    for (size_t k = 0; k < n; k++) {
        if (unique > 0 && strcmp(all[unique - 1].fingerprint, all[k].fingerprint) == 0)
            all[unique - 1].count++;
        else
            all[unique++] = all[k];
    }
    return unique;
}

/* Checks the parsed document and collects its fingerprints into 'out'. Returns 0 or -1. */
static int load_document(const char *path, const cJSON *root, ss_baseline *out, char *err,
                         size_t err_size)
{
    if (check_header(path, root, err, err_size) != 0)
        return -1;
    const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings");
    if (!cJSON_IsArray(findings)) {
        ss_set_error(err, err_size, "%s: malformed baseline: 'findings' must be an array", path);
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(findings);
    ss_baseline_entry *all = ss_xreallocarray(NULL, n, sizeof *all);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, findings)
    {
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(item, "fingerprint");
        if (!cJSON_IsObject(item) || !cJSON_IsString(fp) || !is_fingerprint(fp->valuestring)) {
            ss_set_error(err, err_size,
                         "%s: malformed baseline: findings[%zu]: 'fingerprint' must be 16 "
                         "lowercase hexadecimal digits",
                         path, i);
            free(all);
            return -1;
        }
        memcpy(all[i].fingerprint, fp->valuestring, 17);
        all[i].count = 1;
        i++;
    }
    out->entries = all;
    out->count = fold_repeats(all, n);
    out->total = n;
    return 0;
}

int ss_baseline_load(const char *path, ss_baseline *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *text = ss_read_file_err(path, &len, err, err_size);
    if (text == NULL)
        return -1;
    const char *end = NULL;
    /* The text is NUL-terminated, so an error at the very end is reported past the last
     * byte, not on it. */
    cJSON *root = cJSON_ParseWithOpts(text, &end, 0);
    if (root == NULL) {
        size_t pos = end && end >= text ? (size_t)(end - text) : 0;
        size_t line, column;
        if (pos > len)
            pos = len;
        position_of(text, pos, &line, &column);
        ss_set_error(err, err_size, "%s:%zu:%zu: malformed baseline: %s", path, line, column,
                     len == 0     ? "the file is empty"
                     : pos >= len ? "the file ends inside the JSON document"
                                  : "JSON syntax error");
        free(text);
        return -1;
    }
    /* Trailing text after the document is as suspicious as a syntax error. */
    size_t pos = (size_t)(end - text);
    while (pos < len &&
           (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '\t'))
        pos++;
    int rc;
    if (pos < len) {
        size_t line, column;
        position_of(text, pos, &line, &column);
        ss_set_error(err, err_size, "%s:%zu:%zu: malformed baseline: text after the JSON document",
                     path, line, column);
        rc = -1;
    } else {
        rc = load_document(path, root, out, err, err_size);
    }
    cJSON_Delete(root);
    free(text);
    return rc;
}

/* What ss_baseline_filter has left to remove: per entry, the occurrences not yet matched. */
typedef struct baseline_filter {
    const ss_baseline *baseline;
    size_t *left;
    source_cache cache;
} baseline_filter;

static int drop_baselined(const ss_finding *f, void *context)
{
    baseline_filter *filter = context;
    const ss_baseline *baseline = filter->baseline;
    ss_baseline_entry key;
    fingerprint(f, &filter->cache, key.fingerprint);
    const ss_baseline_entry *hit =
        bsearch(&key, baseline->entries, baseline->count, sizeof *baseline->entries, cmp_entry);
    if (hit == NULL || filter->left[hit - baseline->entries] == 0)
        return 0;
    filter->left[hit - baseline->entries]--;
    return 1;
}

size_t ss_baseline_filter(const ss_baseline *baseline, ss_result *result)
{
    if (baseline->count == 0)
        return 0;
    baseline_filter filter = {
        baseline, ss_xreallocarray(NULL, baseline->count, sizeof(size_t)), {0}};
    for (size_t i = 0; i < baseline->count; i++)
        filter.left[i] = baseline->entries[i].count;
    size_t removed = ss_result_remove_if(result, drop_baselined, &filter);
    source_cache_free(&filter.cache);
    free(filter.left);
    return removed;
}
