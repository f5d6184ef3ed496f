/* capture_flusher.c: the flusher, a thread of syncscope's own with every signal blocked: it
 * writes the interval lines, opens and closes the sampled mode's full windows on time, and
 * runs the finisher when a signal handler asks. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture_int.h"

/* The monotonic clock in nanoseconds: the flusher's timers. */
static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Waits for the flusher's semaphore until the monotonic time 'deadline_ns' (UINT64_MAX: no
 * bound). */
static void flusher_wait(uint64_t deadline_ns)
{
    if (deadline_ns == UINT64_MAX) {
        if (sem_wait(&proc.end.wake) != 0 && errno != EINTR)
            poll(NULL, 0, 1); /* cannot block on the semaphore: look every millisecond */
        return;
    }
    uint64_t now = monotonic_ns();
    if (deadline_ns <= now)
        return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    uint64_t wait = deadline_ns - now;
    until.tv_sec += (time_t)(wait / 1000000000ull);
    until.tv_nsec += (long)(wait % 1000000000ull);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    if (sem_timedwait(&proc.end.wake, &until) != 0 && errno != ETIMEDOUT && errno != EINTR)
        poll(NULL, 0, 1);
}

/* Opens a full window of the sampled mode (on the flusher): the light mode's missing callbacks
 * and the activity records on. Not in a forked child (no activity there: "Limits"). */
static void open_window(void)
{
    uint32_t k = atomic_load(&proc.sampling.window_count);
    if (proc.sampling.window_open || proc.forked || k >= SAMPLE_WINDOWS_MAX)
        return;
    const char *what = NULL;
    CUptiResult r = CUPTI_SUCCESS;
    /* The window starts before its records and callbacks do, so that everything it takes is
     * inside it. */
    proc.sampling.windows[2 * k] = capture_now_ns();
    proc.sampling.windows[2 * k + 1] = 0;
    atomic_store(&proc.sampling.window_calls, 1);
    uint64_t began = capture_timing_now();
    if (capture_set_activity(1, &what, &r) < 0) {
        capture_say("%s failed (%s): no full window", what, capture_cupti_error(r));
        atomic_store(&proc.sampling.window_calls, 0);
        return;
    }
    atomic_store(&proc.activity.pid, proc.pid);
    proc.sampling.open_records_ns += capture_timing_since(began);
    began = capture_timing_now();
    capture_cupti_set_rows(1, 0);
    proc.sampling.open_callbacks_ns += capture_timing_since(began);
    atomic_store(&proc.sampling.window_count, k + 1);
    proc.sampling.window_open = 1;
}

/* Closes the open full window: the callbacks and activity records off, the records flushed. */
static void close_window(void)
{
    if (!proc.sampling.window_open)
        return;
    const char *what = NULL;
    CUptiResult r = CUPTI_SUCCESS;
    uint64_t began = capture_timing_now();
    capture_cupti_set_rows(0, 0);
    atomic_store(&proc.sampling.window_calls, 0);
    proc.sampling.close_callbacks_ns += capture_timing_since(began);
    began = capture_timing_now();
    if (capture_set_activity(0, &what, &r) < 0)
        capture_say("%s failed (%s) at the end of a full window", what, capture_cupti_error(r));
    proc.sampling.close_records_ns += capture_timing_since(began);
    began = capture_timing_now();
    proc.cupti.fn.cuptiActivityFlushAll(0);
    proc.sampling.close_flush_ns += capture_timing_since(began);
    uint32_t k = atomic_load(&proc.sampling.window_count);
    proc.sampling.windows[2 * k - 1] = capture_now_ns();
    proc.sampling.window_open = 0;
}

/* Whether the trigger file was created or touched since the last look and since the run
 * started ('*seen': its modification time at the last look, 0 when absent). */
