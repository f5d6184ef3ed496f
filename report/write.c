/* write.c: writes a result in a chosen format to stdout, or atomically to a file. */
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

int ss_report_write(const char *path, ss_format format, const ss_result *result,
                    const ss_text_options *options)
{
    if (path == NULL || strcmp(path, "-") == 0) {
        if (write_format(stdout, format, result, options) != 0 || fflush(stdout) != 0) {
            ss_log_error("cannot write the report to standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }

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
        ss_log_error("cannot write '%s': %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    struct stat st;
    mode_t mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : new_file_mode();
    FILE *out = fdopen(fd, "w");
    if (out == NULL) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        ss_log_error("cannot write '%s': %s", path, strerror(saved));
        free(tmp);
        return -1;
    }
    int failed = write_format(out, format, result, options) != 0;
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
    if (failed) {
        unlink(tmp);
        ss_log_error("cannot write '%s': %s", path, strerror(saved ? saved : EIO));
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
