/* analyze.c: `syncscope analyze`: the runtime detectors over a recorded trace file. */
#include "cli.h"
#include "detect.h"
#include "files.h"
#include "log.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The gate and baselines of the command line (docs/run.md, "Gates"). */
typedef struct gate_options {
    ss_gate gate;
    int judged;         /* --fail-over or --error-exitcode: the verdict is said on stderr */
    int error_exitcode; /* -1: 1 */
    const char *baseline, *write_baseline;
} gate_options;

/* Reads the gate options of 'args'; their values were checked by the parser. */
static void gate_from(const ss_cli_args *args, gate_options *g)
{
    ss_gate_init(&g->gate);
    const char *fail_on = ss_cli_value(args, SS_OPT_FAIL_ON);
    if (fail_on != NULL)
        ss_gate_parse_fail_on(fail_on, &g->gate);
    const char *budget = ss_cli_value(args, SS_OPT_FAIL_OVER);
    if (budget != NULL)
        ss_gate_parse_budget(budget, &g->gate);
    const ss_cli_given *code = ss_cli_last(args, SS_OPT_ERROR_EXITCODE);
    g->error_exitcode = code ? (int)code->number : -1;
    g->judged = budget != NULL || code != NULL;
    g->baseline = ss_cli_value(args, SS_OPT_BASELINE);
    g->write_baseline = ss_cli_value(args, SS_OPT_WRITE_BASELINE);
}

/* Writes the findings of 'result' as a baseline (--write-baseline), then leaves out those of
 * 'baseline' (NULL: none). Returns 0, or -1 with a message printed. */
static int apply_baselines(const gate_options *g, const ss_baseline *baseline, ss_result *result)
{
    char err[1024];
    if (g->write_baseline != NULL &&
        ss_baseline_write(g->write_baseline, result, err, sizeof err) < 0) {
        ss_log_error("%s", err);
        return -1;
    }
    if (baseline != NULL)
        ss_baseline_filter(baseline, result);
    return 0;
}

/* The exit status the gate gives 'result'; the verdict is said unless 'quiet'. A run that
 * records a baseline (--write-baseline) passes: its findings are what it records. */
static int gate_status(const gate_options *g, const ss_result *result, int quiet)
{
    if (g->write_baseline != NULL)
        return SS_EXIT_CLEAN;
    char why[512];
    int failed = ss_gate_check(&g->gate, result, why, sizeof why);
    if (failed < 0) {
        ss_log_error("--fail-over: %s", why);
        return SS_EXIT_ERROR;
    }
    if (failed && g->judged && !quiet)
        ss_log_note("gate: failed: %s", why);
    if (!failed)
        return SS_EXIT_CLEAN;
    return g->error_exitcode >= 0 ? g->error_exitcode : SS_EXIT_FINDINGS;
}

/* A Chrome trace to write: the log and its findings. */
typedef struct chrome_output {
    const ss_event_log *log;
    const ss_result *result;
} chrome_output;

static int write_chrome(FILE *out, void *context)
{
    const chrome_output *chrome = context;
    return ss_chrome_trace_write_runs(out, &chrome->log, &chrome->result, 1);
}

/* Writes the Chrome trace of 'log', with an instant per finding of 'result', to 'path'
 * atomically. Returns 0, or -1 with a message. */
static int write_chrome_trace(const char *path, const ss_event_log *log, const ss_result *result)
{
    chrome_output chrome = {log, result};
    if (ss_write_atomic(path, write_chrome, &chrome) != SS_WRITE_OK) {
        ss_log_error("cannot write '%s': %s", path, ss_file_error());
        return -1;
    }
    return 0;
}

/* One analysis: the command line, the trace and what is made of it. */
typedef struct analysis {
    const ss_cli_args *args;
    const char *trace;
    ss_cli_root root; /* to NULL: no --root */
    gate_options gate;
    ss_baseline baseline;
    int have_baseline;
    ss_event_log log;
    int have_log;
    ss_result result;
} analysis;

