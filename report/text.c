/* text.c: the clang-style text writer (file:line:col: warning: message [ID name]). */
#include "log.h"
#include "report_int.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The escape sequences clang uses (bold, and bold colours per severity). */
#define SS_BOLD "\033[1m"
#define SS_RESET "\033[0m"
#define SS_NOTE_COLOR "\033[0;1;30m"
#define SS_WARNING_COLOR "\033[0;1;35m"
#define SS_ERROR_COLOR "\033[0;1;31m"
#define SS_CARET_COLOR "\033[0;1;32m"

/* Writes 'text' (NULL: nothing) with its control characters escaped. */
static void put_text(FILE *out, const char *text)
{
    if (text)
        ss_put_text(out, text, strlen(text));
}

typedef struct text_out {
    FILE *out;
    int color;
    int show_source;
    unsigned frames; /* ss_text_options.frames */
    int evidence;
    int full_names;
} text_out;

/* Writes a run finding's text that may name kernels ('text' NULL: nothing), their names
 * shortened unless --full-names. */
static void put_kernels_text(const text_out *t, const char *text)
{
    if (text == NULL)
        return;
    if (t->full_names) {
        put_text(t->out, text);
        return;
    }
    char *shown = ss_report_short_kernels(text);
    put_text(t->out, shown);
    free(shown);
}

static const char *severity_color(ss_severity severity)
{
    switch (severity) {
    case SS_SEV_NOTE:
        return SS_NOTE_COLOR;
    case SS_SEV_ERROR:
        return SS_ERROR_COLOR;
    default:
        return SS_WARNING_COLOR;
    }
}

/* "file:line:col: " (each part only when known), bold when colouring. */
static void put_location(const text_out *t, const char *file, unsigned line, unsigned column)
{
    if (file == NULL)
        return;
    if (t->color)
        fputs(SS_BOLD, t->out);
    put_text(t->out, file);
    if (line) {
        fprintf(t->out, ":%u", line);
        if (column)
            fprintf(t->out, ":%u", column);
    }
    fputs(": ", t->out);
    if (t->color)
        fputs(SS_RESET, t->out);
}

/* "warning: " in the severity's colour. */
static void put_severity(const text_out *t, ss_severity severity)
{
    if (t->color)
        fputs(severity_color(severity), t->out);
    fprintf(t->out, "%s: ", ss_severity_name(severity));
    if (t->color)
        fputs(SS_RESET, t->out);
}

/* The message part of a diagnostic line, bold when colouring, then the newline. */
static void put_message(const text_out *t, const char *message, const char *suffix)
{
    if (t->color)
        fputs(SS_BOLD, t->out);
    put_text(t->out, message);
    if (suffix)
        fputs(suffix, t->out);
    if (t->color)
        fputs(SS_RESET, t->out);
    fputc('\n', t->out);
}

/* The source line and a caret under byte column 'column'. Tabs before the column are
 * repeated in the caret line so that it lines up however the terminal expands them; a UTF-8
 * character takes one cell, an escaped one as many as its escape. */
/* Writes what lines up under bytes ['from', 'to') of the source line (0-based): a tab for a
 * tab, as many spaces as the caret line gives other characters, one per byte past the end.
 * Returns 'to', or 'from' when 'to' lies before it. */
static size_t put_padding(const text_out *t, const char *line_text, size_t len, size_t from,
                          size_t to)
{
    size_t i = from;
    while (i < to) {
        if (i >= len) {
            fputc(' ', t->out);
            i++;
            continue;
        }
        char escape[SS_TEXT_ESCAPE_SIZE];
        size_t n = ss_text_char(line_text + i, len - i, escape);
        if (line_text[i] == '\t')
            fputc('\t', t->out);
        else
            fprintf(t->out, "%*s", escape[0] ? (int)strlen(escape) : 1, "");
        i += n;
    }
    return i > from ? i : from;
}

/* The source line, the caret under the finding's column with '~' under the bytes its fix-its
 * replace, and, as clang shows fix-its, a line with each fix-it's text under those bytes. */
static void put_source(const text_out *t, const ss_finding *f)
{
    const char *line_text = f->line_text;
    unsigned column = f->column;
    if (!t->show_source || line_text == NULL || column == 0)
        return;
    size_t len = strcspn(line_text, "\r\n");
    ss_put_text(t->out, line_text, len);
    fputc('\n', t->out);
    put_padding(t, line_text, len, 0, column - 1);
    if (t->color)
        fputs(SS_CARET_COLOR, t->out);
    fputc('^', t->out);
    /* '~' under the bytes each fix-it replaces (after the caret). */
    size_t mark = column;
    for (size_t i = 0; i < f->fixit_count; i++) {
        const ss_fixit *x = &f->fixits[i];
        if (x->line != f->line || x->end_column <= x->column || x->end_column - 1 <= mark)
            continue;
        size_t from = x->column - 1 > mark ? x->column - 1 : mark;
        mark = put_padding(t, line_text, len, mark, from);
        for (; mark < x->end_column - 1; mark++)
            fputc('~', t->out);
    }
    if (t->color)
        fputs(SS_RESET, t->out);
    fputc('\n', t->out);
    size_t at = 0;
    int any = 0;
    for (size_t i = 0; i < f->fixit_count; i++) {
        const ss_fixit *x = &f->fixits[i];
        if (x->line != f->line || x->column == 0 || x->column - 1 < at)
            continue;
        put_padding(t, line_text, len, at, x->column - 1);
        if (t->color && !any)
            fputs(SS_CARET_COLOR, t->out);
        put_text(t->out, x->text);
        at = x->end_column > x->column ? x->end_column - 1 : x->column - 1;
        any = 1;
    }
    if (any) {
        if (t->color)
            fputs(SS_RESET, t->out);
        fputc('\n', t->out);
    }
}