static int trigger_touched(int64_t *seen)
{
    char path[PATH_MAX], host[256];
    if (gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';
    if (ss_interpose_expand(proc.config.trigger_file, proc.pid, host, ss_interpose_rank(), path,
                            sizeof path) < 0)
        return 0;
    struct stat st;
    int64_t mtime = 0;
    if (path[0] != '/' && proc.config.cwd[0] != '\0') {
        char full[PATH_MAX];
        if (snprintf(full, sizeof full, "%s/%s", proc.config.cwd, path) >= (int)sizeof full)
            return 0;
        memcpy(path, full, sizeof path);
    }
    if (stat(path, &st) == 0)
        mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    /* A file last touched before the run started is no request; file times are coarse (a
     * clock tick behind the wall clock), so "before" is a second before. */
    int touched = mtime != 0 && mtime != *seen && mtime > proc.started_unix_ns - 1000000000;
    *seen = mtime;
    return touched;
}

/* Appends one interval line (docs/run.md, "Interval lines"): the finisher's
 * syncscope_interval over the capture as it is now. On the flusher thread. */
static void write_interval(void)
{
    atomic_store(&proc.end.interval_busy, 1);
    if (!atomic_load(&proc.end.finishing)) {
        ss_interval_fn line =
            (ss_interval_fn)capture_finisher_symbol(SS_INTERVAL_SYMBOL, "no interval line written");
        if (line != NULL) {
            if (atomic_load(&proc.activity.pid) == proc.pid)
                proc.cupti.fn.cuptiActivityFlushAll(0);
            device_info devices = proc.activity.devices;
            ss_capture_view view = capture_make_view(0, capture_now_ns(), &devices);
            line(&view, 0);
        }
    }
    atomic_store(&proc.end.interval_busy, 0);
}

/* The flusher thread: writes the interval lines and opens and closes the sampled mode's full
 * windows on time; when a signal handler asks, runs the finisher (once per process;
 * capture_finish() returns at once when the exiting thread got there first). */
static void *flusher_main(void *unused)
{
    (void)unused;
    const uint64_t second = 1000000000ull;
    uint64_t interval_ns = (uint64_t)proc.config.interval * second;
    uint64_t now = monotonic_ns();
    uint64_t next_line = interval_ns ? now + interval_ns : UINT64_MAX;
    uint64_t next_window = proc.sampling.every_ns ? now + proc.sampling.every_ns : UINT64_MAX;
    uint64_t window_end = UINT64_MAX;
    uint64_t next_look = proc.config.trigger_file[0] != '\0' ? now : UINT64_MAX;
    int64_t trigger_seen = 0;
    int request;
    while ((request = atomic_load(&proc.end.request)) == 0) {
        uint64_t deadline = next_line < next_window ? next_line : next_window;
        if (window_end < deadline)
            deadline = window_end;
        if (next_look < deadline)
            deadline = next_look;
        flusher_wait(atomic_load(&proc.end.finishing) ? UINT64_MAX : deadline);
        if (atomic_load(&proc.end.request) != 0 || atomic_load(&proc.end.finishing))
            continue;
        now = monotonic_ns();
        int wanted = atomic_exchange(&proc.sampling.window_requested, 0);
        if (next_look != UINT64_MAX && now >= next_look) {
            wanted |= trigger_touched(&trigger_seen);
            next_look = now + second;
        }
        if (proc.sampling.every_ns && now >= next_window) {
            wanted = 1;
            next_window +=
                proc.sampling.every_ns * ((now - next_window) / proc.sampling.every_ns + 1);
        }
        if (wanted && !proc.sampling.window_open) {
            open_window();
            window_end = proc.sampling.window_open ? now + proc.sampling.on_ns : UINT64_MAX;
        }
        if (proc.sampling.window_open && now >= window_end) {
            close_window();
            window_end = UINT64_MAX;
        }
        if (interval_ns && now >= next_line) {
            write_interval();
            next_line += interval_ns * ((monotonic_ns() - next_line) / interval_ns + 1);
        }
    }
    capture_finish(request & END_SIGNAL_MASK, (request & END_SKIP_FLUSH) != 0);
    return NULL;
}

/* Starts this process's flusher, once (a forked child starts its own): at the first recorded
 * CUDA call, never in a signal handler. Every signal is blocked on it, so that no SIGINT or
 * SIGTERM is ever handled on the thread that must write the outputs. When it cannot be
 * started, the outputs are written at exit by the exiting thread, and a signal writes none. */
void capture_flusher_start(void)
{
    static int said;
    int timers = proc.config.interval > 0 || proc.config.sample[0] != '\0';
    if ((proc.config.signal_flush_ms == 0 && !timers) ||
        atomic_load_explicit(&proc.end.flusher_pid, memory_order_acquire) == proc.pid)
        return;
    pthread_mutex_lock(&proc.end.flusher_lock);
    if (atomic_load(&proc.end.flusher_pid) != proc.pid) {
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pthread_attr_t attr;
        size_t stack = 0;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        /* Symbolization and the writers want no less stack than a main thread has. */
        if (pthread_attr_getstacksize(&attr, &stack) == 0 && stack < (8u << 20))
            pthread_attr_setstacksize(&attr, 8u << 20);
        pthread_t id;
        int rc = pthread_create(&id, &attr, flusher_main, NULL);
        pthread_attr_destroy(&attr);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (rc == 0) {
            pthread_setname_np(id, "syncscope");
            atomic_store_explicit(&proc.end.flusher_pid, proc.pid, memory_order_release);
        } else if (!said) {
            said = 1;
            capture_say("cannot start the thread that writes the outputs (%s); a SIGINT or SIGTERM "
                        "will end the program without them",
                        strerror(rc));
        }
    }
    pthread_mutex_unlock(&proc.end.flusher_lock);
}

int capture_flusher_running(void)
{
    return atomic_load_explicit(&proc.end.flusher_pid, memory_order_acquire) == proc.pid;
}
