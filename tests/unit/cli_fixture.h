/* cli_fixture.h: runs the built syncscope command from a unit suite, its output captured. */
#ifndef SS_CLI_FIXTURE_H
#define SS_CLI_FIXTURE_H

#include "log.h"
#include "report.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYNCSCOPE SS_BINARY_DIR "/cli/syncscope"

/* The whole content of 'path', NUL-terminated, malloc'ed (a lint of tests/lint as a folder
 * writes more than a megabyte). */
static inline char *cli_slurp(const char *path)
{
    FILE *in = fopen(path, "rb");
    ck_assert_msg(in != NULL, "cannot open %s", path);
    ck_assert_int_eq(fseek(in, 0, SEEK_END), 0);
    long size = ftell(in);
    ck_assert_int_ge(size, 0);
    rewind(in);
    char *buf = calloc(1, (size_t)size + 1);
    ck_assert_ptr_nonnull(buf);
    size_t n = fread(buf, 1, (size_t)size, in);
    ck_assert_int_eq((long)n, size);
    buf[n] = '\0';
    fclose(in);
    return buf;
}

/* Runs syncscope with the arguments 'lead' and then 'argv' (each NULL-terminated, without
 * the program name; 'lead' may be NULL) in the folder 'dir', with standard input from 'in'
 * (NULL: /dev/null) and standard output and error captured in 'capture'.stdout and
 * 'capture'.stderr (removed afterwards). Fills *out and *err (malloc'ed) and returns the exit
 * status; a run that did not exit fails the test. */
static inline int cli_run(const char *dir, const char *capture, const char *in,
                          const char *const *lead, const char *const *argv, char **out, char **err)
{
    char *out_path = ss_xasprintf("%s.stdout", capture);
    char *err_path = ss_xasprintf("%s.stderr", capture);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(127);
        int i = open(in ? in : "/dev/null", O_RDONLY);
        int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(i, 0);
        dup2(o, 1);
        dup2(e, 2);
        const char *args[64] = {SYNCSCOPE};
        size_t n = 1;
        for (size_t k = 0; lead && lead[k] && n < 63; k++)
            args[n++] = lead[k];
        for (size_t k = 0; argv[k] && n < 63; k++)
            args[n++] = argv[k];
        args[n] = NULL;
        execv(SYNCSCOPE, (char *const *)args);
        _exit(127);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    *out = cli_slurp(out_path);
    *err = cli_slurp(err_path);
    unlink(out_path);
    unlink(err_path);
    free(out_path);
    free(err_path);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

#endif
