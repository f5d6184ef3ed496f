/* capture.c: libsyncscope.so: subscribes to CUPTI from the LD_PRELOAD constructor, records
 * API calls and GPU activity into per-thread budgeted buffers, and at exit (or on
 * SIGINT/SIGTERM, from a thread of its own) hands them to the finisher module. Links only libc,
 * libdl, libpthread: libcupti is opened with dlopen, and its header is included for types only. */
#include <cupti.h>
/* NVTX's declarations and its tool interface (the injection entry point and its tables);
 * NVTX_NO_IMPL: no implementation of NVTX itself. */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "capture.h"
#include "interpose.h"
#include "pointers.h"
#include "python.h"
#include "rules.h"
#include "store.h"
#include "threads.h"

#define SS_EXPORT __attribute__((visibility("default")))

/* Activity buffers handed to CUPTI: size, and how many may exist at once. */
/* CUPTI fills one buffer per thread that does CUDA work (per-thread activity buffers are its
 * default), so the count follows the program's threads; the memory cap bounds the total. */
#define ACTIVITY_BUFFER_SIZE (512u << 10)
#define ACTIVITY_BUFFER_MAX 4096
/* Handles of the streams created blocking (a power of two; past it, see remember_blocking). */
#define BLOCKING_STREAM_SLOTS 1024u
/* The streams the light mode asks about at a device-wide call (every stream created and not
 * yet destroyed; open addressing, lock-free, a power of two), and how many one call asks. */
#define LIVE_STREAM_SLOTS 512u
#define PROBE_STREAMS_MAX 32
/* Full windows of the sampled mode kept for the log; past it, no more window opens. */
#define SAMPLE_WINDOWS_MAX 256

/* The CUPTI functions syncscope calls, resolved with dlsym. */
#define CUPTI_FUNCTIONS(X)                                                                         \
    X(cuptiSubscribe)                                                                              \
    X(cuptiUnsubscribe)                                                                            \
    X(cuptiEnableCallback)                                                                         \
    X(cuptiGetCallbackName)                                                                        \
    X(cuptiGetTimestamp)                                                                           \
    X(cuptiGetStreamIdEx)                                                                          \
    X(cuptiGetDeviceId)                                                                            \
    X(cuptiGetContextId)                                                                           \
    X(cuptiGetResultString)                                                                        \
    X(cuptiActivityEnable)                                                                         \
    X(cuptiActivityDisable)                                                                        \
    X(cuptiActivityRegisterCallbacks)                                                              \
    X(cuptiActivityGetNextRecord)                                                                  \
    X(cuptiActivityFlushAll)

typedef struct cupti_api {
#define DECLARE(name) __typeof__(&name) name;
    CUPTI_FUNCTIONS(DECLARE)
#undef DECLARE
} cupti_api;

/* Per-thread state; the thread-local variable is one pointer (initial-exec TLS, so that
 * reaching it never allocates). */
typedef struct stream_slot {
    uint64_t handle;
    void *context;
    uint32_t generation;
    uint32_t stream_id;
    uint8_t per_thread;
    uint8_t valid;
} stream_slot;

/* A launch whose own time in syncscope's callbacks exceeded this is not counted in the trace
 * metadata self_launch_ns (20 us). */
#define SELF_LAUNCH_MAX_NS 20000u
#define STREAM_SLOTS 16
/* Range names a thread looked up recently (a power of two). */
#define NAME_CACHE_SLOTS 32

typedef struct thread_state {
    ss_thread_store *store;
    int runtime_depth; /* runtime calls in progress: driver calls inside are not recorded */
    int busy;          /* inside syncscope: re-entry guard */
    void *context;     /* last context seen, with its device and id */
    uint32_t device;
    uint32_t context_id;
    stream_slot streams[STREAM_SLOTS];
    int in_profiler_call; /* inside cudaProfilerStart/Stop: its cuProfilerStart/Stop is not a
                           * mark of its own */
    uint64_t name_keys[NAME_CACHE_SLOTS]; /* range names seen lately (range_name) */
    uint32_t name_ids[NAME_CACHE_SLOTS];
    ss_event *open_call;   /* the runtime call in progress: a launch's driver call names its
                            * kernel's parameters (record_pointers) */
    uint64_t self_pending; /* syncscope's own time so far in the launch call in progress */
    /* The light mode's probe of the call in progress (probe_enter): the streams asked at its
     * entry and which of them had work pending then. */
    CUstream probed[PROBE_STREAMS_MAX];
    uint32_t probed_count;
    uint32_t probed_pending;
    uint32_t probed_listed; /* those taken from the live streams' table */
    int probed_idle;        /* entered before any context existed: probed, nothing pending */
} thread_state;

/* What the run learns of its GPUs and CUDA (docs/trace-format.md, metadata keys gpu, driver,
 * cuda and cuda_runtime). */
typedef struct device_info {
    char names[512];     /* the devices' names, ", " between them; "" when unknown */
    char driver[64];     /* the kernel driver's version ("580.65.06"); "" when unknown */
    int cuda_version;    /* cuDriverGetVersion (13000: the driver's CUDA 13.0), 0 unknown */
    int runtime_version; /* cudaRuntimeGetVersion of the loaded runtime, 0 when unknown */
} device_info;

static __thread thread_state *tls_state __attribute__((tls_model("initial-exec")));
/* 1 while this thread writes the outputs at exit (a signal here cannot wait for itself). */
static __thread int tls_exiting __attribute__((tls_model("initial-exec")));

/* cuPointerGetAttributes and cuStreamQuery, from the program's own driver (the light mode's
 * host memory kinds and pending work). */
typedef CUresult (*pointer_attributes_fn)(unsigned int, CUpointer_attribute *, void **,
                                          CUdeviceptr);
typedef CUresult (*stream_query_fn)(CUstream);

static struct {
    _Atomic int active; /* subscribed and recording */
    /* The light mode (docs/run.md, "Modes"): only the calls ss_api_light selects are
     * subscribed to, no activity record is enabled, and a copy's or memset's host memory kind
     * is asked of the driver (host_kinds). */
    int light;
    _Atomic(pointer_attributes_fn) pointer_attributes;
    _Atomic(stream_query_fn) stream_query;
    atomic_int context_seen; /* a context was created: before it, no work can be pending */
    _Atomic uint64_t live_streams[LIVE_STREAM_SLOTS]; /* handles, 0 empty, 1 forgotten */
    /* The sampled mode (docs/run.md, "Modes"): full windows of sample_on_ns every
     * sample_every_ns, and on demand (SIGUSR2, the trigger file), opened and closed by the
     * flusher thread; 'windows' holds each one's start and end (CUPTI clock, 0: still open). */
    uint64_t sample_on_ns, sample_every_ns;
    atomic_int window_requested; /* SIGUSR2 asked for a window */
    int window_open;
    int activity_registered;
    uint64_t windows[2 * SAMPLE_WINDOWS_MAX];
    _Atomic uint32_t window_count;
    struct sigaction old_usr2;
    /* 1 while the flusher writes an interval line (the end of the run waits for it) */
    atomic_int interval_busy;
    /* 1: device-wide calls are not probed (no destruction can be seen, or live_streams is
     * full): they are judged by their time alone */
    _Atomic int live_streams_off;
    _Atomic int finishing; /* the finisher has started (once per process) */
    int forked;
    long pid;
    ss_interpose_config config;
    void *cupti_handle;
    char cupti_path[PATH_MAX];
    cupti_api cupti;
    CUpti_SubscriberHandle subscriber;
    const ss_args_spec *runtime_specs[CUPTI_RUNTIME_TRACE_CBID_SIZE];
    const ss_args_spec *driver_specs[CUPTI_DRIVER_TRACE_CBID_SIZE];
    const ss_api *api_rows;
    uint64_t start_ns;
    int64_t started_unix_ns;
    _Atomic uint32_t stream_generation;
    /* Nonzero once work went to a stream that the legacy default stream serializes with: a
     * stream created blocking, or the per-thread default stream. Until then a legacy-stream
     * launch gets no stack: PyTorch runs everything there, and cuBLASLt creates a blocking
     * stream it does not use; a finding about such a launch borrows the site of a launch of
     * the same kernel that has one (det_site_call). */
    atomic_uint legacy_partners;
    _Atomic uint64_t scope_ids;      /* ids of syncscope_scope_begin's ranges so far */
    _Atomic uint64_t nvtx_range_ids; /* ids of NVTX start/end ranges so far */
    _Atomic uint64_t blocking_streams[BLOCKING_STREAM_SLOTS]; /* open addressing, 0: empty */
    _Atomic long activity_pid; /* the process that enabled activity records, 0: none yet */
    pthread_mutex_t enable_lock;
    pthread_mutex_t activity_lock;
    pthread_mutex_t ranges_lock; /* the range-name table (range_name) */
    uint8_t *free_buffers[ACTIVITY_BUFFER_MAX];
    int free_count;
    int buffer_count;
    char gpu[512];
    /* Read when the program created its first context (read_devices), else at the end. */
    device_info devices;
    int devices_read;
    struct sigaction old_int, old_term;
    /* The end of the run (docs/run.md, "What a killed program gets"). At exit the exiting
     * thread runs the finisher. On SIGINT/SIGTERM a thread of syncscope's own runs it (the
     * flusher, started at a process's first recorded CUDA call with every signal blocked),
     * while the handler, which may have interrupted any lock holder, only asks and waits. */
    pthread_mutex_t flusher_lock;
    _Atomic long flusher_pid;        /* the process whose flusher runs, 0: none yet */
    sem_t end_wake;                  /* posted when the flusher is asked to run */
    atomic_int end_request;          /* 0, or END_REQUESTED | END_SKIP_FLUSH | signal number */
    atomic_int end_done;             /* 1 once the finisher has returned */
    atomic_int end_waiting;          /* 1 once a signal handler waits (or gave up) */
    atomic_int exit_signal;          /* a signal that interrupted the exiting thread's outputs */
    _Atomic int python_looked_again; /* the interpreter was looked for at the first stack */
    ss_store store;
} g = {.activity_lock = PTHREAD_MUTEX_INITIALIZER,
       .ranges_lock = PTHREAD_MUTEX_INITIALIZER,
       .enable_lock = PTHREAD_MUTEX_INITIALIZER,
       .flusher_lock = PTHREAD_MUTEX_INITIALIZER};

/* The capture library's one message printer: a single "syncscope: " line on stderr, with
 * write(2) so that it allocates nothing and leaves the program's stdio untouched. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
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

static const char *cupti_error(CUptiResult r)
{
    const char *s = NULL;
    if (g.cupti.cuptiGetResultString == NULL || g.cupti.cuptiGetResultString(r, &s) != 0 ||
        s == NULL)
        return "unknown CUPTI error";
    return s;
}

/* ---- loading CUPTI ---- */

static void *try_open(const char *path, int flags)
{
    void *h = dlopen(path, flags);
    if (h != NULL) {
        size_t n = strlen(path);
        if (n >= sizeof g.cupti_path)
            n = sizeof g.cupti_path - 1;
        memcpy(g.cupti_path, path, n);
        g.cupti_path[n] = '\0';
    }
    return h;
}

