/* analyze.c: `syncscope analyze`: the runtime detectors over a recorded trace file. */
#include "cli.h"
#include "detect.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fputs("usage: syncscope analyze [options] TRACE\n"
          "\n"
          "Runs the runtime detectors over a trace written by `syncscope run --trace FILE`\n"
          "and reports the findings, exactly as the run itself would have.\n"
          "\n"
          "options:\n"
          "  --format FORMAT       text (default), json, sarif, github or gitlab\n"
          "  -o, --output FILE     write the report to FILE (default: standard output)\n"
          "  --chrome-trace FILE   also write the trace as Chrome trace JSON (Perfetto)\n"
          "  --readback-bytes N    SYNC301: largest device-to-host copy that counts as a\n"
          "                        scalar readback (default 16)\n"
          "  --min-blocked-us N    ignore calls that blocked the host less than N us\n"
          "                        (default 5)\n"
          "  --no-latent           no notes for calls that synchronized but blocked less\n"
          "                        than --min-blocked-us\n"
          "  --attribute-to PATH   files under PATH are your own code: findings point at the\n"
          "                        innermost frame there (repeatable)\n"
          "  --fail-on LEVEL       exit 1 when a finding is at least LEVEL: note, warning\n"
          "                        (default), error, or none (never)\n"
          "  --fail-over BUDGET    exit 1 when the host was blocked longer than BUDGET: a\n"
          "                        share of the wall time (2%) or a duration (50ms)\n"
          "  --error-exitcode N    exit N instead of 1 when the gate fails\n"
          "  --baseline FILE       report only findings that are not in FILE\n"
          "  --write-baseline FILE record the findings in FILE\n"
          "  --profile-from-start on|off\n"
          "                        off: only calls between cudaProfilerStart and\n"
          "                        cudaProfilerStop count (default: as the run recorded)\n"
          "  --nvtx-range NAME     only calls inside NVTX ranges named NAME count (default:\n"
          "                        as the run recorded; '' for any)\n"
          "\n"
          "exit status: 0 the gate passed (no finding at or above --fail-on, no more blocked\n"
          "time than --fail-over), 1 (or --error-exitcode) it failed, 2 error\n",
          out);
}

