/* threads.c: pthread_create, interposed. A framework's helper thread (the DataLoader's
 * pin-memory thread, a runtime's worker) makes CUDA calls with no frame of the program's own
 * code; the line that started it is in the stack of the thread that called pthread_create.
 * That thread records its stack in its own stack table (capture_callbacks.c), and the new thread
 * learns the creator and that stack before its start routine runs, through a fixed pool of slots:
 * no allocation, no lock. The finisher writes them as the trace's metadata thread_start:N. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "threads.h"

#define SS_EXPORT __attribute__((visibility("default")))

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* A thread being started: taken in pthread_create, given back by the new thread as it starts
 * (or by pthread_create when the thread could not be made). */
typedef struct start_slot {
    _Atomic int used;
    void *(*routine)(void *);
    void *arg;
    uint32_t thread; /* the creating thread's index */
    uint32_t stack;  /* its stack id then */
} start_slot;

/* Threads being started at one time, at most; past that, a thread starts unrecorded. */
#define START_SLOTS 64

static start_slot slots[START_SLOTS];
static _Atomic(create_fn) real_create;

static __thread uint32_t tls_started_by __attribute__((tls_model("initial-exec")));
static __thread uint32_t tls_start_stack __attribute__((tls_model("initial-exec")));

void ss_threads_started_by(uint32_t *thread, uint32_t *stack)
{
    *thread = tls_started_by;
    *stack = tls_start_stack;
}

static start_slot *take_slot(void)
{
    for (size_t i = 0; i < START_SLOTS; i++) {
        int free_slot = 0;
        if (atomic_compare_exchange_strong_explicit(&slots[i].used, &free_slot, 1,
                                                    memory_order_acquire, memory_order_relaxed))
            return &slots[i];
    }
    return NULL;
}

static void *start_recorded(void *p)
{
    start_slot *s = p;
    void *(*routine)(void *) = s->routine;
    void *arg = s->arg;
    tls_started_by = s->thread;
    tls_start_stack = s->stack;
    atomic_store_explicit(&s->used, 0, memory_order_release);
    return routine(arg);
}

SS_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*routine)(void *), void *arg)
{
    create_fn create = atomic_load_explicit(&real_create, memory_order_acquire);
    if (create == NULL) {
        create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (create == NULL)
            return EAGAIN;
        atomic_store_explicit(&real_create, create, memory_order_release);
    }
    uint32_t by = 0, stack = 0;
    ss_capture_starter(&by, &stack);
    start_slot *s = by != 0 ? take_slot() : NULL;
    if (s == NULL)
        return create(thread, attr, routine, arg);
    s->routine = routine;
    s->arg = arg;
    s->thread = by;
    s->stack = stack;
    int rc = create(thread, attr, start_recorded, s);
    if (rc != 0)
        atomic_store_explicit(&s->used, 0, memory_order_release);
    return rc;
}

/* In the child of a fork, the thread that forked is the child's first: what started it in
 * the parent names threads of the parent's run. */
static void forget_in_child(void)
{
    tls_started_by = 0;
    tls_start_stack = 0;
}

__attribute__((constructor)) static void threads_constructor(void)
{
    pthread_atfork(NULL, NULL, forget_in_child);
}
