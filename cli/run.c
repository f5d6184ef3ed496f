/* run.c: `syncscope run [options] -- program args`: preloads libsyncscope.so into the program
 * and replaces this process with it, so that its exit status is the program's own; with
 * --error-exitcode it runs the program as its child and applies the gate (docs/run.md,
 * "Gates") to the exit status once the program has ended. */
#include "cli.h"
#include "detect.h"
#include "files.h"
#include "interpose.h"
#include "log.h"
#include "path.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef SS_HAVE_INTERPOSER

/* The values settings.def leaves to the command that uses them (a budget, a baseline) are
 * checked here, before the program starts. Returns 0, or -1 with a message printed. */
static int check_gate_value(const ss_cli_given *given)
{
    if (given->opt == SS_OPT_SET_FAIL_OVER) {
        ss_gate gate;
        ss_gate_init(&gate);
        if (ss_gate_parse_budget(given->value, &gate) == 0)
            return 0;
        ss_cli_refuse(given, SS_VALUE_BUDGET);
        return -1;
    }
    if (given->opt == SS_OPT_SET_BASELINE) {
        /* Read now, so that a baseline that cannot be used stops the run before it starts. */
        ss_baseline baseline;
        char err[1024];
        if (ss_baseline_load(given->value, &baseline, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            return -1;
        }
        ss_baseline_free(&baseline);
    }
    if (given->opt == SS_OPT_SET_MODE || given->opt == SS_OPT_SET_SAMPLE) {
        /* Words and durations the interposer's own parser checks. */
        const ss_interpose_setting *setting =
            ss_interpose_setting_find(ss_cli_option(given->opt)->variable);
        ss_interpose_config *scratch = calloc(1, sizeof *scratch);
        char err[512];
        int rc = scratch == NULL
                     ? -1
                     : ss_interpose_setting_set(scratch, setting, given->value, err, sizeof err);
        free(scratch);
        if (rc < 0 && given->opt == SS_OPT_SET_MODE)
            ss_log_error("%s needs full or light (got '%s')", given->spelled, given->value);
        else if (rc < 0)
            ss_log_error("%s needs ON/EVERY, two durations with ms, s or m, ON at least 1ms and "
                         "shorter than EVERY, such as 5s/120s (got '%s')",
                         given->spelled, given->value);
        if (rc < 0)
            return -1;
    }
    return 0;
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
 * found beside the library that is chosen (interpose/capture_end.c). Returns 0 with the path in
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

/* Says that 'program' could not be started (errno from execvp) and returns the exit status of
 * env and timeout for it: 127 when it was not found, 126 when it was found but could not be
 * run. */
static int not_started(const char *program)
{
    int err = errno;
    ss_log_error("cannot start '%s': %s", program, strerror(err));
    return err == ENOENT || err == ENOTDIR ? SS_EXIT_NOT_FOUND : SS_EXIT_CANNOT_RUN;
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

/* Starts 'argv' (the environment already set) as a child and waits for it, the signals of
 * waited_signals forwarded or ignored meanwhile. Returns 0 with its wait status in '*status',
 * or -1 with a message printed when it cannot be started. */
static int wait_for_program(char **argv, int *status)
{
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
        _exit(not_started(argv[0]));
    }
    if (pid < 0) {
        ss_log_error("cannot start '%s': %s", argv[0], strerror(errno));
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return -1;
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
    *status = 0;
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
    }
    child_pid = 0;
    for (size_t k = 0; k < WAITED_SIGNALS; k++)
        sigaction(waited_signals[k].signo, &old_actions[k], NULL);
    return 0;
}

/* The exit status of the gated run: the program's own unless it exited 0 and 'failed'
 * processes failed the gate (then 'exitcode'), or none judged it ('failed' -1: then
 * SS_EXIT_UNOBSERVED, so that a job on a runner without a usable GPU does not pass); a program
 * that a signal ended ends syncscope with the same signal. */
static int gated_status(int status, int failed, int exitcode)
{
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
    if (failed < 0) {
        ss_log_error("no observed process judged the gate (no CUDA call was seen: no usable "
                     "GPU, CUPTI could not start, or the program makes none): exit status %d",
                     SS_EXIT_UNOBSERVED);
        return SS_EXIT_UNOBSERVED;
    }
    if (failed > 0) {
        ss_log_error("exit status %d (--error-exitcode): the gate failed", exitcode);
        return exitcode;
    }
    return 0;
}

/* Runs 'argv' (the environment already set) as a child, waits for it, and applies the gate
 * (docs/run.md, "Gates"): when the program exited 0 and a process of it failed the gate, the
 * exit status is 'exitcode', and when none judged it SS_EXIT_UNOBSERVED; otherwise it is the
 * program's own (gated_status). */
static int run_gated(char **argv, int exitcode)
{
    const char *tmp = getenv("TMPDIR");
    char *gate_path = ss_xasprintf("%s/syncscope-gate-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    int fd = mkostemp(gate_path, O_CLOEXEC);
    if (fd < 0) {
        ss_log_error("cannot create the gate file '%s': %s", gate_path, strerror(errno));
        free(gate_path);
        return SS_EXIT_ERROR;
    }
    close(fd);
    int status = 0;
    int rc = set_variable(SS_ENV_GATE_FILE, gate_path) < 0 || wait_for_program(argv, &status) < 0
                 ? SS_EXIT_ERROR
                 : -1;
    int failed = rc < 0 ? read_verdicts(gate_path) : 0;
    unlink(gate_path);
    free(gate_path);
    return rc < 0 ? gated_status(status, failed, exitcode) : rc;
}

/* Sets the variable of every option of 'args' for the program ('verbose': said on stderr);
 * the paths of --attribute-to are made absolute and joined with ':'. Returns 0, or -1 with a
 * message printed. */
static int set_variables(const ss_cli_args *args, int verbose)
{
    char attribute_to[SS_CONFIG_PATH_MAX] = "";
    const char *list_variable = NULL;
    for (size_t i = 0; i < args->given_count; i++) {
        const ss_cli_given *given = &args->given[i];
        const ss_option *row = ss_cli_option(given->opt);
        if (row->variable == NULL)
            continue;
        if (row->list) {
            list_variable = row->variable;
            if (add_attribute_path(attribute_to, sizeof attribute_to, given->value) < 0)
                return -1;
            continue;
        }
        const char *value = row->flag_value ? row->flag_value : given->value;
        if (check_gate_value(given) < 0 || set_variable(row->variable, value) < 0)
            return -1;
        if (verbose)
            ss_log_note("%s=%s", row->variable, value);
    }
    if (list_variable != NULL) {
        if (set_variable(list_variable, attribute_to) < 0)
            return -1;
        if (verbose)
            ss_log_note("%s=%s", list_variable, attribute_to);
    }
    return 0;
}

/* The runtime's wrappers beside the interposer 'library' (a measurement aid of the light mode,
 * docs/studies/performance.md, "The light mode's runtime calls without CUPTI"), for the
 * program only: when SYNCSCOPE_LIGHT_PROBE is wrap or switch (whose levels 4 and 5 use them)
 * and the build left libsyncscope_cudart.so beside it: its path after a ':' (to be freed),
 * else NULL. */
static char *runtime_wrappers(const char *library)
{
    const char *probe = getenv("SYNCSCOPE_LIGHT_PROBE");
    const char *slash = strrchr(library, '/');
    if (probe == NULL || slash == NULL ||
        (strcasecmp(probe, "wrap") != 0 && strcasecmp(probe, "switch") != 0))
        return NULL;
    char *wrappers =
        ss_xasprintf(":%.*s/%s", (int)(slash - library), library, SS_INTERPOSE_WRAPPERS);
    if (access(wrappers + 1, R_OK) == 0)
        return wrappers;
    free(wrappers);
    return NULL;
}

/* Preloads the interposer: LD_PRELOAD gets libsyncscope.so first (and the runtime's wrappers
 * after it, runtime_wrappers). Returns 0, or -1 with a message printed. */
static int preload(int verbose)
{
    char library[PATH_MAX];
    if (find_library(library, sizeof library) < 0) {
        ss_log_error("%s not found beside %s (looked in ., ../lib/syncscope, ../lib, "
                     "../interpose); reinstall syncscope",
                     SS_INTERPOSE_LIBRARY, ss_cli_self_dir());
        return -1;
    }
    const char *old = getenv("LD_PRELOAD");
    char *wrappers = runtime_wrappers(library);
    const char *after = wrappers != NULL ? wrappers : "";
    char *value = old != NULL && *old != '\0' ? ss_xasprintf("%s%s:%s", library, after, old)
                                              : ss_xasprintf("%s%s", library, after);
    free(wrappers);
    int rc = set_variable("LD_PRELOAD", value);
    if (rc == 0 && verbose)
        ss_log_note("LD_PRELOAD=%s", value);
    free(value);
    return rc;
}

/* Runs the program of 'args' under the interposer. Returns its exit status, or 2. */
static int run(const ss_cli_args *args)
{
    int verbose = ss_cli_has(args, SS_OPT_RUN_VERBOSE);
    if (set_variables(args, verbose) < 0)
        return SS_EXIT_ERROR;
    if (args->operand_count == 0) {
        ss_log_error("no program to run (see syncscope run --help)");
        return SS_EXIT_ERROR;
    }
    if (preload(verbose) < 0)
        return SS_EXIT_ERROR;
    int gate_exitcode = error_exitcode();
    if (gate_exitcode < 0)
        return SS_EXIT_ERROR;
    if (gate_exitcode > 0)
        return run_gated(args->operands, gate_exitcode);
    execvp(args->operands[0], args->operands);
    return not_started(args->operands[0]);
}

#endif

int ss_cli_run(int argc, char **argv)
{
    ss_cli_args args;
    int rc = ss_cli_parse(SS_CMD_RUN, argc, argv, 1, &args);
    int status = rc > 0 ? SS_EXIT_CLEAN : SS_EXIT_ERROR;
#ifdef SS_HAVE_INTERPOSER
    if (rc == 0)
        status = run(&args);
#else
    if (rc == 0)
        ss_log_error("'run' is not available in this build (it was configured without the CUDA "
                     "toolkit's CUPTI headers)");
#endif
    ss_cli_args_free(&args);
    return status;
}
