/* github.c: GitHub Actions workflow commands (::warning file=...::message annotations). */
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

/* Writes 'text' escaped for a workflow command: '%', CR and LF always, ':' and ',' too in a
 * property value, as the runner reads them back; every other control character, byte that is
 * not UTF-8 and bidirectional control as in the text format (ss_text_char), since the
 * runner passes those through to the log and the annotation. */
static void put_escaped(FILE *out, const char *text, int property)
{
    const char *p = text ? text : "";
    size_t left = strlen(p);
    while (left > 0) {
        size_t n = 1;
        switch (*p) {
        case '%':
            fputs("%25", out);
            break;
        case '\r':
            fputs("%0D", out);
            break;
        case '\n':
            fputs("%0A", out);
            break;
        case ':':
            fputs(property ? "%3A" : ":", out);
            break;
        case ',':
            fputs(property ? "%2C" : ",", out);
            break;
        default: {
            char escape[SS_TEXT_ESCAPE_SIZE];
            n = ss_text_char(p, left, escape);
            if (escape[0])
                fputs(escape, out);
            else
                fwrite(p, 1, n, out);
        }
        }
        p += n;
        left -= n;
    }
}

static const char *command_name(ss_severity severity)
{
    switch (severity) {
    case SS_SEV_NOTE:
        return "notice";
    case SS_SEV_ERROR:
        return "error";
    default:
        return "warning";
    }
}

/* "::warning file=F,line=L,col=C,title=T::" with each property only when known. */
static void put_command(FILE *out, const char *root_dir, ss_severity severity, const char *file,
                        unsigned line, unsigned column, const char *title)
{
    fprintf(out, "::%s ", command_name(severity));
    if (file) {
        int inside = 0;
        char *rel = ss_report_relative_path(root_dir, file, &inside);
        fputs("file=", out);
        put_escaped(out, rel, 1);
        free(rel);
        if (line)
            fprintf(out, ",line=%u", line);
        if (line && column)
            fprintf(out, ",col=%u", column);
        fputc(',', out);
    }
    fputs("title=", out);
    put_escaped(out, title, 1);
    fputs("::", out);
}

int ss_report_write_github(FILE *out, const ss_result *result)
{
    char *root_dir = ss_report_root_dir(result);
    for (size_t i = 0; i < result->diag_count; i++) {
        const ss_diag *d = &result->diags[i];
        put_command(out, root_dir, d->severity, d->file, d->line, d->column, "syncscope");
        put_escaped(out, d->message, 0);
        fputc('\n', out);
    }
    for (size_t i = 0; i < result->count; i++) {
        const ss_finding *f = &result->findings[i];
        const ss_rule *rule = ss_rules_get(f->rule);
        char title[128];
        snprintf(title, sizeof title, "%s %s", rule->id, rule->name);
        put_command(out, root_dir, f->severity, f->file, f->line, f->column, title);
        put_escaped(out, f->message, 0);
        if (f->hint) {
            fputs("%0A", out);
            put_escaped(out, f->hint, 0);
        }
        fputc('\n', out);
    }
    free(root_dir);
    return ferror(out) ? -1 : 0;
}