/* Tries 'dir'/'name' for the usual names. */
static void *try_dir(const char *dir, const char *sub)
{
    static const char *const names[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s%s/%s", dir, sub, names[i]);
        if (n <= 0 || (size_t)n >= sizeof path || access(path, R_OK) != 0)
            continue;
        void *h = try_open(path, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
    }
    return NULL;
}

/* Finds libcupti: one already loaded (e.g. by PyTorch), SYNCSCOPE_CUPTI_PATH (a file or a
 * folder), CUDA_HOME/CUDA_PATH, /usr/local/cuda, then the loader's own search. */
static void *open_cupti(void)
{
    static const char *const loaded[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++) {
        void *h = try_open(loaded[i], RTLD_NOW | RTLD_NOLOAD);
        if (h != NULL)
            return h;
    }
    const char *own = g.config.cupti_path;
    if (own[0] != '\0') {
        void *h = try_dir(own, "");
        if (h == NULL && access(own, R_OK) == 0)
            h = try_open(own, RTLD_NOW | RTLD_LOCAL);
        return h; /* an explicit choice is not second-guessed */
    }
    static const char *const homes[] = {"CUDA_HOME", "CUDA_PATH"};
    static const char *const subs[] = {"/lib64", "/extras/CUPTI/lib64", "/lib"};
    for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++) {
        const char *home = getenv(homes[i]);
        if (home == NULL || *home == '\0')
            continue;
        for (size_t j = 0; j < sizeof subs / sizeof subs[0]; j++) {
            void *h = try_dir(home, subs[j]);
            if (h != NULL)
                return h;
        }
    }
    for (size_t j = 0; j < sizeof subs / sizeof subs[0]; j++) {
        void *h = try_dir("/usr/local/cuda", subs[j]);
        if (h != NULL)
            return h;
    }
    for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++) {
        void *h = try_open(loaded[i], RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
    }
    return NULL;
}

