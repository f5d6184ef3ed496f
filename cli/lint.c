/* lint.c: `syncscope lint`: static analysis of CUDA sources with libclang. */
#include "cli.h"
#include "files.h"
#include "log.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SS_HAVE_ANALYZER
#include "analyzer.h"

#include <clang-c/Index.h>

typedef struct lint_cli {
    ss_cli_args args;
    ss_lint_options options;
    const char **inputs;
    const char **extra;
    const char **remove;
    ss_format format;
    const char *output;
    ss_config config; /* the command-line configuration layer */
    int dump_config;
    const char *dump_path;
    const char *baseline;
    const char *write_baseline;
    const char *cache_dir;
    int no_cache;
    int stats;
    int quiet;
    int fix;                /* --fix: apply the fix-its, then lint again */
    const char *stdin_name; /* --stdin-filename: the input '-' is the source named so */
} lint_cli;

/* Applies one configuration option of the command line. Returns 0, or -1 (message
 * printed). */
static int config_option(lint_cli *cli, const ss_cli_given *given)
{
    char err[512];
    int rc = 0;
    if (given->opt == SS_OPT_ENABLE || given->opt == SS_OPT_DISABLE) {
        rc = ss_config_set_enabled(&cli->config, given->value, given->opt == SS_OPT_ENABLE, err,
                                   sizeof err);
    } else if (given->opt == SS_OPT_SEVERITY) {
        const char *eq = strchr(given->value, '=');
        char *rule = ss_xasprintf("%.*s", (int)(eq - given->value), given->value);
        rc = ss_config_set_severity(&cli->config, rule, eq + 1, err, sizeof err);
        free(rule);
    } else if (given->opt == SS_OPT_READBACK_BYTES) {
        char bytes[32];
        snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)given->number);
        rc = ss_config_set_readback_bytes(&cli->config, bytes, err, sizeof err);
    } else if (given->opt == SS_OPT_EXCLUDE) {
        rc = ss_config_add_exclude(&cli->config, given->value, NULL);
        if (rc != 0)
            snprintf(err, sizeof err, "cannot read the working directory for --exclude");
    }
    if (rc != 0) {
        ss_log_error("%s: %s", given->spelled, err);
        return -1;
    }
    return 0;
}

/* Takes the repeatable options, in the order given: the configuration layer, --extra-arg and
 * --remove-arg. Returns 0, or -1 (message printed). */
static int take_repeated(lint_cli *cli)
{
    for (size_t i = 0; i < cli->args.given_count; i++) {
        const ss_cli_given *given = &cli->args.given[i];
        if (given->opt == SS_OPT_EXTRA_ARG)
            cli->extra[cli->options.extra_arg_count++] = given->value;
        else if (given->opt == SS_OPT_REMOVE_ARG)
            cli->remove[cli->options.remove_arg_count++] = given->value;
        else if (config_option(cli, given) != 0)
            return -1;
    }
    for (size_t i = 0; i < cli->args.operand_count; i++)
        cli->inputs[cli->options.input_count++] = cli->args.operands[i];
    return 0;
}

/* The number given with 'opt', 0 as SS_LINT_NO_LIMIT, or 0 when it was not given. */
static uint64_t bound(const ss_cli_args *args, ss_opt opt)
{
    const ss_cli_given *given = ss_cli_last(args, opt);
    if (given == NULL)
        return 0;
    return given->number == 0 ? SS_LINT_NO_LIMIT : given->number;
}

/* Takes the options that are given once (the last one counts). Returns 0, or -1 (message
 * printed). */
