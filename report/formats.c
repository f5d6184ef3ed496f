/* formats.c: the output formats of formats.def: their names, the dispatch of every
 * subcommand's output to a writer, and the writers whose own signature differs. */
#include "log.h"
#include "report_int.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FOR(bit, on) ((on) ? (unsigned)(bit) : 0u)

static const ss_format_info format_table[] = {
#define SS_FORMAT(enum_name, name, extension, writer, lint, run, analyze, report, doc)             \
    {SS_FORMAT_##enum_name, name, extension,                                                       \
     FOR(SS_FORMAT_FOR_LINT, lint) | FOR(SS_FORMAT_FOR_RUN, run) |                                 \
         FOR(SS_FORMAT_FOR_ANALYZE, analyze) | FOR(SS_FORMAT_FOR_REPORT, report),                  \
     doc},
#include "formats.def"
};

typedef int (*format_writer)(FILE *out, const ss_result *result, const ss_format_options *options);

static const format_writer writers[] = {
#define SS_FORMAT(enum_name, name, extension, writer, lint, run, analyze, report, doc) writer,
#include "formats.def"
};

int ss_format_parse(const char *text, ss_format *out)
{
    for (size_t i = 0; text != NULL && i < SS_FORMAT_COUNT; i++) {
        if (strcasecmp(text, format_table[i].name) == 0) {
            *out = format_table[i].format;
            return 0;
        }
    }
    return -1;
}

const ss_format_info *ss_format_get(ss_format format)
{
    return (unsigned)format < SS_FORMAT_COUNT ? &format_table[format] : NULL;
}

char *ss_format_names(unsigned commands, const char *last)
{
    size_t count = 0;
    for (size_t i = 0; i < SS_FORMAT_COUNT; i++)
        count += (format_table[i].commands & commands) != 0;
    char *text = ss_xstrdup("");
    size_t done = 0;
    for (size_t i = 0; i < SS_FORMAT_COUNT; i++) {
        if ((format_table[i].commands & commands) == 0)
            continue;
        const char *sep = done == 0 ? "" : done + 1 == count ? last : ", ";
        char *longer = ss_xasprintf("%s%s%s", text, sep, format_table[i].name);
        free(text);
        text = longer;
        done++;
    }
    return text;
}

int ss_report_write_format(FILE *out, ss_format format, const ss_result *result,
                           const ss_format_options *options)
{
    if ((unsigned)format >= SS_FORMAT_COUNT) {
        errno = EINVAL;
        return -1;
    }
    return writers[format](out, result, options);
}

/* ---- the writers whose own signature differs from the table's ---- */

int ss_format_write_text(FILE *out, const ss_result *result, const ss_format_options *options)
{
    return ss_report_write_text(out, result, options != NULL ? options->text : NULL);
}

int ss_format_write_json(FILE *out, const ss_result *result, const ss_format_options *options)
{
    return ss_report_write_json(out, result);
}

int ss_format_write_sarif(FILE *out, const ss_result *result, const ss_format_options *options)
{
    return ss_report_write_sarif(out, result);
}

int ss_format_write_github(FILE *out, const ss_result *result, const ss_format_options *options)
{
    return ss_report_write_github(out, result);
}

int ss_format_write_gitlab(FILE *out, const ss_result *result, const ss_format_options *options)
{
    return ss_report_write_gitlab(out, result);
}

/* One result; with a trace, its timeline (`syncscope report` merges processes itself). */
int ss_format_write_html(FILE *out, const ss_result *result, const ss_format_options *options)
{
    const ss_result *results[] = {result};
    const struct ss_event_log *traces[] = {options != NULL ? options->trace : NULL};
    ss_html_options html;
    memset(&html, 0, sizeof html);
    if (traces[0] != NULL)
        html.traces = traces;
    return ss_report_write_html(out, results, 1, &html);
}

/* ---- the docs ---- */

int ss_report_write_format_table(FILE *out)
{
    static const struct {
        unsigned bit;
        const char *command;
    } commands[] = {{SS_FORMAT_FOR_LINT, "lint"},
                    {SS_FORMAT_FOR_RUN, "run"},
                    {SS_FORMAT_FOR_ANALYZE, "analyze"},
                    {SS_FORMAT_FOR_REPORT, "report"}};
    fputs("| `--format` | written by | file | what it is |\n", out);
    fputs("| --- | --- | --- | --- |\n", out);
    for (size_t i = 0; i < SS_FORMAT_COUNT; i++) {
        const ss_format_info *f = &format_table[i];
        fprintf(out, "| `%s` | ", f->name);
        int first = 1;
        for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
            if (f->commands & commands[k].bit) {
                fprintf(out, "%s`%s`", first ? "" : ", ", commands[k].command);
                first = 0;
            }
        }
        fprintf(out, " | `.%s` | ", f->extension);
        ss_markdown_put(out, f->doc, strlen(f->doc), SS_MARKDOWN_CELL);
        fputs(" |\n", out);
    }
    return ferror(out) ? -1 : 0;
}

/* The start of the line "<!-- NAME:WHICH -->" in 'text', or NULL; 'count' gets how many such
 * lines there are. */
static const char *find_marker(const char *text, const char *name, const char *which, size_t *count)
{
    char *marker = ss_xasprintf("<!-- %s:%s -->\n", name, which);
    size_t len = strlen(marker);
    const char *found = NULL;
    *count = 0;
    for (const char *p = text; (p = strstr(p, marker)) != NULL; p += len) {
        if (p == text || p[-1] == '\n') {
            if (found == NULL)
                found = p;
            (*count)++;
        }
    }
    free(marker);
    return found;
}

char *ss_doc_region_replace(const char *text, const char *name, const char *content)
{
    size_t begins, ends;
    const char *begin = find_marker(text, name, "begin", &begins);
    const char *end = find_marker(text, name, "end", &ends);
    if (begins != 1 || ends != 1 || end < begin)
        return NULL;
    const char *inside = strchr(begin, '\n') + 1;
    return ss_xasprintf("%.*s%s%s", (int)(inside - text), text, content, end);
}
