/* fix.c: syncscope lint --fix: writes the fix-its of lint findings into the source files. */
#ifdef SS_HAVE_ANALYZER
#include "analyzer.h"
#endif
#include "cli.h"
#include "files.h"
#include "log.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One fix-it with the finding it belongs to. */
typedef struct edit {
    const ss_finding *finding;
    const ss_fixit *fixit;
    size_t begin, end; /* byte offsets in the file, once located */
} edit;

/* A file's new content. */
typedef struct fixed_file {
    const char *path;
    char *text;
    size_t len;
    size_t applied;
} fixed_file;

static int by_place(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    int c = strcmp(x->finding->file, y->finding->file);
    if (c != 0)
        return c;
    if (x->fixit->line != y->fixit->line)
        return x->fixit->line < y->fixit->line ? -1 : 1;
    if (x->fixit->column != y->fixit->column)
        return x->fixit->column < y->fixit->column ? -1 : 1;
    return x->finding < y->finding ? -1 : x->finding > y->finding;
}

static int write_fixed(FILE *out, void *context)
{
    const fixed_file *f = context;
    return fwrite(f->text, 1, f->len, out) == f->len ? 0 : -1;
}

/* Locates the edits[0..count) of one file in its 'text': each must lie within its line, and
 * the line must still read as the finding's line text. An edit that overlaps one before it
 * is left out (begin = end = SIZE_MAX). Returns 0, or -1 with a message printed. */
static int locate(const char *path, const char *text, size_t len, edit *edits, size_t count)
{
    size_t line_start = 0;
    unsigned line = 1;
    size_t taken_end = 0;
    for (size_t i = 0; i < count; i++) {
        edit *e = &edits[i];
        while (line < e->fixit->line && line_start < len) {
            const char *nl = memchr(text + line_start, '\n', len - line_start);
            line_start = nl ? (size_t)(nl - text) + 1 : len;
            line++;
        }
        const char *nl = memchr(text + line_start, '\n', len - line_start);
        size_t line_len = (nl ? (size_t)(nl - text) : len) - line_start;
        if (line_len && text[line_start + line_len - 1] == '\r')
            line_len--;
        const char *expected = e->finding->line_text;
        if (line != e->fixit->line || e->fixit->column == 0 ||
            e->fixit->end_column < e->fixit->column || e->fixit->end_column - 1 > line_len ||
            (expected &&
             (strlen(expected) != line_len || memcmp(expected, text + line_start, line_len)))) {
            ss_log_error("%s:%u: the line is not what was analyzed (the file changed?): nothing "
                         "was fixed",
                         path, e->fixit->line);
            return -1;
        }
        e->begin = line_start + e->fixit->column - 1;
        e->end = line_start + e->fixit->end_column - 1;
        if (i > 0 && e->begin < taken_end) {
            e->begin = e->end = SIZE_MAX;
            continue;
        }
        taken_end = e->end;
    }
    return 0;
}

/* The content of one file with its located edits applied. */
static void apply(const char *text, size_t len, const edit *edits, size_t count, fixed_file *out)
{
    size_t size = len + 1;
    for (size_t i = 0; i < count; i++)
        size += strlen(edits[i].fixit->text);
    out->text = ss_xmalloc(size);
    size_t at = 0, n = 0;
    for (size_t i = 0; i < count; i++) {
        const edit *e = &edits[i];
        if (e->begin == SIZE_MAX)
            continue;
        memcpy(out->text + n, text + at, e->begin - at);
        n += e->begin - at;
        size_t k = strlen(e->fixit->text);
        memcpy(out->text + n, e->fixit->text, k);
        n += k;
        at = e->end;
        out->applied++;
    }
    memcpy(out->text + n, text + at, len - at);
    n += len - at;
    out->text[n] = '\0';
    out->len = n;
}

/* Says, for each finding whose fix-it is left out on purpose, that its file stays as it is,
 * and why. (Fix-its come from lint, so a build without the analyzer has none to refuse.) */
static void say_refused(const ss_result *result)
{
#ifdef SS_HAVE_ANALYZER
    for (size_t i = 0; i < result->count; i++) {
        const ss_finding *f = &result->findings[i];
        const char *why = f->file ? ss_lint_fix_refused(f) : NULL;
        if (why)
            ss_log_note("%s:%u:%u: not fixed (%s): %s", f->file, f->line, f->column,
                        ss_rules_get(f->rule)->id, why);
    }
#else
    (void)result;
#endif
}

/* The new content of every file the 'n' edits (sorted by place) touch, into 'fixed' (one per
 * file; their number into '*nfiles'). Returns 0, or -1 when a file cannot be read or an edit
 * does not fit it (said), at the first such file. */
static int fix_files(edit *edits, size_t n, fixed_file *fixed, size_t *nfiles)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0;) {
        const char *path = edits[i].finding->file;
        size_t j = i;
        while (j < n && strcmp(edits[j].finding->file, path) == 0)
            j++;
        size_t len = 0;
        char *text = ss_read_file(path, &len);
        if (text == NULL) {
            ss_log_error("cannot read '%s': %s", path, ss_file_error());
            rc = -1;
        } else if (locate(path, text, len, edits + i, j - i) != 0) {
            rc = -1;
        } else {
            fixed[*nfiles].path = path;
            apply(text, len, edits + i, j - i, &fixed[*nfiles]);
            (*nfiles)++;
        }
        free(text);
        i = j;
    }
    return rc;
}

int ss_cli_apply_fixits(const ss_result *result, size_t *applied, size_t *files)
{
    *applied = *files = 0;
    say_refused(result);
    size_t count = 0;
    for (size_t i = 0; i < result->count; i++)
        if (result->findings[i].file)
            count += result->findings[i].fixit_count;
    if (count == 0)
        return 0;
    edit *edits = ss_xcalloc(count, sizeof *edits);
    fixed_file *fixed = ss_xcalloc(count, sizeof *fixed);
    size_t n = 0;
    for (size_t i = 0; i < result->count; i++) {
        const ss_finding *f = &result->findings[i];
        for (size_t k = 0; f->file && k < f->fixit_count; k++)
            edits[n++] = (edit){f, &f->fixits[k], 0, 0};
    }
    qsort(edits, n, sizeof *edits, by_place);
    /* Every file's new content first: nothing is written unless all of them are sound. */
    size_t nfiles = 0;
    int rc = fix_files(edits, n, fixed, &nfiles);
    /* Each file is replaced atomically (a temporary file renamed over it, its mode kept). */
    for (size_t i = 0; i < nfiles && rc == 0; i++) {
        if (ss_write_file(fixed[i].path, 0, write_fixed, &fixed[i]) != SS_WRITE_OK) {
            ss_log_error("cannot write '%s': %s", fixed[i].path, ss_file_error());
            rc = -1;
            break;
        }
        *applied += fixed[i].applied;
        (*files)++;
    }
    for (size_t i = 0; i < nfiles; i++)
        free(fixed[i].text);
    free(fixed);
    free(edits);
    return rc;
}
