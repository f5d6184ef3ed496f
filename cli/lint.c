/* lint.c: `syncscope lint`: static analysis of CUDA sources with libclang. */
#include "cli.h"
#include "report.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SS_HAVE_ANALYZER
#include "analyzer.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: syncscope lint [options] [FILE|DIR ...]\n"
            "\n"
            "Finds CUDA code that serializes the GPU or stalls the host: legacy default stream\n"
            "use (SYNC101-103), synchronization and allocation in loops (SYNC401, SYNC402),\n"
            "capture-unsafe calls (SYNC501) and more (syncscope rules). Folders are searched for\n"
            ".cu, .c, .cc, .cpp and .cxx sources; headers are analyzed through the files that\n"
            "include them, or when named.\n"
            "\n"
            "options:\n"
            "  -p BUILD_DIR          read BUILD_DIR/compile_commands.json (all its files when\n"
            "                        no FILE is named)\n"
            "  --extra-arg ARG       add ARG to every clang command line (repeatable)\n"
            "  --remove-arg ARG      leave ARG (an option with its value; 'PREFIX*': every\n"
            "                        argument that starts with PREFIX) out of the compile\n"
            "                        commands (repeatable)\n"
            "  --verbose             say which compile-command arguments and which files\n"
            "                        were left out, and why\n"
            "  --cuda-path DIR       CUDA toolkit root; 'none' parses with the bundled\n"
            "                        declarations (also SYNCSCOPE_NO_CUDA=1)\n"
            "  --format FORMAT       text (default), json, sarif, github, gitlab or html\n"
            "  -o FILE               write the report to FILE instead of stdout\n"
            "  --rules-url BASE      link each rule to BASE/<ID>.md in SARIF (helpUri; also\n"
            "                        SYNCSCOPE_RULES_URL)\n"
            "  --fail-on LEVEL       note, warning (default), error or none: exit 1 when a\n"
            "                        finding is at least LEVEL\n"
            "  --enable RULE         enable RULE (ID or name; repeatable)\n"
            "  --disable RULE        disable RULE (repeatable)\n"
            "  --severity RULE=LEVEL report RULE as note, warning or error (repeatable)\n"
            "  --exclude GLOB        skip files matching GLOB, relative to the working\n"
            "                        directory (repeatable)\n"
            "  --readback-bytes N    SYNC301: largest device-to-host copy that is a readback\n"
            "  --dump-config [PATH]  print the effective configuration for PATH (default .)\n"
            "  --baseline FILE       report only findings that are not in FILE\n"
            "  --write-baseline FILE record the findings in FILE\n"
            "  -j N                  parse N translation units at once (default: all CPUs)\n"
            "  --cache-dir DIR       result cache folder (default: BUILD_DIR/.syncscope-cache\n"
            "                        with -p, else $XDG_CACHE_HOME/syncscope)\n"
            "  --no-cache            parse every file, read and write no cache\n"
            "  --stats               print how many units were parsed and cached\n"
            "  --keep-going          analyze every file even after a fatal parse error\n"
            "  --fix                 apply the findings' fix-its to the files, then lint\n"
            "                        again and report what is left\n"
            "  --max-memory SIZE     stop (exit 2) when lint's memory passes SIZE, e.g. 4G\n"
            "                        (default 8G, 2G per job when more, at most 3/4 of the\n"
            "                        machine's; 0: no bound)\n"
            "  --parse-timeout SEC   stop (exit 2) when one file takes longer than SEC\n"
            "                        seconds (default 600; 0: no bound)\n"
            "  --color WHEN          auto (default), always or never\n"
            "  --help                show this help\n"
            "\n"
            "exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage or tool "
            "error\n");
}

