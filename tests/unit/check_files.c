/* check_files.c: what the tool writes to and reads from: output paths by kind (regular file,
 * FIFO, device, link, folder), the cache folder, and inputs that are not regular files or are
 * too large, through the helpers and through `syncscope` end to end. Run as root, as CI is:
 * some cases make device nodes. */
#include "check_main.h"
#include "cli_fixture.h"
#include "files.h"
#include "log.h"
#include "report.h"
#ifdef SS_FILES_ANALYZER
#include "internal.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static char work[64];

static void make_work(void)
{
    snprintf(work, sizeof work, "/tmp/ss-check-files-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(work));
}

static void remove_work(void)
{
    char *cmd = ss_xasprintf("rm -rf '%s'", work);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* WORK/'name', malloc'ed. */
static char *at(const char *name)
{
    return ss_xasprintf("%s/%s", work, name);
}

static void put(const char *name, const char *text)
{
    char *path = at(name);
    FILE *out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fputs(text, out);
    ck_assert_int_eq(fclose(out), 0);
    free(path);
}

/* The file type bits of 'path' as lstat sees it. */
static mode_t kind_of(const char *path)
{
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    return st.st_mode & S_IFMT;
}

/* Number of entries of WORK, "." and ".." not counted. */
static int entries(void)
{
    char *cmd = ss_xasprintf("ls -A '%s' | wc -l", work);
    FILE *p = popen(cmd, "r");
    int n = -1;
    ck_assert_int_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    free(cmd);
    return n;
}

/* Makes WORK/'name' a character device that behaves as /dev/null (as root); falls back to a
 * link to /dev/null where device nodes cannot be made. Returns the path, malloc'ed. */
static char *make_null_device(const char *name)
{
    char *path = at(name);
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0)
        ck_assert_int_eq(symlink("/dev/null", path), 0);
    return path;
}

static int put_text(FILE *out, void *text)
{
    return fputs(text, out) < 0 ? -1 : 0;
}

/* Reads the FIFO 'fifo' in a child process into 'copy' until its writer closes it. */
static pid_t start_reader(const char *fifo, const char *copy)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int in = open(fifo, O_RDONLY);
        int out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        char buf[4096];
        ssize_t n;
        while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, (size_t)n) != n)
                _exit(1);
        _exit(in >= 0 && out >= 0 ? 0 : 1);
    }
    return pid;
}

static void wait_ok(pid_t pid)
{
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}

/* ---- writing, through ss_write_file ---- */

START_TEST(test_write_regular_keeps_mode)
{
    make_work();
    char *path = at("out.txt");
    umask(027);
    ck_assert_int_eq(ss_write_atomic(path, put_text, "new\n"), SS_WRITE_OK);
    ck_assert_int_eq(kind_of(path), S_IFREG);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    /* An existing file keeps its permissions, less set-user and set-group ids. */
    ck_assert_int_eq(chmod(path, 06751), 0);
    ck_assert_int_eq(ss_write_atomic(path, put_text, "again\n"), SS_WRITE_OK);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0751);
    char *text = cli_slurp(path);
    ck_assert_str_eq(text, "again\n");
    ck_assert_int_eq(entries(), 1);
    umask(022);
    free(text);
    free(path);
    remove_work();
}
END_TEST

START_TEST(test_write_fifo_stays_fifo)
{
    make_work();
    char *fifo = at("pipe"), *copy = at("copy");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t reader = start_reader(fifo, copy);
    ck_assert_int_eq(ss_write_atomic(fifo, put_text, "through the pipe\n"), SS_WRITE_OK);
    wait_ok(reader);
    ck_assert_int_eq(kind_of(fifo), S_IFIFO);
    char *text = cli_slurp(copy);
    ck_assert_str_eq(text, "through the pipe\n");
    ck_assert_int_eq(entries(), 2); /* no temporary file left */
    free(text);
    free(fifo);
    free(copy);
    remove_work();
}
END_TEST