static int resolve_cupti(const char **missing)
{
#define RESOLVE(name)                                                                              \
    g.cupti.name = (__typeof__(&name))dlsym(g.cupti_handle, #name);                                \
    if (g.cupti.name == NULL) {                                                                    \
        *missing = #name;                                                                          \
        return -1;                                                                                 \
    }
    CUPTI_FUNCTIONS(RESOLVE)
#undef RESOLVE
    return 0;
}

/* ---- per-thread state ---- */

static void flusher_start(void);

static thread_state *thread_get(void)
{
    thread_state *t = tls_state;
    if (t != NULL)
        return t;
    t = ss_budget_alloc(&g.store.budget, sizeof *t);
    if (t == NULL)
        return NULL;
    t->store = ss_store_add_thread(&g.store);
    if (t->store == NULL)
        return NULL; /* the page stays counted; a later call retries */
    /* The thread's name as it is now (PyTorch's "pt_autograd_0"): a finding made on a thread
     * without Python frames names it. One system call, once per thread. */
    if (prctl(PR_GET_NAME, t->store->name) != 0)
        t->store->name[0] = '\0';
    ss_threads_started_by(&t->store->started_by, &t->store->start_stack);
    tls_state = t;
    flusher_start();
    return t;
}

static uint64_t now_ns(void)
{
    uint64_t ts = 0;
    g.cupti.cuptiGetTimestamp(&ts);
    return ts;
}

/* The CUPTI stream id of 'handle' as passed (0, cudaStreamLegacy, cudaStreamPerThread or a
 * real stream), cached per thread; stream creation invalidates every cache. 0: unknown. */
static uint32_t stream_id_of(thread_state *t, void *context, uint64_t handle, int per_thread)
{
    CUstream stream = NULL;
    uint8_t pt = 0;
    if (handle == SS_STREAM_LEGACY_NULL)
        pt = (uint8_t)per_thread;
    else if (handle == SS_STREAM_PER_THREAD)
        pt = 1;
    else if (handle != SS_STREAM_LEGACY)
        stream = (CUstream)(uintptr_t)handle;
    uint32_t gen = atomic_load_explicit(&g.stream_generation, memory_order_relaxed);
    stream_slot *s = &t->streams[(handle >> 4 ^ handle ^ pt) & (STREAM_SLOTS - 1)];
    if (s->valid && s->handle == handle && s->per_thread == pt && s->context == context &&
        s->generation == gen)
        return s->stream_id;
    uint32_t id = 0;
    if (g.cupti.cuptiGetStreamIdEx((CUcontext)context, stream, pt, &id) != CUPTI_SUCCESS)
        return 0;
    *s = (stream_slot){handle, context, gen, id, pt, 1};
    return id;
}

static void context_info(thread_state *t, void *context)
{
    if (t->context == context)
        return;
    uint32_t device = UINT32_MAX, id = 0;
    if (g.cupti.cuptiGetDeviceId((CUcontext)context, &device) != CUPTI_SUCCESS)
        device = UINT32_MAX;
    if (g.cupti.cuptiGetContextId((CUcontext)context, &id) != CUPTI_SUCCESS)
        id = 0;
    t->context = context;
    t->device = device;
    t->context_id = id;
}

/* Records the program counters of the current call, and the calling thread's Python frames
 * when the program is a Python interpreter, and returns the stack id (0: none). */
static uint32_t capture_stack(thread_state *t)
{
    void *frames[SS_STACK_DEPTH];
    int n = backtrace(frames, SS_STACK_DEPTH);
    uint64_t pcs[SS_STACK_DEPTH];
    uint32_t depth = 0;
    /* Frame 0 is this library's callback; the finisher drops CUPTI's and the driver's. */
    for (int i = 1; i < n; i++)
        pcs[depth++] = (uint64_t)(uintptr_t)frames[i];
    uint32_t py[SS_PY_DEPTH_MAX];
    uint32_t py_depth = 0, py_other = 0;
    if (g.config.python_depth > 0) {
        /* An interpreter loaded after the start (a program that embeds one) is looked for
         * once more, at the first stack. */
        if (!atomic_exchange_explicit(&g.python_looked_again, 1, memory_order_relaxed))
            ss_python_init(say);
        py_depth = ss_python_capture(t->store, &g.store.budget, py, g.config.python_depth);
        /* A thread without Python frames (PyTorch's autograd engine, XLA's runtime) works for
         * a Python thread that waits meanwhile: its stack names the program's line. */
        if (py_depth == 0 && g.config.cross_thread) {
            py_depth =
                ss_python_capture_other(t->store, &g.store.budget, py, g.config.python_depth);
            py_other = py_depth > 0;
        }
    }
    if (depth == 0 && py_depth == 0)
        return 0;
    return ss_stack_intern_py(&t->store->stacks, &g.store.budget, pcs, depth, py, py_depth,
                              py_other);
}

void ss_capture_starter(uint32_t *thread, uint32_t *stack)
{
    *thread = *stack = 0;
    if (!atomic_load_explicit(&g.active, memory_order_relaxed) || !g.config.cross_thread)
        return;
    int saved_errno = errno;
    thread_state *t = thread_get();
    if (t != NULL && !t->busy) {
        t->busy = 1;
        *thread = t->store->index;
        *stack = capture_stack(t);
        t->busy = 0;
    }
    errno = saved_errno;
}

/* ---- sets of stream handles: fixed lock-free tables, open addressing, no allocation ---- */

/* A slot of a stream handle that was forgotten (handles 0..2 are the special streams, never
 * stored). */
#define HANDLE_TOMBSTONE 1u

static size_t handle_slot(uint64_t handle, size_t slots)
{
    handle ^= handle >> 33;
    handle *= 0xff51afd7ed558ccdull;
    handle ^= handle >> 33;
    return (size_t)handle & (slots - 1);
}

/* Adds 'handle' to 'table' ('slots' of them, a power of two; a forgotten slot is not reused, so
 * that a handle is never in the table twice). Returns 0, or -1 when the table is full. */
static int handle_add(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    size_t i = handle_slot(handle, slots);
    for (size_t n = 0; n < slots; n++, i = (i + 1) & (slots - 1)) {
        uint64_t seen = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (seen == 0 && atomic_compare_exchange_strong_explicit(
                             &table[i], &seen, handle, memory_order_release, memory_order_relaxed))
            return 0;
        if (seen == handle)
            return 0;
    }
    return -1;
}

/* Forgets 'handle' in 'table'. */
static void handle_forget(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    size_t i = handle_slot(handle, slots);
    for (size_t n = 0; n < slots; n++, i = (i + 1) & (slots - 1)) {
        uint64_t seen = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (seen == 0)
            return;
        if (seen == handle &&
            atomic_compare_exchange_strong_explicit(&table[i], &seen, HANDLE_TOMBSTONE,
                                                    memory_order_release, memory_order_relaxed))
            return;
    }
}

static int handle_known(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    size_t i = handle_slot(handle, slots);
    for (size_t n = 0; n < slots; n++, i = (i + 1) & (slots - 1)) {
        uint64_t seen = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (seen == handle)
            return 1;
        if (seen == 0)
            return 0;
    }
    return 0;
}

/* Remembers a stream created blocking. When the table is full, every launch counts as one
 * that may serialize from then on. */
static void remember_blocking(uint64_t handle)
{
    if (handle_add(g.blocking_streams, BLOCKING_STREAM_SLOTS, handle) < 0)
        atomic_store_explicit(&g.legacy_partners, 1, memory_order_relaxed);
}

/* Forgets a handle that a destroyed blocking stream had and a new non-blocking stream got. */
static void forget_blocking(uint64_t handle)
{
    handle_forget(g.blocking_streams, BLOCKING_STREAM_SLOTS, handle);
}

static int is_blocking(uint64_t handle)
{
    return handle_known(g.blocking_streams, BLOCKING_STREAM_SLOTS, handle);
}

/* ---- the light mode's probe of pending work (docs/run.md, "Modes") ---- */

/* Remembers a created stream. When the table is full (more than LIVE_STREAM_SLOTS streams
 * made over the run), device-wide calls are no longer probed: they are judged by their time. */
static void live_stream_add(uint64_t handle)
{
    if (handle_add(g.live_streams, LIVE_STREAM_SLOTS, handle) < 0)
        atomic_store_explicit(&g.live_streams_off, 1, memory_order_relaxed);
}

/* Forgets a stream at the start of its destruction, before the driver frees it. */
static void live_stream_remove(uint64_t handle)
{
    handle_forget(g.live_streams, LIVE_STREAM_SLOTS, handle);
}

/* Forgets every stream: a context is being destroyed, and its streams with it (another
 * context's streams are forgotten too, so device-wide calls no longer ask about them). */
static void live_streams_clear(void)
{
    for (size_t i = 0; i < LIVE_STREAM_SLOTS; i++)
        atomic_store_explicit(&g.live_streams[i], 0, memory_order_release);
}

/* The stream a call's handle names, for cuStreamQuery: the legacy or the per-thread default
 * stream for the special handles, as the call's variant reads 0. */
static CUstream query_handle(uint64_t handle, int per_thread)
{
    if (handle == SS_STREAM_LEGACY_NULL)
        return per_thread ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
    if (handle == SS_STREAM_LEGACY)
        return CU_STREAM_LEGACY;
    if (handle == SS_STREAM_PER_THREAD)
        return CU_STREAM_PER_THREAD;
    return (CUstream)(uintptr_t)handle;
}

/* At the entry of a call that may wait, in the light mode: asks the driver which streams the
 * call may wait for have work pending (cuStreamQuery, no allocation, no lock): the stream a
 * stream synchronization or an asynchronous copy names, else (a device-wide call, a
 * synchronous copy, a synchronization of the legacy stream) the default stream and every live
 * stream. Sets t->probed_count to 0 when the call is not probed: an event synchronization
 * (its event is not taken), or a device-wide call while more than PROBE_STREAMS_MAX streams
 * live or some may not be known (live_streams_off). */
static void probe_enter(thread_state *t, const ss_args_spec *spec, const ss_ev_api *a)
{
    t->probed_count = 0;
    t->probed_pending = 0;
    t->probed_listed = 0;
    t->probed_idle = 0;
    stream_query_fn query = atomic_load_explicit(&g.stream_query, memory_order_acquire);
    const ss_api *row = &g.api_rows[spec->api];
    if (row->klass == SS_CLASS_EVENT_SYNC || row->klass == SS_CLASS_QUERY ||
        (row->sync == SS_SYNC_NEVER && row->klass != SS_CLASS_COPY &&
         row->klass != SS_CLASS_MEMSET))
        return;
    /* The process's first CUDA call creates its context inside the call: no work of its own
     * can be pending at its entry (the driver cannot be asked yet). */
    if (query == NULL) {
        t->probed_idle = !atomic_load_explicit(&g.context_seen, memory_order_acquire);
        return;
    }
    int one_stream =
        spec->stream.size != 0 && !(row->klass == SS_CLASS_STREAM_SYNC &&
                                    (a->stream == SS_STREAM_LEGACY ||
                                     (a->stream == SS_STREAM_LEGACY_NULL && !spec->per_thread)));
    uint32_t n = 0;
    if (one_stream) {
        t->probed[n++] = query_handle(a->stream, spec->per_thread);
    } else {
        /* Every live stream, or none: a device-wide call asked about some streams only would
         * look as if it waited for nothing. */
        if (atomic_load_explicit(&g.live_streams_off, memory_order_relaxed))
            return;
        t->probed[n++] = CU_STREAM_LEGACY;
        if (spec->per_thread)
            t->probed[n++] = CU_STREAM_PER_THREAD;
        for (size_t i = 0; i < LIVE_STREAM_SLOTS; i++) {
            uint64_t h = atomic_load_explicit(&g.live_streams[i], memory_order_acquire);
            if (h <= SS_STREAM_PER_THREAD)
                continue;
            if (n == PROBE_STREAMS_MAX)
                return;
            t->probed_listed |= 1u << n;
            t->probed[n++] = (CUstream)(uintptr_t)h;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (query(t->probed[i]) == CUDA_ERROR_NOT_READY)
            t->probed_pending |= 1u << i;
    }
    t->probed_count = n;
}

/* At the exit of a probed call: SS_API_PROBED, with SS_API_WAITED when work that was pending
 * at its entry is complete now (what the call waited for, as the full mode's GPU records
 * show it); 0 when the call was not probed. A stream of the live streams' table that another
 * thread destroyed during the call (no longer in the table) is not asked again: its handle
 * may be freed. */
static uint32_t probe_exit(thread_state *t)
{
    stream_query_fn query = atomic_load_explicit(&g.stream_query, memory_order_acquire);
    if (t->probed_idle) {
        t->probed_idle = 0;
        return SS_API_PROBED;
    }
    if (t->probed_count == 0 || query == NULL)
        return 0;
    uint32_t word = SS_API_PROBED;
    for (uint32_t i = 0; i < t->probed_count; i++) {
        if (!(t->probed_pending & 1u << i) ||
            ((t->probed_listed & 1u << i) &&
             !handle_known(g.live_streams, LIVE_STREAM_SLOTS, (uint64_t)(uintptr_t)t->probed[i])))
            continue;
        if (query(t->probed[i]) == CUDA_SUCCESS) {
            word |= SS_API_WAITED;
            break;
        }
    }
    t->probed_count = 0;
    return word;
}

/* The light mode's resource callbacks: a stream created (any, also a library's own), a stream
 * about to be destroyed, a context about to be destroyed (its streams with it). */
static void on_stream_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
    if (rd == NULL)
        return;
    uint64_t stream = (uint64_t)(uintptr_t)rd->resourceHandle.stream;
    if (cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED && stream > SS_STREAM_PER_THREAD)
        live_stream_add(stream);
    else if (cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING)
        live_stream_remove(stream);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        live_streams_clear();
}

static void on_stream_created(thread_state *t, const ss_args_spec *spec, const void *params,
                              ss_ev_api *call, void *context)
{
    int present;
    uint64_t where = ss_args_read(params, &spec->out_stream, &present);
    if (!present || where == 0)
        return;
    uint64_t handle;
    memcpy(&handle, (const void *)(uintptr_t)where, sizeof handle);
    call->stream = handle;
    atomic_fetch_add_explicit(&g.stream_generation, 1, memory_order_relaxed);
    ss_event *e = ss_evbuf_reserve(&t->store->events, &g.store.budget);
    if (e == NULL)
        return;
    ss_ev_stream *s = &e->u.stream;
    s->handle = handle;
    s->stream_id = context != NULL ? stream_id_of(t, context, handle, 0) : 0;
    /* cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are both 0x1. */
    s->flags = (call->flags & 0x1u) ? SS_STREAM_FLAG_NON_BLOCKING : 0;
    if (handle > SS_STREAM_PER_THREAD) {
        if (s->flags == 0)
            remember_blocking(handle);
        else
            forget_blocking(handle);
    }
    s->device = call->device;
    uint64_t priority = ss_args_read(params, &spec->priority, &present);
    s->priority = present ? (int32_t)(uint32_t)priority : 0;
    s->context = t->context_id;
    e->type = SS_EV_STREAM;
}

/* Appends the device pointers call 'call' was handed (an SS_EV_ARGS event, allocation-free):
 * at its entry a copy's or memset's pointers, and a driver launch's parameters (also when the
 * launch is the driver call inside a runtime launch, 'call' being the runtime call); at its
 * exit an allocation's address or a freed pointer, when the call succeeded. */
static void record_pointers(thread_state *t, const ss_args_spec *spec, const void *params,
                            const ss_ev_api *call, int at_exit)
{
    int kind = spec->pointers, present;
    if (at_exit != (kind == SS_ARGS_ALLOC || kind == SS_ARGS_FREE) ||
        (at_exit && call->result != 0))
        return;
    ss_ev_args args = {.time_ns = call->enter_ns, .correlation = call->correlation};
    if (kind == SS_ARGS_LAUNCH) {
        ss_pointers_launch(&args, ss_args_read(params, &spec->function, &present),
                           ss_args_read(params, &spec->kernel_params, &present),
                           ss_args_read(params, &spec->extra, &present));
    } else {
        args.kind = (uint8_t)kind;
        args.complete = 1;
        args.values[0] = ss_args_read(params, &spec->dst, &present);
        args.values[1] = ss_args_read(params, &spec->src, &present);
        args.count = kind == SS_ARGS_COPY ? 2 : 1;
        if (kind == SS_ARGS_ALLOC)
            ss_pointers_note_alloc(args.values[0], call->bytes);
    }
    ss_event *e = ss_evbuf_reserve(&t->store->events, &g.store.budget);
    if (e == NULL)
        return;
    e->u.args = args;
    e->type = SS_EV_ARGS;
}

/* The memory kind (ss_mem_kind) of 'pointer' as the driver knows it: pinned (page-locked or
 * registered host memory), device, array or managed memory, and pageable for an address the
 * driver does not know; unknown for NULL or when the driver cannot be asked. One driver call,
 * allocation-free (cuPointerGetAttributes answers for any address, without an error). */
static uint8_t memory_kind_of(uint64_t pointer)
{
    pointer_attributes_fn ask = atomic_load_explicit(&g.pointer_attributes, memory_order_acquire);
    if (pointer == 0 || ask == NULL)
        return SS_MEM_UNKNOWN;
    CUpointer_attribute attributes[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                         CU_POINTER_ATTRIBUTE_IS_MANAGED};
    uint64_t type = 0, managed = 0; /* wider than either answer, which is written at the start */
    void *data[2] = {&type, &managed};
    if (ask(2, attributes, data, (CUdeviceptr)pointer) != CUDA_SUCCESS)
        return SS_MEM_UNKNOWN;
    if ((uint32_t)managed != 0)
        return SS_MEM_MANAGED;
    switch ((uint32_t)type) {
    case 0:
        return SS_MEM_PAGEABLE;
    case CU_MEMORYTYPE_HOST:
        return SS_MEM_PINNED;
    case CU_MEMORYTYPE_DEVICE:
        return SS_MEM_DEVICE;
    case CU_MEMORYTYPE_ARRAY:
        return SS_MEM_ARRAY;
    default:
        return SS_MEM_UNKNOWN;
    }
}

/* The light mode's word for a copy or memset (ss_ev_api.flags, SS_API_MEM_*): the memory
 * kinds of its destination and source, which CUPTI's copy records give in the full mode. */
static uint32_t host_kinds(const ss_args_spec *spec, const void *params)
{
    int present;
    uint64_t dst = ss_args_read(params, &spec->dst, &present);
    uint64_t src = ss_args_read(params, &spec->src, &present);
    return SS_API_MEM_WORD(memory_kind_of(src), memory_kind_of(dst));
}

static void on_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const ss_args_spec *spec = NULL;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
        spec = g.runtime_specs[cbid];
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
        spec = g.driver_specs[cbid];
    if (spec == NULL)
        return;
    int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;

    if (cb->callbackSite == CUPTI_API_ENTER) {
        *cb->correlationData = 0;
        if (!atomic_load_explicit(&g.active, memory_order_relaxed))
            return;
        thread_state *t = thread_get();
        if (t == NULL) {
            atomic_fetch_add_explicit(&g.store.budget.dropped_events, 1, memory_order_relaxed);
            return;
        }
        if (t->busy)
            return;
        if (runtime) {
            t->runtime_depth++;
        } else if (t->runtime_depth > 0) {
            /* The runtime call around it is the one recorded; a launch names its parameters. */
            if (spec->pointers == SS_ARGS_LAUNCH && t->open_call != NULL && g.config.pointers) {
                t->busy = 1;
                uint64_t begin = now_ns();
                record_pointers(t, spec, cb->functionParams, &t->open_call->u.api, 0);
                t->self_pending += now_ns() - begin;
                t->busy = 0;
            }
            return;
        }
        t->busy = 1;
        ss_event *e = ss_evbuf_reserve(&t->store->events, &g.store.budget);
        if (e != NULL) {
            ss_ev_api *a = &e->u.api;
            a->correlation = cb->correlationId;
            a->thread = t->store->index;
            a->api = spec->api;
            a->domain = spec->domain;
            a->per_thread = spec->per_thread;
            a->device = -1;
            a->copy_kind = -1;
            int present;
            const void *p = cb->functionParams;
            a->stream = ss_args_read(p, &spec->stream, &present);
            uint64_t bytes = ss_args_read(p, &spec->bytes, &present);
            uint64_t factor = ss_args_read(p, &spec->bytes2, &present);
            a->bytes = present ? bytes * factor : bytes;
            uint64_t kind = ss_args_read(p, &spec->kind, &present);
            if (present)
                a->copy_kind = (int32_t)kind;
            a->flags = (uint32_t)ss_args_read(p, &spec->flags, &present);
            if (g.light && (spec->pointers == SS_ARGS_COPY))
                a->flags = host_kinds(spec, p);
            if (g.light)
                probe_enter(t, spec, a);
            /* After the light mode's questions to the driver: their time is not the call's. */
            a->enter_ns = now_ns();
            e->type = SS_EV_API;
            *cb->correlationData = (uint64_t)(uintptr_t)e;
            if (spec->pointers != 0 && g.config.pointers)
                record_pointers(t, spec, p, a, 0);
        }
        if (runtime)
            t->open_call = e;
        if (e != NULL && g.api_rows[spec->api].klass == SS_CLASS_LAUNCH)
            t->self_pending = now_ns() - e->u.api.enter_ns;
        t->busy = 0;
        return;
    }

    thread_state *t = tls_state;
    if (t == NULL || t->busy)
        return;
    if (runtime && t->runtime_depth > 0)
        t->runtime_depth--;
    if (runtime)
        t->open_call = NULL;
    ss_event *e = (ss_event *)(uintptr_t)*cb->correlationData;
    if (e == NULL)
        return;
    t->busy = 1;
    ss_ev_api *a = &e->u.api;
    uint64_t exit_ns = now_ns();
    if (g.light)
        a->flags |= probe_exit(t);
    a->result = cb->functionReturnValue != NULL ? *(const int32_t *)cb->functionReturnValue : 0;
    void *context = (void *)cb->context;
    if (context != NULL) {
        context_info(t, context);
        a->device = t->device == UINT32_MAX ? -1 : (int32_t)t->device;
        if (spec->stream.size != 0)
            a->stream_id = stream_id_of(t, context, a->stream, spec->per_thread);
    }
    if (spec->out_stream.size != 0 && a->result == 0)
        on_stream_created(t, spec, cb->functionParams, a, context);
    if (spec->pointers != 0 && g.config.pointers)
        record_pointers(t, spec, cb->functionParams, a, 1);
    const ss_api *row = &g.api_rows[spec->api];
    /* Stacks only for calls that may become findings: synchronizing ones, long ones, work
     * put on the legacy default stream (SYNC101/SYNC102), and the rare calls whose site a
     * finding names: stream creation (SYNC103) and capture begin/end (SYNC501). */
    int enqueues = spec->stream.size != 0 && ss_api_enqueues(row);
    int legacy = enqueues && ((a->stream == SS_STREAM_LEGACY_NULL && !spec->per_thread) ||
                              a->stream == SS_STREAM_LEGACY);
    int partners = atomic_load_explicit(&g.legacy_partners, memory_order_relaxed) != 0;
    if (enqueues && !legacy && !partners &&
        (spec->per_thread || a->stream == SS_STREAM_PER_THREAD || is_blocking(a->stream))) {
        atomic_store_explicit(&g.legacy_partners, 1, memory_order_relaxed);
        partners = 1;
    }
    if (row->sync != SS_SYNC_NEVER || exit_ns - a->enter_ns >= g.config.stack_min_ns ||
        (legacy && partners) || row->klass == SS_CLASS_STREAM_CREATE ||
        row->klass == SS_CLASS_CAPTURE_BEGIN || row->klass == SS_CLASS_CAPTURE_END)
        a->stack = capture_stack(t);
    a->exit_ns = exit_ns > a->enter_ns ? exit_ns : a->enter_ns + 1;
    /* syncscope's own time in a launch, its enter side included: what the launch-bound
     * what-if takes off the traced launches (docs/detectors.md, SYNC502). A launch that took
     * longer (a kernel's first, whose parameter layout the driver is asked for, or one whose
     * stack was taken) is counted apart: one-time work, not the cost of every launch. */
    if (row->klass == SS_CLASS_LAUNCH) {
        uint64_t own = t->self_pending + (now_ns() - exit_ns);
        t->self_pending = 0;
        if (own <= SELF_LAUNCH_MAX_NS) {
            t->store->self_launch_ns += own;
            t->store->self_launches++;
        } else {
            t->store->self_slow_launches++;
        }
    }
    t->busy = 0;
}

