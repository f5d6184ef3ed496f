/* files.c: the tool's file output and input (files.h): atomic writes (results, traces,
 * baselines, cache entries), bounded reads of regular files only. */
#include "files.h"
#include "log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Why the last file operation of this thread failed (ss_file_error): a phrase such as "not a
 * regular file (a FIFO)" or strerror's text. */
static _Thread_local char file_error[160];

/* Records why a file operation failed and sets errno to 'errnum'. Returns -1. */
static int file_failed(int errnum, const char *why)
{
    snprintf(file_error, sizeof file_error, "%s", why ? why : strerror(errnum));
    errno = errnum;
    return -1;
}

const char *ss_file_error(void)
{
    return file_error[0] ? file_error : "no error";
}

const char *ss_file_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "an unknown kind of file";
}

/* Refuses a file that is not a regular one (errno EISDIR for a folder, else EINVAL). */
static int not_regular(mode_t mode)
{
    char why[64];
    snprintf(why, sizeof why, "not a regular file (%s)", ss_file_kind(mode));
    return file_failed(S_ISDIR(mode) ? EISDIR : EINVAL, why);
}

/* Refuses a file larger than 'max_bytes' (errno EFBIG). */
static int too_large(uint64_t max_bytes)
{
    char why[64];
    if (max_bytes >= (1ull << 30) && max_bytes % (1ull << 30) == 0)
        snprintf(why, sizeof why, "larger than %llu GiB", (unsigned long long)(max_bytes >> 30));
    else if (max_bytes >= (1ull << 20) && max_bytes % (1ull << 20) == 0)
        snprintf(why, sizeof why, "larger than %llu MiB", (unsigned long long)(max_bytes >> 20));
    else
        snprintf(why, sizeof why, "larger than %llu bytes", (unsigned long long)max_bytes);
    return file_failed(EFBIG, why);
}

int ss_file_open_read(const char *path, uint64_t max_bytes, unsigned flags)
{
    /* Looked at before it is opened: opening a device can have effects of its own, and
     * opening a FIFO waits for a writer. */
    struct stat st;
    int follow = !(flags & SS_FILE_NOFOLLOW);
    if ((follow ? stat(path, &st) : lstat(path, &st)) != 0)
        return file_failed(errno, NULL);
    if (!S_ISREG(st.st_mode))
        return not_regular(st.st_mode);
    /* O_NONBLOCK: should the name be swapped for a FIFO after the look, the open does not
     * wait; fstat then refuses what was opened. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return file_failed(errno, errno == ELOOP && !follow ? "not a regular file (a symbolic link)"
                                                            : NULL);
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = file_failed(errno, NULL);
    else if (!S_ISREG(st.st_mode))
        rc = not_regular(st.st_mode);
    else if ((uint64_t)st.st_size > max_bytes)
        rc = too_large(max_bytes);
    else {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
            rc = file_failed(errno, NULL);
    }
    if (rc < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

char *ss_read_file_max(const char *path, uint64_t max_bytes, unsigned flags, size_t *len)
{
    int fd = ss_file_open_read(path, max_bytes, flags);
    if (fd < 0)
        return NULL;
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    char *buf = ss_xreallocarray(NULL, cap, 1);
    size_t used = 0;
    for (;;) {
        if (cap - used < 2) {
            cap *= 2;
            buf = ss_xreallocarray(buf, cap, 1);
        }
        ssize_t n = read(fd, buf + used, cap - used - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int saved = errno;
            close(fd);
            free(buf);
            file_failed(saved ? saved : EIO, NULL);
            return NULL;
        }
        if (n == 0)
            break;
        used += (size_t)n;
        /* The file grew after it was measured: the limit holds for what is read. */
        if (used > max_bytes) {
            close(fd);
            free(buf);
            too_large(max_bytes);
            return NULL;
        }
    }
    close(fd);
    buf[used] = '\0';
    *len = used;
    return buf;
}

char *ss_read_file(const char *path, size_t *len)
{
    return ss_read_file_max(path, SS_READ_MAX_BYTES, 0, len);
}

char *ss_read_file_err(const char *path, size_t *len, char *err, size_t err_size)
{
    char *text = ss_read_file(path, len);
    if (text == NULL)
        ss_set_error(err, err_size, "%s: %s", path, ss_file_error());
    return text;
}