/* What the time figures of 'f' mean, after "observed: N times": its rule's cost column
 * (rules.def) says whether they are GPU time other streams were held back, the estimated
 * saving of the fix, or host time blocked (host, host-explicit, and a rule with no figure of
 * its own). */
static void put_cost(const text_out *t, const ss_finding *f)
{
    char total[48], max[48];
    ss_format_duration(f->evidence.total_ns, total, sizeof total);
    ss_format_duration(f->evidence.max_ns, max, sizeof max);
    switch (ss_rules_get(f->rule)->cost) {
    case SS_COST_GPU_HELD:
        fprintf(t->out, ", held other streams back %s in total, %s at most", total, max);
        break;
    case SS_COST_SAVING:
        fprintf(t->out, ", estimated saving %s", total);
        break;
    case SS_COST_HOST:
    case SS_COST_HOST_EXPLICIT:
    case SS_COST_NONE:
        fprintf(t->out, ", blocked %s in total, %s at most", total, max);
        break;
    }
}

/* The "observed:" line of a run finding: how often, in which call, what it cost, and the
 * copy's bytes, direction, host memory kind and device. */
static void put_observed(const text_out *t, const ss_finding *f)
{
    const ss_evidence *ev = &f->evidence;
    fprintf(t->out, "  observed: %" PRIu64 " %s", ev->count, ev->count == 1 ? "time" : "times");
    if (ev->api) {
        fputs(" in ", t->out);
        put_text(t->out, ev->api);
    }
    put_cost(t, f);
    if (ev->bytes)
        fprintf(t->out, ", %" PRIu64 " bytes", ev->bytes);
    if (ev->direction) {
        fputc(' ', t->out);
        put_text(t->out, ev->direction);
    }
    if (ev->host_kind) {
        fputs(", ", t->out);
        put_text(t->out, ev->host_kind);
        fputs(" host memory", t->out);
    }
    if (ev->device >= 0)
        fprintf(t->out, ", device %d", ev->device);
    fputc('\n', t->out);
}

/* One indented "label: value" line, the value escaped; nothing when 'value' is NULL. */
static void put_labelled(const text_out *t, const char *label, const char *value)
{
    if (value == NULL)
        return;
    fputs("  ", t->out);
    fputs(label, t->out);
    fputs(": ", t->out);
    put_text(t->out, value);
    fputc('\n', t->out);
}

/* The run's measurements of 'f': the "observed:" line, what it waited for, where it went
 * through a library ("via") or, without a source line, its module ("site"), and the NVTX range
 * it was in; with the whole evidence also the streams and the detectors' other figures, one
 * line each. */
static void put_measurements(const text_out *t, const ss_finding *f)
{
    put_observed(t, f);
    if (f->evidence.waited_for) {
        fputs("  waited for: ", t->out);
        put_kernels_text(t, f->evidence.waited_for);
        fputc('\n', t->out);
    }
    if (t->evidence)
        put_labelled(t, "stream", f->evidence.stream);
    char where[4096];
    if (ss_finding_module_text(f, where, sizeof where)[0] != '\0')
        put_labelled(t, "site", where);
    if (ss_finding_via_text(f, where, sizeof where)[0] != '\0')
        put_labelled(t, "via", where);
    for (size_t i = 0; i < f->extra_count; i++) {
        if (!t->evidence && strcmp(f->extra[i].key, "nvtx") != 0)
            continue;
        fputs("  ", t->out);
        put_text(t->out, f->extra[i].key);
        fputs(": ", t->out);
        put_text(t->out, f->extra[i].value);
        fputc('\n', t->out);
    }
}

/* One "at" line: the frame's function (shortened unless --full-names; a Python function as
 * it is) or address, and its file and line, else its module. */
static void put_frame(const text_out *t, const ss_frame *fr)
{
    fputs("  at ", t->out);
    if (fr->function && (t->full_names || fr->is_python)) {
        put_text(t->out, fr->function);
    } else if (fr->function) {
        char *shown = ss_report_short_name(fr->function);
        put_text(t->out, shown);
        free(shown);
    } else {
        fprintf(t->out, "0x%" PRIx64, fr->pc);
    }
    if (fr->file || fr->module) {
        fputs(" (", t->out);
        put_text(t->out, fr->file ? fr->file : fr->module);
        if (fr->file && fr->line)
            fprintf(t->out, ":%u", fr->line);
        fputc(')', t->out);
    }
    fputc('\n', t->out);
}