START_TEST(test_write_device_and_link_to_device)
{
    make_work();
    char *null = make_null_device("null"), *link = at("link");
    mode_t null_kind = kind_of(null);
    ck_assert_int_eq(ss_write_atomic(null, put_text, "gone\n"), SS_WRITE_OK);
    ck_assert_int_eq(kind_of(null), null_kind);
    ck_assert_int_eq(symlink(null, link), 0);
    ck_assert_int_eq(ss_write_atomic(link, put_text, "gone\n"), SS_WRITE_OK);
    ck_assert_int_eq(kind_of(link), S_IFLNK);
    ck_assert_int_eq(kind_of(null), null_kind);
    struct stat st;
    ck_assert_int_eq(stat(link, &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    ck_assert_int_eq(entries(), 2);
    free(null);
    free(link);
    remove_work();
}
END_TEST

START_TEST(test_write_link_to_file_replaces_the_file)
{
    make_work();
    char *file = at("real.json"), *link = at("latest.json");
    put("real.json", "old\n");
    ck_assert_int_eq(chmod(file, 0600), 0);
    ck_assert_int_eq(symlink("real.json", link), 0);
    ck_assert_int_eq(ss_write_atomic(link, put_text, "new\n"), SS_WRITE_OK);
    ck_assert_int_eq(kind_of(link), S_IFLNK);
    char target[64] = "";
    ck_assert_int_eq(readlink(link, target, sizeof target - 1), 9);
    ck_assert_str_eq(target, "real.json");
    char *text = cli_slurp(file);
    ck_assert_str_eq(text, "new\n");
    struct stat st;
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0600);
    ck_assert_int_eq(entries(), 2);
    free(text);
    free(file);
    free(link);
    remove_work();
}
END_TEST

START_TEST(test_write_refusals)
{
    make_work();
    char *dir = at("folder"), *dangling = at("dangling");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    errno = 0;
    ck_assert_int_eq(ss_write_atomic(dir, put_text, "x"), SS_WRITE_REFUSED);
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_str_eq(ss_file_error(), "is a directory");
    ck_assert_int_eq(kind_of(dir), S_IFDIR);

    ck_assert_int_eq(symlink("missing.txt", dangling), 0);
    ck_assert_int_eq(ss_write_atomic(dangling, put_text, "x"), SS_WRITE_REFUSED);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_str_eq(ss_file_error(), "a symbolic link to a file that does not exist");
    ck_assert_int_eq(kind_of(dangling), S_IFLNK);
    ck_assert_int_eq(entries(), 2); /* no missing.txt, no temporary file */

    char *block = at("block");
    if (mknod(block, S_IFBLK | 0600, makedev(7, 200)) == 0) {
        ck_assert_int_eq(ss_write_atomic(block, put_text, "x"), SS_WRITE_REFUSED);
        ck_assert_str_eq(ss_file_error(), "is a block device");
        ck_assert_int_eq(kind_of(block), S_IFBLK);
    }
    free(block);
    free(dir);
    free(dangling);
    remove_work();
}
END_TEST

START_TEST(test_write_nofollow)
{
    /* The tool's own folders: a link is replaced by the file, never followed; a FIFO is
     * refused. */
    make_work();
    char *victim = at("victim"), *link = at("entry.json"), *fifo = at("fifo.json");
    put("victim", "precious\n");
    ck_assert_int_eq(symlink(victim, link), 0);
    ck_assert_int_eq(ss_write_file(link, SS_FILE_NOFOLLOW, put_text, "entry\n"), SS_WRITE_OK);
    ck_assert_int_eq(kind_of(link), S_IFREG);
    char *text = cli_slurp(victim);
    ck_assert_str_eq(text, "precious\n");
    free(text);
    text = cli_slurp(link);
    ck_assert_str_eq(text, "entry\n");
    free(text);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(ss_write_file(fifo, SS_FILE_NOFOLLOW, put_text, "x"), SS_WRITE_REFUSED);
    ck_assert_str_eq(ss_file_error(), "is a FIFO");
    ck_assert_int_eq(kind_of(fifo), S_IFIFO);
    ck_assert_int_eq(entries(), 3);
    free(victim);
    free(link);
    free(fifo);
    remove_work();
}
END_TEST

START_TEST(test_write_standard_stream_names)
{
    /* "/dev/fd/N" and "/proc/self/fd/N" write through the descriptor, at its offset: what
     * the process wrote before and after stays around the report. */
    make_work();
    char *log = at("log");
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "before\n", 7), 7);
    char *name = ss_xasprintf("/dev/fd/%d", fd);
    ck_assert_int_eq(ss_write_atomic(name, put_text, "report\n"), SS_WRITE_OK);
    free(name);
    name = ss_xasprintf("/proc/self/fd/%d", fd);
    ck_assert_int_eq(ss_write_atomic(name, put_text, "again\n"), SS_WRITE_OK);
    free(name);
    ck_assert_int_eq(write(fd, "after\n", 6), 6);
    close(fd);
    char *text = cli_slurp(log);
    ck_assert_str_eq(text, "before\nreport\nagain\nafter\n");
    ck_assert_int_eq(kind_of(log), S_IFREG);
    ck_assert_int_eq(entries(), 1);
    free(text);
    free(log);
    remove_work();
}
END_TEST