ssize_t ss_read_prefix(const char *path, void *buf, size_t size)
{
    int fd = ss_file_open_read(path, UINT64_MAX, 0);
    if (fd < 0)
        return -1;
    size_t used = 0;
    while (used < size) {
        ssize_t n = read(fd, (char *)buf + used, size - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int saved = errno;
            close(fd);
            return file_failed(saved, NULL);
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    return (ssize_t)used;
}

/* ---- writing ---- */

/* The permissions that a newly created file receives (0666 less the umask), read without
 * changing the process's umask (which another thread might rely on). */
static mode_t new_file_mode(void)
{
    mode_t mask = 022;
    FILE *status = fopen("/proc/self/status", "re");
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

/* Records the failure of a write and returns 'status'. */
static ss_write_status write_failed(ss_write_status status, int errnum, const char *why)
{
    file_failed(errnum ? errnum : EIO, why);
    return status;
}

/* The temporary names of replace_file: ".NAME.syncscope-PID-HOST.XXXXXX" beside NAME, so that
 * a writer killed while its file had a name (SIGKILL, a second signal) leaves one that the
 * next write into the folder recognizes as stale: this host's, of a process that is gone. */
#define TEMP_TAG ".syncscope-"

/* This host's name, "" when it has none. */
static const char *host_name(char *buf, size_t size)
{
    if (gethostname(buf, size) != 0)
        buf[0] = '\0';
    buf[size - 1] = '\0';
    return buf;
}

/* Removes the temporary files that writers of this host left in 'dir' (NULL: the current
 * folder) when they were killed: names of the form above whose host is this one and whose
 * process no longer exists, regular files owned by this user. A file of a live process, of
 * another host (a shared folder) or of another user is left alone. */
static void sweep_stale(const char *dir)
{
    DIR *d = opendir(dir ? dir : ".");
    if (d == NULL)
        return;
    char host[256];
    host_name(host, sizeof host);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        size_t len = strlen(name);
        const char *tag = NULL;
        for (const char *p = strstr(name, TEMP_TAG); p != NULL; p = strstr(p + 1, TEMP_TAG))
            tag = p;
        if (name[0] != '.' || tag == NULL || tag == name || len < 8 || name[len - 7] != '.')
            continue;
        char *digits_end;
        long pid = strtol(tag + strlen(TEMP_TAG), &digits_end, 10);
        const char *their_host = digits_end + 1;
        size_t host_len = (size_t)(name + len - 7 - their_host);
        if (pid <= 0 || *digits_end != '-' || their_host > name + len - 7 ||
            host_len != strlen(host) || strncmp(their_host, host, host_len) != 0 ||
            (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == getuid())
            unlinkat(dirfd(d), name, 0);
    }
    closedir(d);
}

/* Six characters for a temporary name, different at each call. */
static void temp_suffix(char out[7])
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static _Atomic unsigned long counter;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long v = (unsigned long)now.tv_nsec ^ ((unsigned long)now.tv_sec << 20) ^
                      ((unsigned long)getpid() << 32) ^ (++counter * 0x9E3779B97F4A7C15ul);
    for (int i = 0; i < 6; i++) {
        out[i] = digits[v % 62];
        v /= 62;
    }
    out[6] = '\0';
}

/* The temporary name for 'path' ('dir_len' bytes of folder before its name): ".NAME.syncscope-
 * PID-HOST.XXXXXX" with a fresh suffix, or without the tag where the name would pass
 * NAME_MAX. Malloc'ed. */
static char *temp_name(const char *path, size_t dir_len, const char *base)
{
    char host[256], suffix[7];
    host_name(host, sizeof host);
    temp_suffix(suffix);
    char *tmp = ss_xasprintf("%.*s.%s" TEMP_TAG "%ld-%s.%s", (int)dir_len, path, base,
                             (long)getpid(), host, suffix);
    if (strlen(tmp) - dir_len > NAME_MAX) {
        free(tmp);
        tmp = ss_xasprintf("%.*s.%s.%s", (int)dir_len, path, base, suffix);
    }
    return tmp;
}

/* Gives the unnamed file 'fd' (O_TMPFILE) the name 'path': linked there directly when the name
 * is free, else linked under a temporary name beside it and renamed over it, so that only the
 * moment between the two has a temporary name. Returns 0, or -1 with errno set. */
static int publish_unnamed(int fd, const char *path, size_t dir_len, const char *base)
{
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno != EEXIST)
        return -1;
    for (int attempt = 0; attempt < 100; attempt++) {
        char *tmp = temp_name(path, dir_len, base);
        if (linkat(AT_FDCWD, self, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) != 0) {
            int saved = errno;
            free(tmp);
            if (saved == EEXIST)
                continue;
            errno = saved;
            return -1;
        }
        int rc = rename(tmp, path);
        int saved = errno;
        if (rc != 0)
            unlink(tmp);
        free(tmp);
        errno = saved;
        return rc;
    }
    errno = EEXIST;
    return -1;
}

/* Opens the file that replace_file writes: an unnamed file in the folder (O_TMPFILE, where the
 * file system and /proc allow it: nothing is left behind if the process dies while writing),
 * else a new temporary name (mkostemp's O_EXCL: a name planted in the folder, a symbolic link
 * included, is never opened). Sets '*tmp' to the name, or NULL for an unnamed file. Returns the
 * descriptor, or -1 with errno set. */
static int open_temp(const char *path, size_t dir_len, const char *base, char **tmp)
{
    *tmp = NULL;
    char *dir = dir_len > 0 ? ss_xasprintf("%.*s", (int)dir_len, path) : ss_xstrdup(".");
    int fd = access("/proc/self/fd", X_OK) == 0
                 ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, S_IRUSR | S_IWUSR)
                 : -1;
    free(dir);
    if (fd >= 0)
        return fd;
    for (int attempt = 0; attempt < 100; attempt++) {
        *tmp = temp_name(path, dir_len, base);
        fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
        if (fd >= 0 || errno != EEXIST)
            break;
        free(*tmp);
        *tmp = NULL;
    }
    if (fd < 0) {
        int saved = errno;
        free(*tmp);
        *tmp = NULL;
        errno = saved;
    }
    return fd;
}

