/* run.c: `syncscope run [options] -- program args`: preloads libsyncscope.so into the program
 * and replaces this process with it, so that its exit status is the program's own; with
 * --error-exitcode it runs the program as its child and applies the gate (docs/run.md,
 * "Gates") to the exit status once the program has ended. */
#include "cli.h"
#include "detect.h"
#include "interpose.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
            "  -h, --help               this text\n",
            SS_ENV_OUTPUT, SS_DEFAULT_OUTPUT, SS_ENV_FORMAT, SS_ENV_SARIF, SS_ENV_TRACE,
            SS_ENV_CHROME_TRACE, SS_ENV_MAX_MEMORY, SS_ENV_KERNEL_ACTIVITY, SS_ENV_MIN_BLOCKED_US,
            SS_ENV_READBACK_BYTES, SS_ENV_SLACK_US, SS_ENV_STACK_MIN_US, SS_DEFAULT_STACK_MIN_US,
            SS_ENV_LATENT, SS_ENV_ATTRIBUTE_TO, SS_ENV_CUPTI_PATH, SS_ENV_QUIET);
    fprintf(out,
            "\n"
            "gates and scopes (docs/run.md, \"Gates\" and \"Scopes\"):\n"
            "  --error-exitcode N       exit N when the gate fails and the program itself\n"
            "                           exited 0 (%s)\n"
            "  --fail-on LEVEL          findings at or above LEVEL fail the gate: note,\n"
            "                           warning (default), error, none (%s)\n"
            "  --fail-over BUDGET       more blocked time than BUDGET fails the gate: a share\n"
            "                           of the wall time (2%%) or a duration (50ms)\n"
            "                           (%s)\n"
            "  --baseline FILE          leave out the findings FILE holds (%s)\n"
            "  --write-baseline FILE    record the findings in FILE (%s)\n"
            "  --profile-from-start on|off\n"
            "                           off: only calls between cudaProfilerStart and\n"
            "                           cudaProfilerStop count (%s)\n"
            "  --nvtx-range NAME        only calls inside NVTX ranges named NAME count\n"
            "                           (%s)\n"
            "  --no-nvtx                do not observe NVTX ranges (%s=0)\n"
            "\n"
            "Exit status: the program's own; with --error-exitcode, N when the program exited 0\n"
            "and the gate failed; 2 when it cannot be started.\n",
            SS_ENV_ERROR_EXITCODE, SS_ENV_FAIL_ON, SS_ENV_FAIL_OVER, SS_ENV_BASELINE,
            SS_ENV_WRITE_BASELINE, SS_ENV_PROFILE_FROM_START, SS_ENV_NVTX_RANGE, SS_ENV_NVTX);
}

#ifdef SS_HAVE_INTERPOSER

/* How an option's value is checked before it is handed to the program's environment. */
typedef enum value_kind {
    VALUE_PATH,
    VALUE_FORMAT,
    VALUE_SIZE,
    VALUE_UINT,
    VALUE_EXITCODE, /* 0 to 255 */
    VALUE_LEVEL,    /* a --fail-on level */
    VALUE_BUDGET,   /* a --fail-over budget */
    VALUE_BASELINE, /* a baseline file that loads */
    VALUE_SWITCH,   /* on or off */
    VALUE_NAME      /* a non-empty name, shorter than SS_CONFIG_NAME_MAX */
} value_kind;

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
    {"--error-exitcode", 0, SS_ENV_ERROR_EXITCODE, VALUE_EXITCODE},
    {"--fail-on", 0, SS_ENV_FAIL_ON, VALUE_LEVEL},
    {"--fail-over", 0, SS_ENV_FAIL_OVER, VALUE_BUDGET},
    {"--baseline", 0, SS_ENV_BASELINE, VALUE_BASELINE},
    {"--write-baseline", 0, SS_ENV_WRITE_BASELINE, VALUE_PATH},
    {"--profile-from-start", 0, SS_ENV_PROFILE_FROM_START, VALUE_SWITCH},
    {"--nvtx-range", 0, SS_ENV_NVTX_RANGE, VALUE_NAME},
};

/* Checks the gate, baseline and scope values of 'opt'. Returns 0, or -1 with a message
 * printed. */
static int check_gate_value(const value_option *opt, const char *value)
{
    uint64_t n;
    ss_gate gate;
    ss_gate_init(&gate);
    ss_baseline baseline;
    char err[1024];
    switch (opt->kind) {
    case VALUE_EXITCODE:
        if (ss_interpose_parse_uint(value, &n) == 0 && n <= 255)
            return 0;
        ss_log_error("%s '%s': expected an exit status from 0 to 255", opt->long_name, value);
        return -1;
    case VALUE_LEVEL:
        if (ss_gate_parse_fail_on(value, &gate) == 0)
            return 0;
        ss_log_error("%s '%s': expected note, warning, error or none", opt->long_name, value);
        return -1;
    case VALUE_BUDGET:
        if (ss_gate_parse_budget(value, &gate) == 0)
            return 0;
        ss_log_error("%s '%s': expected a share of the wall time such as 2%% or a duration such "
                     "as 50ms",
                     opt->long_name, value);
        return -1;
    case VALUE_BASELINE:
        /* Read now, so that a baseline that cannot be used stops the run before it starts. */
        if (ss_baseline_load(value, &baseline, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            return -1;
        }
        ss_baseline_free(&baseline);
        return 0;
    case VALUE_SWITCH:
        if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0)
            return 0;
        ss_log_error("%s '%s': expected on or off", opt->long_name, value);
        return -1;
    case VALUE_NAME:
        if (*value != '\0' && strlen(value) < SS_CONFIG_NAME_MAX)
            return 0;
        ss_log_error("%s: expected a name of 1 to %d bytes", opt->long_name,
                     SS_CONFIG_NAME_MAX - 1);
        return -1;
    default:
        return -1;
    }
}

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
    default:
        return check_gate_value(opt, value);
    }
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