/* The value of option 'name' at argv[*i] ("--name VALUE" or "--name=VALUE"), advancing *i,
 * or NULL when argv[*i] is not that option. Sets *missing when the value is absent. */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) != 0)
        return NULL;
    if (argv[*i][len] == '=')
        return argv[*i] + len + 1;
    if (argv[*i][len] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

typedef struct lint_cli {
    ss_lint_options options;
    const char **inputs;
    const char **extra;
    const char **remove;
    ss_format format;
    const char *output;
    int color;        /* -1: auto */
    ss_config config; /* the command-line configuration layer */
    int dump_config;
    const char *dump_path;
    const char *baseline;
    const char *write_baseline;
    const char *cache_dir;
    int no_cache;
    int stats;
    int fix; /* --fix: apply the fix-its, then lint again */
} lint_cli;

/* Applies one configuration option. Returns 0, or -1 (message printed). */
static int config_option(lint_cli *cli, const char *option, const char *value)
{
    char err[512];
    int rc = 0;
    if (strcmp(option, "--enable") == 0 || strcmp(option, "--disable") == 0) {
        rc = ss_config_set_enabled(&cli->config, value, option[2] == 'e', err, sizeof err);
    } else if (strcmp(option, "--severity") == 0) {
        const char *eq = strchr(value, '=');
        if (eq == NULL) {
            ss_log_error("--severity needs RULE=LEVEL (got '%s')", value);
            return -1;
        }
        char *rule = strndup(value, (size_t)(eq - value));
        if (rule == NULL)
            abort();
        rc = ss_config_set_severity(&cli->config, rule, eq + 1, err, sizeof err);
        free(rule);
    } else if (strcmp(option, "--readback-bytes") == 0) {
        rc = ss_config_set_readback_bytes(&cli->config, value, err, sizeof err);
    } else if (strcmp(option, "--exclude") == 0) {
        rc = ss_config_add_exclude(&cli->config, value, NULL);
        if (rc != 0)
            snprintf(err, sizeof err, "cannot read the working directory for --exclude");
    }
    if (rc != 0) {
        ss_log_error("%s: %s", option, err);
        return -1;
    }
    return 0;
}

/* Parses a -j value. Returns 0, or -1 (message printed). */
static int parse_jobs(const char *value, unsigned *out)
{
    char *end = NULL;
    long n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || n < 1 || n > 1024) {
        ss_log_error("-j needs a number of jobs from 1 to 1024 (got '%s')", value);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

/* Parses a --max-memory SIZE (a byte count with an optional K, M, G or T suffix, powers of
 * 1024) or a --parse-timeout SECONDS value ('size': 1); 0 becomes SS_LINT_NO_LIMIT. Returns
 * 0, or -1 (message printed). */
static int parse_bound(const char *option, const char *value, int size, uint64_t *out)
{
    const char *p = value;
    uint64_t n = 0;
    while (*p >= '0' && *p <= '9') {
        if (n > (UINT64_MAX - 9) / 10)
            break;
        n = n * 10 + (uint64_t)(*p++ - '0');
    }
    unsigned shift = 0;
    if (size && *p != '\0' && p[1] == '\0') {
        static const char units[] = "KMGT";
        const char *unit = memchr(units, toupper((unsigned char)*p), 4);
        if (unit) {
            shift = 10 * (unsigned)(unit - units + 1);
            p++;
        }
    }
    if (p == value || *p != '\0' || (shift && n > (UINT64_MAX >> shift))) {
        if (size)
            ss_log_error("%s needs a size such as 512M, 4G or 0 (no bound) (got '%s')", option,
                         value);
        else
            ss_log_error("%s needs a number of seconds, or 0 (no bound) (got '%s')", option, value);
        return -1;
    }
    n <<= shift;
    *out = n == 0 ? SS_LINT_NO_LIMIT : n;
    return 0;
}

/* Parses the command line. Returns 0, 1 for --help, or -1 (message printed). */
static int parse(int argc, char **argv, lint_cli *cli)
{
    static const char *const config_options[] = {"--enable", "--disable", "--severity", "--exclude",
                                                 "--readback-bytes"};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int missing = 0;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return 1;
        int matched = 0;
        for (size_t k = 0; k < sizeof config_options / sizeof config_options[0]; k++) {
            value = option_value(argc, argv, &i, config_options[k], &missing);
            if (value) {
                if (config_option(cli, config_options[k], value) != 0)
                    return -1;
                matched = 1;
                break;
            }
            if (missing)
                break;
        }
        if (matched)
            continue;
        if (missing) {
            ss_log_error("option '%s' needs a value", arg);
            return -1;
        }
        if (strcmp(arg, "--keep-going") == 0) {
            cli->options.keep_going = 1;
        } else if (strcmp(arg, "--verbose") == 0) {
            cli->options.verbose = 1;
        } else if (strcmp(arg, "--fix") == 0) {
            cli->fix = 1;
        } else if (strcmp(arg, "--no-cache") == 0) {
            cli->no_cache = 1;
        } else if (strcmp(arg, "--stats") == 0) {
            cli->stats = 1;
        } else if (strcmp(arg, "--dump-config") == 0) {
            cli->dump_config = 1;
            if (i + 1 < argc && argv[i + 1][0] != '-')
                cli->dump_path = argv[++i];
        } else if (strncmp(arg, "--dump-config=", 14) == 0) {
            cli->dump_config = 1;
            cli->dump_path = arg + 14;
        } else if (strncmp(arg, "-j", 2) == 0 && arg[2] != '\0') {
            if (parse_jobs(arg + 2, &cli->options.jobs) != 0)
                return -1;
        } else if ((value = option_value(argc, argv, &i, "-j", &missing)) != NULL ||
                   (value = option_value(argc, argv, &i, "--jobs", &missing)) != NULL) {
            if (parse_jobs(value, &cli->options.jobs) != 0)
                return -1;
        } else if ((value = option_value(argc, argv, &i, "-p", &missing)) != NULL) {
            cli->options.build_dir = value;
        } else if ((value = option_value(argc, argv, &i, "--extra-arg", &missing)) != NULL) {
            cli->extra[cli->options.extra_arg_count++] = value;
        } else if ((value = option_value(argc, argv, &i, "--remove-arg", &missing)) != NULL) {
            cli->remove[cli->options.remove_arg_count++] = value;
        } else if ((value = option_value(argc, argv, &i, "--max-memory", &missing)) != NULL) {
            if (parse_bound("--max-memory", value, 1, &cli->options.max_memory) != 0)
                return -1;
        } else if ((value = option_value(argc, argv, &i, "--parse-timeout", &missing)) != NULL) {
            if (parse_bound("--parse-timeout", value, 0, &cli->options.parse_timeout) != 0)
                return -1;
        } else if ((value = option_value(argc, argv, &i, "--cuda-path", &missing)) != NULL) {
            cli->options.cuda_path = value;
        } else if ((value = option_value(argc, argv, &i, "--cache-dir", &missing)) != NULL) {
            cli->cache_dir = value;
        } else if ((value = option_value(argc, argv, &i, "--baseline", &missing)) != NULL) {
            cli->baseline = value;
        } else if ((value = option_value(argc, argv, &i, "--write-baseline", &missing)) != NULL) {
            cli->write_baseline = value;
        } else if ((value = option_value(argc, argv, &i, "--format", &missing)) != NULL) {
            if (ss_format_parse(value, &cli->format) != 0) {
                ss_log_error("unknown --format '%s' (text, json, sarif, github, gitlab or html)",
                             value);
                return -1;
            }
        } else if ((value = option_value(argc, argv, &i, "--rules-url", &missing)) != NULL) {
            if (ss_report_set_rules_url(value) != 0) {
                ss_log_error("--rules-url '%s': expected an absolute URL such as "
                             "https://example.org/syncscope/docs/rules",
                             value);
                return -1;
            }
        } else if ((value = option_value(argc, argv, &i, "-o", &missing)) != NULL) {
            cli->output = value;
        } else if ((value = option_value(argc, argv, &i, "--fail-on", &missing)) != NULL) {
            char err[256];
            if (ss_config_set_fail_on(&cli->config, value, err, sizeof err) != 0) {
                ss_log_error("unknown --fail-on '%s' (note, warning, error or none)", value);
                return -1;
            }
        } else if ((value = option_value(argc, argv, &i, "--color", &missing)) != NULL) {
            if (strcmp(value, "auto") == 0)
                cli->color = -1;
            else if (strcmp(value, "always") == 0)
                cli->color = 1;
            else if (strcmp(value, "never") == 0)
                cli->color = 0;
            else {
                ss_log_error("unknown --color '%s' (auto, always or never)", value);
                return -1;
            }
        } else if (missing) {
            ss_log_error("option '%s' needs a value", arg);
            return -1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            ss_log_error("unknown option '%s' (see syncscope lint --help)", arg);
            return -1;
        } else {
            cli->inputs[cli->options.input_count++] = arg;
        }
    }
    if (cli->dump_config)
        return 0;
    if (cli->fix && cli->write_baseline) {
        ss_log_error("--fix and --write-baseline do not go together: record the baseline of the "
                     "fixed sources in a second run");
        return -1;
    }
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
        return ss_strdup(cli->cache_dir);
    if (cli->options.build_dir)
        return ss_asprintf("%s/.syncscope-cache", cli->options.build_dir);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/')
        return ss_asprintf("%s/syncscope", xdg);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return ss_asprintf("%s/.cache/syncscope", home);
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
    if (cli->format == SS_FORMAT_TEXT && !to_stdout && ss_file_counts_notable(&result->files)) {
        text_report report = {result, text};
        return ss_write_output(cli->output, write_text_with_counts, &report);
    }
    return ss_report_write(cli->output, cli->format, result, text);
}

int ss_cli_lint(int argc, char **argv)
{
    lint_cli cli;
    memset(&cli, 0, sizeof cli);
    cli.format = SS_FORMAT_TEXT;
    cli.color = -1;
    ss_config_init(&cli.config);
    cli.inputs = calloc((size_t)argc + 1, sizeof *cli.inputs);
    cli.extra = calloc((size_t)argc + 1, sizeof *cli.extra);
    cli.remove = calloc((size_t)argc + 1, sizeof *cli.remove);
    if (cli.inputs == NULL || cli.extra == NULL || cli.remove == NULL)
        abort();
    int rc = parse(argc, argv, &cli);
    if (rc != 0) {
        if (rc == 1)
            usage(stdout);
        free(cli.inputs);
        free(cli.extra);
        free(cli.remove);
        ss_config_free(&cli.config);
        return rc == 1 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    }
    ss_config_cache *configs = ss_config_cache_new();
    if (cli.dump_config) {
        int code = dump_config(&cli, configs);
        ss_config_cache_free(configs);
        ss_config_free(&cli.config);
        free(cli.inputs);
        free(cli.extra);
        free(cli.remove);
        return code;
    }
    int exit_code = SS_EXIT_CLEAN;
    ss_baseline baseline;
    int have_baseline = 0;
    if (cli.baseline) {
        char err[2048];
        if (ss_baseline_load(cli.baseline, &baseline, err, sizeof err) != 0) {
            ss_log_error("%s", err);
            exit_code = SS_EXIT_ERROR;
        } else {
            have_baseline = 1;
        }
    }
    char *cache_dir = cache_folder(&cli);
    ss_lint_stats stats;
    memset(&stats, 0, sizeof stats);
    cli.options.inputs = cli.inputs;
    cli.options.extra_args = cli.extra;
    cli.options.remove_args = cli.remove;
    cli.options.config = &cli.config;
    cli.options.config_cache = configs;
    cli.options.cache_dir = cache_dir;
    cli.options.progress = isatty(STDERR_FILENO);
    cli.options.stats = &stats;

    ss_result result;
    ss_result_init(&result, SS_RESULT_LINT);
    int status = exit_code == SS_EXIT_CLEAN ? ss_analyzer_run(&cli.options, &result) : -1;
    if (exit_code == SS_EXIT_CLEAN && status < 0) {
        exit_code = SS_EXIT_ERROR;
    } else if (exit_code == SS_EXIT_CLEAN) {
        if (cli.stats)
            ss_log_note("parsed %zu, cached %zu", stats.parsed, stats.cached);
        if (ss_file_counts_notable(&result.files))
            log_file_counts(&result.files);
        char err[2048];
        if (cli.write_baseline &&
            ss_baseline_write(cli.write_baseline, &result, err, sizeof err) != 0) {
            ss_log_error("%s", err);
            exit_code = SS_EXIT_ERROR;
        }
        if (have_baseline)
            ss_baseline_filter(&baseline, &result);
        if (cli.fix && exit_code == SS_EXIT_CLEAN)
            status = fix_and_lint_again(&cli, have_baseline ? &baseline : NULL, &result, status,
                                        &exit_code);
        int to_stdout = cli.output == NULL || strcmp(cli.output, "-") == 0;
        ss_text_options text = {0, 1};
        if (cli.color == 1)
            text.color = 1;
        else if (cli.color == -1)
            text.color = to_stdout && isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
        int failed = policy_failed(&cli, configs, &result);
        if (write_report(&cli, to_stdout, &result, &text) != 0 || failed < 0)
            exit_code = SS_EXIT_ERROR;
        else if (exit_code == SS_EXIT_CLEAN && status > 0 && !cli.options.keep_going)
            exit_code = SS_EXIT_ERROR;
        else if (exit_code == SS_EXIT_CLEAN && failed)
            exit_code = SS_EXIT_FINDINGS;
    }
    if (have_baseline)
        ss_baseline_free(&baseline);
    ss_result_free(&result);
    free(cache_dir);
    ss_config_cache_free(configs);
    ss_config_free(&cli.config);
    free(cli.inputs);
    free(cli.extra);
    free(cli.remove);
    return exit_code;
}

#else

int ss_cli_lint(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    ss_log_error("'lint' is not available in this build (libclang 16 was not found)");
    return SS_EXIT_ERROR;
}

#endif
