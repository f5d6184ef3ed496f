/* run.c: `syncscope run [options] -- program args`: preloads libsyncscope.so into the program
 * and replaces this process with it, so that its exit status is the program's own. */
#include "cli.h"
#include "interpose.h"
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: syncscope run [options] [--] program [args...]\n"
            "\n"
            "Runs 'program' with the syncscope interposer and reports the implicit\n"
            "synchronizations it hits. Each option sets the variable named after it, which\n"
            "LD_PRELOAD=libsyncscope.so reads just the same (docs/run.md).\n"
            "\n"
            "options:\n"
            "  -o, --output FILE        result file (%s; default %s; %%p pid, %%h host,\n"
            "                           %%r rank, %%%% percent)\n"
            "  --format FMT             format of --output: json, sarif, text, github, gitlab,\n"
            "                           html (%s)\n"
            "  --sarif FILE             also write SARIF 2.1.0 to FILE (%s)\n"
            "  --trace FILE             write the event log for 'syncscope analyze' (%s)\n"
            "  --chrome-trace FILE      write a Chrome/Perfetto timeline (%s)\n"
            "  --max-memory SIZE        cap on capture memory, e.g. 512M, 2G (%s; default "
            "256M)\n"
            "  --no-kernel-activity     no per-kernel GPU records: less overhead for\n"
            "                           launch-bound programs, no kernel timeline (%s=0)\n"
            "  --min-blocked-us N       shortest blocking call reported (%s)\n"
            "  --readback-bytes N       largest device-to-host copy counted as a scalar\n"
            "                           readback (%s)\n"
            "  --slack-us N             tolerance when matching a call's return to the end\n"
            "                           of GPU work (%s)\n"
            "  --stack-us N             record the call stack of any call at least this long\n"
            "                           (%s; default %d; synchronizing calls always)\n"
            "  --no-latent              no notes for calls that synchronized but blocked less\n"
            "                           than --min-blocked-us (%s=0)\n"
            "  --attribute-to PATH      files under PATH are your own code: findings point at\n"
            "                           the innermost frame there (repeatable; %s)\n"
            "  --cupti PATH             libcupti.so to use, or its folder (%s)\n"
            "  -q, --quiet              no summary on stderr (%s=1)\n"
            "  -h, --help               this text\n"
            "\n"
            "Exit status: the program's own; 2 when it cannot be started.\n",
            SS_ENV_OUTPUT, SS_DEFAULT_OUTPUT, SS_ENV_FORMAT, SS_ENV_SARIF, SS_ENV_TRACE,
            SS_ENV_CHROME_TRACE, SS_ENV_MAX_MEMORY, SS_ENV_KERNEL_ACTIVITY, SS_ENV_MIN_BLOCKED_US,
            SS_ENV_READBACK_BYTES, SS_ENV_SLACK_US, SS_ENV_STACK_MIN_US, SS_DEFAULT_STACK_MIN_US,
            SS_ENV_LATENT, SS_ENV_ATTRIBUTE_TO, SS_ENV_CUPTI_PATH, SS_ENV_QUIET);
}

#ifdef SS_HAVE_INTERPOSER

/* How an option's value is checked before it is handed to the program's environment. */
typedef enum value_kind { VALUE_PATH, VALUE_FORMAT, VALUE_SIZE, VALUE_UINT } value_kind;

typedef struct value_option {
    const char *long_name;
    char short_name; /* 0: none */
    const char *variable;
    value_kind kind;
} value_option;