/* ---- scope marks (docs/run.md, "Scopes") ---- */

/* Appends a scope mark to the thread's buffer: bounded and allocation-free, as every event. */
static void record_mark(thread_state *t, uint8_t kind, uint8_t source, uint64_t id, uint32_t name)
{
    uint64_t when = now_ns();
    ss_event *e = ss_evbuf_reserve(&t->store->events, &g.store.budget);
    if (e == NULL)
        return;
    ss_ev_scope *m = &e->u.scope;
    m->time_ns = when;
    m->id = id;
    m->thread = t->store->index;
    m->name = name;
    m->kind = kind;
    m->source = source;
    e->type = SS_EV_SCOPE;
}

/* Keys of the range-name table: a text's FNV-1a hash with the top bit set. An NVTX string
 * registered with syncscope gets its text's key as its handle (nvtx_register_a). */
#define NAME_KEY_TEXT (1ull << 63)

static uint64_t text_key(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; text[i] != '\0' && i < SS_NAME_TEXT_MAX; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    return h | NAME_KEY_TEXT;
}

/* The range-name table's id of a range name at 'key' ('text' copied the first time; NULL:
 * only look it up), 0 when unknown or the table is full. A thread's recent names are found
 * without the lock; a new one takes it once, to be copied. The lock is the table's own, apart
 * from the activity records' (a callback never waits for a buffer being converted). */
static uint32_t range_name(thread_state *t, uint64_t key, const char *text)
{
    size_t slot = (size_t)(key ^ key >> 29 ^ key >> 47) & (NAME_CACHE_SLOTS - 1);
    if (t->name_keys[slot] == key && t->name_ids[slot] != 0)
        return t->name_ids[slot];
    pthread_mutex_lock(&g.ranges_lock);
    uint32_t id = ss_name_intern(&g.store.ranges, &g.store.budget, key, text);
    pthread_mutex_unlock(&g.ranges_lock);
    if (id != 0) {
        t->name_keys[slot] = key;
        t->name_ids[slot] = id;
    }
    return id;
}

static uint32_t text_name(thread_state *t, const char *text)
{
    return text != NULL ? range_name(t, text_key(text), text) : 0;
}

/* A wide-character NVTX message, its ASCII characters kept and the others as '?'. */
static uint32_t wide_name(thread_state *t, const wchar_t *text)
{
    char narrow[256];
    size_t n = 0;
    if (text == NULL)
        return 0;
    for (; text[n] != 0 && n < sizeof narrow - 1; n++)
        narrow[n] = text[n] > 0 && text[n] < 0x7f ? (char)text[n] : '?';
    narrow[n] = '\0';
    return text_name(t, narrow);
}

/* The name of an NVTX event's attributes: its ASCII, wide or registered message. */
static uint32_t attribute_name(thread_state *t, const nvtxEventAttributes_t *attributes)
{
    if (attributes == NULL ||
        attributes->size < offsetof(nvtxEventAttributes_t, message) + sizeof attributes->message)
        return 0;
    switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return text_name(t, attributes->message.ascii);
    case NVTX_MESSAGE_TYPE_UNICODE:
        return wide_name(t, attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED: {
        uint64_t key = (uint64_t)(uintptr_t)attributes->message.registered;
        return (key & NAME_KEY_TEXT) != 0 ? range_name(t, key, NULL) : 0;
    }
    default:
        return 0;
    }
}

/* ---- NVTX: syncscope is the program's NVTX tool (docs/run.md, "Scopes") ---- */

/* Push/pop depth of this thread's NVTX ranges: what nvtxRangePush and nvtxRangePop return. */
static __thread int tls_nvtx_depth __attribute__((tls_model("initial-exec")));

/* How a scope mark names its range. */
enum mark_name_form {
    MARK_UNNAMED,    /* a pop or an end */
    MARK_ASCII,      /* const char * */
    MARK_WIDE,       /* const wchar_t * */
    MARK_ATTRIBUTES, /* const nvtxEventAttributes_t * */
    MARK_REGISTER    /* const char * to copy into the name table, no mark */
};

/* Records a scope mark of 'kind' from 'source' (NVTX or the program's syncscope.scope()) on
 * the calling thread, or, MARK_REGISTER, only copies the text: allocation-free and lock-free
 * once the name was seen on this thread. Keeps errno. Returns 1 when the thread could record
 * it, 0 when the process is not observed or the thread is inside syncscope. */
static int scope_mark(uint8_t kind, uint8_t source, uint64_t id, enum mark_name_form form,
                      const void *what)
{
    if (!atomic_load_explicit(&g.active, memory_order_relaxed))
        return 0;
    int saved_errno = errno;
    int recorded = 0;
    thread_state *t = thread_get();
    if (t != NULL && !t->busy) {
        t->busy = 1;
        uint32_t name = 0;
        switch (form) {
        case MARK_ASCII:
            name = text_name(t, what);
            break;
        case MARK_WIDE:
            name = wide_name(t, what);
            break;
        case MARK_ATTRIBUTES:
            name = attribute_name(t, what);
            break;
        case MARK_REGISTER:
            text_name(t, what);
            break;
        case MARK_UNNAMED:
            break;
        }
        if (form != MARK_REGISTER)
            record_mark(t, kind, source, id, name);
        t->busy = 0;
        recorded = 1;
    }
    errno = saved_errno;
    return recorded;
}

/* An NVTX call's mark (scope_mark). */
static void nvtx_mark(uint8_t kind, uint64_t id, enum mark_name_form form, const void *what)
{
    scope_mark(kind, SS_SCOPE_FROM_NVTX, id, form, what);
}

static int nvtx_pushed(void)
{
    return tls_nvtx_depth++;
}

static int nvtx_popped(void)
{
    if (tls_nvtx_depth == 0)
        return -1; /* a pop without a push: NVTX's error value */
    return --tls_nvtx_depth;
}

static nvtxRangeId_t nvtx_new_range_id(void)
{
    return atomic_fetch_add_explicit(&g.nvtx_range_ids, 1, memory_order_relaxed) + 1;
}

static int NVTX_API nvtx_push_a(const char *message)
{
    nvtx_mark(SS_SCOPE_PUSH, 0, MARK_ASCII, message);
    return nvtx_pushed();
}

static int NVTX_API nvtx_push_w(const wchar_t *message)
{
    nvtx_mark(SS_SCOPE_PUSH, 0, MARK_WIDE, message);
    return nvtx_pushed();
}

static int NVTX_API nvtx_push_ex(const nvtxEventAttributes_t *attributes)
{
    nvtx_mark(SS_SCOPE_PUSH, 0, MARK_ATTRIBUTES, attributes);
    return nvtx_pushed();
}

static int NVTX_API nvtx_pop(void)
{
    nvtx_mark(SS_SCOPE_POP, 0, MARK_UNNAMED, NULL);
    return nvtx_popped();
}

static nvtxRangeId_t NVTX_API nvtx_start_a(const char *message)
{
    nvtxRangeId_t id = nvtx_new_range_id();
    nvtx_mark(SS_SCOPE_START, id, MARK_ASCII, message);
    return id;
}

