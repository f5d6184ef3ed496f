/* cmd_report.c: `syncscope report`: lint and run results (and their traces) into one HTML page. */
#include "cli.h"
#include "detect.h"
#include "files.h"
#include "log.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One input: a result, and the trace drawn for it (owned). */
typedef struct report_input {
    const char *path;
    const char *trace_path; /* NULL: look beside the JSON */
    int is_trace;           /* the input itself is a trace */
    ss_result result;
    ss_event_log log;
    int have_log;
} report_input;

/* Whether 'path' names a trace: a ".sstrace" file, or any file that starts with "SSTRACE ". */
static int is_trace_file(const char *path)
{
    size_t n = strlen(path);
    if (n > 8 && strcmp(path + n - 8, ".sstrace") == 0)
        return 1;
    char head[8];
    /* A FIFO or device is not opened here: the reader that follows says what it is. */
    return ss_read_prefix(path, head, sizeof head) == (ssize_t)sizeof head &&
           memcmp(head, "SSTRACE ", 8) == 0;
}

/* "X.sstrace" for "X.json" (or "X.sstrace" for "X"), when that file exists; else NULL.
 * Malloc'ed. */
static char *trace_beside(const char *json_path)
{
    size_t n = strlen(json_path);
    char *guess;
    if (n > 5 && strcmp(json_path + n - 5, ".json") == 0)
        guess = ss_xasprintf("%.*s.sstrace", (int)(n - 5), json_path);
    else
        guess = ss_xasprintf("%s.sstrace", json_path);
    struct stat st;
    if (stat(guess, &st) == 0 && S_ISREG(st.st_mode))
        return guess;
    free(guess);
    return NULL;
}

/* Reads an input's result and trace: a trace is analyzed as `syncscope analyze` would, with
 * the settings its run recorded ('verbose': said on stderr). Returns 0, or -1 with a message
 * printed. */