/* Parses a non-negative decimal integer. Returns 0, or -1 when 'text' is not one. */
static int parse_count(const char *text, uint64_t *out)
{
    if (text == NULL || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* The gate, baseline and scope options (docs/run.md, "Gates" and "Scopes"). */
typedef struct gate_options {
    ss_gate gate;
    int judged;         /* --fail-over or --error-exitcode: the verdict is said on stderr */
    int error_exitcode; /* -1: 1 */
    const char *baseline, *write_baseline;
    int profile_from_start; /* -1: as the trace recorded */
    const char *nvtx_range; /* NULL: as the trace recorded */
} gate_options;

/* Parses 'arg' with 'value' when it is a gate, baseline or scope option. Returns 1 when it was
 * one, 0 when it was not, -1 with a message printed when its value is wrong. */
static int parse_gate_option(const char *arg, const char *value, gate_options *g)
{
    uint64_t code;
    if (strcmp(arg, "--fail-on") == 0) {
        if (ss_gate_parse_fail_on(value, &g->gate) == 0)
            return 1;
        ss_log_error("--fail-on takes note, warning, error or none (got '%s')",
                     value ? value : "nothing");
    } else if (strcmp(arg, "--fail-over") == 0) {
        g->judged = 1;
        if (ss_gate_parse_budget(value, &g->gate) == 0)
            return 1;
        ss_log_error("--fail-over takes a share of the wall time such as 2%% or a duration such "
                     "as 50ms (got '%s')",
                     value ? value : "nothing");
    } else if (strcmp(arg, "--error-exitcode") == 0) {
        g->judged = 1;
        if (parse_count(value, &code) == 0 && code <= 255) {
            g->error_exitcode = (int)code;
            return 1;
        }
        ss_log_error("--error-exitcode takes an exit status from 0 to 255 (got '%s')",
                     value ? value : "nothing");
    } else if (strcmp(arg, "--baseline") == 0 || strcmp(arg, "--write-baseline") == 0) {
        if (value != NULL && value[0] != '\0') {
            *(arg[2] == 'b' ? &g->baseline : &g->write_baseline) = value;
            return 1;
        }
        ss_log_error("%s takes a file name", arg);
    } else if (strcmp(arg, "--profile-from-start") == 0) {
        if (value != NULL && (strcmp(value, "on") == 0 || strcmp(value, "off") == 0)) {
            g->profile_from_start = strcmp(value, "on") == 0;
            return 1;
        }
        ss_log_error("--profile-from-start takes on or off (got '%s')", value ? value : "nothing");
    } else if (strcmp(arg, "--nvtx-range") == 0) {
        if (value != NULL) {
            g->nvtx_range = value;
            return 1;
        }
        ss_log_error("--nvtx-range needs a value");
    } else {
        return 0;
    }
    return -1;
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

/* The exit status the gate gives 'result'. */
static int gate_status(const gate_options *g, const ss_result *result)
{
    char why[512];
    int failed = ss_gate_check(&g->gate, result, why, sizeof why);
    if (failed < 0) {
        ss_log_error("--fail-over: %s", why);
        return SS_EXIT_ERROR;
    }
    if (failed && g->judged)
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

int ss_cli_analyze(int argc, char **argv)
{
    ss_format format = SS_FORMAT_TEXT;
    const char *output = NULL, *chrome = NULL, *trace = NULL;
    gate_options gate = {.error_exitcode = -1, .profile_from_start = -1};
    ss_gate_init(&gate.gate);
    ss_detect_options options;
    ss_detect_options_default(&options);
    /* --attribute-to paths, made absolute against the current folder. */
    static char user_path_text[16][4096];
    const char *user_paths[16];
    size_t user_path_count = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return SS_EXIT_CLEAN;
        } else if (strcmp(arg, "--format") == 0) {
            if (value == NULL || ss_format_parse(value, &format) < 0) {
                ss_log_error("--format takes text, json, sarif, github or gitlab (got '%s')",
                             value ? value : "nothing");
                return SS_EXIT_ERROR;
            }
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            output = value;
        } else if (strcmp(arg, "--chrome-trace") == 0) {
            chrome = value;
        } else if (strcmp(arg, "--readback-bytes") == 0) {
            if (parse_count(value, &options.readback_max_bytes) < 0) {
                ss_log_error("--readback-bytes takes a byte count (got '%s')",
                             value ? value : "nothing");
                return SS_EXIT_ERROR;
            }
        } else if (strcmp(arg, "--min-blocked-us") == 0) {
            uint64_t us;
            if (parse_count(value, &us) < 0 || us > UINT64_MAX / 1000) {
                ss_log_error("--min-blocked-us takes a number of microseconds (got '%s')",
                             value ? value : "nothing");
                return SS_EXIT_ERROR;
            }
            options.min_blocked_ns = us * 1000;
        } else if (strcmp(arg, "--no-latent") == 0) {
            options.latent = 0;
            takes_value = 0;
        } else if (strcmp(arg, "--attribute-to") == 0) {
            char cwd[4096];
            char *path = value != NULL && *value != '\0'
                             ? ss_path_normalize(getcwd(cwd, sizeof cwd) ? cwd : NULL, value)
                             : NULL;
            if (path == NULL || user_path_count == sizeof user_paths / sizeof user_paths[0] ||
                strlen(path) >= sizeof user_path_text[0]) {
                ss_log_error("--attribute-to takes a path, at most %zu times",
                             sizeof user_paths / sizeof user_paths[0]);
                free(path);
                return SS_EXIT_ERROR;
            }
            memcpy(user_path_text[user_path_count], path, strlen(path) + 1);
            free(path);
            user_paths[user_path_count] = user_path_text[user_path_count];
            user_path_count++;
        } else if ((takes_value = parse_gate_option(arg, value, &gate)) != 0) {
            if (takes_value < 0)
                return SS_EXIT_ERROR;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            ss_log_error("analyze: unknown option '%s' (syncscope analyze --help lists them)", arg);
            return SS_EXIT_ERROR;
        } else {
            takes_value = 0;
            if (trace != NULL) {
                ss_log_error("analyze takes one trace file (got '%s' and '%s')", trace, arg);
                return SS_EXIT_ERROR;
            }
            trace = arg;
        }
        if (takes_value) {
            if (value == NULL) {
                ss_log_error("%s needs a value", arg);
                return SS_EXIT_ERROR;
            }
            i++;
        }
    }
    options.user_paths = user_paths;
    options.user_path_count = user_path_count;
    if (trace == NULL) {
        ss_log_error("analyze needs a trace file");
        usage(stderr);
        return SS_EXIT_ERROR;
    }

    ss_event_log log;
    char err[1024];
    ss_baseline baseline;
    if (gate.baseline != NULL && ss_baseline_load(gate.baseline, &baseline, err, sizeof err) < 0) {
        ss_log_error("%s", err);
        return SS_EXIT_ERROR;
    }
    if (ss_trace_read(trace, &log, err, sizeof err) < 0) {
        ss_log_error("%s", err);
        if (gate.baseline != NULL)
            ss_baseline_free(&baseline);
        return SS_EXIT_ERROR;
    }
    /* Scoped as the run was, unless the command line says otherwise. */
    ss_detect_scope_from_log(&options, &log);
    if (gate.profile_from_start >= 0)
        options.profile_from_start = gate.profile_from_start;
    if (gate.nvtx_range != NULL)
        options.nvtx_range = gate.nvtx_range[0] != '\0' ? gate.nvtx_range : NULL;
    int status = SS_EXIT_ERROR;
    ss_result result;
    ss_result_init(&result, SS_RESULT_RUN);
    if (ss_detect_run(&log, &options, &result) < 0) {
        ss_log_error("out of memory while analyzing '%s'", trace);
        goto out;
    }
    if (apply_baselines(&gate, gate.baseline != NULL ? &baseline : NULL, &result) < 0)
        goto out;
    if (chrome != NULL && write_chrome_trace(chrome, &log, &result) < 0)
        goto out;
    ss_text_options text = {0, 1};
    text.color = output == NULL && isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
    if (ss_report_write(output, format, &result, &text) < 0)
        goto out;
    status = gate_status(&gate, &result);
out:
    if (gate.baseline != NULL)
        ss_baseline_free(&baseline);
    ss_result_free(&result);
    ss_evlog_free(&log);
    return status;
}