static nvtxRangeId_t NVTX_API nvtx_start_w(const wchar_t *message)
{
    nvtxRangeId_t id = nvtx_new_range_id();
    nvtx_mark(SS_SCOPE_START, id, MARK_WIDE, message);
    return id;
}

static nvtxRangeId_t NVTX_API nvtx_start_ex(const nvtxEventAttributes_t *attributes)
{
    nvtxRangeId_t id = nvtx_new_range_id();
    nvtx_mark(SS_SCOPE_START, id, MARK_ATTRIBUTES, attributes);
    return id;
}

static void NVTX_API nvtx_end(nvtxRangeId_t id)
{
    nvtx_mark(SS_SCOPE_END, id, MARK_UNNAMED, NULL);
}

static int NVTX_API nvtx_domain_push_ex(nvtxDomainHandle_t domain,
                                        const nvtxEventAttributes_t *attributes)
{
    (void)domain;
    return nvtx_push_ex(attributes);
}

static int NVTX_API nvtx_domain_pop(nvtxDomainHandle_t domain)
{
    (void)domain;
    return nvtx_pop();
}

static nvtxRangeId_t NVTX_API nvtx_domain_start_ex(nvtxDomainHandle_t domain,
                                                   const nvtxEventAttributes_t *attributes)
{
    (void)domain;
    return nvtx_start_ex(attributes);
}

static void NVTX_API nvtx_domain_end(nvtxDomainHandle_t domain, nvtxRangeId_t id)
{
    (void)domain;
    nvtx_end(id);
}

/* A registered string's handle is its text's key in the range-name table (never NULL, the
 * same for the same text); the text is copied into the table now, when there is room. */
static nvtxStringHandle_t NVTX_API nvtx_register_a(nvtxDomainHandle_t domain, const char *string)
{
    (void)domain;
    if (string == NULL)
        return NULL;
    nvtx_mark(0, 0, MARK_REGISTER, string);
    return (nvtxStringHandle_t)(uintptr_t)text_key(string);
}

/* What syncscope implements of NVTX's core and domain modules; NVTX makes the rest no-ops. */
static const struct nvtx_slot {
    NvtxCallbackModule module;
    unsigned id;
    NvtxFunctionPointer function;
} nvtx_slots[] = {
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)nvtx_push_a},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushW, (NvtxFunctionPointer)nvtx_push_w},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)nvtx_push_ex},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)nvtx_pop},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartA, (NvtxFunctionPointer)nvtx_start_a},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartW, (NvtxFunctionPointer)nvtx_start_w},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, (NvtxFunctionPointer)nvtx_start_ex},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeEnd, (NvtxFunctionPointer)nvtx_end},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx,
     (NvtxFunctionPointer)nvtx_domain_push_ex},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)nvtx_domain_pop},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx,
     (NvtxFunctionPointer)nvtx_domain_start_ex},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeEnd, (NvtxFunctionPointer)nvtx_domain_end},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA,
     (NvtxFunctionPointer)nvtx_register_a},
};

/* NVTX's tool entry point, called at a library's first NVTX call when NVTX_INJECTION64_PATH
 * names this library (observe_nvtx): fills in the functions above. Returns 1, or 0 when this
 * process is not observed or the tables are not NVTX's (NVTX then leaves every call a no-op). */
SS_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    if (!atomic_load(&g.active) || !g.config.nvtx || get_export_table == NULL)
        return 0;
    const NvtxExportTableCallbacks *callbacks = get_export_table(NVTX_ETID_CALLBACKS);
    if (callbacks == NULL || callbacks->struct_size < sizeof *callbacks ||
        callbacks->GetModuleFunctionTable == NULL)
        return 0;
    for (size_t i = 0; i < sizeof nvtx_slots / sizeof nvtx_slots[0]; i++) {
        const struct nvtx_slot *slot = &nvtx_slots[i];
        NvtxFunctionTable table = NULL;
        unsigned int size = 0;
        if (callbacks->GetModuleFunctionTable(slot->module, &table, &size) == 0 || table == NULL)
            continue;
        if (slot->id < size && table[slot->id] != NULL)
            *table[slot->id] = slot->function;
    }
    return 1;
}
/* cudaProfilerStart/Stop and cuProfilerStart/Stop: the CUDA profiler API, which
 * --profile-from-start off scopes by. A start counts from its return, a stop from its call;
 * the driver call that a runtime call makes is not a second mark. */
static int is_profiler_call(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, int *start)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        *start = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000;
        return *start || cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
    }
    *start = cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
    return *start || cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
}

static void on_profiler(CUpti_CallbackDomain domain, int start, const CUpti_CallbackData *cb)
{
    if (!atomic_load_explicit(&g.active, memory_order_relaxed))
        return;
    thread_state *t = thread_get();
    if (t == NULL || t->busy)
        return;
    int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    if (!runtime && t->in_profiler_call)
        return;
    if (runtime)
        t->in_profiler_call = enter;
    if (enter == start)
        return; /* a start is marked at its exit, a stop at its entry */
    t->busy = 1;
    record_mark(t, start ? SS_SCOPE_PROFILER_START : SS_SCOPE_PROFILER_STOP, SS_SCOPE_FROM_NVTX, 0,
                0);
    t->busy = 0;
}

/* The profiler API callbacks, checked by name like the argument table's. */
static const struct profiler_callback {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    const char *name;
} profiler_callbacks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
     "cudaProfilerStart_v4000"},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
     "cudaProfilerStop_v4000"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, "cuProfilerStart"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, "cuProfilerStop"},
};

/* Subscribes to the profiler API's scope marks (NVTX's come through
 * InitializeInjectionNvtx2). A callback CUPTI refuses only loses its marks. */
static void enable_scope_callbacks(void)
{
    for (size_t i = 0; i < sizeof profiler_callbacks / sizeof profiler_callbacks[0]; i++) {
        const struct profiler_callback *c = &profiler_callbacks[i];
        const char *name = NULL;
        if (g.cupti.cuptiGetCallbackName(c->domain, c->cbid, &name) == CUPTI_SUCCESS &&
            name != NULL && strcmp(name, c->name) == 0)
            g.cupti.cuptiEnableCallback(1, g.subscriber, c->domain, c->cbid);
    }
}

/* The light mode follows the streams that live (probe_enter asks about them at device-wide
 * calls) through CUPTI's resource callbacks. Without them, device-wide calls are judged by
 * their time alone. */
static void enable_stream_callbacks(void)
{
    static const CUpti_CallbackId resources[] = {CUPTI_CBID_RESOURCE_STREAM_CREATED,
                                                 CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING,
                                                 CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING};
    for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        if (g.cupti.cuptiEnableCallback(1, g.subscriber, CUPTI_CB_DOMAIN_RESOURCE, resources[i]) !=
            CUPTI_SUCCESS)
            atomic_store(&g.live_streams_off, 1);
    }
}

/* NVTX calls reach a tool only through the NVTX injection library the program loads at its
 * first NVTX call, named by NVTX_INJECTION64_PATH: this library, whose
 * InitializeInjectionNvtx2 records the ranges itself (no need for CUPTI's NVTX layer, and the
 * same on machines without a GPU). Set from the constructor, before the program runs, and
 * only when the program has not chosen an NVTX tool of its own. */
static void observe_nvtx(void)
{
    if (!g.config.nvtx || !atomic_load(&g.active))
        return;
    const char *chosen = getenv("NVTX_INJECTION64_PATH");
    if (chosen != NULL && *chosen != '\0')
        return;
    Dl_info info;
    if (dladdr((void *)InitializeInjectionNvtx2, &info) == 0 || info.dli_fname == NULL ||
        info.dli_fname[0] == '\0')
        return;
    setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}

static void enable_activity_once(void);

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)userdata;
    int saved_errno = errno;
    int start = 0;
    if ((domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) &&
        is_profiler_call(domain, cbid, &start))
        on_profiler(domain, start, (const CUpti_CallbackData *)data);
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API)
        on_api(domain, cbid, (const CUpti_CallbackData *)data);
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        enable_activity_once();
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE)
        on_stream_resource(cbid, (const CUpti_ResourceData *)data);
    errno = saved_errno;
}

/* ---- activity records ---- */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    int saved_errno = errno;
    uint8_t *b = NULL;
    pthread_mutex_lock(&g.activity_lock);
    if (g.free_count > 0) {
        b = g.free_buffers[--g.free_count];
    } else if (g.buffer_count < ACTIVITY_BUFFER_MAX) {
        b = ss_budget_alloc(&g.store.budget, ACTIVITY_BUFFER_SIZE);
        if (b != NULL)
            g.buffer_count++;
    }
    pthread_mutex_unlock(&g.activity_lock);
    /* NULL: CUPTI drops the records it has no room for; the result says so. */
    if (b == NULL)
        atomic_fetch_add_explicit(&g.store.budget.refused_buffers, 1, memory_order_relaxed);
    *buffer = b;
    *size = b != NULL ? ACTIVITY_BUFFER_SIZE : 0;
    *max_records = 0;
    errno = saved_errno;
}

static uint8_t copy_kind(uint8_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return SS_COPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return SS_COPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return SS_COPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return SS_COPY_HTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return SS_COPY_PTOP;
    default:
        return SS_COPY_UNKNOWN;
    }
}

static uint8_t mem_kind(uint32_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return SS_MEM_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return SS_MEM_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return SS_MEM_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return SS_MEM_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return SS_MEM_MANAGED;
    default:
        return SS_MEM_UNKNOWN;
    }
}

static void note_gpu(const char *name)
{
    if (name == NULL || strstr(g.gpu, name) != NULL)
        return;
    size_t used = strlen(g.gpu);
    snprintf(g.gpu + used, sizeof g.gpu - used, "%s%s", used ? ", " : "", name);
}

/* Converts one activity record; called under activity_lock. */
/* The fields that CUPTI's kernel, memcpy and memset records share, under the same names in
 * their different record types. */
#define GPU_RECORD_FIELDS(dst, rec)                                                                \
    do {                                                                                           \
        (dst)->start_ns = (rec)->start;                                                            \
        (dst)->end_ns = (rec)->end;                                                                \
        (dst)->correlation = (rec)->correlationId;                                                 \
        (dst)->stream_id = (rec)->streamId;                                                        \
        (dst)->context = (rec)->contextId;                                                         \
        (dst)->device = (int32_t)(rec)->deviceId;                                                  \
        (dst)->graph = (rec)->graphId != 0;                                                        \
    } while (0)