/* The gate's exit status: SYNCSCOPE_ERROR_EXITCODE (--error-exitcode sets it), 0 when unset.
 * -1 with a message printed when it is not an exit status. */
static int error_exitcode(void)
{
    const char *text = getenv(SS_ENV_ERROR_EXITCODE);
    uint64_t n;
    if (text == NULL || *text == '\0')
        return 0;
    if (ss_interpose_parse_uint(text, &n) < 0 || n > 255) {
        ss_log_error("%s='%s' is not an exit status from 0 to 255", SS_ENV_ERROR_EXITCODE, text);
        return -1;
    }
    return (int)n;
}

/* The program's pid while run_gated waits for it, for the forwarded signals. */
static volatile sig_atomic_t child_pid;

/* SIGTERM and SIGHUP sent to syncscope go on to the program, which ends as it would without
 * syncscope (and writes its outputs); SIGINT and SIGQUIT from the terminal reach both anyway. */
static void forward_signal(int signo)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, signo);
}

/* The signals run_gated handles while it waits: forwarded, or ignored (the program gets them
 * from the terminal itself). */
static const struct {
    int signo;
    int forward;
} waited_signals[] = {{SIGTERM, 1}, {SIGHUP, 1}, {SIGINT, 0}, {SIGQUIT, 0}};

#define WAITED_SIGNALS (sizeof waited_signals / sizeof waited_signals[0])

/* Reads the verdicts in the gate file 'path': prints the failed ones and returns how many
 * processes failed, or -1 when no process judged the gate. */
static int read_verdicts(const char *path)
{
    size_t len = 0;
    char *text = ss_read_file(path, &len);
    if (text == NULL) {
        ss_log_error("cannot read the gate's verdicts from '%s': %s", path, ss_file_error());
        return -1;
    }
    int judged = 0, failed = 0;
    for (char *line = text; line < text + len && *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL)
            *end = '\0';
        long pid;
        const char *why;
        int verdict = ss_gate_parse_record(line, &pid, &why);
        if (verdict >= 0)
            judged++;
        if (verdict > 0) {
            failed++;
            ss_log_error("gate failed in process %ld: %s", pid, why);
        }
        if (end == NULL)
            break;
        line = end + 1;
    }
    free(text);
    return judged > 0 ? failed : -1;
}

/* Runs 'argv' (the environment already set) as a child, waits for it, and applies the gate
 * (docs/run.md, "Gates"): when the program exited 0 and a process of it failed the gate, the
 * exit status is 'exitcode'; otherwise it is the program's own, and a program that a signal
 * ended ends syncscope with the same signal. */
static int run_gated(char **argv, int exitcode)
{
    const char *tmp = getenv("TMPDIR");
    char *gate_path = ss_asprintf("%s/syncscope-gate-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    int fd = mkostemp(gate_path, O_CLOEXEC);
    if (fd < 0) {
        ss_log_error("cannot create the gate file '%s': %s", gate_path, strerror(errno));
        free(gate_path);
        return SS_EXIT_ERROR;
    }
    close(fd);
    if (set_variable(SS_ENV_GATE_FILE, gate_path) < 0) {
        unlink(gate_path);
        free(gate_path);
        return SS_EXIT_ERROR;
    }
    /* The signals are blocked from before the fork until their handlers are in place. */
    sigset_t waited, old_mask;
    sigemptyset(&waited);
    for (size_t k = 0; k < WAITED_SIGNALS; k++)
        sigaddset(&waited, waited_signals[k].signo);
    sigprocmask(SIG_BLOCK, &waited, &old_mask);
    pid_t pid = fork();
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        execvp(argv[0], argv);
        ss_log_error("cannot start '%s': %s", argv[0], strerror(errno));
        _exit(SS_EXIT_ERROR);
    }
    if (pid < 0) {
        ss_log_error("cannot start '%s': %s", argv[0], strerror(errno));
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        unlink(gate_path);
        free(gate_path);
        return SS_EXIT_ERROR;
    }
    child_pid = pid;
    struct sigaction old_actions[WAITED_SIGNALS];
    for (size_t k = 0; k < WAITED_SIGNALS; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = waited_signals[k].forward ? forward_signal : SIG_IGN;
        sigemptyset(&sa.sa_mask);
        sigaction(waited_signals[k].signo, &sa, &old_actions[k]);
    }
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    child_pid = 0;
    for (size_t k = 0; k < WAITED_SIGNALS; k++)
        sigaction(waited_signals[k].signo, &old_actions[k], NULL);

    int failed = read_verdicts(gate_path);
    unlink(gate_path);
    free(gate_path);
    if (WIFSIGNALED(status)) {
        int signo = WTERMSIG(status);
        signal(signo, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signo);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        raise(signo);
        return 128 + signo;
    }
    int own = WIFEXITED(status) ? WEXITSTATUS(status) : SS_EXIT_ERROR;
    if (own != 0)
        return own; /* the program's own failure is kept */
    if (failed < 0)
        ss_log_warning("no observed process judged the gate (did the program make a CUDA "
                       "call?): exit status 0");
    if (failed > 0) {
        ss_log_error("exit status %d (--error-exitcode): the gate failed", exitcode);
        return exitcode;
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
        if (strcmp(arg, "--no-nvtx") == 0) {
            if (set_variable(SS_ENV_NVTX, "0") < 0)
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

    int gate_exitcode = error_exitcode();
    if (gate_exitcode < 0)
        return SS_EXIT_ERROR;
    if (gate_exitcode > 0)
        return run_gated(&argv[i], gate_exitcode);
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
