/* report.c: `syncscope report`: lint and run results (and their traces) into one HTML page. */
#include "report.h"
#include "cli.h"
#include "detect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fputs("usage: syncscope report [options] INPUT... [-o report.html]\n"
          "\n"
          "Writes one self-contained HTML page (no network access, works opened from disk)\n"
          "for lint and run results. Lint findings and run findings on the same call site\n"
          "(same rule, file and line) are shown once, as predicted and observed.\n"
          "\n"
          "inputs (any number, any order):\n"
          "  RESULT.json           a result of `syncscope lint --format json` or a run's JSON\n"
          "                        (one per process or rank)\n"
          "  TRACE.sstrace         a trace of `syncscope run --trace`: analyzed as\n"
          "                        `syncscope analyze` would, and drawn as a timeline\n"
          "\n"
          "options:\n"
          "  -o, --output FILE     the page to write (default report.html; - for standard output)\n"
          "  --trace FILE          the trace of the run JSON given just before, for the timeline\n"
          "                        (default: X.sstrace beside X.json, when it exists)\n"
          "  --no-trace            draw no timeline\n"
          "  --root DIR            the folder paths are shown relative to and joined on; source\n"
          "                        excerpts are read only from regular files inside it\n"
          "                        (default: the current directory)\n"
          "  --no-sources          embed no source excerpts\n"
          "  --title TEXT          the page title (default: syncscope report)\n"
          "  --format html         the only format of this command\n"
          "\n"
          "exit status: 0 written, 2 usage or input error\n",
          out);
}

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
        guess = ss_asprintf("%.*s.sstrace", (int)(n - 5), json_path);
    else
        guess = ss_asprintf("%s.sstrace", json_path);
    struct stat st;
    if (stat(guess, &st) == 0 && S_ISREG(st.st_mode))
        return guess;
    free(guess);
    return NULL;
}

/* Reads every input's result and trace. Returns 0, or -1 with a message printed. */
static int load_input(report_input *in, int use_traces)
{
    char err[1024];
    if (in->is_trace) {
        if (ss_trace_read(in->path, &in->log, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            return -1;
        }
        in->have_log = 1;
        ss_result_init(&in->result, SS_RESULT_RUN);
        ss_detect_options options;
        ss_detect_options_default(&options);
        if (ss_detect_run(&in->log, &options, &in->result) < 0) {
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

int ss_cli_report(int argc, char **argv)
{
    const char *output = "report.html";
    ss_html_options options;
    memset(&options, 0, sizeof options);
    int use_traces = 1;
    report_input *inputs = calloc((size_t)argc, sizeof *inputs);
    if (inputs == NULL) {
        ss_log_error("out of memory");
        return SS_EXIT_ERROR;
    }
    size_t n = 0;
    int status = SS_EXIT_ERROR;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            free(inputs);
            return SS_EXIT_CLEAN;
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            output = value;
        } else if (strcmp(arg, "--format") == 0) {
            if (value != NULL && strcmp(value, "html") != 0) {
                ss_log_error("report writes html only (got '%s'); lint and run write the "
                             "other formats",
                             value);
                goto out;
            }
        } else if (strcmp(arg, "--trace") == 0) {
            if (n == 0 || inputs[n - 1].is_trace) {
                ss_log_error("--trace follows the run JSON it belongs to");
                goto out;
            }
            inputs[n - 1].trace_path = value;
        } else if (strcmp(arg, "--no-trace") == 0) {
            use_traces = 0;
            takes_value = 0;
        } else if (strcmp(arg, "--no-sources") == 0) {
            options.no_sources = 1;
            takes_value = 0;
        } else if (strcmp(arg, "--root") == 0) {
            options.root = value;
        } else if (strcmp(arg, "--title") == 0) {
            options.title = value;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            ss_log_error("report: unknown option '%s' (syncscope report --help lists them)", arg);
            goto out;
        } else {
            takes_value = 0;
            inputs[n].path = arg;
            inputs[n].is_trace = is_trace_file(arg);
            n++;
        }
        if (takes_value) {
            if (value == NULL) {
                ss_log_error("%s needs a value", arg);
                goto out;
            }
            i++;
        }
    }
    struct stat root_st;
    if (options.root && stat(options.root, &root_st) != 0) {
        ss_log_error("--root '%s': %s", options.root, strerror(errno));
        goto out;
    }
    if (options.root && !S_ISDIR(root_st.st_mode)) {
        ss_log_error("--root '%s': not a folder", options.root);
        goto out;
    }
    if (n == 0) {
        ss_log_error("report needs at least one lint or run result");
        usage(stderr);
        goto out;
    }

    const ss_result **results = calloc(n, sizeof *results);
    const ss_event_log **traces = calloc(n, sizeof *traces);
    const char **names = calloc(n, sizeof *names);
    if (results == NULL || traces == NULL || names == NULL) {
        ss_log_error("out of memory");
        free(results);
        free(traces);
        free(names);
        goto out;
    }
    size_t loaded = 0;
    for (; loaded < n; loaded++) {
        if (load_input(&inputs[loaded], use_traces) < 0)
            break;
        results[loaded] = &inputs[loaded].result;
        traces[loaded] = inputs[loaded].have_log ? &inputs[loaded].log : NULL;
        names[loaded] = inputs[loaded].path;
    }
    if (loaded == n) {
        options.inputs = names;
        options.input_count = n;
        options.traces = traces;
        page pg = {results, n, &options};
        /* Standard output for "-", else atomically: a temporary file beside it, then rename. */
        if (ss_write_output(output, write_html, &pg) == 0)
            status = SS_EXIT_CLEAN;
    } else {
        loaded++; /* the failed input may hold a partial result */
    }
    for (size_t i = 0; i < loaded && i < n; i++) {
        ss_result_free(&inputs[i].result);
        if (inputs[i].have_log)
            ss_evlog_free(&inputs[i].log);
    }
    free(results);
    free(traces);
    free(names);
out:
    free(inputs);
    return status;
}
