/* text.c: the clang-style text writer (file:line:col: warning: message [ID name]). */
#include "report_int.h"

#include <inttypes.h>
#include <string.h>

/* The escape sequences clang uses (bold, and bold colours per severity). */
#define SS_BOLD "\033[1m"
#define SS_RESET "\033[0m"
#define SS_NOTE_COLOR "\033[0;1;30m"
#define SS_WARNING_COLOR "\033[0;1;35m"
#define SS_ERROR_COLOR "\033[0;1;31m"
#define SS_CARET_COLOR "\033[0;1;32m"

typedef struct text_out {
    FILE *out;
    int color;
    int show_source;
} text_out;

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
    fputs(file, t->out);
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
    fputs(message ? message : "", t->out);
    if (suffix)
        fputs(suffix, t->out);
    if (t->color)
        fputs(SS_RESET, t->out);
    fputc('\n', t->out);
}

/* The source line and a caret under byte column 'column'. Tabs before the column are
 * repeated in the caret line so that it lines up however the terminal expands them;
 * UTF-8 continuation bytes take no cell. */
static void put_source(const text_out *t, const char *line_text, unsigned column)
{
    if (!t->show_source || line_text == NULL || column == 0)
        return;
    size_t len = strcspn(line_text, "\r\n");
    fwrite(line_text, 1, len, t->out);
    fputc('\n', t->out);
    for (size_t i = 0; i + 1 < column; i++) {
        if (i < len && line_text[i] == '\t')
            fputc('\t', t->out);
        else if (i >= len || ((unsigned char)line_text[i] & 0xC0) != 0x80)
            fputc(' ', t->out);
    }
    if (t->color)
        fputs(SS_CARET_COLOR, t->out);
    fputc('^', t->out);
    if (t->color)
        fputs(SS_RESET, t->out);
    fputc('\n', t->out);
}

/* The run's measurements, one compact line each, then the call stack. */
static void put_evidence(const text_out *t, const ss_finding *f)
{
    const ss_evidence *ev = &f->evidence;
    if (f->origin == SS_ORIGIN_RUNTIME) {
        char total[48], max[48];
        ss_report_format_ms(total, sizeof total, ev->total_ns);
        ss_report_format_ms(max, sizeof max, ev->max_ns);
        fprintf(t->out, "  observed: %" PRIu64 " %s", ev->count, ev->count == 1 ? "time" : "times");
        if (ev->api)
            fprintf(t->out, " in %s", ev->api);
        /* What the cost figure means depends on the rule: GPU time other streams were held
         * back (legacy-stream serialization), the estimated saving of the fix (what-if
         * rules), or host time blocked (everything else). */
        switch (f->rule) {
        case SS_RULE_DEFAULT_STREAM_LAUNCH:
        case SS_RULE_DEFAULT_STREAM_ASYNC_CALL:
        case SS_RULE_BLOCKING_STREAM_CREATE:
            fprintf(t->out, ", held other streams back %s in total, %s at most", total, max);
            break;
        case SS_RULE_LAUNCH_BOUND:
        case SS_RULE_SERIALIZED_PIPELINE:
            fprintf(t->out, ", estimated saving %s", total);
            break;
        default:
            fprintf(t->out, ", blocked %s in total, %s at most", total, max);
            break;
        }
        if (ev->bytes)
            fprintf(t->out, ", %" PRIu64 " bytes", ev->bytes);
        if (ev->direction)
            fprintf(t->out, " %s", ev->direction);
        if (ev->host_kind)
            fprintf(t->out, ", %s host memory", ev->host_kind);
        if (ev->device >= 0)
            fprintf(t->out, ", device %d", ev->device);
        fputc('\n', t->out);
        if (ev->waited_for)
            fprintf(t->out, "  waited for: %s\n", ev->waited_for);
        if (ev->stream)
            fprintf(t->out, "  stream: %s\n", ev->stream);
        for (size_t i = 0; i < f->extra_count; i++)
            fprintf(t->out, "  %s: %s\n", f->extra[i].key ? f->extra[i].key : "",
                    f->extra[i].value ? f->extra[i].value : "");
    }
    for (size_t i = 0; i < f->frame_count; i++) {
        const ss_frame *fr = &f->frames[i];
        fputs("  at ", t->out);
        if (fr->function)
            fputs(fr->function, t->out);
        else
            fprintf(t->out, "0x%" PRIx64, fr->pc);
        if (fr->file && fr->line)
            fprintf(t->out, " (%s:%u)", fr->file, fr->line);
        else if (fr->file)
            fprintf(t->out, " (%s)", fr->file);
        else if (fr->module)
            fprintf(t->out, " (%s)", fr->module);
        fputc('\n', t->out);
    }
}

static void put_finding(const text_out *t, const ss_finding *f)
{
    const ss_rule *rule = ss_rules_get(f->rule);
    char tag[128];
    snprintf(tag, sizeof tag, " [%s %s]", rule->id, rule->name);
    put_location(t, f->file, f->line, f->column);
    put_severity(t, f->severity);
    put_message(t, f->message, tag);
    put_source(t, f->line_text, f->column);
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

int ss_report_write_text(FILE *out, const ss_result *result, const ss_text_options *options)
{
    text_out t = {out, options ? options->color : 0, options ? options->show_source : 1};
    for (size_t i = 0; i < result->diag_count; i++)
        put_diag(&t, &result->diags[i]);
    for (size_t i = 0; i < result->count; i++)
        put_finding(&t, &result->findings[i]);
    if (result->count > 0)
        put_summary(&t, result);
    return ferror(out) ? -1 : 0;
}