static int take_single(lint_cli *cli)
{
    const ss_cli_args *args = &cli->args;
    cli->options.build_dir = ss_cli_value(args, SS_OPT_BUILD_DIR);
    cli->options.cuda_path = ss_cli_value(args, SS_OPT_CUDA_PATH);
    cli->options.keep_going = ss_cli_has(args, SS_OPT_KEEP_GOING);
    cli->options.fail_fast = ss_cli_has(args, SS_OPT_FAIL_FAST);
    cli->options.verbose = ss_cli_has(args, SS_OPT_VERBOSE);
    const ss_cli_given *jobs = ss_cli_last(args, SS_OPT_JOBS);
    cli->options.jobs = jobs ? (unsigned)jobs->number : 0;
    cli->options.max_memory = bound(args, SS_OPT_LINT_MAX_MEMORY);
    cli->options.parse_timeout = bound(args, SS_OPT_PARSE_TIMEOUT);
    cli->output = ss_cli_value(args, SS_OPT_OUTPUT);
    cli->cache_dir = ss_cli_value(args, SS_OPT_CACHE_DIR);
    cli->baseline = ss_cli_value(args, SS_OPT_BASELINE);
    cli->write_baseline = ss_cli_value(args, SS_OPT_WRITE_BASELINE);
    cli->no_cache = ss_cli_has(args, SS_OPT_NO_CACHE);
    cli->stats = ss_cli_has(args, SS_OPT_STATS);
    cli->quiet = ss_cli_has(args, SS_OPT_QUIET);
    cli->fix = ss_cli_has(args, SS_OPT_FIX);
    cli->dump_config = ss_cli_has(args, SS_OPT_DUMP_CONFIG);
    cli->dump_path = ss_cli_value(args, SS_OPT_DUMP_CONFIG);
    const char *format = ss_cli_value(args, SS_OPT_FORMAT);
    if (format != NULL)
        ss_format_parse(format, &cli->format);
    const char *fail_on = ss_cli_value(args, SS_OPT_FAIL_ON);
    char err[256];
    if (fail_on != NULL && ss_config_set_fail_on(&cli->config, fail_on, err, sizeof err) != 0) {
        ss_log_error("--fail-on: %s", err);
        return -1;
    }
    const char *min = ss_cli_value(args, SS_OPT_MIN_SEVERITY);
    if (min != NULL && ss_config_set_min_severity(&cli->config, min, err, sizeof err) != 0) {
        ss_log_error("--min-severity: %s", err);
        return -1;
    }
    const char *url = ss_cli_value(args, SS_OPT_RULES_URL);
    if (url != NULL && ss_report_set_rules_url(url) != 0) {
        ss_log_error("--rules-url '%s': expected an absolute URL such as "
                     "https://example.org/syncscope/docs/rules",
                     url);
        return -1;
    }
    return 0;
}

/* The input '-' (the source on standard input) and --stdin-filename: '-' goes alone, with a
 * name, and not with --fix (there is no file to write the fixes into). Returns 0, or -1
 * (message printed). */
static int check_stdin(lint_cli *cli)
{
    cli->stdin_name = ss_cli_value(&cli->args, SS_OPT_STDIN_FILENAME);
    int dash = 0;
    for (size_t i = 0; i < cli->options.input_count; i++)
        dash |= strcmp(cli->inputs[i], "-") == 0;
    if (!dash) {
        if (cli->stdin_name)
            ss_log_error("--stdin-filename names the source read from standard input: give '-' "
                         "as the input (syncscope lint --stdin-filename %s -)",
                         cli->stdin_name);
        return cli->stdin_name ? -1 : 0;
    }
    if (cli->options.input_count > 1) {
        ss_log_error("'-' (the source on standard input) is the only input of its run: name no "
                     "other file or folder with it");
        return -1;
    }
    if (cli->stdin_name == NULL) {
        ss_log_error("'-' reads the source from standard input: name it with --stdin-filename "
                     "NAME (its language, compile command and configuration come from the "
                     "name)");
        return -1;
    }
    if (cli->fix) {
        ss_log_error("--fix does not go with '-': the source on standard input has no file to "
                     "write the fixes into (lint %s itself with --fix, or take the fix-its from "
                     "--format sarif)",
                     cli->stdin_name);
        return -1;
    }
    return 0;
}

/* Reads all of standard input into '*text' (malloc'ed, NUL-terminated) and its length into
 * '*len'. Returns 0, or -1 (message printed) when it cannot be read or passes
 * SS_READ_MAX_BYTES. */
