/* guard.c: the guard thread of a lint run: past the memory bound it names the file and ends
 * the process; past a unit's time bound it gives up on that unit and the run goes on. */
#include "jobs.h"
#include "log.h"
#include "path.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The guard. libclang reads a header to its end, whatever its size says (it treats the user's
 * files as volatile): a header that is /dev/zero, or a link to it, fills memory without end,
 * and one that is a FIFO waits for a writer forever. A parse cannot be interrupted from
 * outside, and a thread inside libclang cannot be stopped safely, so a guard thread samples
 * the resident memory of the process and the time of each unit being parsed. Past the memory
 * bound it names the file and ends the process (the memory is the whole process's); past the
 * time bound it leaves the unit's thread in libclang, counts the unit as one with an error and
 * lets another worker go on with the others. */
#define GUARD_PERIOD_NS 100000000L /* 0.1 s between samples */
#define GUARD_EXIT_STATUS 2        /* the tool-error status of the command line */

/* Reads at most 'size' - 1 bytes of the small system file 'path' (/proc, /sys) into 'buf'
 * with a NUL after them. Returns 0, or -1 when it cannot be read. */
static int read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* The resident memory of this process in bytes (/proc/self/statm), or 0 when unknown. */
static uint64_t resident_bytes(void)
{
    char buf[256];
    unsigned long long size, resident;
    long page = sysconf(_SC_PAGESIZE);
    if (read_small("/proc/self/statm", buf, sizeof buf) != 0 ||
        sscanf(buf, "%llu %llu", &size, &resident) != 2)
        return 0;
    return (uint64_t)resident * (uint64_t)(page > 0 ? page : 4096);
}

/* The memory this process may use: the machine's (MemTotal), or the limit of its control
 * group (cgroup v2 memory.max: a container's) when that is less. 0 when unknown. */
static uint64_t memory_available(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    char group[512], limit[64];
    if (read_small("/proc/self/cgroup", group, sizeof group) == 0 &&
        strncmp(group, "0::", 3) == 0) {
        group[strcspn(group, "\n")] = '\0';
        char *path = ss_xasprintf("/sys/fs/cgroup%s/memory.max",
                                  strcmp(group + 3, "/") == 0 ? "" : group + 3);
        char *end = NULL;
        unsigned long long bytes = 0;
        if (read_small(path, limit, sizeof limit) == 0)
            bytes = strtoull(limit, &end, 10);
        if (end != NULL && end != limit && bytes > 0 && (total == 0 || bytes < total))
            total = bytes;
        free(path);
    }
    return total;
}

uint64_t ss_guard_default_max_memory(unsigned workers)
{
    uint64_t bound = 8ull << 30;
    if ((uint64_t)workers * (2ull << 30) > bound)
        bound = (uint64_t)workers * (2ull << 30);
    uint64_t available = memory_available();
    if (available > 0 && bound > available / 4 * 3)
        bound = available / 4 * 3;
    return bound;
}

/* 'bytes' for a message: "8 GiB", "1.5 GiB", "512 MiB", "4096 bytes". Returns 'out'. */
static const char *size_words(uint64_t bytes, char *out, size_t size)
{
    static const struct {
        unsigned shift;
        const char *unit;
    } units[] = {{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        uint64_t one = 1ull << units[i].shift;
        if (bytes < one)
            continue;
        if (bytes % one == 0)
            snprintf(out, size, "%llu %s", (unsigned long long)(bytes / one), units[i].unit);
        else
            snprintf(out, size, "%.1f %s", (double)bytes / (double)one, units[i].unit);
        return out;
    }
    snprintf(out, size, "%llu bytes", (unsigned long long)bytes);
    return out;
}

/* Ends the process because the memory bound was passed ('resident', the memory measured).
 * 'j' is the unit being parsed longest (NULL when none was). Says which, and that nothing was
 * written. The caller holds the lock, so that no progress line is drawn meanwhile. Does not
 * return. */
static void guard_stop(ss_run_state *st, const ss_job *j, uint64_t resident)
{
    if (st->options->progress)
        fputs("\r\033[K", stderr);
    char *shown = j ? ss_path_display(j->file) : NULL;
    char bound[32];
    size_words(st->max_memory, bound, sizeof bound);
    if (shown)
        ss_log_error("%s: parsing stopped: memory use passed %s (a header that never ends, "
                     "such as an #include of a device file?)",
                     shown, bound);
    else
        ss_log_error("lint stopped: memory use passed %s", bound);
    /* The memory is the process's: any unit parsed at the same time may have taken it. */
    char others[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < st->next && i < st->jobs->count; i++) {
        const ss_job *other = &st->jobs->v[i];
        if (other == j || !other->started || other->finished || used >= sizeof others)
            continue;
        char *name = ss_path_display(other->file);
        used +=
            (size_t)snprintf(others + used, sizeof others - used, "%s%s", used ? ", " : "", name);
        free(name);
    }
    if (used)
        ss_log_note("being parsed at the same time: %s (-j 1 tells which one it was)", others);
    ss_log_note("nothing was written: no report, no baseline (libclang cannot be stopped in "
                "the middle of a parse); --max-memory SIZE sets the bound, 0 for none");
    fflush(stderr);
    free(shown);
    /* exit() would run the destructors of libclang's globals under the other workers. */
    _exit(GUARD_EXIT_STATUS);
}

/* Gives up on the unit of 'j', parsing past the time bound (the caller holds the lock): it
 * counts as a unit with an error (ss_workers_abandoned_result makes its result once the other
 * workers are done; with --fail-fast no unit after it starts), and another worker takes the
 * place of the one still in libclang, which cannot be stopped in the middle of a parse. */
static void give_up(ss_run_state *st, ss_job *j)
{
    j->abandoned = 1;
    j->finished = 1;
    st->abandoned++;
    st->done++;
    size_t index_of = (size_t)(j - st->jobs->v);
    if (!st->keep_going && index_of < st->stop)
        st->stop = index_of;
    ss_workers_replace(st);
}

void *ss_guard_thread(void *data)
{
    ss_run_state *st = data;
    pthread_mutex_lock(&st->lock);
    while (!st->workers_done) {
        struct timespec wake;
        clock_gettime(CLOCK_MONOTONIC, &wake);
        wake.tv_nsec += GUARD_PERIOD_NS;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&st->guard_wake, &st->lock, &wake);
        if (st->workers_done)
            break;
        pthread_mutex_unlock(&st->lock);
        uint64_t resident = st->max_memory != SS_LINT_NO_LIMIT ? resident_bytes() : 0;
        pthread_mutex_lock(&st->lock);
        const ss_job *oldest = NULL;
        for (size_t i = 0; i < st->next && i < st->jobs->count; i++) {
            const ss_job *j = &st->jobs->v[i];
            if (j->started && !j->finished &&
                (oldest == NULL || j->began.tv_sec < oldest->began.tv_sec ||
                 (j->began.tv_sec == oldest->began.tv_sec &&
                  j->began.tv_nsec < oldest->began.tv_nsec)))
                oldest = j;
        }
        if (st->max_memory != SS_LINT_NO_LIMIT && resident > st->max_memory)
            guard_stop(st, oldest, resident);
        if (oldest && st->parse_timeout != SS_LINT_NO_LIMIT &&
            ss_workers_seconds_since(&oldest->began) > (double)st->parse_timeout)
            give_up(st, (ss_job *)oldest);
    }
    pthread_mutex_unlock(&st->lock);
    return NULL;
}
