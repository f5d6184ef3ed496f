/* baseline.c: the baseline file of accepted findings: writing, loading, filtering. */
#include "policy.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_error(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(char *err, size_t err_size, const char *fmt, ...)
{
    if (err == NULL || err_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size);
    if (q == NULL && size) {
        ss_log_error("out of memory");
        abort();
    }
    return q;
}

static int cmp_str(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

/* File, line, column, rule: the order findings are written in, so the file diffs well. */
static int cmp_finding_ptr(const void *pa, const void *pb)
{
    const ss_finding *a = *(const ss_finding *const *)pa;
    const ss_finding *b = *(const ss_finding *const *)pb;
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

/* The JSON text of a baseline holding the findings of 'result'. Returns a malloc'ed string. */
static char *baseline_json(const ss_result *result)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", SS_BASELINE_VERSION);
    cJSON_AddStringToObject(root, "tool", "syncscope");
    cJSON_AddStringToObject(root, "tool_version", SS_VERSION);
    cJSON *list = cJSON_AddArrayToObject(root, "findings");
    const ss_finding **order = xrealloc(NULL, result->count * sizeof *order);
    for (size_t i = 0; i < result->count; i++)
        order[i] = &result->findings[i];
    if (result->count > 1)
        qsort(order, result->count, sizeof *order, cmp_finding_ptr);
    for (size_t i = 0; i < result->count; i++) {
        const ss_finding *f = order[i];
        char fingerprint[17];
        ss_finding_fingerprint(f, fingerprint);
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "rule", ss_rules_get(f->rule)->id);
        cJSON_AddStringToObject(item, "fingerprint", fingerprint);
        if (f->file)
            cJSON_AddStringToObject(item, "file", f->file);
        cJSON_AddNumberToObject(item, "line", f->line);
        if (f->message)
            cJSON_AddStringToObject(item, "message", f->message);
        cJSON_AddItemToArray(list, item);
    }
    free(order);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text == NULL) {
        ss_log_error("out of memory");
        abort();
    }
    return text;
}

/* The mode of the baseline: a replaced file keeps its own; a new one gets 0666 less the
 * umask, read from /proc so that the process's umask is never changed. */
static mode_t baseline_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    mode_t mask = 022;
    FILE *status = fopen("/proc/self/status", "r");
    if (status) {
        char line[256];
        unsigned value;
        while (fgets(line, sizeof line, status)) {
            if (sscanf(line, "Umask: %o", &value) == 1) {
                mask = (mode_t)value;
                break;
            }
        }
        fclose(status);
    }
    return 0666 & ~mask;
}

int ss_baseline_write(const char *path, const ss_result *result, char *err, size_t err_size)
{
    char *text = baseline_json(result);
    char *tmp = ss_asprintf("%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        set_error(err, err_size, "%s: cannot create a temporary file: %s", path, strerror(errno));
        free(tmp);
        cJSON_free(text);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (f == NULL) {
        set_error(err, err_size, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        cJSON_free(text);
        return -1;
    }
    int ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF && fflush(f) == 0 && fsync(fd) == 0 &&
             fchmod(fd, baseline_mode(path)) == 0;
    int saved = errno;
    ok = (fclose(f) == 0) && ok;
    cJSON_free(text);
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            saved = errno;
        set_error(err, err_size, "%s: cannot write the baseline: %s", path, strerror(saved));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
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

/* Reads the whole file 'path'. Returns a malloc'ed buffer (NUL-terminated) or NULL. */
static char *read_all(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4097 > cap) {
            cap = cap ? cap * 2 : 65536;
            text = xrealloc(text, cap);
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        errno = EIO;
        return NULL;
    }
    text[len] = '\0';
    *len_out = len;
    return text;
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

/* Checks the parsed document and collects its fingerprints into 'out'. Returns 0 or -1. */
static int load_document(const char *path, const cJSON *root, ss_baseline *out, char *err,
                         size_t err_size)
{
    if (!cJSON_IsObject(root)) {
        set_error(err, err_size, "%s: malformed baseline: the top level must be a JSON object",
                  path);
        return -1;
    }
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (version == NULL) {
        set_error(err, err_size, "%s: malformed baseline: no 'version' field", path);
        return -1;
    }
    if (!cJSON_IsNumber(version) || version->valuedouble != SS_BASELINE_VERSION) {
        char *shown = cJSON_PrintUnformatted(version);
        set_error(err, err_size,
                  "%s: unsupported baseline version %s (this syncscope reads version %d)", path,
                  shown ? shown : "?", SS_BASELINE_VERSION);
        cJSON_free(shown);
        return -1;
    }
    const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings");
    if (!cJSON_IsArray(findings)) {
        set_error(err, err_size, "%s: malformed baseline: 'findings' must be an array", path);
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(findings);
    ss_baseline_entry *all = xrealloc(NULL, n * sizeof *all);
    size_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, findings)
    {
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(item, "fingerprint");
        if (!cJSON_IsObject(item) || !cJSON_IsString(fp) || !is_fingerprint(fp->valuestring)) {
            set_error(err, err_size,
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
    if (n > 1)
        qsort(all, n, sizeof *all, cmp_entry);
    /* Fold repeated fingerprints into counts. */
    size_t unique = 0;
    for (size_t k = 0; k < n; k++) {
        if (unique > 0 && strcmp(all[unique - 1].fingerprint, all[k].fingerprint) == 0)
            all[unique - 1].count++;
        else
            all[unique++] = all[k];
    }
    out->entries = all;
    out->count = unique;
    out->total = n;
    return 0;
}

int ss_baseline_load(const char *path, ss_baseline *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *text = read_all(path, &len);
    if (text == NULL) {
        set_error(err, err_size, "%s: %s", path, strerror(errno));
        return -1;
    }
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
        set_error(err, err_size, "%s:%zu:%zu: malformed baseline: %s", path, line, column,
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
        set_error(err, err_size, "%s:%zu:%zu: malformed baseline: text after the JSON document",
                  path, line, column);
        rc = -1;
    } else {
        rc = load_document(path, root, out, err, err_size);
    }
    cJSON_Delete(root);
    free(text);
    return rc;
}

size_t ss_baseline_filter(const ss_baseline *baseline, ss_result *result)
{
    if (baseline->count == 0)
        return 0;
    size_t *left = xrealloc(NULL, baseline->count * sizeof *left);
    for (size_t i = 0; i < baseline->count; i++)
        left[i] = baseline->entries[i].count;
    size_t kept = 0, removed = 0;
    for (size_t i = 0; i < result->count; i++) {
        ss_finding *f = &result->findings[i];
        ss_baseline_entry key;
        ss_finding_fingerprint(f, key.fingerprint);
        const ss_baseline_entry *hit =
            bsearch(&key, baseline->entries, baseline->count, sizeof *baseline->entries, cmp_entry);
        if (hit && left[hit - baseline->entries] > 0) {
            left[hit - baseline->entries]--;
            ss_finding_clear(f);
            removed++;
            continue;
        }
        if (kept != i)
            result->findings[kept] = *f;
        kept++;
    }
    result->count = kept;
    free(left);
    return removed;
}
