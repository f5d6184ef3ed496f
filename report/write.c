/* write.c: the tool's file output and input: atomic writes (results, traces, baselines),
 * whole-file reads, and writing a result in a chosen format. */
#include "report_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_format(FILE *out, ss_format format, const ss_result *result,
                        const ss_text_options *options)
{
    switch (format) {
    case SS_FORMAT_TEXT:
        return ss_report_write_text(out, result, options);
    case SS_FORMAT_JSON:
        return ss_report_write_json(out, result);
    case SS_FORMAT_SARIF:
        return ss_report_write_sarif(out, result);
    case SS_FORMAT_GITHUB:
        return ss_report_write_github(out, result);
    case SS_FORMAT_HTML: {
        /* One result, no timeline: `syncscope report` adds traces and merges processes. */
        const ss_result *one = result;
        return ss_report_write_html(out, &one, 1, NULL);
    }
    default:
        errno = EINVAL;
        return -1;
    }
}

/* The permissions that a newly created file receives (0666 less the umask), read without
 * changing the process's umask (which another thread might rely on). */
static mode_t new_file_mode(void)
{
    mode_t mask = 022;
    FILE *status = fopen("/proc/self/status", "r");
    if (status) {
        char line[256];
        while (fgets(line, sizeof line, status)) {
            unsigned m;
            if (sscanf(line, "Umask: %o", &m) == 1) {
                mask = (mode_t)m;
                break;
            }
        }
        fclose(status);
    }
    return 0666 & ~mask;
}

ss_write_status ss_write_atomic(const char *path, ss_write_fn write, void *context)
{
    /* A temporary file beside the target, so that rename() is atomic and readers see
     * either the old file or the whole new one. */
    const char *slash = strrchr(path, '/');
    char *tmp;
    if (slash)
        tmp = ss_asprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
    else
        tmp = ss_asprintf(".%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int saved = errno;
        free(tmp);
        errno = saved;
        return SS_WRITE_CREATE_FAILED;
    }
    struct stat st;
    mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : new_file_mode();
    FILE *out = fdopen(fd, "w");
    if (out == NULL) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        errno = saved;
        return SS_WRITE_FAILED;
    }
    errno = 0;
    int failed = write(out, context) != 0;
    int saved = errno;
    if (!failed &&
        (fflush(out) != 0 || fsync(fileno(out)) != 0 || fchmod(fileno(out), mode) != 0)) {
        failed = 1;
        saved = errno;
    }
    if (fclose(out) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed)
        unlink(tmp);
    free(tmp);
    errno = failed ? (saved ? saved : EIO) : 0;
    return failed ? SS_WRITE_FAILED : SS_WRITE_OK;
}

char *ss_read_file(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return NULL;
    char *buf = NULL;
    size_t used = 0, cap = 0;
    for (;;) {
        if (cap - used < 4096 + 1) {
            cap = cap ? cap * 2 : 65536;
            buf = ss_reallocarray(buf, cap, 1);
        }
        size_t n = fread(buf + used, 1, cap - used - 1, in);
        used += n;
        if (n == 0)
            break;
    }
    int error = ferror(in);
    int saved = errno;
    fclose(in);
    if (error) {
        free(buf);
        errno = saved ? saved : EIO;
        return NULL;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}

/* The format and options of a result being written, for write_result. */
typedef struct result_output {
    ss_format format;
    const ss_result *result;
    const ss_text_options *options;
} result_output;

static int write_result(FILE *out, void *context)
{
    const result_output *r = context;
    return write_format(out, r->format, r->result, r->options);
}

int ss_write_output(const char *path, ss_write_fn write, void *context)
{
    if (path == NULL || strcmp(path, "-") == 0) {
        if (write(stdout, context) != 0 || fflush(stdout) != 0) {
            ss_log_error("cannot write the report to standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    if (ss_write_atomic(path, write, context) != SS_WRITE_OK) {
        ss_log_error("cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int ss_report_write(const char *path, ss_format format, const ss_result *result,
                    const ss_text_options *options)
{
    result_output r = {format, result, options};
    return ss_write_output(path, write_result, &r);
}
