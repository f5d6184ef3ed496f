/* lint.c: `syncscope lint`: static analysis of CUDA sources with libclang. */
#include "cli.h"
#include "report.h"

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
            "Finds CUDA code that serializes on the legacy default stream (SYNC101, SYNC102,\n"
            "SYNC103). Folders are searched for .cu, .cuh and C/C++ sources.\n"
            "\n"
            "options:\n"
            "  -p BUILD_DIR          read BUILD_DIR/compile_commands.json (all its files when\n"
            "                        no FILE is named)\n"
            "  --extra-arg ARG       add ARG to every clang command line (repeatable)\n"
            "  --cuda-path DIR       CUDA toolkit root; 'none' parses with the bundled\n"
            "                        declarations (also SYNCSCOPE_NO_CUDA=1)\n"
            "  --format FORMAT       text (default), json, sarif or github\n"
            "  -o FILE               write the report to FILE instead of stdout\n"
            "  --fail-on LEVEL       note, warning (default), error or none: exit 1 when a\n"
            "                        finding is at least LEVEL\n"
            "  --keep-going          analyze every file even after a fatal parse error\n"
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
    ss_format format;
    const char *output;
    int fail_on; /* -1: never */
    int color;   /* -1: auto */
} lint_cli;

/* Parses the command line. Returns 0, 1 for --help, or -1 (message printed). */
static int parse(int argc, char **argv, lint_cli *cli)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value;
        int missing = 0;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return 1;
        if (strcmp(arg, "--keep-going") == 0) {
            cli->options.keep_going = 1;
        } else if ((value = option_value(argc, argv, &i, "-p", &missing)) != NULL) {
            cli->options.build_dir = value;
        } else if ((value = option_value(argc, argv, &i, "--extra-arg", &missing)) != NULL) {
            cli->extra[cli->options.extra_arg_count++] = value;
        } else if ((value = option_value(argc, argv, &i, "--cuda-path", &missing)) != NULL) {
            cli->options.cuda_path = value;
        } else if ((value = option_value(argc, argv, &i, "--format", &missing)) != NULL) {
            if (ss_format_parse(value, &cli->format) != 0 || cli->format == SS_FORMAT_HTML) {
                ss_log_error("unknown --format '%s' (text, json, sarif or github)", value);
                return -1;
            }
        } else if ((value = option_value(argc, argv, &i, "-o", &missing)) != NULL) {
            cli->output = value;
        } else if ((value = option_value(argc, argv, &i, "--fail-on", &missing)) != NULL) {
            ss_severity s;
            if (strcmp(value, "none") == 0) {
                cli->fail_on = -1;
            } else if (ss_severity_parse(value, &s) == 0) {
                cli->fail_on = (int)s;
            } else {
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
    if (cli->options.input_count == 0 && cli->options.build_dir == NULL) {
        ss_log_error("no input: name files or folders, or -p BUILD_DIR "
                     "(see syncscope lint --help)");
        return -1;
    }
    return 0;
}

int ss_cli_lint(int argc, char **argv)
{
    lint_cli cli;
    memset(&cli, 0, sizeof cli);
    cli.format = SS_FORMAT_TEXT;
    cli.fail_on = SS_SEV_WARNING;
    cli.color = -1;
    cli.inputs = calloc((size_t)argc + 1, sizeof *cli.inputs);
    cli.extra = calloc((size_t)argc + 1, sizeof *cli.extra);
    if (cli.inputs == NULL || cli.extra == NULL)
        abort();
    int rc = parse(argc, argv, &cli);
    if (rc != 0) {
        if (rc == 1)
            usage(stdout);
        free(cli.inputs);
        free(cli.extra);
        return rc == 1 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
    }
    cli.options.inputs = cli.inputs;
    cli.options.extra_args = cli.extra;

    ss_result result;
    ss_result_init(&result, SS_RESULT_LINT);
    int status = ss_analyzer_run(&cli.options, &result);
    int exit_code = SS_EXIT_CLEAN;
    if (status < 0) {
        exit_code = SS_EXIT_ERROR;
    } else {
        int to_stdout = cli.output == NULL || strcmp(cli.output, "-") == 0;
        ss_text_options text = {0, 1};
        if (cli.color == 1)
            text.color = 1;
        else if (cli.color == -1)
            text.color = to_stdout && isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
        if (ss_report_write(cli.output, cli.format, &result, &text) != 0)
            exit_code = SS_EXIT_ERROR;
        else if (status > 0 && !cli.options.keep_going)
            exit_code = SS_EXIT_ERROR;
        else if (cli.fail_on >= 0 && ss_result_count_at_least(&result, cli.fail_on) > 0)
            exit_code = SS_EXIT_FINDINGS;
    }
    ss_result_free(&result);
    free(cli.inputs);
    free(cli.extra);
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