/* Writes 'path' (a regular file or a name not taken) through a file in the same folder that
 * is flushed, synced, given 'mode' and then named 'path' (open_temp, publish_unnamed, or a
 * rename). The stale temporary files of killed writers in that folder are removed first. */
static ss_write_status replace_file(const char *path, mode_t mode, ss_write_fn write, void *context)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = path + dir_len;
    if (dir_len > 0) {
        char *dir = ss_xasprintf("%.*s", (int)dir_len, path);
        sweep_stale(dir);
        free(dir);
    } else {
        sweep_stale(NULL);
    }
    char *tmp;
    int fd = open_temp(path, dir_len, base, &tmp);
    if (fd < 0)
        return write_failed(SS_WRITE_CREATE_FAILED, errno, NULL);
    FILE *out = fdopen(fd, "w");
    if (out == NULL) {
        int saved = errno;
        close(fd);
        if (tmp)
            unlink(tmp);
        free(tmp);
        return write_failed(SS_WRITE_FAILED, saved, NULL);
    }
    errno = 0;
    int failed = write(out, context) != 0;
    int saved = errno;
    if (!failed &&
        (fflush(out) != 0 || fsync(fileno(out)) != 0 || fchmod(fileno(out), mode) != 0)) {
        failed = 1;
        saved = errno;
    }
    if (!failed && tmp == NULL && publish_unnamed(fileno(out), path, dir_len, base) != 0) {
        failed = 1;
        saved = errno;
    }
    if (fclose(out) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && tmp != NULL && rename(tmp, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed && tmp != NULL)
        unlink(tmp);
    free(tmp);
    if (failed)
        return write_failed(SS_WRITE_FAILED, saved, NULL);
    errno = 0;
    return SS_WRITE_OK;
}

/* Writes into the open descriptor 'fd' (closed here) as it is: a terminal, a pipe, a FIFO,
 * a device, or a standard stream. SIGPIPE is held back while writing, so that a reader that
 * went away fails the write (EPIPE) instead of killing the process, which matters when the
 * process is a program observed by `syncscope run`. */
