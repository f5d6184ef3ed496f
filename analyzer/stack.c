/* stack.c: the worker threads of lint get a large stack, and a stack that runs out anyway
 * ends lint with exit status 2 and a message naming the file, never with SIGSEGV. A source
 * can make clang recurse as deep as it is long: one expression of 80,000 terms
 * (`1+1+...`) is a tree 80,000 deep, which libclang parses and visits recursively. */
#include "stack.h"
#include "analyzer.h"
#include "log.h"
#include "path.h"
#include "report.h"
#include "tu.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The alternate stack the SIGSEGV handler runs on (the handlers it passes other faults on
 * to, libclang's and the sanitizers', run on it too). */
#define ALT_STACK_BYTES (256u * 1024u)

/* The calling worker's stack: its lowest usable address (the guard is below it), and the
 * message written when it overflows while a unit is analyzed (empty otherwise). */
static __thread uintptr_t stack_low;
static __thread char overflow_message[PATH_MAX + 512];
static __thread size_t overflow_length;

/* The SIGSEGV action that was installed before ours: faults that are not a worker's stack
 * overflow go on to it. */
static struct sigaction next_segv;

/* Whether the fault at 'addr' is the calling worker's stack overflowing: an access in its
 * guard, or just below it (a frame that started inside the guard). */
static int is_overflow(uintptr_t addr)
{
    uintptr_t below = (uintptr_t)SS_STACK_GUARD_BYTES + 64u * 1024u;
    return stack_low != 0 && addr < stack_low && stack_low - addr <= below;
}

static void on_segv(int signo, siginfo_t *info, void *context)
{
    if (overflow_length > 0 && is_overflow((uintptr_t)info->si_addr)) {
        /* Only async-signal-safe calls: the message was made when the unit began. */
        ssize_t written = write(STDERR_FILENO, overflow_message, overflow_length);
        (void)written;
        _exit(SS_STACK_EXIT_STATUS);
    }
    if (next_segv.sa_flags & SA_SIGINFO) {
        next_segv.sa_sigaction(signo, info, context);
    } else if (next_segv.sa_handler != SIG_DFL && next_segv.sa_handler != SIG_IGN) {
        next_segv.sa_handler(signo);
    } else {
        /* The default action: the faulting access runs again and ends the process. */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(signo, &dfl, NULL);
    }
}

/* The worker stack size: SYNCSCOPE_LINT_STACK (bytes, or with K, M or G), else
 * SS_STACK_WORKER_BYTES. A value that is not a size is ignored with a warning. */
static size_t worker_stack_bytes(void)
{
    const char *text = getenv(SS_ENV_LINT_STACK);
    if (text == NULL || *text == '\0')
        return (size_t)SS_STACK_WORKER_BYTES;
    char *end = NULL;
    errno = 0;
    unsigned long long n = isdigit((unsigned char)*text) ? strtoull(text, &end, 10) : 0;
    unsigned shift = 0;
    if (end != NULL && *end != '\0' && end[1] == '\0' && strchr("KMG", *end) != NULL)
        shift = 10u * (unsigned)(strchr("KMG", *end) - "KMG" + 1);
    if (end == NULL || errno != 0 || (*end != '\0' && shift == 0) || n == 0 ||
        n > (SIZE_MAX >> 1 >> shift) || (n << shift) < 65536) {
        ss_log_warning("%s='%s' is not a stack size from 64K (such as 256M or 2G): %llu bytes "
                       "are used",
                       SS_ENV_LINT_STACK, text, (unsigned long long)SS_STACK_WORKER_BYTES);
        return (size_t)SS_STACK_WORKER_BYTES;
    }
    return (size_t)(n << shift);
}

/* The stack size of the workers, read once (ss_stack_prepare). */
static size_t stack_bytes = (size_t)SS_STACK_WORKER_BYTES;

static void prepare_once(void)
{
    stack_bytes = worker_stack_bytes();
    /* libclang runs each parse on a thread of its own with an 8 MiB stack unless told not
     * to; a value the user set is kept (any value means the same). */
    setenv("LIBCLANG_NOTHREADS", "1", 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &next_segv);
}

void ss_stack_prepare(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, prepare_once);
}

/* What a worker thread runs: its function, between setting up and taking down its
 * alternate signal stack and its bounds. */
typedef struct thread_start {
    void *(*fn)(void *);
    void *arg;
} thread_start;

static void *thread_main(void *data)
{
    thread_start start = *(thread_start *)data;
    free(data);
    pthread_attr_t attr;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &low, &size) == 0)
            stack_low = (uintptr_t)low;
        pthread_attr_destroy(&attr);
    }
    stack_t alt, previous;
    int have_alt = 0;
    alt.ss_sp =
        mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alt.ss_sp != MAP_FAILED) {
        alt.ss_size = ALT_STACK_BYTES;
        alt.ss_flags = 0;
        have_alt = sigaltstack(&alt, &previous) == 0;
        if (!have_alt)
            munmap(alt.ss_sp, ALT_STACK_BYTES);
    }
    void *result = start.fn(start.arg);
    overflow_length = 0;
    if (have_alt) {
        /* The one in place before (a sanitizer's) is put back for whoever takes it down. */
        if (previous.ss_flags & SS_DISABLE) {
            previous.ss_sp = NULL;
            previous.ss_size = ALT_STACK_BYTES;
            previous.ss_flags = SS_DISABLE;
        }
        sigaltstack(&previous, NULL);
        munmap(alt.ss_sp, ALT_STACK_BYTES);
    }
    return result;
}

int ss_stack_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    thread_start *start = malloc(sizeof *start);
    if (start == NULL)
        return ENOMEM;
    start->fn = fn;
    start->arg = arg;
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        rc = pthread_attr_setstacksize(&attr, stack_bytes);
        if (rc == 0)
            rc = pthread_attr_setguardsize(&attr, SS_STACK_GUARD_BYTES);
        if (rc == 0)
            rc = pthread_create(thread, &attr, thread_main, start);
        pthread_attr_destroy(&attr);
    }
    if (rc != 0) /* no room for the large stack: the default one */
        rc = pthread_create(thread, NULL, thread_main, start);
    if (rc != 0)
        free(start);
    return rc;
}

void ss_stack_set_unit(const char *path)
{
    overflow_length = 0;
    if (path == NULL || stack_low == 0)
        return;
    char *shown = ss_path_display(path);
    size_t used = ss_log_compose(overflow_message, sizeof overflow_message, "error: ",
                                 "%s: the analysis ran out of stack (an expression or statement "
                                 "nested too deep?)",
                                 shown);
    used += ss_log_compose(overflow_message + used, sizeof overflow_message - used, "",
                           "nothing was written: no report, no baseline; %s sets the stack "
                           "of each worker (default 1G)",
                           SS_ENV_LINT_STACK);
    free(shown);
    overflow_length = used;
}
