/* finish_outputs.c: the finisher's outputs (the trace, the Chrome trace, the result file in
 * its format, the SARIF file), each written atomically, the baselines applied and the gate
 * judged (docs/run.md, "Gates"). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"
#include "files.h"
#include "finish_int.h"
#include "interpose.h"
#include "log.h"
#include "path.h"

/* The expanded output path for 'pattern' (relative names are taken from the folder the
 * program started in). Returns 0, or -1 with a message printed. */
int fin_output_path(const ss_capture_view *v, const char *pattern, const char *host, char *out,
                    size_t size)
{
    char name[PATH_MAX];
    if (ss_interpose_expand(pattern, v->pid, host, ss_interpose_rank(), name, sizeof name) < 0) {
        ss_log_error("output name '%s' is too long", pattern);
        return -1;
    }
    int n;
    if (name[0] == '/' || v->config->cwd[0] == '\0' || strcmp(name, "-") == 0)
        n = snprintf(out, size, "%s", name);
    else
        n = snprintf(out, size, "%s/%s", v->config->cwd, name);
    if (n <= 0 || (size_t)n >= size) {
        ss_log_error("output name '%s' is too long", name);
        return -1;
    }
    return 0;
}

/* One output of the run: the trace, the Chrome trace, or the result in a format (an HTML page
 * also draws the log as its timeline). */
typedef enum output_kind { OUTPUT_TRACE, OUTPUT_CHROME_TRACE, OUTPUT_RESULT } output_kind;

typedef struct output {
    output_kind kind;
    ss_format format; /* OUTPUT_RESULT */
    const ss_result *result;
    const ss_event_log *log;
    const ss_interpose_config *config; /* the text format's settings */
    int color;                         /* text in colour (write_to decides) */
} output;

static int write_output(FILE *out, void *context)
{
    const output *o = context;
    if (o->kind == OUTPUT_TRACE)
        return ss_trace_write(out, o->log);
    if (o->kind == OUTPUT_CHROME_TRACE)
        return ss_chrome_trace_write_runs(out, &o->log, &o->result, 1);
    /* Colour as --color says (color_output), with source lines, as much of each finding as
     * --frames and --full-names say; an HTML page draws the run's timeline. */
    const ss_interpose_config *cfg = o->config;
    ss_text_options text = {.color = o->color,
                            .show_source = 1,
                            .frames = cfg->frames,
                            .evidence = cfg->frames > 0,
                            .full_names = cfg->full_names};
    ss_format_options options = {&text, o->log};
    return ss_report_write_format(out, o->format, o->result, &options);
}

/* Writes 'o' to 'path' atomically (ss_write_atomic), or to stderr for "-": stdout is the
 * program's. Returns 0, or -1 with a message printed. */
static int write_to(const char *path, output *o)
{
    /* SYNCSCOPE_COLOR (run --color): always colours any text; auto only stderr when it is a
     * terminal and NO_COLOR is unset or empty; never none. */
    const char *when = o->config->color;
    const char *no_color = getenv("NO_COLOR");
    int to_stderr = strcmp(path, "-") == 0;
    o->color = strcmp(when, "always") == 0 ||
               (strcmp(when, "never") != 0 && to_stderr && isatty(STDERR_FILENO) &&
                (no_color == NULL || no_color[0] == '\0'));
    if (to_stderr)
        return write_output(stderr, o) == 0 && fflush(stderr) == 0 ? 0 : -1;
    if (ss_write_atomic(path, write_output, o) != SS_WRITE_OK) {
        ss_log_error("cannot write '%s': %s", path, ss_file_error());
        return -1;
    }
    return 0;
}

/* --baseline and --write-baseline (docs/run.md, "Gates"), as lint does them: the baseline is
 * read first (so that one file may be both), the findings are recorded, then those the baseline
 * holds are left out of the outputs. Returns 0, or -1 with a message printed. */
