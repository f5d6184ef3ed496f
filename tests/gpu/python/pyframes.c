/* pyframes.c: a test library for interpose/python.c: loaded into a Python process with
 * ctypes, it captures the calling thread's Python stack the way the interposer does and
 * returns it as text, so that a test can compare it with the lines it was called from. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "python.h"
#include "store.h"

#define SS_EXPORT __attribute__((visibility("default")))

static ss_store store;
static __thread ss_thread_store *this_thread;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("syncscope: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

SS_EXPORT int ss_pyframes_capture(char *out, size_t size, unsigned max);
SS_EXPORT const char *ss_pyframes_version(void);
SS_EXPORT int ss_pyframes_capture_other(char *out, size_t size, unsigned max);
SS_EXPORT int ss_pyframes_site_key(uint64_t *out);

/* Captures at most 'max' Python frames of the calling thread and writes one line per frame,
 * innermost first: "function<TAB>file<TAB>line". Returns the number of frames, or -1 when
 * 'out' ('size' bytes) is too small. */
static int write_frames(const ss_py_table *table, const uint32_t *ids, uint32_t n, char *out,
                        size_t size);

/* Sets the store up and looks for the interpreter, once. */
static void start(void)
{
    static int started;
    if (!started) {
        ss_store_init(&store, 64u << 20);
        ss_python_init(say);
        started = 1;
    }
}

SS_EXPORT int ss_pyframes_capture(char *out, size_t size, unsigned max)
{
    start();
    if (this_thread == NULL)
        this_thread = ss_store_add_thread(&store);
    if (this_thread == NULL || size == 0)
        return -1;
    uint32_t ids[SS_PY_DEPTH_MAX];
    uint32_t n = ss_python_capture(this_thread, &store.budget, ids, max);
    return write_frames(this_thread->python, ids, n, out, size);
}

/* What a thread without Python frames captured (ss_pyframes_capture_other). */
typedef struct other_capture {
    char *out;
    size_t size;
    unsigned max;
    int n;
} other_capture;

static void *capture_other_thread(void *arg)
{
    other_capture *c = arg;
    ss_thread_store *thread = ss_store_add_thread(&store);
    if (thread == NULL) {
        c->n = -1;
        return NULL;
    }
    uint32_t ids[SS_PY_DEPTH_MAX];
    uint32_t n = ss_python_capture_other(thread, &store.budget, ids, c->max);
    c->n = write_frames(thread->python, ids, n, c->out, c->size);
    return NULL;
}

/* Starts a thread of its own, which has no Python frames, and has it capture another thread's
 * stack as the interposer does on such a thread (ss_python_capture_other), while the caller
 * waits for it; writes the frames as ss_pyframes_capture does. Returns their number, or -1. */
SS_EXPORT int ss_pyframes_capture_other(char *out, size_t size, unsigned max)
{
    start();
    other_capture c = {out, size, max, -1};
    pthread_t thread;
    if (size == 0 || pthread_create(&thread, NULL, capture_other_thread, &c) != 0)
        return -1;
    pthread_join(thread, NULL);
    return c.n;
}

/* The calling thread's site key as the interposer makes it with its default depth of 8 frames
 * (ss_python_site_key, mixed into a key of zeros, the thread's own cache of code objects): its
 * two hashes into 'out[0]' and 'out[1]'. Returns the number of frames mixed (0: no key). */
SS_EXPORT int ss_pyframes_site_key(uint64_t *out)
{
    static __thread ss_site_cache cache;
    start();
    ss_site_key key = {0, 0, 0, 0};
    uint32_t n = ss_python_site_key(&key, &cache, 8);
    out[0] = key.hash;
    out[1] = key.check;
    return (int)n;
}

/* One line per frame of 'table' in 'ids', innermost first: "function<TAB>file<TAB>line" into
 * 'out' ('size' bytes). Returns 'n', or -1 when 'out' is too small. */
static int write_frames(const ss_py_table *table, const uint32_t *ids, uint32_t n, char *out,
                        size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
        const ss_py_frame *f = ss_py_get(table, ids[i]);
        if (f == NULL)
            return -1;
        int w = snprintf(out + used, size - used, "%s\t%s\t%u\n", ss_py_text(table, f->function),
                         ss_py_text(table, f->file), f->line);
        if (w < 0 || (size_t)w >= size - used)
            return -1;
        used += (size_t)w;
    }
    return (int)n;
}

/* The version whose frames are read ("3.12"), "" when none. */
SS_EXPORT const char *ss_pyframes_version(void)
{
    return ss_python_version();
}