static void convert_record(const CUpti_Activity *record)
{
    ss_event ev;
    memset(&ev, 0, sizeof ev);
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)record;
        ev.type = SS_EV_KERNEL;
        GPU_RECORD_FIELDS(&ev.u.gpu, k);
        ev.u.gpu.name =
            ss_name_intern(&g.store.names, &g.store.budget, (uint64_t)(uintptr_t)k->name, k->name);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)record;
        ev.type = SS_EV_MEMCPY;
        GPU_RECORD_FIELDS(&ev.u.gpu, m);
        ev.u.gpu.bytes = m->bytes;
        ev.u.gpu.copy_kind = copy_kind(m->copyKind);
        ev.u.gpu.src_kind = mem_kind(m->srcKind);
        ev.u.gpu.dst_kind = mem_kind(m->dstKind);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)record;
        ev.type = SS_EV_MEMSET;
        GPU_RECORD_FIELDS(&ev.u.gpu, m);
        ev.u.gpu.bytes = m->bytes;
        ev.u.gpu.dst_kind = mem_kind(m->memoryKind);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const CUpti_ActivitySynchronization2 *s = (const CUpti_ActivitySynchronization2 *)record;
        ev.type = SS_EV_SYNC;
        ev.u.sync.start_ns = s->start;
        ev.u.sync.end_ns = s->end;
        ev.u.sync.correlation = s->correlationId;
        ev.u.sync.stream_id = s->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : s->streamId;
        ev.u.sync.context = s->contextId;
        ev.u.sync.type = (uint32_t)s->type <= SS_SYNCREC_CONTEXT_SYNCHRONIZE ? (uint32_t)s->type
                                                                             : SS_SYNCREC_UNKNOWN;
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE:
        note_gpu(((const CUpti_ActivityDevice5 *)record)->name);
        return;
    default:
        return;
    }
    ss_event *slot = ss_evbuf_reserve(&g.store.activity, &g.store.budget);
    if (slot != NULL)
        *slot = ev;
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
                                      size_t size, size_t valid_size)
{
    (void)context;
    (void)stream_id;
    (void)size;
    int saved_errno = errno;
    if (buffer == NULL)
        return;
    pthread_mutex_lock(&g.activity_lock);
    CUpti_Activity *record = NULL;
    while (valid_size > 0 &&
           g.cupti.cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
        convert_record(record);
    if (g.free_count < ACTIVITY_BUFFER_MAX)
        g.free_buffers[g.free_count++] = buffer;
    pthread_mutex_unlock(&g.activity_lock);
    errno = saved_errno;
}

/* ---- the end of the run ---- */

/* The version of the kernel driver, as /proc/driver/nvidia/version gives it ("NVRM version:
 * NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..."): the first word of its first
 * line made of digits and dots with a dot in it. Reading a file loads nothing into the
 * program. */
static void read_driver_version(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "re");
    if (f == NULL)
        return;
    char line[512];
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (got == NULL)
        return;
    char *save = NULL;
    for (char *word = strtok_r(line, " \t\n", &save); word != NULL;
         word = strtok_r(NULL, " \t\n", &save)) {
        if (strspn(word, "0123456789.") == strlen(word) && word[0] != '.' &&
            strchr(word, '.') != NULL) {
            snprintf(out, size, "%s", word);
            return;
        }
    }
}

/* dl_iterate_phdr's callback: the path of the first loaded CUDA runtime (libcudart.so*) into
 * 'data' (PATH_MAX bytes). */
static int find_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *slash = info->dlpi_name != NULL ? strrchr(info->dlpi_name, '/') : NULL;
    const char *base = slash != NULL ? slash + 1 : info->dlpi_name;
    if (base == NULL || strncmp(base, "libcudart.so", 12) != 0)
        return 0;
    snprintf(data, PATH_MAX, "%s", info->dlpi_name);
    return 1;
}

/* cudaRuntimeGetVersion of the CUDA runtime the program loaded (a shared libcudart, which
 * PyTorch, CuPy and JAX load with RTLD_LOCAL, so it is found by its path), else of one the
 * executable exports; 0 when there is none (a runtime linked statically and not exported).
 * The call only returns the version the runtime was built as. */
static int runtime_version(void)
{
    char path[PATH_MAX] = "";
    void *runtime = NULL;
    if (dl_iterate_phdr(find_runtime, path) != 0)
        runtime = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    int (*get)(int *) =
        (int (*)(int *))dlsym(runtime != NULL ? runtime : RTLD_DEFAULT, "cudaRuntimeGetVersion");
    int version = 0;
    if (get == NULL || get(&version) != 0)
        version = 0;
    if (runtime != NULL)
        dlclose(runtime);
    return version;
}

/* Fills 'out': the driver's CUDA version, the runtime's, the kernel driver's version and,
 * with 'ask_devices', the devices' names from the driver (cuDeviceGetName; CUPTI gave no
 * device record in the runs seen on an H200). The driver is the program's own (RTLD_NOLOAD).
 * Called under the re-entry guard when the program has created its first context, where the
 * driver is loaded and initialized (at exit, the runtime may have unloaded it already: on an
 * H200 with CUDA 13, dlopen of libcuda.so.1 with RTLD_NOLOAD failed there), and at the end
 * for a run that saw no context created, asking for names only when neither a forked child
 * (whose driver state is the parent's) nor a signal (the interrupted thread may hold the
 * driver's locks) ends it. */
static void read_devices(device_info *out, int ask_devices)
{
    memset(out, 0, sizeof *out);
    read_driver_version(out->driver, sizeof out->driver);
    out->runtime_version = runtime_version();
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (cuda == NULL)
        return;
    int (*get_version)(int *) = (int (*)(int *))dlsym(cuda, "cuDriverGetVersion");
    int (*get_count)(int *) = (int (*)(int *))dlsym(cuda, "cuDeviceGetCount");
    int (*get_name)(char *, int, int) = (int (*)(char *, int, int))dlsym(cuda, "cuDeviceGetName");
    if (get_version == NULL || get_version(&out->cuda_version) != 0)
        out->cuda_version = 0;
    int count = 0;
    if (ask_devices && get_count != NULL && get_name != NULL && get_count(&count) == 0) {
        for (int d = 0; d < count && d < 64; d++) {
            char name[256];
            if (get_name(name, (int)sizeof name, d) != 0 || name[0] == '\0' ||
                strstr(out->names, name) != NULL)
                continue;
            size_t used = strlen(out->names);
            snprintf(out->names + used, sizeof out->names - used, "%s%s", used ? ", " : "", name);
        }
    }
    dlclose(cuda);
}

static int recorded_anything(void)
{
    if (ss_evbuf_count(&g.store.activity) > 0 || atomic_load(&g.store.budget.dropped_events) > 0)
        return 1;
    for (ss_thread_store *t = atomic_load(&g.store.threads); t != NULL; t = t->next) {
        if (ss_evbuf_count(&t->events) > 0)
            return 1;
    }
    return 0;
}

static void *finisher_symbol(const char *name, const char *consequence);
static int set_activity(int on, const char **what, CUptiResult *why);
static ss_capture_view make_view(int signo, uint64_t end_ns, const device_info *devices);

/* Flushes CUPTI, then loads the finisher next to this library and runs it (finish()). */
static void run_finisher(int signo, int skip_flush)
{
    thread_state *t = tls_state;
    if (t != NULL)
        t->busy = 1;
    if (!skip_flush && atomic_load(&g.activity_pid) == (long)getpid())
        g.cupti.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    atomic_store(&g.active, 0);
    uint64_t end_ns = now_ns();
    if (!recorded_anything())
        return; /* no CUDA call: nothing to report, no file written */

    ss_finish_fn run = (ss_finish_fn)finisher_symbol(SS_FINISH_SYMBOL, "no report written");
    if (run == NULL)
        return;
    device_info devices = g.devices;
    if (!g.devices_read)
        read_devices(&devices, signo == 0 && !g.forked);
    ss_capture_view view = make_view(signo, end_ns, &devices);
    run(&view);
    /* The module stays loaded: the process is ending. */
}

/* The finisher's function 'name' (libsyncscope_finish.so beside this library, loaded
 * RTLD_LOCAL at its first use and kept), or NULL with a message ending in 'consequence'. */
static void *finisher_symbol(const char *name, const char *consequence)
{
    static void *module;
    Dl_info self;
    char path[PATH_MAX];
    if (module == NULL) {
        if (dladdr((void *)&finisher_symbol, &self) == 0 || self.dli_fname == NULL) {
            say("cannot locate libsyncscope.so; %s", consequence);
            return NULL;
        }
        const char *slash = strrchr(self.dli_fname, '/');
        int dir_len = slash != NULL ? (int)(slash - self.dli_fname) : 1;
        const char *dir = slash != NULL ? self.dli_fname : ".";
        int n = snprintf(path, sizeof path, "%.*s/%s", dir_len, dir, SS_INTERPOSE_FINISHER);
        if (n <= 0 || (size_t)n >= sizeof path) {
            say("path of %s is too long; %s", SS_INTERPOSE_FINISHER, consequence);
            return NULL;
        }
        module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (module == NULL) {
            say("cannot load %s (%s); %s", path, dlerror(), consequence);
            return NULL;
        }
    }
    void *fn = dlsym(module, name);
    if (fn == NULL)
        say("%s lacks %s; %s", SS_INTERPOSE_FINISHER, name, consequence);
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
    uint32_t count = atomic_load(&g.window_count);
    for (uint32_t i = 0; i < count && i < SAMPLE_WINDOWS_MAX; i++) {
        uint64_t start = g.windows[2 * i], stop = g.windows[2 * i + 1];
        int n = snprintf(text + used, sizeof text - used, "%s%llu-%llu", used ? "," : "",
                         (unsigned long long)start, (unsigned long long)(stop ? stop : end_ns));
        if (n < 0 || (size_t)n >= sizeof text - used)
            break;
        used += (size_t)n;
    }
    return text;
}

/* What the finisher reads of the run as it is at 'end_ns' ('signo': the signal ending it). */
static ss_capture_view make_view(int signo, uint64_t end_ns, const device_info *devices)
{
    ss_capture_view view = {
        .version = SS_CAPTURE_VIEW_VERSION,
        .size = sizeof view,
        .config = &g.config,
        .store = &g.store,
        .pid = g.pid,
        .forked = g.forked,
        .signal = signo,
        .start_ns = g.start_ns,
        .end_ns = end_ns,
        .started_unix_ns = g.started_unix_ns,
        .gpu = g.gpu[0] != '\0' ? g.gpu : devices->names,
        .driver_version = devices->cuda_version,
        .driver = devices->driver,
        .runtime_version = devices->runtime_version,
        .cupti_path = g.cupti_path,
        .python = ss_python_version(),
        .mode = g.config.sample[0] != '\0' ? "sampled"
                : g.light                  ? "light"
                                           : "full",
        .windows = windows_text(end_ns),
    };
    return view;
}

/* Ends the run: writes the outputs, once per process, and sets g.end_done. 'signo' is the
 * signal that ends the run, or 0. 'skip_flush': the thread that ended the run was inside a
 * CUPTI callback, where CUPTI may hold what a flush needs; activity records still buffered
 * are left out. Returns without waiting when the run is already ending elsewhere. */
static void finish(int signo, int skip_flush)
{
    if (!atomic_load(&g.active) || atomic_exchange(&g.finishing, 1))
        return;
    /* An interval line being written reads the capture: the end waits for it (it no longer
     * starts once g.finishing is set). */
    while (atomic_load(&g.interval_busy))
        poll(NULL, 0, 1);
    run_finisher(signo, skip_flush);
    atomic_store(&g.end_done, 1);
}

/* The request word (g.end_request): the signal number in the low bits. */
#define END_SIGNAL_MASK 0xffff
#define END_REQUESTED 0x10000
#define END_SKIP_FLUSH 0x20000

/* Asks the flusher to end the run for signal 'signo'; the first request wins, later ones
 * only wait with it. Async-signal-safe: a lock-free compare-and-swap and sem_post. */