static int load_input(report_input *in, int use_traces, int verbose)
{
    char err[1024];
    if (in->is_trace) {
        if (ss_trace_read(in->path, &in->log, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            return -1;
        }
        in->have_log = 1;
        ss_result_init(&in->result, SS_RESULT_RUN);
        ss_cli_detect d;
        ss_cli_detect_init(&d, &in->log, NULL, NULL, in->path, verbose);
        int rc = ss_detect_run(&in->log, &d.options, &in->result);
        ss_cli_detect_free(&d);
        if (rc < 0) {
            ss_log_error("out of memory while analyzing '%s'", in->path);
            return -1;
        }
        ss_result_sort(&in->result);
        if (!use_traces) {
            ss_evlog_free(&in->log);
            in->have_log = 0;
        }
        return 0;
    }
    if (ss_report_read_json(in->path, &in->result, err, sizeof err) < 0) {
        ss_log_error("%s", err);
        return -1;
    }
    if (!use_traces || in->result.kind != SS_RESULT_RUN) {
        if (in->trace_path)
            ss_log_warning("'%s' is not a run result: ignoring its trace '%s'", in->path,
                           in->trace_path);
        return 0;
    }
    char *found = in->trace_path ? NULL : trace_beside(in->path);
    const char *trace = in->trace_path ? in->trace_path : found;
    if (trace && verbose)
        ss_log_note("%s: timeline from %s", in->path, trace);
    if (trace) {
        if (ss_trace_read(trace, &in->log, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            free(found);
            return -1;
        }
        in->have_log = 1;
    }
    free(found);
    return 0;
}

/* The page being written, for write_html. */
typedef struct page {
    const ss_result *const *results;
    size_t count;
    const ss_html_options *options;
} page;

static int write_html(FILE *out, void *context)
{
    const page *pg = context;
    return ss_report_write_html(out, pg->results, pg->count, pg->options);
}

/* The inputs of the command line, in order, each --trace given to the run JSON named just
 * before it. Returns the number, or -1 with a message printed. */
static ssize_t collect_inputs(const ss_cli_args *args, report_input *inputs)
{
    for (size_t i = 0; i < args->operand_count; i++) {
        inputs[i].path = args->operands[i];
        inputs[i].is_trace = is_trace_file(args->operands[i]);
    }
    for (size_t i = 0; i < args->given_count; i++) {
        const ss_cli_given *given = &args->given[i];
        if (given->opt != SS_OPT_REPORT_TRACE)
            continue;
        if (given->operands_before == 0 || inputs[given->operands_before - 1].is_trace) {
            ss_log_error("--trace follows the run JSON it belongs to");
            return -1;
        }
        inputs[given->operands_before - 1].trace_path = given->value;
    }
    if (args->operand_count == 0) {
        ss_log_error("report needs at least one lint or run result (see syncscope report --help)");
        return -1;
    }
    return (ssize_t)args->operand_count;
}

/* --root: the folder named (DIR, or TO of FROM=TO) must be one. Returns 0, or -1 with a
 * message printed. */
static int check_root(const ss_cli_args *args, ss_cli_root *root, const char **folder)
{
    const char *value = ss_cli_value(args, SS_OPT_REPORT_ROOT);
    *folder = NULL;
    if (value == NULL)
        return 0;
    if (ss_cli_root_parse(value, root) != 0)
        return -1;
    const char *eq = strchr(value, '=');
    *folder = eq ? eq + 1 : value;
    struct stat st;
    if (stat(*folder, &st) != 0) {
        ss_log_error("--root '%s': %s", *folder, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        ss_log_error("--root '%s': not a folder", *folder);
        return -1;
    }
    return 0;
}

/* The page of 'n' loaded inputs, written where -o says. Returns 0, or -1 with a message
 * printed. */
static int write_page(const ss_cli_args *args, report_input *inputs, size_t n,
                      ss_html_options *options)
{
    const ss_result **results = ss_xcalloc(n, sizeof *results);
    const ss_event_log **traces = ss_xcalloc(n, sizeof *traces);
    const char **names = ss_xcalloc(n, sizeof *names);
    for (size_t i = 0; i < n; i++) {
        results[i] = &inputs[i].result;
        traces[i] = inputs[i].have_log ? &inputs[i].log : NULL;
        names[i] = inputs[i].path;
    }
    options->inputs = names;
    options->input_count = n;
    options->traces = traces;
    page pg = {results, n, options};
    const char *output = ss_cli_value(args, SS_OPT_REPORT_OUTPUT);
    /* Standard output for "-", else atomically: a temporary file beside it, then rename. */
    int rc = ss_write_output(output ? output : "report.html", write_html, &pg);
    free(results);
    free(traces);
    free(names);
    return rc == 0 ? 0 : -1;
}

/* Loads the inputs, maps their paths (--root FROM=TO) and writes the page. Returns the exit
 * status. */
static int report(const ss_cli_args *args, report_input *inputs, size_t n)
{
    ss_html_options options;
    memset(&options, 0, sizeof options);
    options.no_sources = ss_cli_has(args, SS_OPT_NO_SOURCES);
    options.title = ss_cli_value(args, SS_OPT_TITLE);
    ss_cli_root root = {NULL, NULL};
    int status = SS_EXIT_ERROR;
    if (check_root(args, &root, &options.root) != 0) {
        ss_cli_root_free(&root);
        return status;
    }
    int use_traces = !ss_cli_has(args, SS_OPT_NO_TRACE);
    int verbose = ss_cli_has(args, SS_OPT_REPORT_VERBOSE);
    size_t loaded = 0;
    int failed = 0;
    for (; loaded < n && !failed; loaded++) {
        failed = load_input(&inputs[loaded], use_traces, verbose) != 0;
        if (!failed && root.from != NULL)
            ss_cli_root_apply(&root, &inputs[loaded].result);
    }
    if (!failed && write_page(args, inputs, n, &options) == 0)
        status = SS_EXIT_CLEAN;
    /* A failed input may hold a partial result. */
    for (size_t i = 0; i < loaded; i++) {
        ss_result_free(&inputs[i].result);
        if (inputs[i].have_log)
            ss_evlog_free(&inputs[i].log);
    }
    ss_cli_root_free(&root);
    return status;
}

int ss_cli_report(int argc, char **argv)
{
    ss_cli_args args;
    int rc = ss_cli_parse(SS_CMD_REPORT, argc, argv, 0, &args);
    int status = rc > 0 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    report_input *inputs = ss_xcalloc((size_t)argc + 1, sizeof *inputs);
    if (rc == 0) {
        ssize_t n = collect_inputs(&args, inputs);
        if (n > 0)
            status = report(&args, inputs, (size_t)n);
    }
    free(inputs);
    ss_cli_args_free(&args);
    return status;
}