static int read_stdin(char **text, size_t *len)
{
    size_t cap = 1 << 16, used = 0;
    char *buf = ss_xmalloc(cap);
    for (;;) {
        if (cap - used < 2) {
            if (cap >= SS_READ_MAX_BYTES) {
                ss_log_error("standard input: the source is larger than %llu MiB",
                             (unsigned long long)(SS_READ_MAX_BYTES >> 20));
                free(buf);
                return -1;
            }
            cap *= 2;
            buf = ss_xreallocarray(buf, cap, 1);
        }
        size_t n = fread(buf + used, 1, cap - used - 1, stdin);
        used += n;
        if (n == 0)
            break;
    }
    if (ferror(stdin)) {
        ss_log_error("cannot read standard input: %s", strerror(errno));
        free(buf);
        return -1;
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return 0;
}

/* Parses the command line. Returns 0, 1 for --help (written), or -1 (message printed). */
static int parse(int argc, char **argv, lint_cli *cli)
{
    int rc = ss_cli_parse(SS_CMD_LINT, argc, argv, 0, &cli->args);
    if (rc != 0)
        return rc;
    if (take_repeated(cli) != 0 || take_single(cli) != 0)
        return -1;
    if (cli->dump_config)
        return 0;
    if (cli->fix && cli->write_baseline) {
        ss_log_error("--fix and --write-baseline do not go together: record the baseline of the "
                     "fixed sources in a second run");
        return -1;
    }
    if (check_stdin(cli) != 0)
        return -1;
    if (cli->options.input_count == 0 && cli->options.build_dir == NULL) {
        ss_log_error("no input: name files or folders, or -p BUILD_DIR "
                     "(see syncscope lint --help)");
        return -1;
    }
    return 0;
}

/* The cache folder: --cache-dir, else BUILD_DIR/.syncscope-cache with -p, else
 * $XDG_CACHE_HOME/syncscope or ~/.cache/syncscope; NULL with --no-cache or without a home.
 * Malloc'ed. */
static char *cache_folder(const lint_cli *cli)
{
    if (cli->no_cache)
        return NULL;
    if (cli->cache_dir)
        return ss_xstrdup(cli->cache_dir);
    if (cli->options.build_dir)
        return ss_xasprintf("%s/.syncscope-cache", cli->options.build_dir);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/')
        return ss_xasprintf("%s/syncscope", xdg);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return ss_xasprintf("%s/.cache/syncscope", home);
    return NULL;
}

/* --dump-config: the effective configuration of 'path'. Returns an exit code. */
static int dump_config(lint_cli *cli, ss_config_cache *configs)
{
    ss_config effective;
    char err[2048];
    const char *path = cli->dump_path ? cli->dump_path : ".";
    if (ss_config_for_path(configs, path, &cli->config, &effective, err, sizeof err) != 0) {
        ss_log_error("%s", err);
        return SS_EXIT_ERROR;
    }
    int rc = ss_config_dump(stdout, &effective) == 0 && fflush(stdout) == 0 ? SS_EXIT_CLEAN
                                                                            : SS_EXIT_ERROR;
    ss_config_free(&effective);
    return rc;
}

/* Whether any file's findings reach that file's fail-on level (the findings are sorted by
 * file). Returns 1, 0, or -1 (message printed) for a malformed configuration. */
static int policy_failed(lint_cli *cli, ss_config_cache *configs, const ss_result *result)
{
    size_t i = 0;
    while (i < result->count) {
        size_t end = i + 1;
        const char *file = result->findings[i].file;
        while (end < result->count && file && result->findings[end].file &&
               strcmp(result->findings[end].file, file) == 0)
            end++;
        ss_config effective;
        char err[2048];
        if (ss_config_for_path(configs, file ? file : ".", &cli->config, &effective, err,
                               sizeof err) != 0) {
            ss_log_error("%s", err);
            return -1;
        }
        /* A view of this file's findings. */
        ss_result slice = *result;
        slice.findings = result->findings + i;
        slice.count = end - i;
        int failed = ss_policy_failed(&effective, &slice);
        ss_config_free(&effective);
        if (failed)
            return 1;
        i = end;
    }
    return 0;
}

/* "812 files, 650 analyzed, 162 with errors", and why the others were not analyzed. */
static void log_file_counts(const ss_file_counts *counts)
{
    char *text = ss_file_counts_text(counts);
    ss_log_note("%s", text);
    free(text);
    /* Each file with errors and its first error, as run-clang-tidy lists the failed units. */
    for (size_t i = 0; i < counts->with_errors_count; i++) {
        const char *first = counts->first_errors ? counts->first_errors[i] : NULL;
        if (first)
            ss_log_note("  %s: first error: %s", counts->with_errors[i], first);
        else
            ss_log_note("  %s: errors", counts->with_errors[i]);
    }
}

/* --fix: applies the fix-its of the findings in 'result' (those a baseline leaves), then,
 * when any was applied, lints again into 'result' and filters it by 'baseline' (may be
 * NULL). Sets '*exit_code' to SS_EXIT_ERROR when that fails. Returns the analyzer's status
 * for 'result' as it is now. */
static int fix_and_lint_again(lint_cli *cli, ss_baseline *baseline, ss_result *result, int status,
                              int *exit_code)
{
    size_t applied = 0, files = 0;
    if (ss_cli_apply_fixits(result, &applied, &files) != 0) {
        *exit_code = SS_EXIT_ERROR;
        return status;
    }
    if (applied == 0)
        return status;
    if (!cli->quiet)
        ss_log_note("applied %zu fix-it%s in %zu file%s; linting again", applied,
                    applied == 1 ? "" : "s", files, files == 1 ? "" : "s");
    ss_result_free(result);
    ss_result_init(result, SS_RESULT_LINT);
    status = ss_analyzer_run(&cli->options, result);
    if (status < 0)
        *exit_code = SS_EXIT_ERROR;
    else if (baseline)
        ss_baseline_filter(baseline, result);
    return status;
}

/* A text report and the options it is written with. */
typedef struct text_report {
    const ss_result *result;
    const ss_text_options *options;
} text_report;

/* Writes a text report that goes to a file: the report, then the file counts that stderr
 * gets, so that the file says on its own how much of the project was analyzed. */
static int write_text_with_counts(FILE *out, void *context)
{
    const text_report *report = context;
    if (ss_report_write_text(out, report->result, report->options) != 0)
        return -1;
    char *counts = ss_file_counts_text(&report->result->files);
    int rc = fprintf(out, "syncscope: %s\n", counts) < 0 ? -1 : 0;
    free(counts);
    return rc;
}

/* Writes the report of 'result' where --format and -o say. Returns 0, or -1 (message
 * printed). */
static int write_report(const lint_cli *cli, int to_stdout, const ss_result *result,
                        const ss_text_options *text)
{
    if (cli->format == SS_FORMAT_TEXT && !to_stdout && !cli->quiet &&
        ss_file_counts_notable(&result->files)) {
        text_report report = {result, text};
        return ss_write_output(cli->output, write_text_with_counts, &report);
    }
    return ss_report_write(cli->output, cli->format, result, text);
}

/* What follows a lint that ran ('status' from ss_analyzer_run): the counts said, the baseline
 * written and applied, --fix, the report written and the policy applied. Returns the exit
 * status. */
static int finish(lint_cli *cli, ss_config_cache *configs, ss_baseline *baseline, ss_result *result,
                  int status, const ss_lint_stats *stats)
{
    int exit_code = SS_EXIT_CLEAN;
    if (cli->stats)
        ss_log_note("parsed %zu, cached %zu", stats->parsed, stats->cached);
    if (!cli->quiet && ss_file_counts_notable(&result->files))
        log_file_counts(&result->files);
    char err[2048];
    if (cli->write_baseline &&
        ss_baseline_write(cli->write_baseline, result, err, sizeof err) != 0) {
        ss_log_error("%s", err);
        exit_code = SS_EXIT_ERROR;
    }
    if (baseline)
        ss_baseline_filter(baseline, result);
    if (cli->fix && exit_code == SS_EXIT_CLEAN)
        status = fix_and_lint_again(cli, baseline, result, status, &exit_code);
    int to_stdout = cli->output == NULL || strcmp(cli->output, "-") == 0;
    ss_text_options text = {.color = ss_cli_color(&cli->args, to_stdout && isatty(STDOUT_FILENO)),
                            .show_source = 1,
                            .no_summary = cli->quiet};
    int failed = policy_failed(cli, configs, result);
    if (write_report(cli, to_stdout, result, &text) != 0 || failed < 0)
        return SS_EXIT_ERROR;
    if (exit_code != SS_EXIT_CLEAN || (status > 0 && !cli->options.keep_going))
        return SS_EXIT_ERROR;
    /* Recording a baseline is the point of --write-baseline: its findings fail nothing. */
    return failed && !cli->write_baseline ? SS_EXIT_FINDINGS : SS_EXIT_CLEAN;
}

/* Lints what the command line names, with the configurations of 'configs', the findings of
 * 'baseline' (may be NULL) left out. Returns the exit status. */
static int lint(lint_cli *cli, ss_config_cache *configs, ss_baseline *baseline)
{
    char *source = NULL;
    if (cli->stdin_name) {
        /* The source on standard input is analyzed under its name, and never cached. */
        if (read_stdin(&source, &cli->options.stdin_len) != 0)
            return SS_EXIT_ERROR;
        cli->options.stdin_text = source;
        cli->inputs[0] = cli->stdin_name;
        cli->no_cache = 1;
    }
    char *cache_dir = cache_folder(cli);
    ss_lint_stats stats;
    memset(&stats, 0, sizeof stats);
    cli->options.inputs = cli->inputs;
    cli->options.extra_args = cli->extra;
    cli->options.remove_args = cli->remove;
    cli->options.config = &cli->config;
    cli->options.config_cache = configs;
    cli->options.cache_dir = cache_dir;
    cli->options.progress = isatty(STDERR_FILENO) && !cli->quiet;
    cli->options.stats = &stats;
    ss_result result;
    ss_result_init(&result, SS_RESULT_LINT);
    int status = ss_analyzer_run(&cli->options, &result);
    int exit_code =
        status < 0 ? SS_EXIT_ERROR : finish(cli, configs, baseline, &result, status, &stats);
    if (ss_analyzer_parses_left()) {
        /* A unit's parse the guard gave up on is still inside libclang: exit() would run
         * libclang's destructors under it. The report and the baseline are written. */
        fflush(stdout);
        fflush(stderr);
        _exit(exit_code);
    }
    ss_result_free(&result);
    free(cache_dir);
    free(source);
    return exit_code;
}

/* --dump-config, or the lint with the baseline of --baseline. Returns the exit status. */
static int dump_or_lint(lint_cli *cli)
{
    ss_config_cache *configs = ss_config_cache_new();
    int exit_code;
    if (cli->dump_config) {
        exit_code = dump_config(cli, configs);
    } else if (cli->baseline) {
        ss_baseline baseline;
        char err[2048];
        if (ss_baseline_load(cli->baseline, &baseline, err, sizeof err) != 0) {
            ss_log_error("%s", err);
            exit_code = SS_EXIT_ERROR;
        } else {
            exit_code = lint(cli, configs, &baseline);
            ss_baseline_free(&baseline);
        }
    } else {
        exit_code = lint(cli, configs, NULL);
    }
    ss_config_cache_free(configs);
    return exit_code;
}

void ss_cli_version_libclang(FILE *out)
{
    CXString running = clang_getClangVersion();
    fprintf(out, "libclang %d (clang-c API %s), running %s\n", SS_LIBCLANG_MAJOR,
            CINDEX_VERSION_STRING, clang_getCString(running));
    clang_disposeString(running);
}

int ss_cli_lint(int argc, char **argv)
{
    lint_cli cli;
    memset(&cli, 0, sizeof cli);
    cli.format = SS_FORMAT_TEXT;
    ss_config_init(&cli.config);
    cli.inputs = ss_xcalloc((size_t)argc + 1, sizeof *cli.inputs);
    cli.extra = ss_xcalloc((size_t)argc + 1, sizeof *cli.extra);
    cli.remove = ss_xcalloc((size_t)argc + 1, sizeof *cli.remove);
    int rc = parse(argc, argv, &cli);
    int exit_code = rc > 0 ? SS_EXIT_CLEAN : rc < 0 ? SS_EXIT_ERROR : dump_or_lint(&cli);
    ss_config_free(&cli.config);
    free(cli.inputs);
    free(cli.extra);
    free(cli.remove);
    ss_cli_args_free(&cli.args);
    return exit_code;
}

#else

void ss_cli_version_libclang(FILE *out)
{
    fprintf(out, "libclang: not built in (no lint)\n");
}

int ss_cli_lint(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ss_log_error("'lint' is not available in this build (libclang was not found)");
    return SS_EXIT_ERROR;
}

#endif