static void end_request(int signo, int skip_flush)
{
    int none = 0;
    int request = END_REQUESTED | (skip_flush ? END_SKIP_FLUSH : 0) | (signo & END_SIGNAL_MASK);
    if (atomic_compare_exchange_strong(&g.end_request, &none, request))
        sem_post(&g.end_wake);
}

/* Waits until the finisher has returned, at most 'bound_ms' milliseconds (< 0: no bound).
 * Returns 1 when it has, 0 when the bound passed first. Async-signal-safe: clock_gettime and
 * poll only. */
static int end_wait(long bound_ms)
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
    while (!atomic_load(&g.end_done)) {
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

/* The flusher thread: waits until a signal handler asks, then runs the finisher (once per
 * process; finish() returns at once when the exiting thread got there first). */
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
        if (sem_wait(&g.end_wake) != 0 && errno != EINTR)
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
    if (sem_timedwait(&g.end_wake, &until) != 0 && errno != ETIMEDOUT && errno != EINTR)
        poll(NULL, 0, 1);
}

/* Enables ('on' 1) or disables the callbacks the light mode leaves out (launches and the other
 * stream work) for a full window. */
static void set_window_callbacks(int on)
{
    for (size_t cbid = 0; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++) {
        const ss_args_spec *s = g.runtime_specs[cbid];
        if (s != NULL && !ss_api_light(&g.api_rows[s->api]))
            g.cupti.cuptiEnableCallback(on, g.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                        (CUpti_CallbackId)cbid);
    }
    for (size_t cbid = 0; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; cbid++) {
        const ss_args_spec *s = g.driver_specs[cbid];
        if (s != NULL && !ss_api_light(&g.api_rows[s->api]))
            g.cupti.cuptiEnableCallback(on, g.subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                                        (CUpti_CallbackId)cbid);
    }
}

/* Opens a full window of the sampled mode (on the flusher): the light mode's missing callbacks
 * and the activity records on. Not in a forked child (no activity there: "Limits"). */
static void open_window(void)
{
    uint32_t k = atomic_load(&g.window_count);
    if (g.window_open || g.forked || k >= SAMPLE_WINDOWS_MAX)
        return;
    const char *what = NULL;
    CUptiResult r = CUPTI_SUCCESS;
    /* The window starts before its records and callbacks do, so that everything it takes is
     * inside it. */
    g.windows[2 * k] = now_ns();
    g.windows[2 * k + 1] = 0;
    if (set_activity(1, &what, &r) < 0) {
        say("%s failed (%s): no full window", what, cupti_error(r));
        return;
    }
    atomic_store(&g.activity_pid, g.pid);
    set_window_callbacks(1);
    atomic_store(&g.window_count, k + 1);
    g.window_open = 1;
}

/* Closes the open full window: the callbacks and activity records off, the records flushed. */
static void close_window(void)
{
    if (!g.window_open)
        return;
    const char *what = NULL;
    CUptiResult r = CUPTI_SUCCESS;
    set_window_callbacks(0);
    if (set_activity(0, &what, &r) < 0)
        say("%s failed (%s) at the end of a full window", what, cupti_error(r));
    g.cupti.cuptiActivityFlushAll(0);
    uint32_t k = atomic_load(&g.window_count);
    g.windows[2 * k - 1] = now_ns();
    g.window_open = 0;
}

/* Whether the trigger file was created or touched since the last look and since the run
 * started ('*seen': its modification time at the last look, 0 when absent). */
static int trigger_touched(int64_t *seen)
{
    char path[PATH_MAX], host[256];
    if (gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';
    if (ss_interpose_expand(g.config.trigger_file, g.pid, host, ss_interpose_rank(), path,
                            sizeof path) < 0)
        return 0;
    struct stat st;
    int64_t mtime = 0;
    if (path[0] != '/' && g.config.cwd[0] != '\0') {
        char full[PATH_MAX];
        if (snprintf(full, sizeof full, "%s/%s", g.config.cwd, path) >= (int)sizeof full)
            return 0;
        memcpy(path, full, sizeof path);
    }
    if (stat(path, &st) == 0)
        mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    /* A file last touched before the run started is no request; file times are coarse (a
     * clock tick behind the wall clock), so "before" is a second before. */
    int touched = mtime != 0 && mtime != *seen && mtime > g.started_unix_ns - 1000000000;
    *seen = mtime;
    return touched;
}

/* Appends one interval line (docs/run.md, "Interval lines"): the finisher's
 * syncscope_interval over the capture as it is now. On the flusher thread. */
static void write_interval(void)
{
    atomic_store(&g.interval_busy, 1);
    if (!atomic_load(&g.finishing)) {
        ss_interval_fn line =
            (ss_interval_fn)finisher_symbol(SS_INTERVAL_SYMBOL, "no interval line written");
        if (line != NULL) {
            if (atomic_load(&g.activity_pid) == g.pid)
                g.cupti.cuptiActivityFlushAll(0);
            device_info devices = g.devices;
            ss_capture_view view = make_view(0, now_ns(), &devices);
            line(&view, 0);
        }
    }
    atomic_store(&g.interval_busy, 0);
}

/* The flusher thread: writes the interval lines and opens and closes the sampled mode's full
 * windows on time; when a signal handler asks, runs the finisher (once per process; finish()
 * returns at once when the exiting thread got there first). */
static void *flusher_main(void *unused)
{
    (void)unused;
    const uint64_t second = 1000000000ull;
    uint64_t interval_ns = (uint64_t)g.config.interval * second;
    uint64_t now = monotonic_ns();
    uint64_t next_line = interval_ns ? now + interval_ns : UINT64_MAX;
    uint64_t next_window = g.sample_every_ns ? now + g.sample_every_ns : UINT64_MAX;
    uint64_t window_end = UINT64_MAX;
    uint64_t next_look = g.config.trigger_file[0] != '\0' ? now : UINT64_MAX;
    int64_t trigger_seen = 0;
    int request;
    while ((request = atomic_load(&g.end_request)) == 0) {
        uint64_t deadline = next_line < next_window ? next_line : next_window;
        if (window_end < deadline)
            deadline = window_end;
        if (next_look < deadline)
            deadline = next_look;
        flusher_wait(atomic_load(&g.finishing) ? UINT64_MAX : deadline);
        if (atomic_load(&g.end_request) != 0 || atomic_load(&g.finishing))
            continue;
        now = monotonic_ns();
        int wanted = atomic_exchange(&g.window_requested, 0);
        if (next_look != UINT64_MAX && now >= next_look) {
            wanted |= trigger_touched(&trigger_seen);
            next_look = now + second;
        }
        if (g.sample_every_ns && now >= next_window) {
            wanted = 1;
            next_window += g.sample_every_ns * ((now - next_window) / g.sample_every_ns + 1);
        }
        if (wanted && !g.window_open) {
            open_window();
            window_end = g.window_open ? now + g.sample_on_ns : UINT64_MAX;
        }
        if (g.window_open && now >= window_end) {
            close_window();
            window_end = UINT64_MAX;
        }
        if (interval_ns && now >= next_line) {
            write_interval();
            next_line += interval_ns * ((monotonic_ns() - next_line) / interval_ns + 1);
        }
    }
    finish(request & END_SIGNAL_MASK, (request & END_SKIP_FLUSH) != 0);
    return NULL;
}

/* Starts this process's flusher, once (a forked child starts its own): at the first recorded
 * CUDA call, never in a signal handler. Every signal is blocked on it, so that no SIGINT or
 * SIGTERM is ever handled on the thread that must write the outputs. When it cannot be
 * started, the outputs are written at exit by the exiting thread, and a signal writes none. */
static void flusher_start(void)
{
    static int said;
    int timers = g.config.interval > 0 || g.config.sample[0] != '\0';
    if ((g.config.signal_flush_ms == 0 && !timers) ||
        atomic_load_explicit(&g.flusher_pid, memory_order_acquire) == g.pid)
        return;
    pthread_mutex_lock(&g.flusher_lock);
    if (atomic_load(&g.flusher_pid) != g.pid) {
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
            atomic_store_explicit(&g.flusher_pid, g.pid, memory_order_release);
        } else if (!said) {
            said = 1;
            say("cannot start the thread that writes the outputs (%s); a SIGINT or SIGTERM "
                "will end the program without them",
                strerror(rc));
        }
    }
    pthread_mutex_unlock(&g.flusher_lock);
}

static int flusher_running(void)
{
    return atomic_load_explicit(&g.flusher_pid, memory_order_acquire) == g.pid;
}

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
    sigaction(signo, signo == SIGINT ? &g.old_int : &g.old_term, NULL);
    raise(signo);
}

/* At exit the exiting thread writes the outputs itself, as long as they take. A SIGINT or
 * SIGTERM that lands on it meanwhile is held (on_signal) and raised once they are written. */
static void at_exit(void)
{
    int saved_errno = errno;
    thread_state *t = tls_state;
    tls_exiting = 1;
    finish(0, t != NULL && t->busy);
    tls_exiting = 0;
    /* Outputs that a signal's flusher is writing are not cut short by this exit; the signal's
     * handler ends the process when they are written or its bound passes. */
    if (atomic_load(&g.finishing))
        end_wait(-1);
    int signo = atomic_exchange(&g.exit_signal, 0);
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
        if (atomic_compare_exchange_strong(&g.exit_signal, &none, signo)) {
            errno = saved_errno;
            return;
        }
        say_given_up(signo, -1);
    } else if (!atomic_exchange(&g.end_waiting, 1)) {
        if (flusher_running())
            end_request(signo, tls_state != NULL && tls_state->busy);
        if ((flusher_running() || atomic_load(&g.finishing)) &&
            !end_wait((long)g.config.signal_flush_ms))
            say_given_up(signo, (long)g.config.signal_flush_ms);
    } else if (atomic_load(&g.finishing) && !atomic_load(&g.end_done)) {
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
    atomic_store(&g.window_requested, 1);
    sem_post(&g.end_wake);
    errno = saved_errno;
}

/* Installs on_window_signal for SIGUSR2 where it is at its default action (which would end the
 * program): a program's own handler, or an ignored SIGUSR2, is left alone. */
static void install_window_signal(void)
{
    if (sigaction(SIGUSR2, NULL, &g.old_usr2) != 0 || (g.old_usr2.sa_flags & SA_SIGINFO) ||
        g.old_usr2.sa_handler != SIG_DFL)
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
        struct sigaction *old = signals[i] == SIGINT ? &g.old_int : &g.old_term;
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
    if (!atomic_load(&g.active))
        return;
    g.forked = 1;
    g.pid = (long)getpid();
    pthread_mutex_init(&g.activity_lock, NULL);
    pthread_mutex_init(&g.enable_lock, NULL);
    tls_state = NULL;
    memset(&g.store.names.ids, 0, sizeof g.store.names.ids);
    g.store.names.count = 0;
    g.store.names.arena = NULL;
    g.store.names.arena_used = g.store.names.arena_size = 0;
    pthread_mutex_init(&g.ranges_lock, NULL);
    memset(&g.store.ranges.ids, 0, sizeof g.store.ranges.ids);
    g.store.ranges.count = 0;
    g.store.ranges.arena = NULL;
    g.store.ranges.arena_used = g.store.ranges.arena_size = 0;
    uint64_t cap = g.store.budget.cap;
    ss_store_init(&g.store, cap);
    g.free_count = 0;
    g.buffer_count = 0;
    /* The parent's flusher thread is not here: the child's first CUDA call starts its own
     * (g.flusher_pid still names the parent). */
    pthread_mutex_init(&g.flusher_lock, NULL);
    sem_init(&g.end_wake, 0, 0);
    atomic_store(&g.end_request, 0);
    atomic_store(&g.end_done, 0);
    atomic_store(&g.end_waiting, 0);
    atomic_store(&g.exit_signal, 0);
    atomic_store(&g.window_count, 0);
    g.window_open = 0;
    atomic_store(&g.interval_busy, 0);
    g.start_ns = now_ns();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    g.started_unix_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    atomic_store(&g.finishing, 0);
}