/* The call stack of 'f', innermost first, one "at" line a frame: a lint finding's whole, a run
 * finding's first 'frames' (ss_text_options) leaving out the interpreter's own. */
static void put_frames(const text_out *t, const ss_finding *f)
{
    int runtime = f->origin == SS_ORIGIN_RUNTIME;
    unsigned shown = 0;
    for (size_t i = 0; i < f->frame_count; i++) {
        if (runtime && (shown >= t->frames || ss_report_frame_hidden(f, i)))
            continue;
        put_frame(t, &f->frames[i]);
        shown++;
    }
}

/* The run's measurements, one compact line each, then the call stack. */
static void put_evidence(const text_out *t, const ss_finding *f)
{
    if (f->origin == SS_ORIGIN_RUNTIME)
        put_measurements(t, f);
    put_frames(t, f);
}

static void put_finding(const text_out *t, const ss_finding *f)
{
    const ss_rule *rule = ss_rules_get(f->rule);
    char tag[128];
    snprintf(tag, sizeof tag, " [%s %s]", rule->id, rule->name);
    put_location(t, f->file, f->line, f->column);
    put_severity(t, f->severity);
    if (f->origin == SS_ORIGIN_RUNTIME && !t->full_names && f->message) {
        char *shown = ss_report_short_kernels(f->message);
        put_message(t, shown, tag);
        free(shown);
    } else {
        put_message(t, f->message, tag);
    }
    put_source(t, f);
    if (f->macro) {
        /* As clang notes a diagnostic inside a macro's argument. */
        char *note = ss_xasprintf("expanded from macro '%s'", f->macro);
        put_location(t, f->file, f->macro_line, f->macro_column);
        put_severity(t, SS_SEV_NOTE);
        put_message(t, note, NULL);
        free(note);
    }
    if (f->hint) {
        put_location(t, f->file, f->line, f->column);
        put_severity(t, SS_SEV_NOTE);
        put_message(t, f->hint, NULL);
    }
    put_evidence(t, f);
}

static void put_diag(const text_out *t, const ss_diag *d)
{
    if (d->file)
        put_location(t, d->file, d->line, d->column);
    else
        fputs("syncscope: ", t->out);
    put_severity(t, d->severity);
    put_message(t, d->message, NULL);
}

/* "3 warnings and 1 note generated." with clang's wording, counting findings. */
static void put_summary(const text_out *t, const ss_result *result)
{
    size_t counts[3] = {0, 0, 0};
    for (size_t i = 0; i < result->count; i++) {
        ss_severity s = result->findings[i].severity;
        counts[s <= SS_SEV_ERROR ? s : SS_SEV_WARNING]++;
    }
    static const struct {
        ss_severity severity;
        const char *one, *many;
    } order[] = {{SS_SEV_WARNING, "warning", "warnings"},
                 {SS_SEV_ERROR, "error", "errors"},
                 {SS_SEV_NOTE, "note", "notes"}};
    size_t parts = 0, written = 0;
    for (size_t i = 0; i < 3; i++)
        parts += counts[order[i].severity] != 0;
    for (size_t i = 0; i < 3; i++) {
        size_t n = counts[order[i].severity];
        if (n == 0)
            continue;
        if (written > 0)
            fputs(written + 1 == parts ? " and " : ", ", t->out);
        fprintf(t->out, "%zu %s", n, n == 1 ? order[i].one : order[i].many);
        written++;
    }
    fputs(" generated.\n", t->out);
}

/* Whether a diagnostic of 'result' is an error (a parse error, an unreadable file). */
static int has_errors(const ss_result *result)
{
    for (size_t i = 0; i < result->diag_count; i++) {
        if (result->diags[i].severity == SS_SEV_ERROR)
            return 1;
    }
    return 0;
}

int ss_report_write_text(FILE *out, const ss_result *result, const ss_text_options *options)
{
    text_out t = {out, 0, 1, 0, 0, 0};
    if (options) {
        t.color = options->color;
        t.show_source = options->show_source;
        t.frames = options->frames;
        t.evidence = options->evidence;
        t.full_names = options->full_names;
    }
    int summary = options == NULL || !options->no_summary;
    for (size_t i = 0; i < result->diag_count; i++)
        put_diag(&t, &result->diags[i]);
    for (size_t i = 0; i < result->count; i++)
        put_finding(&t, &result->findings[i]);
    if (result->count > 0 && summary)
        put_summary(&t, result);
    else if (summary && result->kind == SS_RESULT_LINT && result->files.counted &&
             result->files.analyzed > 0 && !has_errors(result))
        /* A lint run that finds nothing says so once, as clang-tidy and ruff do. */
        fprintf(t.out, "%zu file%s, 0 findings\n", result->files.analyzed,
                result->files.analyzed == 1 ? "" : "s");
    return ferror(out) ? -1 : 0;
}
