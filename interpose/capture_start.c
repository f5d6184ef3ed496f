/* capture_start.c: libsyncscope.so's start: from the LD_PRELOAD constructor (or CUDA's
 * injection hook) it reads the settings, loads CUPTI, subscribes and installs the lifecycle
 * handlers; if CUPTI cannot be had, it says so once and steps aside. Links only libc, libdl,
 * libpthread: libcupti is opened with dlopen, and its header is included for types only. */
#include <errno.h>
#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture_int.h"
#include "python.h"

/* The capture library's one message printer: a single "syncscope: " line on stderr, with
 * write(2) so that it allocates nothing and leaves the program's stdio untouched. */
void capture_say(const char *fmt, ...)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "syncscope: ");
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

/* Reads the settings, readies the end's semaphore and checks that no other CUDA tool is
 * injected. Returns 0, or -1 with a message: the program runs unobserved. */
static int read_settings(void)
{
    char err[512];
    if (ss_interpose_config_load(&proc.config, err, sizeof err) < 0) {
        capture_say("%s; the program runs unobserved", err);
        return -1;
    }
    if (sem_init(&proc.end.wake, 0, 0) != 0) {
        capture_say("sem_init failed (%s); the program runs unobserved", strerror(errno));
        return -1;
    }
    const char *injected = getenv("CUDA_INJECTION64_PATH");
    if (injected != NULL && *injected != '\0' && strstr(injected, SS_INTERPOSE_LIBRARY) == NULL) {
        capture_say("another CUDA tool is injected (CUDA_INJECTION64_PATH=%s); the program runs "
                    "unobserved",
                    injected);
        return -1;
    }
    return 0;
}

/* The capture's memory, the API table, the mode (light, or sampled with its windows) and the
 * process id, from the settings. */
static void init_process(void)
{
    ss_store_init(&proc.store, proc.config.max_memory);
    size_t api_count;
    proc.api_rows = ss_api_all(&api_count);
    proc.light = strcmp(proc.config.mode, "light") == 0 || proc.config.sample[0] != '\0';
    /* The light mode asks nothing at the exit of a call held less than the run's
     * min_blocked_ns (its setting, else the detectors' default: capture_probe_exit). */
    size_t rows;
    uint64_t us = 0;
    const char *fallback = ss_interpose_settings(&rows)[SS_SETTING_MIN_BLOCKED_US].detector_default;
    proc.probe.exit_min_ns = proc.config.min_blocked_ns > 0 ? proc.config.min_blocked_ns
                             : ss_interpose_parse_uint(fallback, &us) == 0 ? us * 1000
                                                                           : 0;
    const char *bytes = ss_interpose_settings(&rows)[SS_SETTING_READBACK_BYTES].detector_default;
    uint64_t readback = 0;
    proc.probe.readback_max_bytes = proc.config.readback_bytes > 0 ? proc.config.readback_bytes
                                    : ss_interpose_parse_uint(bytes, &readback) == 0 ? readback
                                                                                     : 0;
    if (proc.config.sample[0] != '\0' &&
        ss_interpose_parse_sample(proc.config.sample, &proc.sampling.on_ns,
                                  &proc.sampling.every_ns) < 0)
        proc.sampling.on_ns = proc.sampling.every_ns = 0; /* checked when the settings were read */
    proc.pid = (long)getpid();
    static const char *const probes[] = {"", SS_LIGHT_PROBES};
    for (size_t i = 1; i < sizeof probes / sizeof probes[0]; i++) {
        if (strcmp(proc.config.light_probe, probes[i]) == 0)
            proc.bench_probe = (enum bench_probe)i;
    }
}

/* Starts the capture, once: settings, CUPTI, the subscription, the clocks, then recording and
 * the lifecycle handlers. */
static void start(void)
{
    static int started;
    if (started)
        return;
    started = 1;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t began = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 1;
    if (read_settings() < 0 || capture_cupti_load() < 0)
        return;
    proc.start_timing.load_ns = capture_timing_since(began);
    init_process();
    /* A measurement aid stops part of the way (docs/studies/performance.md). */
    if (proc.bench_probe != PROBE_OFF)
        capture_say("%s=%s: a measurement aid%s", SS_ENV(LIGHT_PROBE), proc.config.light_probe,
                    proc.bench_probe == PROBE_SWITCH ? ", switched by syncscope_light_probe_set"
                    : proc.bench_probe == PROBE_WRAP
                        ? ", the runtime's calls taken by " SS_INTERPOSE_WRAPPERS "'s wrappers"
                        : "; nothing is recorded");
    if (proc.bench_probe == PROBE_LOAD) {
        capture_timing_start_line();
        return;
    }
    int noop = proc.bench_probe >= PROBE_NOOP && proc.bench_probe <= PROBE_NOOP_DRIVER;
    CUpti_CallbackFunc callback = proc.bench_probe == PROBE_SWITCH ? capture_on_callback_switch
                                  : noop                           ? capture_on_callback_noop
                                                                   : capture_on_callback;
    uint64_t subscribing = capture_timing_now();
    int subscribed = capture_cupti_subscribe(callback);
    if (subscribed == 0 && proc.bench_probe != PROBE_SUBSCRIBE) {
        capture_set_scope_callbacks(1);
        if (proc.light)
            capture_enable_stream_callbacks();
    }
    proc.start_timing.subscribe_ns = capture_timing_since(subscribing);
    if (subscribed < 0 || proc.bench_probe == PROBE_SUBSCRIBE) {
        capture_timing_start_line();
        return;
    }
    uint64_t rest = capture_timing_now();
    proc.start_ns = capture_now_ns();
    clock_gettime(CLOCK_REALTIME, &ts);
    proc.started_unix_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    /* Load the unwinder now, not inside the first callback that wants a stack. */
    void *warm[2];
    backtrace(warm, 2);
    if (proc.config.python_depth > 0)
        ss_python_init(capture_say);
    atomic_store(&proc.active, 1);
    if (proc.bench_probe == PROBE_WRAP)
        capture_wrap_from_start();
    capture_install_lifecycle();
    proc.start_timing.rest_ns = capture_timing_since(rest);
    capture_timing_start_line();
}

/* Whether the environment variable 'name' names this library. */
static int names_this_library(const char *name)
{
    const char *value = getenv(name);
    return value != NULL && strstr(value, SS_INTERPOSE_LIBRARY) != NULL;
}

__attribute__((constructor)) static void syncscope_constructor(void)
{
    int saved_errno = errno;
    /* Loaded by NVTX only (a process that inherited NVTX_INJECTION64_PATH but is neither
     * preloaded nor CUDA-injected, e.g. one started with a cleaned LD_PRELOAD): such a process
     * is not observed; InitializeInjectionNvtx2 declines and NVTX unloads the library. */
    if (names_this_library("NVTX_INJECTION64_PATH") && !names_this_library("LD_PRELOAD") &&
        !names_this_library("CUDA_INJECTION64_PATH")) {
        errno = saved_errno;
        return;
    }
    start();
    capture_observe_nvtx();
    errno = saved_errno;
}

/* CUDA's injection entry point: lets CUDA_INJECTION64_PATH=libsyncscope.so load syncscope
 * where LD_PRELOAD cannot be used. Returns 1 (CUDA's convention for success). */
SS_EXPORT int InitializeInjection(void)
{
    int saved_errno = errno;
    start();
    errno = saved_errno;
    return 1;
}

/* The version of the capture library, for tools that check what is preloaded. */
SS_EXPORT const char *syncscope_interposer_version(void)
{
    return SS_INTERPOSE_LIBRARY " " SS_INTERPOSE_VERSION;
}