static const value_option value_options[] = {
    {"--output", 'o', SS_ENV_OUTPUT, VALUE_PATH},
    {"--format", 0, SS_ENV_FORMAT, VALUE_FORMAT},
    {"--sarif", 0, SS_ENV_SARIF, VALUE_PATH},
    {"--trace", 0, SS_ENV_TRACE, VALUE_PATH},
    {"--chrome-trace", 0, SS_ENV_CHROME_TRACE, VALUE_PATH},
    {"--max-memory", 0, SS_ENV_MAX_MEMORY, VALUE_SIZE},
    {"--min-blocked-us", 0, SS_ENV_MIN_BLOCKED_US, VALUE_UINT},
    {"--readback-bytes", 0, SS_ENV_READBACK_BYTES, VALUE_SIZE},
    {"--slack-us", 0, SS_ENV_SLACK_US, VALUE_UINT},
    {"--stack-us", 0, SS_ENV_STACK_MIN_US, VALUE_UINT},
    {"--cupti", 0, SS_ENV_CUPTI_PATH, VALUE_PATH},
};

/* Checks 'value' for option 'opt'. Returns 0, or -1 with a message printed. */
static int check_value(const value_option *opt, const char *value)
{
    uint64_t n;
    ss_format format;
    switch (opt->kind) {
    case VALUE_PATH:
        if (*value == '\0') {
            ss_log_error("%s needs a non-empty value", opt->long_name);
            return -1;
        }
        return 0;
    case VALUE_FORMAT:
        if (ss_format_parse(value, &format) < 0) {
            ss_log_error("%s '%s': expected json, sarif, text, github, gitlab or html",
                         opt->long_name, value);
            return -1;
        }
        return 0;
    case VALUE_SIZE:
        if (ss_interpose_parse_size(value, &n) < 0 ||
            (strcmp(opt->variable, SS_ENV_MAX_MEMORY) == 0 && n < SS_MIN_MAX_MEMORY)) {
            ss_log_error("%s '%s': expected a size such as 256M%s", opt->long_name, value,
                         strcmp(opt->variable, SS_ENV_MAX_MEMORY) == 0 ? " (at least 4M)" : "");
            return -1;
        }
        return 0;
    case VALUE_UINT:
        if (ss_interpose_parse_uint(value, &n) < 0) {
            ss_log_error("%s '%s': expected a whole number", opt->long_name, value);
            return -1;
        }
        return 0;
    }
    return -1;
}

/* Sets 'name' for the program; returns 0, or -1 with a message printed. */
static int set_variable(const char *name, const char *value)
{
    if (setenv(name, value, 1) != 0) {
        ss_log_error("cannot set %s: %s", name, strerror(errno));
        return -1;
    }
    return 0;
}

/* The libsyncscope.so that belongs to this syncscope, found from the folder of the running
 * executable only: beside it, in ../lib/syncscope (the installed layout: bin/syncscope,
 * lib/syncscope/), in ../lib, or in ../interpose (the build tree). Never a fixed path, so that
 * an installed copy cannot pick up the library of the tree it was built in. The finisher is
 * found beside the library that is chosen (interpose/capture.c). Returns 0 with the path in
 * 'out', else -1. */
static int find_library(char *out, size_t size)
{
    const char *dir = ss_cli_self_dir();
    const char *const relative[] = {"", "/../lib/syncscope", "/../lib", "/../interpose"};
    for (size_t i = 0; i < sizeof relative / sizeof relative[0]; i++) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s%s/%s", dir, relative[i], SS_INTERPOSE_LIBRARY);
        if (n <= 0 || (size_t)n >= sizeof path || access(path, R_OK) != 0)
            continue;
        if (realpath(path, out) != NULL && strlen(out) < size)
            return 0;
    }
    return -1;
}

/* Appends 'path' (made absolute against the current folder) to the ':'-separated list 'list'
 * ('size' bytes). Returns 0, or -1 with a message printed. */
static int add_attribute_path(char *list, size_t size, const char *path)
{
    if (*path == '\0' || strchr(path, ':') != NULL) {
        ss_log_error("--attribute-to '%s': expected a non-empty path without ':'", path);
        return -1;
    }
    char cwd[PATH_MAX];
    char *absolute = ss_path_normalize(getcwd(cwd, sizeof cwd) != NULL ? cwd : NULL, path);
    size_t used = strlen(list);
    int n = snprintf(list + used, size - used, "%s%s", used ? ":" : "", absolute);
    free(absolute);
    if (n < 0 || (size_t)n >= size - used) {
        ss_log_error("--attribute-to: the paths are too long together");
        return -1;
    }
    return 0;
}