START_TEST(test_write_closed_fifo_does_not_kill)
{
    /* A reader that goes away fails the write (EPIPE) instead of killing the process with
     * SIGPIPE: the interposer writes inside the observed program. */
    make_work();
    char *fifo = at("pipe");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t reader = fork();
    ck_assert_int_ge(reader, 0);
    if (reader == 0) {
        int in = open(fifo, O_RDONLY);
        _exit(in >= 0 ? 0 : 1); /* opens, then leaves without reading */
    }
    static char big[1 << 20];
    memset(big, 'x', sizeof big - 1);
    ck_assert_int_eq(ss_write_atomic(fifo, put_text, big), SS_WRITE_FAILED);
    ck_assert_int_eq(errno, EPIPE);
    ck_assert_str_eq(ss_file_error(), strerror(EPIPE));
    wait_ok(reader);
    sigset_t pending;
    ck_assert_int_eq(sigpending(&pending), 0);
    ck_assert(!sigismember(&pending, SIGPIPE));
    free(fifo);
    remove_work();
}
END_TEST

/* ---- reading, through ss_read_file and its kin ---- */

START_TEST(test_read_refuses_what_is_not_regular)
{
    make_work();
    char *fifo = at("fifo"), *zero = at("zero"), *dir = at("dir");
    size_t len = 0;
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    /* No writer: a blocking open would wait for ever (the test's TIMEOUT). */
    errno = 0;
    ck_assert_ptr_null(ss_read_file(fifo, &len));
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_str_eq(ss_file_error(), "not a regular file (a FIFO)");
    char head[8];
    ck_assert_int_eq(ss_read_prefix(fifo, head, sizeof head), -1);
    ck_assert_str_eq(ss_file_error(), "not a regular file (a FIFO)");

    ck_assert_int_eq(symlink("/dev/zero", zero), 0);
    ck_assert_ptr_null(ss_read_file(zero, &len));
    ck_assert_str_eq(ss_file_error(), "not a regular file (a character device)");
    ck_assert_ptr_null(ss_read_file("/dev/zero", &len));
    ck_assert_str_eq(ss_file_error(), "not a regular file (a character device)");

    ck_assert_int_eq(mkdir(dir, 0755), 0);
    ck_assert_ptr_null(ss_read_file(dir, &len));
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_str_eq(ss_file_error(), "not a regular file (a directory)");

    ck_assert_ptr_null(ss_read_file("/nonexistent/x", &len));
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_str_eq(ss_file_error(), "No such file or directory");
    free(fifo);
    free(zero);
    free(dir);
    remove_work();
}
END_TEST

START_TEST(test_read_limits)
{
    make_work();
    char *path = at("big");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
    close(fd);
    size_t len = 0;
    char *text = ss_read_file_max(path, 1 << 20, 0, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, 1 << 20);
    free(text);
    errno = 0;
    ck_assert_ptr_null(ss_read_file_max(path, (1 << 20) - 1, 0, &len));
    ck_assert_int_eq(errno, EFBIG);
    ck_assert_str_eq(ss_file_error(), "larger than 1048575 bytes");
    /* The default limit, on a sparse file one byte over it. */
    ck_assert_int_eq(truncate(path, (off_t)SS_READ_MAX_BYTES + 1), 0);
    ck_assert_ptr_null(ss_read_file(path, &len));
    ck_assert_str_eq(ss_file_error(), "larger than 64 MiB");
    ck_assert_int_eq(truncate(path, (off_t)SS_READ_MAX_BYTES), 0);
    text = ss_read_file(path, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, SS_READ_MAX_BYTES);
    free(text);
    free(path);
    remove_work();
}
END_TEST

