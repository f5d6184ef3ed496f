/* capture_end.c: the end of the run (docs/run.md, "What a killed program gets"): CUPTI flushed,
 * the finisher (libsyncscope_finish.so) loaded beside this library and handed a view of the
 * capture, once per process, at exit or, for a signal, on the flusher thread. */
#include <dlfcn.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture_int.h"
#include "python.h"

/* Whether the run recorded anything: an activity record, a thread's event, or one dropped. */
static int recorded_anything(void)
{
    if (ss_evbuf_count(&proc.store.activity) > 0 ||
        atomic_load(&proc.store.budget.dropped_events) > 0)
        return 1;
    for (ss_thread_store *t = atomic_load(&proc.store.threads); t != NULL; t = t->next) {
        if (ss_evbuf_count(&t->events) > 0)
            return 1;
    }
    return 0;
}

/* Flushes CUPTI, then loads the finisher next to this library and runs it (capture_finish()). */
static void run_finisher(int signo, int skip_flush)
{
    thread_state *t = capture_tls;
    if (t != NULL)
        t->busy = 1;
    if (!skip_flush && atomic_load(&proc.activity.pid) == (long)getpid())
        proc.cupti.fn.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    atomic_store(&proc.active, 0);
    uint64_t end_ns = capture_now_ns();
    capture_timing_end_lines();
    if (!recorded_anything())
        return; /* no CUDA call: nothing to report, no file written */

    ss_finish_fn run = (ss_finish_fn)capture_finisher_symbol(SS_FINISH_SYMBOL, "no report written");
    if (run == NULL)
        return;
    device_info devices = proc.activity.devices;
    if (!proc.activity.devices_read)
        capture_read_devices(&devices, signo == 0 && !proc.forked);
    ss_capture_view view = capture_make_view(signo, end_ns, &devices);
    run(&view);
    /* The module stays loaded: the process is ending. */
}

/* The finisher's function 'name' (libsyncscope_finish.so beside this library, loaded
 * RTLD_LOCAL at its first use and kept), or NULL with a message ending in 'consequence'. */
void *capture_finisher_symbol(const char *name, const char *consequence)
{
    static void *module;
    Dl_info self;
    char path[PATH_MAX];
    if (module == NULL) {
        if (dladdr((void *)&capture_finisher_symbol, &self) == 0 || self.dli_fname == NULL) {
            capture_say("cannot locate libsyncscope.so; %s", consequence);
            return NULL;
        }
        const char *slash = strrchr(self.dli_fname, '/');
        int dir_len = slash != NULL ? (int)(slash - self.dli_fname) : 1;
        const char *dir = slash != NULL ? self.dli_fname : ".";
        int n = snprintf(path, sizeof path, "%.*s/%s", dir_len, dir, SS_INTERPOSE_FINISHER);
        if (n <= 0 || (size_t)n >= sizeof path) {
            capture_say("path of %s is too long; %s", SS_INTERPOSE_FINISHER, consequence);
            return NULL;
        }
        module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (module == NULL) {
            capture_say("cannot load %s (%s); %s", path, dlerror(), consequence);
            return NULL;
        }
    }
    void *fn = dlsym(module, name);
    if (fn == NULL)
        capture_say("%s lacks %s; %s", SS_INTERPOSE_FINISHER, name, consequence);
    return fn;
}

/* The sampled mode's full windows as the log's metadata "sample_windows" ("START-END,...",
 * CUPTI clock; a window still open ends at 'end_ns'). Static storage: written by the one
 * thread that ends the run, or by the flusher between windows. */
static const char *windows_text(uint64_t end_ns)
{
    static char text[SAMPLE_WINDOWS_MAX * 44];
    size_t used = 0;
    text[0] = '\0';
    uint32_t count = atomic_load(&proc.sampling.window_count);
    for (uint32_t i = 0; i < count && i < SAMPLE_WINDOWS_MAX; i++) {
        uint64_t start = proc.sampling.windows[2 * i], stop = proc.sampling.windows[2 * i + 1];
        int n = snprintf(text + used, sizeof text - used, "%s%llu-%llu", used ? "," : "",
                         (unsigned long long)start, (unsigned long long)(stop ? stop : end_ns));
        if (n < 0 || (size_t)n >= sizeof text - used)
            break;
        used += (size_t)n;
    }
    return text;
}

/* What the finisher reads of the run as it is at 'end_ns' ('signo': the signal ending it). */
ss_capture_view capture_make_view(int signo, uint64_t end_ns, const device_info *devices)
{
    ss_capture_view view = {
        .version = SS_CAPTURE_VIEW_VERSION,
        .size = sizeof view,
        .config = &proc.config,
        .store = &proc.store,
        .pid = proc.pid,
        .forked = proc.forked,
        .signal = signo,
        .start_ns = proc.start_ns,
        .end_ns = end_ns,
        .started_unix_ns = proc.started_unix_ns,
        .gpu = proc.activity.gpu[0] != '\0' ? proc.activity.gpu : devices->names,
        .driver_version = devices->cuda_version,
        .driver = devices->driver,
        .runtime_version = devices->runtime_version,
        .cupti_path = proc.cupti.path,
        .python = ss_python_version(),
        .mode = proc.config.sample[0] != '\0' ? "sampled"
                : proc.light                  ? "light"
                                              : "full",
        .windows = windows_text(end_ns),
    };
    return view;
}

/* Ends the run: writes the outputs, once per process, and sets proc.end.done. 'signo' is the
 * signal that ends the run, or 0. 'skip_flush': the thread that ended the run was inside a
 * CUPTI callback, where CUPTI may hold what a flush needs; activity records still buffered
 * are left out. Returns without waiting when the run is already ending elsewhere. */
void capture_finish(int signo, int skip_flush)
{
    if (!atomic_load(&proc.active) || atomic_exchange(&proc.end.finishing, 1))
        return;
    /* An interval line being written reads the capture: the end waits for it (it no longer
     * starts once proc.end.finishing is set). */
    while (atomic_load(&proc.end.interval_busy))
        poll(NULL, 0, 1);
    run_finisher(signo, skip_flush);
    atomic_store(&proc.end.done, 1);
}

/* Asks the flusher to end the run for signal 'signo'; the first request wins, later ones
 * only wait with it. Async-signal-safe: a lock-free compare-and-swap and sem_post. */
void capture_end_request(int signo, int skip_flush)
{
    int none = 0;
    int request = END_REQUESTED | (skip_flush ? END_SKIP_FLUSH : 0) | (signo & END_SIGNAL_MASK);
    if (atomic_compare_exchange_strong(&proc.end.request, &none, request))
        sem_post(&proc.end.wake);
}

/* Waits until the finisher has returned, at most 'bound_ms' milliseconds (< 0: no bound).
 * Returns 1 when it has, 0 when the bound passed first. Async-signal-safe: clock_gettime and
 * poll only. */
int capture_end_wait(long bound_ms)
{
    struct timespec now, deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    if (bound_ms > 0) {
        deadline.tv_sec += bound_ms / 1000;
        deadline.tv_nsec += bound_ms % 1000 * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
    }
    while (!atomic_load(&proc.end.done)) {
        if (bound_ms >= 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec > deadline.tv_sec ||
                (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
                return 0;
        }
        poll(NULL, 0, 1);
    }
    return 1;
}