/* Reads the baseline, the --root and the trace. Returns 0, or -1 with a message printed. */
static int load(analysis *a)
{
    char err[1024];
    const char *root = ss_cli_value(a->args, SS_OPT_ROOT);
    if (root != NULL && ss_cli_root_parse(root, &a->root) != 0)
        return -1;
    if (a->gate.baseline != NULL) {
        if (ss_baseline_load(a->gate.baseline, &a->baseline, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            return -1;
        }
        a->have_baseline = 1;
    }
    if (ss_trace_read(a->trace, &a->log, err, sizeof err) < 0) {
        ss_log_error("%s", err);
        return -1;
    }
    a->have_log = 1;
    return 0;
}

/* Runs the detectors with the trace's settings and the command line's, then maps the paths
 * (--root). Returns 0, or -1 with a message printed. */
static int detect(analysis *a)
{
    ss_cli_detect d;
    ss_cli_detect_init(&d, &a->log, a->args, a->root.to ? &a->root : NULL, a->trace,
                       ss_cli_has(a->args, SS_OPT_TRACE_VERBOSE));
    int rc = ss_detect_run(&a->log, &d.options, &a->result);
    ss_cli_detect_free(&d);
    if (rc < 0) {
        ss_log_error("out of memory while analyzing '%s'", a->trace);
        return -1;
    }
    if (a->root.to != NULL) {
        ss_cli_root_apply(&a->root, &a->result);
        if (a->result.root == NULL)
            a->result.root = ss_xstrdup(a->root.to);
    }
    return 0;
}

/* Writes the report (--format, -o, --color) and the Chrome trace. Returns 0, or -1 with a
 * message printed. */
static int write_outputs(analysis *a)
{
    const char *chrome = ss_cli_value(a->args, SS_OPT_CHROME_TRACE);
    if (chrome != NULL && write_chrome_trace(chrome, &a->log, &a->result) < 0)
        return -1;
    ss_format format = SS_FORMAT_TEXT;
    const char *name = ss_cli_value(a->args, SS_OPT_FORMAT);
    if (name != NULL)
        ss_format_parse(name, &format);
    const char *output = ss_cli_value(a->args, SS_OPT_OUTPUT);
    int to_stdout = output == NULL || strcmp(output, "-") == 0;
    ss_text_options text = {
        .color = 0, .show_source = 1, .no_summary = ss_cli_has(a->args, SS_OPT_QUIET)};
    text.color = ss_cli_color(a->args, to_stdout && isatty(STDOUT_FILENO));
    const char *frames = ss_cli_value(a->args, SS_OPT_FRAMES);
    if (frames != NULL) {
        unsigned long long n = strtoull(frames, NULL, 10);
        text.frames = n < SS_TEXT_ALL_FRAMES ? (unsigned)n : SS_TEXT_ALL_FRAMES;
        text.evidence = 1;
    } else if (ss_cli_has(a->args, SS_OPT_TRACE_VERBOSE)) {
        text.frames = SS_TEXT_ALL_FRAMES;
        text.evidence = 1;
    }
    text.full_names = ss_cli_has(a->args, SS_OPT_FULL_NAMES);
    return ss_report_write(output, format, &a->result, &text) < 0 ? -1 : 0;
}

/* Analyzes the trace of 'a'. Returns the exit status. */
static int analyze(analysis *a)
{
    gate_from(a->args, &a->gate);
    ss_result_init(&a->result, SS_RESULT_RUN);
    int status = SS_EXIT_ERROR;
    if (load(a) == 0 && detect(a) == 0 &&
        apply_baselines(&a->gate, a->have_baseline ? &a->baseline : NULL, &a->result) == 0 &&
        write_outputs(a) == 0)
        status = gate_status(&a->gate, &a->result, ss_cli_has(a->args, SS_OPT_QUIET));
    if (a->have_baseline)
        ss_baseline_free(&a->baseline);
    if (a->have_log)
        ss_evlog_free(&a->log);
    ss_result_free(&a->result);
    ss_cli_root_free(&a->root);
    return status;
}

int ss_cli_analyze(int argc, char **argv)
{
    ss_cli_args args;
    int rc = ss_cli_parse(SS_CMD_ANALYZE, argc, argv, 0, &args);
    int status = rc > 0 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    if (rc == 0 && args.operand_count == 0) {
        ss_log_error("analyze needs a trace file (see syncscope analyze --help)");
    } else if (rc == 0 && args.operand_count > 1) {
        ss_log_error("analyze takes one trace file (got '%s' and '%s')", args.operands[0],
                     args.operands[1]);
    } else if (rc == 0) {
        analysis a;
        memset(&a, 0, sizeof a);
        a.args = &args;
        a.trace = args.operands[0];
        status = analyze(&a);
    }
    ss_cli_args_free(&args);
    return status;
}
