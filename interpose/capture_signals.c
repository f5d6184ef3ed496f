/* capture_signals.c: the capture library's exit, signal and fork handlers: the exiting thread
 * writes the outputs; SIGINT/SIGTERM at their default action have the flusher write them
 * before the signal takes its course; SIGUSR2 asks for a sampled window; a forked child starts
 * afresh. Signal handlers make async-signal-safe calls only. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture_int.h"

/* 1 while this thread writes the outputs at exit (a signal here cannot wait for itself). */
static __thread int tls_exiting __attribute__((tls_model("initial-exec")));

/* Appends 'text' to 'line' at '*len' (at most 'size' bytes in all). Async-signal-safe. */
static void put_text(char *line, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len >= size)
        return;
    if (n > size - *len)
        n = size - *len;
    memcpy(line + *len, text, n);
    *len += n;
}

/* Says on stderr, from a signal handler, that the program ends before its outputs were all
 * written: after 'waited_ms' of waiting, or (waited_ms < 0) at a second signal. Only
 * async-signal-safe calls (no printf). */
static void say_given_up(int signo, long waited_ms)
{
    char line[256];
    size_t len = 0;
    const char *name = signo == SIGINT ? "SIGINT" : "SIGTERM";
    put_text(line, sizeof line, &len, "syncscope: warning: ");
    if (waited_ms >= 0) {
        char reversed[24], number[24];
        size_t nd = 0;
        unsigned long v = (unsigned long)waited_ms;
        do {
            reversed[nd++] = (char)('0' + v % 10);
            v /= 10;
        } while (v > 0 && nd < sizeof reversed);
        for (size_t i = 0; i < nd; i++)
            number[i] = reversed[nd - 1 - i];
        number[nd < sizeof number ? nd : sizeof number - 1] = '\0';
        put_text(line, sizeof line, &len, "the outputs were not written within ");
        put_text(line, sizeof line, &len, number);
        put_text(line, sizeof line, &len, " ms of ");
        put_text(line, sizeof line, &len, name);
        put_text(line, sizeof line, &len, " (" SS_ENV_SIGNAL_FLUSH_MS ")");
    } else {
        put_text(line, sizeof line, &len, name);
        put_text(line, sizeof line, &len, " while the outputs were being written");
    }
    put_text(line, sizeof line - 1, &len,
             "; the program ends now, outputs not written by then "
             "are missing");
    line[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

/* Gives 'signo' back to the action it had before syncscope (the default) and raises it. */
static void reraise(int signo)
{
    sigaction(signo, signo == SIGINT ? &proc.end.old_int : &proc.end.old_term, NULL);
    raise(signo);
}

/* At exit the exiting thread writes the outputs itself, as long as they take. A SIGINT or
 * SIGTERM that lands on it meanwhile is held (on_signal) and raised once they are written. */
static void at_exit(void)
{
    int saved_errno = errno;
    thread_state *t = capture_tls;
    tls_exiting = 1;
    capture_finish(0, t != NULL && t->busy);
    tls_exiting = 0;
    /* Outputs that a signal's flusher is writing are not cut short by this exit; the signal's
     * handler ends the process when they are written or its bound passes. */
    if (atomic_load(&proc.end.finishing))
        capture_end_wait(-1);
    int signo = atomic_exchange(&proc.end.exit_signal, 0);
    if (signo != 0)
        reraise(signo);
    errno = saved_errno;
}

/* SIGINT/SIGTERM at their default action: has the outputs written, then gives the signal back
 * to its default action and re-raises it, so the process dies of it as it would have without
 * syncscope. Only async-signal-safe calls, since this thread may hold any lock (the
 * allocator's, the loader's, stdio's) when the signal lands: the flusher thread writes, this
 * one waits for it at most SYNCSCOPE_SIGNAL_FLUSH_MS. On the thread that writes the outputs at
 * exit, the signal is held until they are written (at_exit raises it). A second SIGINT/SIGTERM
 * while one waits (SA_NODEFER lets it in on this thread too) ends the program at once. */
static void on_signal(int signo, siginfo_t *info, void *context)
{
    (void)info;
    (void)context;
    int saved_errno = errno;
    if (tls_exiting) {
        int none = 0;
        if (atomic_compare_exchange_strong(&proc.end.exit_signal, &none, signo)) {
            errno = saved_errno;
            return;
        }
        say_given_up(signo, -1);
    } else if (!atomic_exchange(&proc.end.waiting, 1)) {
        if (capture_flusher_running())
            capture_end_request(signo, capture_tls != NULL && capture_tls->busy);
        if ((capture_flusher_running() || atomic_load(&proc.end.finishing)) &&
            !capture_end_wait((long)proc.config.signal_flush_ms))
            say_given_up(signo, (long)proc.config.signal_flush_ms);
    } else if (atomic_load(&proc.end.finishing) && !atomic_load(&proc.end.done)) {
        say_given_up(signo, -1);
    }
    reraise(signo);
    errno = saved_errno;
}

/* SIGUSR2 in the sampled mode: asks the flusher for a full window. Async-signal-safe. */
static void on_window_signal(int signo)
{
    (void)signo;
    int saved_errno = errno;
    atomic_store(&proc.sampling.window_requested, 1);
    sem_post(&proc.end.wake);
    errno = saved_errno;
}

/* Installs on_window_signal for SIGUSR2 where it is at its default action (which would end the
 * program): a program's own handler, or an ignored SIGUSR2, is left alone. */
static void install_window_signal(void)
{
    if (sigaction(SIGUSR2, NULL, &proc.sampling.old_usr2) != 0 ||
        (proc.sampling.old_usr2.sa_flags & SA_SIGINFO) ||
        proc.sampling.old_usr2.sa_handler != SIG_DFL)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_window_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
}

/* Installs on_signal for SIGINT and SIGTERM where they are at their default action. */
static void install_handlers(void)
{
    static const int signals[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction *old = signals[i] == SIGINT ? &proc.end.old_int : &proc.end.old_term;
        if (sigaction(signals[i], NULL, old) != 0)
            continue;
        /* An ignored signal stays ignored (nohup); a handler already there is the
         * program's and is left alone. */
        if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL)
            continue;
        if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction != NULL)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
    }
}