START_TEST(test_read_nofollow)
{
    make_work();
    char *file = at("entry"), *link = at("link");
    put("entry", "{}\n");
    ck_assert_int_eq(symlink(file, link), 0);
    size_t len = 0;
    ck_assert_ptr_null(ss_read_file_max(link, SS_READ_MAX_BYTES, SS_FILE_NOFOLLOW, &len));
    ck_assert_str_eq(ss_file_error(), "not a regular file (a symbolic link)");
    char *text = ss_read_file_max(file, SS_READ_MAX_BYTES, SS_FILE_NOFOLLOW, &len);
    ck_assert_str_eq(text, "{}\n");
    free(text);
    free(file);
    free(link);
    remove_work();
}
END_TEST

/* ss_read_file_err: the loaders' message, "PATH: why", in the caller's buffer (cut to its
 * size), and the buffer left alone when the file is read. */
START_TEST(test_read_file_err)
{
    make_work();
    char *dir = at("dir"), *file = at("entry");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    put("entry", "ok\n");
    char err[256] = "untouched";
    size_t len = 0;
    char *text = ss_read_file_err(file, &len, err, sizeof err);
    ck_assert_str_eq(text, "ok\n");
    ck_assert_uint_eq(len, 3);
    ck_assert_str_eq(err, "untouched");
    free(text);
    ck_assert_ptr_null(ss_read_file_err(dir, &len, err, sizeof err));
    char *expected = ss_xasprintf("%s: not a regular file (a directory)", dir);
    ck_assert_str_eq(err, expected);
    char short_err[6];
    ck_assert_ptr_null(ss_read_file_err("/nonexistent/x", &len, short_err, sizeof short_err));
    ck_assert_str_eq(short_err, "/none");
    ck_assert_ptr_null(ss_read_file_err("/nonexistent/x", &len, NULL, 0));
    free(expected);
    free(dir);
    free(file);
    remove_work();
}
END_TEST

#ifdef SS_FILES_ANALYZER
/* ---- the cache folder ---- */