static ss_write_status write_into(int fd, ss_write_fn write, void *context)
{
    sigset_t pipe_only, before, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &before);
    int was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
    FILE *out = fdopen(fd, "w");
    int failed = 0, saved = 0;
    if (out == NULL) {
        saved = errno;
        close(fd);
        failed = 1;
    } else {
        errno = 0;
        failed = write(out, context) != 0;
        saved = errno;
        if (!failed && fflush(out) != 0) {
            failed = 1;
            saved = errno;
        }
        if (fclose(out) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
    }
    if (!was_pending && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
        struct timespec now = {0, 0};
        sigtimedwait(&pipe_only, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (failed)
        return write_failed(SS_WRITE_FAILED, saved, NULL);
    errno = 0;
    return SS_WRITE_OK;
}

/* The descriptor that "/dev/stdout", "/dev/stderr", "/dev/fd/N" or "/proc/self/fd/N" name,
 * or -1 for any other path. Such a name is written through the descriptor the process
 * already has, as `-` is: reopening it would start at offset 0 of a redirected file, or
 * fail for a socket. */
static int standard_stream(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *digits = NULL;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        digits = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        digits = path + 14;
    if (digits == NULL || digits[0] < '0' || digits[0] > '9' || strlen(digits) > 9)
        return -1;
    int fd = 0;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        fd = fd * 10 + (*p - '0');
    }
    return fd;
}

/* The permissions a replaced file keeps of 'mode': set-user and set-group ids are not carried
 * over, as the kernel clears them when another user writes to the file. */
static mode_t kept_mode(mode_t mode)
{
    return mode & 07777 & ~(mode_t)(S_ISUID | S_ISGID);
}

/* Writes through the symbolic link 'path' to the regular file it names ('st', as stat gave
 * it): that file is replaced, the link stays. Opening the link first lets the kernel's rules
 * on following links (protected_symlinks) decide. */
static ss_write_status replace_link_target(const char *path, const struct stat *st,
                                           ss_write_fn write, void *context)
{
    int probe = open(path, O_PATH | O_CLOEXEC);
    if (probe < 0)
        return write_failed(SS_WRITE_REFUSED, errno, NULL);
    close(probe);
    char *target = realpath(path, NULL);
    if (target == NULL)
        return write_failed(SS_WRITE_REFUSED, errno, NULL);
    ss_write_status status = replace_file(target, kept_mode(st->st_mode), write, context);
    int saved = errno;
    free(target);
    errno = saved;
    return status;
}

/* Writes to the character device, FIFO or socket 'path' as a shell redirection would: opened
 * as it is, never created, truncated or replaced. A FIFO waits for its reader. */
static ss_write_status write_special(const char *path, ss_write_fn write, void *context)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return write_failed(SS_WRITE_FAILED, errno, NULL);
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
        close(fd);
        return write_failed(SS_WRITE_REFUSED, EAGAIN, "changed while it was being opened");
    }
    return write_into(fd, write, context);
}

ss_write_status ss_write_file(const char *path, unsigned flags, ss_write_fn write, void *context)
{
    int follow = !(flags & SS_FILE_NOFOLLOW);
    int stream = follow ? standard_stream(path) : -1;
    if (stream >= 0) {
        int fd = fcntl(stream, F_DUPFD_CLOEXEC, 3);
        if (fd < 0)
            return write_failed(SS_WRITE_FAILED, errno, NULL);
        return write_into(fd, write, context);
    }
    struct stat st;
    if (lstat(path, &st) != 0)
        return replace_file(path, new_file_mode(), write, context); /* a new file */
    if (S_ISREG(st.st_mode))
        return replace_file(path, kept_mode(st.st_mode), write, context);
    if (S_ISLNK(st.st_mode) && !follow)
        return replace_file(path, new_file_mode(), write, context); /* the link is replaced */
    if (S_ISLNK(st.st_mode)) {
        if (stat(path, &st) != 0)
            return write_failed(SS_WRITE_REFUSED, errno,
                                errno == ENOENT ? "a symbolic link to a file that does not exist"
                                                : NULL);
        if (S_ISREG(st.st_mode))
            return replace_link_target(path, &st, write, context);
    }
    if (S_ISDIR(st.st_mode))
        return write_failed(SS_WRITE_REFUSED, EISDIR, "is a directory");
    if (!follow || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        char why[64];
        snprintf(why, sizeof why, "is %s", ss_file_kind(st.st_mode));
        return write_failed(SS_WRITE_REFUSED, EINVAL, why);
    }
    return write_special(path, write, context);
}

ss_write_status ss_write_atomic(const char *path, ss_write_fn write, void *context)
{
    return ss_write_file(path, 0, write, context);
}

/* The format and options of a result being written, for write_result. */

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
        ss_log_error("cannot write '%s': %s", path, ss_file_error());
        return -1;
    }
    return 0;
}