/* ---- start ---- */

static int enable_callbacks(void)
{
    size_t count;
    const ss_args_spec *specs = ss_args_table(&count);
    int enabled = 0;
    for (size_t i = 0; i < count; i++) {
        const ss_args_spec *s = &specs[i];
        CUpti_CallbackDomain domain = s->domain == SS_DOMAIN_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
                                                                     : CUPTI_CB_DOMAIN_DRIVER_API;
        size_t limit = s->domain == SS_DOMAIN_RUNTIME ? CUPTI_RUNTIME_TRACE_CBID_SIZE
                                                      : CUPTI_DRIVER_TRACE_CBID_SIZE;
        const char *name = NULL;
        /* The cbid comes from CUPTI's headers; the library that is loaded must agree on
         * its name, or the parameter layout cannot be trusted. */
        if (s->cbid >= limit ||
            g.cupti.cuptiGetCallbackName(domain, s->cbid, &name) != CUPTI_SUCCESS || name == NULL ||
            strcmp(name, s->cupti_name) != 0)
            continue;
        /* The light mode subscribes to the calls that can block the host only; the others'
         * rows are kept for the full windows of the sampled mode (set_window_callbacks). */
        int light_only = g.light && !ss_api_light(&g.api_rows[s->api]);
        if (!light_only &&
            g.cupti.cuptiEnableCallback(1, g.subscriber, domain, s->cbid) != CUPTI_SUCCESS)
            continue;
        if (s->domain == SS_DOMAIN_RUNTIME)
            g.runtime_specs[s->cbid] = s;
        else
            g.driver_specs[s->cbid] = s;
        enabled += !light_only;
    }
    return enabled;
}

/* Registers the activity buffers (once per process) and enables ('on' 1) or disables ('on'
 * 0) the activity kinds the settings ask for. Returns 0, or -1 with the failing call in
 * '*what' and its result in '*why'. */
static int set_activity(int on, const char **what, CUptiResult *why)
{
    CUptiResult r;
    if (!g.activity_registered) {
        r = g.cupti.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
        if (r != CUPTI_SUCCESS) {
            *what = "cuptiActivityRegisterCallbacks";
            *why = r;
            return -1;
        }
        g.activity_registered = 1;
    }
    CUpti_ActivityKind kinds[5] = {CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_MEMCPY,
                                   CUPTI_ACTIVITY_KIND_MEMSET};
    size_t n = 3;
    if (g.config.sync_records)
        kinds[n++] = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    if (g.config.kernel_activity)
        kinds[n++] = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    for (size_t i = 0; i < n; i++) {
        r = on ? g.cupti.cuptiActivityEnable(kinds[i]) : g.cupti.cuptiActivityDisable(kinds[i]);
        if (r != CUPTI_SUCCESS) {
            *what = on ? "cuptiActivityEnable" : "cuptiActivityDisable";
            *why = r;
            return -1;
        }
    }
    return 0;
}

static int enable_activity(const char **what, CUptiResult *why)
{
    return set_activity(1, what, why);
}

/* The light mode asks the program's driver, which has created a context by now, for the memory
 * kinds of copies (memory_kind_of): the symbol the program's global scope has, else the loaded
 * driver's (as pointers.c finds the driver's parameter queries). Loads nothing (RTLD_NOLOAD). */
static void find_pointer_attributes(void)
{
    if (atomic_load(&g.pointer_attributes) != NULL)
        return;
    void *found = dlsym(RTLD_DEFAULT, "cuPointerGetAttributes");
    if (found == NULL) {
        void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (cuda != NULL) {
            found = dlsym(cuda, "cuPointerGetAttributes");
            dlclose(cuda); /* the driver stays: the program holds it */
        }
    }
    pointer_attributes_fn ask;
    memcpy(&ask, &found, sizeof ask);
    atomic_store_explicit(&g.pointer_attributes, ask, memory_order_release);
    found = dlsym(RTLD_DEFAULT, "cuStreamQuery");
    if (found == NULL) {
        void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (cuda != NULL) {
            found = dlsym(cuda, "cuStreamQuery");
            dlclose(cuda);
        }
    }
    stream_query_fn query;
    memcpy(&query, &found, sizeof query);
    atomic_store_explicit(&g.stream_query, query, memory_order_release);
}

/* Activity records are enabled when the program creates its first CUDA context, not at
 * start: enabling them initializes the driver, and a program that forks before it uses CUDA
 * must find the driver untouched in its children. Once per process (a forked child that
 * uses CUDA enables them for itself). */
static void enable_activity_once(void)
{
    atomic_store_explicit(&g.context_seen, 1, memory_order_release);
    /* The light mode's driver queries, also in a forked child that uses CUDA first (they
     * load nothing and enable nothing). */
    if (g.light)
        find_pointer_attributes();
    /* Not in a forked child: with CUPTI set up by the parent, a child that enabled and
     * flushed activity records was seen to hang (docs/validation.md). The child's API
     * calls are still recorded. */
    if (g.forked || atomic_load(&g.activity_pid) == g.pid)
        return;
    pthread_mutex_lock(&g.enable_lock);
    if (atomic_load(&g.activity_pid) != g.pid) {
        const char *what = NULL;
        CUptiResult r = CUPTI_SUCCESS;
        thread_state *t = tls_state;
        int was_busy = t != NULL ? t->busy : 0;
        if (t != NULL)
            t->busy = 1;
        if (!g.light && enable_activity(&what, &r) < 0)
            say("%s failed (%s): no GPU activity records; API calls are still recorded", what,
                cupti_error(r));
        if (!g.devices_read) {
            read_devices(&g.devices, 1);
            g.devices_read = 1;
        }
        if (t != NULL)
            t->busy = was_busy;
        atomic_store(&g.activity_pid, g.pid);
    }
    pthread_mutex_unlock(&g.enable_lock);
}

static void step_aside(void)
{
    if (g.subscriber != NULL)
        g.cupti.cuptiUnsubscribe(g.subscriber);
    g.subscriber = NULL;
    if (g.cupti_handle != NULL)
        dlclose(g.cupti_handle);
    g.cupti_handle = NULL;
}

static void start(void)
{
    static int started;
    if (started)
        return;
    started = 1;
    char err[512];
    if (ss_interpose_config_load(&g.config, err, sizeof err) < 0) {
        say("%s; the program runs unobserved", err);
        return;
    }
    if (sem_init(&g.end_wake, 0, 0) != 0) {
        say("sem_init failed (%s); the program runs unobserved", strerror(errno));
        return;
    }
    const char *injected = getenv("CUDA_INJECTION64_PATH");
    if (injected != NULL && *injected != '\0' && strstr(injected, SS_INTERPOSE_LIBRARY) == NULL) {
        say("another CUDA tool is injected (CUDA_INJECTION64_PATH=%s); the program runs "
            "unobserved",
            injected);
        return;
    }
    g.cupti_handle = open_cupti();
    if (g.cupti_handle == NULL) {
        say("no CUPTI library found (set %s to libcupti.so or its folder); the program runs "
            "unobserved",
            SS_ENV_CUPTI_PATH);
        return;
    }
    const char *missing = NULL;
    if (resolve_cupti(&missing) < 0) {
        say("%s lacks %s; the program runs unobserved", g.cupti_path, missing);
        step_aside();
        return;
    }
    ss_store_init(&g.store, g.config.max_memory);
    size_t api_count;
    g.api_rows = ss_api_all(&api_count);
    g.light = strcmp(g.config.mode, "light") == 0 || g.config.sample[0] != '\0';
    if (g.config.sample[0] != '\0' &&
        ss_interpose_parse_sample(g.config.sample, &g.sample_on_ns, &g.sample_every_ns) < 0)
        g.sample_on_ns = g.sample_every_ns = 0; /* checked when the settings were read */
    g.pid = (long)getpid();

    CUptiResult r = g.cupti.cuptiSubscribe(&g.subscriber, on_callback, NULL);
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        g.subscriber = NULL;
        say("another CUPTI client is already subscribed; the program runs unobserved");
        step_aside();
        return;
    }
    if (r != CUPTI_SUCCESS) {
        say("CUPTI cannot start here (%s: no usable GPU or driver?); the program runs "
            "unobserved",
            cupti_error(r));
        g.subscriber = NULL;
        step_aside();
        return;
    }
    if (enable_callbacks() == 0) {
        say("%s names none of the CUDA calls syncscope knows; the program runs unobserved",
            g.cupti_path);
        step_aside();
        return;
    }
    r = g.cupti.cuptiEnableCallback(1, g.subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                    CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (r != CUPTI_SUCCESS) {
        say("cuptiEnableCallback failed (%s); the program runs unobserved", cupti_error(r));
        step_aside();
        return;
    }
    enable_scope_callbacks();
    if (g.light)
        enable_stream_callbacks();
    g.start_ns = now_ns();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    g.started_unix_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    /* Load the unwinder now, not inside the first callback that wants a stack. */
    void *warm[2];
    backtrace(warm, 2);
    if (g.config.python_depth > 0)
        ss_python_init(say);
    atomic_store(&g.active, 1);
    atexit(at_exit);
    pthread_atfork(NULL, NULL, in_child);
    if (g.config.signal_flush_ms > 0)
        install_handlers();
    if (g.config.sample[0] != '\0')
        install_window_signal();
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
    observe_nvtx();
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

/* syncscope.scope() (python/syncscope): opens a range named 'name' (NULL: "syncscope") for the
 * whole process. While a program has such ranges, only what it does inside them is reported
 * (docs/run.md, "Scopes"). Returns the range's id for syncscope_scope_end, or 0 when the
 * process is not observed. */
SS_EXPORT uint64_t syncscope_scope_begin(const char *name)
{
    if (!atomic_load_explicit(&g.active, memory_order_relaxed))
        return 0;
    uint64_t id = atomic_fetch_add_explicit(&g.scope_ids, 1, memory_order_relaxed) + 1;
    return scope_mark(SS_SCOPE_START, SS_SCOPE_FROM_PROGRAM, id, MARK_ASCII,
                      name != NULL && name[0] != '\0' ? name : "syncscope")
               ? id
               : 0;
}

/* Closes the range 'id' that syncscope_scope_begin opened (0: nothing). */
SS_EXPORT void syncscope_scope_end(uint64_t id)
{
    if (id != 0)
        scope_mark(SS_SCOPE_END, SS_SCOPE_FROM_PROGRAM, id, MARK_UNNAMED, NULL);
}