START_TEST(test_cache_store_does_not_follow_links)
{
    /* The temporary name the cache used (".KEY.PID.THREAD.tmp") could be guessed: a link
     * planted there made the store write through it. Now neither that name nor a link at
     * the entry's own name is followed. */
    make_work();
    char *victim = at("victim");
    put("victim", "precious\n");
    ss_cache *cache = ss_cache_open(work);
    ck_assert_ptr_nonnull(cache);
    const char *key = "0123456789abcdef";
    char *guessed = ss_xasprintf("%s/.%s.%ld.%lx.tmp", work, key, (long)getpid(),
                                 (unsigned long)pthread_self());
    ck_assert_int_eq(symlink(victim, guessed), 0);
    char *entry = ss_xasprintf("%s/%s.json", work, key);
    ck_assert_int_eq(symlink(victim, entry), 0);
    /* One file the unit read, unchanged since. */
    put("a.cu", "int x;\n");
    char *source = at("a.cu");
    ss_tu_file read = {source, ss_hash_bytes("int x;\n", 7, 0)};
    ss_tu_files files = {&read, 1, 1, 0};
    ss_result result;
    ss_result_init(&result, SS_RESULT_LINT);
    ss_tu_streams streams = {0};
    umask(022);
    ck_assert_int_eq(ss_cache_store(cache, key, &files, &result, 0, &streams), 0);
    char *text = cli_slurp(victim);
    ck_assert_str_eq(text, "precious\n");
    free(text);
    ck_assert_int_eq(kind_of(entry), S_IFREG);
    struct stat st;
    ck_assert_int_eq(stat(entry, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    ck_assert_int_eq(kind_of(guessed), S_IFLNK);
    ck_assert_int_eq(entries(), 4);
    /* The entry reads back. */
    int status = -1;
    ck_assert_int_eq(ss_cache_lookup(cache, key, &result, &status, &streams), 1);
    ck_assert_int_eq(status, 0);
    /* An entry that is a link, or a FIFO, is a miss, and never blocks. */
    ck_assert_int_eq(unlink(entry), 0);
    ck_assert_int_eq(symlink(victim, entry), 0);
    ck_assert_int_eq(ss_cache_lookup(cache, key, &result, &status, &streams), 0);
    ck_assert_int_eq(unlink(entry), 0);
    ck_assert_int_eq(mkfifo(entry, 0600), 0);
    ck_assert_int_eq(ss_cache_lookup(cache, key, &result, &status, &streams), 0);
    ck_assert_int_eq(ss_cache_store(cache, key, &files, &result, 0, &streams), -1);
    ck_assert_int_eq(kind_of(entry), S_IFIFO);
    ss_result_free(&result);
    ss_tu_streams_free(&streams);
    ss_cache_close(cache);
    free(source);
    free(guessed);
    free(entry);
    free(victim);
    remove_work();
}
END_TEST
#endif

/* ---- end to end ---- */

/* Runs syncscope with 'argv' (NULL-terminated, without the program name) in WORK, with
 * standard input from 'in' (NULL: /dev/null); fills the captured stdout and stderr
 * (malloc'ed) and returns the exit status. */
static int run_in(const char *in, const char *const *argv, char **out, char **err)
{
    char *capture = ss_xasprintf("%s/", work);
    int status = cli_run(work, capture, in, NULL, argv, out, err);
    free(capture);
    return status;
}

static int run(const char *const *argv, char **out, char **err)
{
    return run_in(NULL, argv, out, err);
}

/* Asserts that syncscope 'argv' exits 'code' with nothing on stdout and 'message' on
 * stderr. */
static void expect_run(const char *const *argv, int code, const char *message)
{
    char *out, *err;
    ck_assert_int_eq(run(argv, &out, &err), code);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, message);
    free(out);
    free(err);
}

/* A trace with one scalar readback (SYNC301), start_ns..end_ns = 1000..10000000. */
static const char readback_trace[] = "SSTRACE 1 0\n"
                                     "meta start_ns 1000\n"
                                     "meta end_ns 10000000\n"
                                     "meta wall_ns 9999000\n"
                                     "str 1 cudaMemcpy_v3020\n"
                                     "api 2000 900000 1 1 1 0 0 0 4 2 0 0 0 0 0 0\n"
                                     "memcpy 850000 860000 1 7 1 0 0 4 2 3 1 0\n"
                                     "dropped 0\n"
                                     "end 2 2 1\n";

START_TEST(test_cli_outputs)
{
    make_work();
    put("t.sstrace", readback_trace);
    char *out, *err;
    /* A FIFO: the report goes to its reader and the FIFO stays. */
    char *fifo = at("fifo"), *copy = at("copy");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t reader = start_reader(fifo, copy);
    const char *to_fifo[] = {"analyze", "--fail-on", "none",      "--format", "json",
                             "-o",      "fifo",      "t.sstrace", NULL};
    ck_assert_int_eq(run(to_fifo, &out, &err), 0);
    wait_ok(reader);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    ck_assert_int_eq(kind_of(fifo), S_IFIFO);
    char *copied = cli_slurp(copy);
    ck_assert_ptr_nonnull(strstr(copied, "\"kind\":\t\"run\""));
    free(copied);

    /* A device, and a link to one: written, left as they were. */
    char *null = make_null_device("null"), *link = at("link");
    mode_t null_kind = kind_of(null);
    ck_assert_int_eq(symlink("null", link), 0);
    const char *to_null[] = {"analyze",        "--fail-on", "none",      "-o", "null",
                             "--chrome-trace", "link",      "t.sstrace", NULL};
    ck_assert_int_eq(run(to_null, &out, &err), 0);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    ck_assert_int_eq(kind_of(null), null_kind);
    ck_assert_int_eq(kind_of(link), S_IFLNK);

    /* The system's /dev/null and /dev/stdout: the report reaches standard output. */
    const char *to_dev[] = {"analyze",        "--fail-on",   "none",      "-o", "/dev/null",
                            "--chrome-trace", "/dev/stdout", "t.sstrace", NULL};
    ck_assert_int_eq(run(to_dev, &out, &err), 0);
    ck_assert_int_eq(kind_of("/dev/null"), S_IFCHR);
    ck_assert_int_eq(kind_of("/dev/stdout"), S_IFLNK);
    ck_assert_ptr_nonnull(strstr(out, "\"traceEvents\""));
    ck_assert_str_eq(err, "");
    free(out);
    free(err);

    /* A folder: refused, exit 2, nothing written into it. */
    char *dir = at("dir");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    const char *to_dir[] = {"analyze", "-o", "dir", "t.sstrace", NULL};
    expect_run(to_dir, 2, "syncscope: error: cannot write 'dir': is a directory\n");
    const char *chrome_dir[] = {"analyze", "--chrome-trace", "dir", "t.sstrace", NULL};
    expect_run(chrome_dir, 2, "syncscope: error: cannot write 'dir': is a directory\n");
    const char *report_dir[] = {"report", "-o", "dir", "t.sstrace", NULL};
    expect_run(report_dir, 2, "syncscope: error: cannot write 'dir': is a directory\n");
    ck_assert_int_eq(kind_of(dir), S_IFDIR);
    free(dir);
    free(link);
    free(null);
    free(fifo);
    free(copy);
    remove_work();
}
END_TEST

START_TEST(test_cli_inputs)
{
    make_work();
    /* report /dev/zero used to read until memory ran out (exit 134). */
    const char *zero[] = {"report", "/dev/zero", NULL};
    expect_run(zero, 2,
               "syncscope: error: cannot read '/dev/zero': not a regular file (a character "
               "device)\n");
    char *fifo = at("fifo");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *report_fifo[] = {"report", "fifo", NULL};
    expect_run(report_fifo, 2,
               "syncscope: error: cannot read 'fifo': not a regular file (a FIFO)\n");
    char *fifo_trace = at("t.sstrace");
    ck_assert_int_eq(rename(fifo, fifo_trace), 0);
    const char *analyze_fifo[] = {"analyze", "t.sstrace", NULL};
    expect_run(analyze_fifo, 2, "syncscope: error: t.sstrace: not a regular file (a FIFO)\n");
    const char *report_trace_fifo[] = {"report", "t.sstrace", NULL};
    expect_run(report_trace_fifo, 2, "syncscope: error: t.sstrace: not a regular file (a FIFO)\n");
    /* A trace larger than its limit (sparse). */
    ck_assert_int_eq(unlink(fifo_trace), 0);
    put("t.sstrace", "");
    ck_assert_int_eq(truncate(fifo_trace, (off_t)SS_READ_MAX_TRACE_BYTES + 1), 0);
    expect_run(analyze_fifo, 2, "syncscope: error: t.sstrace: larger than 4 GiB\n");
    /* Standard input is bounded too: /dev/zero has no newline. */
    char *out, *err;
    const char *from_stdin[] = {"analyze", "-", NULL};
    ck_assert_int_eq(run_in("/dev/zero", from_stdin, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "syncscope: error: -:1: line longer than 1 MiB\n");
    free(out);
    free(err);
    free(fifo);
    free(fifo_trace);
    remove_work();
}
END_TEST

START_TEST(test_cli_implausible_trace)
{
    make_work();
    /* 16 billion ms blocked in one call. */
    put("bad.sstrace", "SSTRACE 1 0\n"
                       "meta start_ns 1000\n"
                       "meta end_ns 10000000\n"
                       "str 1 cudaMemcpy_v3020\n"
                       "api 2000 16000000000000002000 1 1 1 0 0 0 4 2 0 0 0 0 0 0\n"
                       "dropped 0\n"
                       "end 1 2 1\n");
    const char *analyze[] = {"analyze", "bad.sstrace", NULL};
    expect_run(
        analyze, 2,
        "syncscope: error: bad.sstrace:5: api: exit 16000000000000002000 is 15999999999.990 s "
        "after the run ended (meta end_ns 10000000)\n");
    const char *report[] = {"report", "bad.sstrace", NULL};
    expect_run(
        report, 2,
        "syncscope: error: bad.sstrace:5: api: exit 16000000000000002000 is 15999999999.990 s "
        "after the run ended (meta end_ns 10000000)\n");
    remove_work();
}
END_TEST

#ifdef SS_FILES_ANALYZER
/* A default-stream launch in a loop of a unit that also uses another (blocking) stream, beside
 * as much work on that stream: a warning (SYNC101), so lint exits 1. */
static const char launch_file[] = "__global__ void k(int *p) { p[0] = 1; }\n"
                                  "void go(int *p, cudaStream_t s, int n)\n"
                                  "{\n"
                                  "    for (int i = 0; i < n; i++) { k<<<1, 1>>>(p);\n"
                                  "        k<<<1, 1, 0, s>>>(p);\n"
                                  "    }\n"
                                  "}\n";

START_TEST(test_cli_lint_files)
{
    make_work();
    put("a.cu", launch_file);
    char *out, *err;
    /* -o into a device, a link to a device, a FIFO, a folder. */
    char *null = make_null_device("null");
    mode_t null_kind = kind_of(null);
    const char *to_null[] = {"lint", "--cuda-path", "none", "-o", "null", "a.cu", NULL};
    ck_assert_int_eq(run(to_null, &out, &err), 1);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    ck_assert_int_eq(kind_of(null), null_kind);
    const char *to_stdout[] = {"lint", "--cuda-path", "none", "--color", "never",
                               "-o",   "/dev/stdout", "a.cu", NULL};
    ck_assert_int_eq(run(to_stdout, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(out, "a.cu:4:35: warning: kernel 'k'"));
    ck_assert_int_eq(kind_of("/dev/stdout"), S_IFLNK);
    free(out);
    free(err);
    char *dir = at("out");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    const char *to_dir[] = {"lint", "--cuda-path", "none", "-o", "out", "a.cu", NULL};
    char *cmdline_out, *cmdline_err;
    ck_assert_int_eq(run(to_dir, &cmdline_out, &cmdline_err), 2);
    ck_assert_str_eq(cmdline_err, "syncscope: error: cannot write 'out': is a directory\n");
    free(cmdline_out);
    free(cmdline_err);

    /* .syncscope.yml as a link to /dev/zero (it grew lint to 11.8 GB), then as a FIFO (lint
     * waited for ever). */
    char *config = at(".syncscope.yml");
    ck_assert_int_eq(symlink("/dev/zero", config), 0);
    const char *plain[] = {"lint", "--cuda-path", "none", "a.cu", NULL};
    ck_assert_int_eq(run(plain, &out, &err), 2);
    ck_assert_str_eq(out, "");
    char *want =
        ss_xasprintf("syncscope: error: %s: not a regular file (a character device)\n", config);
    ck_assert_str_eq(err, want);
    free(want);
    free(out);
    free(err);
    ck_assert_int_eq(unlink(config), 0);
    ck_assert_int_eq(mkfifo(config, 0600), 0);
    ck_assert_int_eq(run(plain, &out, &err), 2);
    ck_assert_str_eq(out, "");
    want = ss_xasprintf("syncscope: error: %s: not a regular file (a FIFO)\n", config);
    ck_assert_str_eq(err, want);
    free(want);
    free(out);
    free(err);
    ck_assert_int_eq(unlink(config), 0);

    /* A compilation database over its limit (sparse). */
    char *db = at("build/compile_commands.json");
    char *build = at("build");
    ck_assert_int_eq(mkdir(build, 0755), 0);
    put("build/compile_commands.json", "");
    ck_assert_int_eq(truncate(db, (off_t)SS_READ_MAX_COMPDB_BYTES + 1), 0);
    const char *with_db[] = {"lint", "--cuda-path", "none", "-p", "build", "a.cu", NULL};
    ck_assert_int_eq(run(with_db, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, "syncscope: error: cannot read 'build/compile_commands.json': larger "
                          "than 1 GiB\n");
    free(out);
    free(err);
    free(build);
    free(db);
    free(config);
    free(dir);
    free(null);
    remove_work();
}
END_TEST
#endif

static Suite *files_suite(void)
{
    Suite *s = suite_create("files");
    TCase *writing = tcase_create("write");
    tcase_set_timeout(writing, 30);
    tcase_add_test(writing, test_write_regular_keeps_mode);
    tcase_add_test(writing, test_write_fifo_stays_fifo);
    tcase_add_test(writing, test_write_device_and_link_to_device);
    tcase_add_test(writing, test_write_link_to_file_replaces_the_file);
    tcase_add_test(writing, test_write_refusals);
    tcase_add_test(writing, test_write_nofollow);
    tcase_add_test(writing, test_write_standard_stream_names);
    tcase_add_test(writing, test_write_closed_fifo_does_not_kill);
    suite_add_tcase(s, writing);
    TCase *reading = tcase_create("read");
    tcase_set_timeout(reading, 30);
    tcase_add_test(reading, test_read_refuses_what_is_not_regular);
    tcase_add_test(reading, test_read_limits);
    tcase_add_test(reading, test_read_nofollow);
    tcase_add_test(reading, test_read_file_err);
    suite_add_tcase(s, reading);
#ifdef SS_FILES_ANALYZER
    TCase *cache = tcase_create("cache");
    tcase_add_test(cache, test_cache_store_does_not_follow_links);
    suite_add_tcase(s, cache);
#endif
    TCase *cli = tcase_create("cli");
    tcase_set_timeout(cli, 120);
    tcase_add_test(cli, test_cli_outputs);
    tcase_add_test(cli, test_cli_inputs);
    tcase_add_test(cli, test_cli_implausible_trace);
#ifdef SS_FILES_ANALYZER
    tcase_add_test(cli, test_cli_lint_files);
#endif
    suite_add_tcase(s, cli);
    return s;
}

SS_CHECK_MAIN(files_suite)