static int apply_baselines(const ss_capture_view *v, const char *host, ss_result *result)
{
    const ss_interpose_config *cfg = v->config;
    char path[PATH_MAX], err[1024];
    int rc = 0, loaded = 0;
    ss_baseline baseline;
    if (cfg->baseline[0] != '\0') {
        char *file = ss_path_normalize(cfg->cwd[0] != '\0' ? cfg->cwd : NULL, cfg->baseline);
        loaded = ss_baseline_load(file, &baseline, err, sizeof err) == 0;
        free(file);
        if (!loaded) {
            ss_log_error("%s; no finding is left out", err);
            rc = -1;
        }
    }
    if (cfg->write_baseline[0] != '\0') {
        if (fin_output_path(v, cfg->write_baseline, host, path, sizeof path) < 0) {
            rc = -1;
        } else if (ss_baseline_write(path, result, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            rc = -1;
        }
    }
    if (loaded) {
        ss_baseline_filter(&baseline, result);
        ss_baseline_free(&baseline);
    }
    return rc;
}

/* The gate (docs/run.md, "Gates"): its verdict on stderr and, for `syncscope run`, which turns
 * it into the exit status, in the gate file. A gate that cannot be judged fails. */
static void judge_gate(const ss_capture_view *v, const ss_result *result)
{
    const ss_interpose_config *cfg = v->config;
    ss_gate gate;
    ss_gate_init(&gate);
    char why[512];
    int failed;
    if ((cfg->fail_on[0] != '\0' && ss_gate_parse_fail_on(cfg->fail_on, &gate) < 0) ||
        (cfg->fail_over[0] != '\0' && ss_gate_parse_budget(cfg->fail_over, &gate) < 0)) {
        snprintf(why, sizeof why, "%s='%s' is not a budget such as 2%% or 50ms", SS_ENV_FAIL_OVER,
                 cfg->fail_over);
        failed = -1;
    } else {
        failed = ss_gate_check(&gate, result, why, sizeof why);
    }
    if (failed < 0)
        ss_log_error("gate: %s", why);
    else if (!cfg->quiet)
        ss_log_note("gate: %s: %s", failed ? "failed" : "passed", why);
    if (cfg->gate_file[0] == '\0')
        ss_log_warning("%s is applied by 'syncscope run' alone: the exit status stays the "
                       "program's own",
                       SS_ENV_ERROR_EXITCODE);
    else if (ss_gate_record(cfg->gate_file, v->pid, failed != 0, why) < 0)
        ss_log_error("cannot write the gate's verdict to '%s': %s", cfg->gate_file,
                     strerror(errno));
} /* Writes 'o' to the file that setting 'pattern' names, when it names one. Returns 0, or -1
   * with a message printed. */
static int write_setting(const ss_capture_view *v, const char *host, const char *pattern, output *o)
{
    char path[PATH_MAX];
    if (pattern[0] == '\0')
        return 0;
    return fin_output_path(v, pattern, host, path, sizeof path) < 0 || write_to(path, o) < 0 ? -1
                                                                                             : 0;
}

/* Writes 'o', the result, to the file SYNCSCOPE_OUTPUT names, and that file's path into
 * 'written'. Returns 0, or -1 with a message printed ('written' left as it was). */
static int write_result_file(const ss_capture_view *v, const char *host, output *o, char *written,
                             size_t size)
{
    char path[PATH_MAX];
    if (fin_output_path(v, v->config->output, host, path, sizeof path) < 0 || write_to(path, o) < 0)
        return -1;
    snprintf(written, size, "%s", path);
    return 0;
}

/* Writes the outputs made from the findings: the Chrome trace, the result file (its path into
 * 'written', left "" when it was not written) and the SARIF file. Returns 0, or -1 when any of
 * them failed (with a message printed). */
static int write_results(const ss_capture_view *v, const char *host, const ss_event_log *log,
                         const ss_result *result, char *written, size_t size)
{
    const ss_interpose_config *cfg = v->config;
    int rc = 0;
    /* The Chrome trace marks the findings, so it is written once they are known. */
    output chrome = {OUTPUT_CHROME_TRACE, SS_FORMAT_JSON, result, log, cfg, 0};
    if (write_setting(v, host, cfg->chrome_trace, &chrome) < 0)
        rc = -1;

    ss_format format = SS_FORMAT_JSON;
    ss_format_parse(cfg->format, &format);
    output main_output = {OUTPUT_RESULT, format, result, log, cfg, 0};
    if (write_result_file(v, host, &main_output, written, size) < 0)
        rc = -1;
    output sarif = {OUTPUT_RESULT, SS_FORMAT_SARIF, result, log, cfg, 0};
    if (write_setting(v, host, cfg->sarif, &sarif) < 0)
        rc = -1;
    return rc;
}

/* What follows the detectors: the result completed and sorted, the baselines applied, the
 * outputs written, the summary and the gate's verdict on stderr. Returns 0, or -1 when a step
 * failed (with a message printed). */
int fin_report_result(const ss_capture_view *v, const char *host, const ss_event_log *log,
                      ss_result *result)
{
    const ss_interpose_config *cfg = v->config;
    int rc = 0;
    if (result->dropped < log->dropped)
        result->dropped = log->dropped;
    if (result->pid == 0)
        result->pid = v->pid;
    ss_result_sort(result);
    if (apply_baselines(v, host, result) < 0)
        rc = -1;
    char written[PATH_MAX] = "";
    if (write_results(v, host, log, result, written, sizeof written) < 0)
        rc = -1;
    if (!cfg->quiet)
        fin_print_summary(result, written[0] != '\0' && strcmp(written, "-") != 0 ? written : NULL,
                          cfg->full_names);
    if (cfg->gate_file[0] != '\0' || cfg->error_exitcode > 0)
        judge_gate(v, result);
    return rc;
}

int fin_write_trace(const ss_capture_view *v, const char *host, const ss_event_log *log)
{
    output trace_output = {OUTPUT_TRACE, SS_FORMAT_JSON, NULL, log, v->config, 0};
    return write_setting(v, host, v->config->trace, &trace_output);
}
