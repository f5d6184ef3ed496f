/* write.c: writing a result in a chosen format to a path or standard output. */
#include "files.h"
#include "report_int.h"

typedef struct result_output {
    ss_format format;
    const ss_result *result;
    const ss_text_options *options;
} result_output;

/* Writes through the writer of formats.def; an HTML page gets no timeline (`syncscope report`
 * adds traces and merges processes). */
static int write_result(FILE *out, void *context)
{
    const result_output *r = context;
    ss_format_options options = {r->options, NULL};
    return ss_report_write_format(out, r->format, r->result, &options);
}

int ss_report_write(const char *path, ss_format format, const ss_result *result,
                    const ss_text_options *options)
{
    result_output r = {format, result, options};
    return ss_write_output(path, write_result, &r);
}