/* In the child of a fork: the parent's events are the parent's; start afresh, with an output
 * of the child's own (%p). */
static void in_child(void)
{
    if (!atomic_load(&proc.active))
        return;
    proc.forked = 1;
    proc.pid = (long)getpid();
    pthread_mutex_init(&proc.activity.lock, NULL);
    pthread_mutex_init(&proc.activity.enable_lock, NULL);
    capture_tls = NULL;
    memset(&proc.store.names.ids, 0, sizeof proc.store.names.ids);
    proc.store.names.count = 0;
    proc.store.names.arena = NULL;
    proc.store.names.arena_used = proc.store.names.arena_size = 0;
    pthread_mutex_init(&proc.scopes.ranges_lock, NULL);
    memset(&proc.store.ranges.ids, 0, sizeof proc.store.ranges.ids);
    proc.store.ranges.count = 0;
    proc.store.ranges.arena = NULL;
    proc.store.ranges.arena_used = proc.store.ranges.arena_size = 0;
    uint64_t cap = proc.store.budget.cap;
    ss_store_init(&proc.store, cap);
    proc.activity.free_count = 0;
    proc.activity.buffer_count = 0;
    /* The parent's flusher thread is not here: the child's first CUDA call starts its own
     * (proc.end.flusher_pid still names the parent). */
    pthread_mutex_init(&proc.end.flusher_lock, NULL);
    sem_init(&proc.end.wake, 0, 0);
    atomic_store(&proc.end.request, 0);
    atomic_store(&proc.end.done, 0);
    atomic_store(&proc.end.waiting, 0);
    atomic_store(&proc.end.exit_signal, 0);
    atomic_store(&proc.sampling.window_count, 0);
    proc.sampling.window_open = 0;
    atomic_store(&proc.end.interval_busy, 0);
    proc.start_ns = capture_now_ns();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    proc.started_unix_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    atomic_store(&proc.end.finishing, 0);
}

void capture_install_lifecycle(void)
{
    atexit(at_exit);
    pthread_atfork(NULL, NULL, in_child);
    if (proc.config.signal_flush_ms > 0)
        install_handlers();
    if (proc.config.sample[0] != '\0')
        install_window_signal();
}
