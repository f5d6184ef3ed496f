/* main.c: the syncscope command: dispatches to the subcommand named by argv[1]. */
#include "cli.h"
#include "log.h"
#include "report.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The subcommands of cli/commands.def, in its order: ss_cli_<id> runs each. */
static int (*const subcommands[])(int argc, char **argv) = {
#define SS_COMMAND(id, summary, usage, description, exit_status) ss_cli_##id,
#include "commands.def"
};

static void usage(FILE *out)
{
    size_t n;
    const ss_command_info *commands = ss_cli_commands(&n);
    fprintf(out, "usage: syncscope <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nsyncscope <command> --help shows a command's options.\n");
}

const char *ss_cli_self_dir(void)
{
    static char dir[PATH_MAX];
    if (dir[0] == '\0') {
        ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
        if (n <= 0) {
            snprintf(dir, sizeof dir, ".");
        } else {
            dir[n] = '\0';
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = '\0';
        }
    }
    return dir;
}

/* --version: syncscope's version, then what it was built with: the libclang of lint, the CUDA
 * toolkit and CUPTI API of run (the first line alone is the version, for scripts). */
static void version(FILE *out)
{
    fprintf(out, "syncscope %s\n", SS_VERSION);
    ss_cli_version_libclang(out);
#ifdef SS_HAVE_INTERPOSER
    fprintf(out, "CUDA %s, CUPTI API %s (run)\n", SS_BUILT_CUDA, SS_BUILT_CUPTI);
#else
    fprintf(out, "CUDA: not built in (no run)\n");
#endif
}

/* Refuses the unknown command 'name', with the nearest command when one is near. */
static void unknown_command(const char *name)
{
    size_t n;
    const ss_command_info *commands = ss_cli_commands(&n);
    const char *names[16];
    for (size_t i = 0; i < n && i < 16; i++)
        names[i] = commands[i].name;
    const char *near = ss_suggest(name, names, n < 16 ? n : 16);
    if (near != NULL) {
        ss_log_error("unknown command '%s' (did you mean '%s'?)", name, near);
    } else {
        ss_log_error("unknown command '%s'", name);
        usage(stderr);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return SS_EXIT_ERROR;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        (strcmp(name, "help") == 0 && argc == 2)) {
        usage(stdout);
        return SS_EXIT_CLEAN;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        version(stdout);
        return SS_EXIT_CLEAN;
    }
    /* "syncscope help lint" is "syncscope lint --help". */
    int help = strcmp(name, "help") == 0 && argc == 3;
    if (help)
        name = argv[2];
    size_t n;
    const ss_command_info *commands = ss_cli_commands(&n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        if (help) {
            ss_cli_write_help(stdout, commands[i].bit);
            return SS_EXIT_CLEAN;
        }
        return subcommands[i](argc - 1, argv + 1);
    }
    unknown_command(name);
    return SS_EXIT_ERROR;
}