int ss_cli_run(int argc, char **argv)
{
    int i = 1;
    char attribute_to[SS_CONFIG_PATH_MAX] = "";
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-')
            break;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return SS_EXIT_CLEAN;
        }
        if (strcmp(arg, "--no-kernel-activity") == 0) {
            if (set_variable(SS_ENV_KERNEL_ACTIVITY, "0") < 0)
                return SS_EXIT_ERROR;
            continue;
        }
        if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            if (set_variable(SS_ENV_QUIET, "1") < 0)
                return SS_EXIT_ERROR;
            continue;
        }
        if (strcmp(arg, "--no-latent") == 0) {
            if (set_variable(SS_ENV_LATENT, "0") < 0)
                return SS_EXIT_ERROR;
            continue;
        }
        if (strcmp(arg, "--attribute-to") == 0 || strncmp(arg, "--attribute-to=", 15) == 0) {
            const char *path = arg[14] == '=' ? arg + 15 : i + 1 < argc ? argv[++i] : NULL;
            if (path == NULL) {
                ss_log_error("%s needs a value", arg);
                return SS_EXIT_ERROR;
            }
            if (add_attribute_path(attribute_to, sizeof attribute_to, path) < 0)
                return SS_EXIT_ERROR;
            continue;
        }
        const value_option *opt = NULL;
        const char *value = NULL;
        for (size_t k = 0; k < sizeof value_options / sizeof value_options[0]; k++) {
            const value_option *o = &value_options[k];
            size_t len = strlen(o->long_name);
            if (strncmp(arg, o->long_name, len) == 0 && arg[len] == '=') {
                opt = o;
                value = arg + len + 1;
            } else if (strcmp(arg, o->long_name) == 0 ||
                       (o->short_name && arg[1] == o->short_name && arg[2] == '\0')) {
                opt = o;
                if (i + 1 >= argc) {
                    ss_log_error("%s needs a value", arg);
                    return SS_EXIT_ERROR;
                }
                value = argv[++i];
            }
            if (opt != NULL)
                break;
        }
        if (opt == NULL) {
            ss_log_error("unknown option '%s' (syncscope run --help lists them)", arg);
            return SS_EXIT_ERROR;
        }
        if (check_value(opt, value) < 0 || set_variable(opt->variable, value) < 0)
            return SS_EXIT_ERROR;
    }
    if (attribute_to[0] != '\0' && set_variable(SS_ENV_ATTRIBUTE_TO, attribute_to) < 0)
        return SS_EXIT_ERROR;
    if (i >= argc) {
        ss_log_error("no program to run");
        usage(stderr);
        return SS_EXIT_ERROR;
    }

    char library[PATH_MAX];
    if (find_library(library, sizeof library) < 0) {
        ss_log_error("%s not found beside %s (looked in ., ../lib/syncscope, ../lib, "
                     "../interpose); reinstall syncscope",
                     SS_INTERPOSE_LIBRARY, ss_cli_self_dir());
        return SS_EXIT_ERROR;
    }
    const char *old = getenv("LD_PRELOAD");
    char *preload = old != NULL && *old != '\0' ? ss_asprintf("%s:%s", library, old)
                                                : ss_asprintf("%s", library);
    int rc = set_variable("LD_PRELOAD", preload);
    free(preload);
    if (rc < 0)
        return SS_EXIT_ERROR;

    execvp(argv[i], &argv[i]);
    ss_log_error("cannot start '%s': %s", argv[i], strerror(errno));
    return SS_EXIT_ERROR;
}

#else

int ss_cli_run(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        usage(stdout);
        return SS_EXIT_CLEAN;
    }
    ss_log_error("'run' is not available in this build (it was configured without the CUDA "
                 "toolkit's CUPTI headers)");
    return SS_EXIT_ERROR;
}

#endif
