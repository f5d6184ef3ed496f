/* capture_callbacks.c: the capture library's hot path: CUPTI's callback at the enter and exit
 * of every followed runtime and driver call, recording the call (arguments, stream, time,
 * and a stack for the calls that may become findings) with a bounded, allocation-free append
 * to the calling thread's buffer; the per-thread state; the sets of stream handles. */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <string.h>
#include <sys/prctl.h>

#include "capture_int.h"
#include "pointers.h"
#include "python.h"
#include "threads.h"

/* A launch whose own time in syncscope's callbacks exceeded this is not counted in the trace
 * metadata self_launch_ns (20 us). */
#define SELF_LAUNCH_MAX_NS 20000u
/* A call whose own time after its return (its stack taken) exceeded this is not counted in
 * the trace metadata self_stack_ns but in self_slow_stacks (100 us). */
#define SELF_STACK_MAX_NS 100000u

capture_process proc = {
    .activity = {.enable_lock = PTHREAD_MUTEX_INITIALIZER, .lock = PTHREAD_MUTEX_INITIALIZER},
    .scopes = {.ranges_lock = PTHREAD_MUTEX_INITIALIZER},
    .end = {.flusher_lock = PTHREAD_MUTEX_INITIALIZER}};

__thread thread_state *capture_tls __attribute__((tls_model("initial-exec")));

thread_state *capture_thread_get(void)
{
    thread_state *t = capture_tls;
    if (t != NULL)
        return t;
    uint64_t began = capture_timing_now();
    t = ss_budget_alloc(&proc.store.budget, sizeof *t);
    if (t == NULL)
        return NULL;
    t->store = ss_store_add_thread(&proc.store);
    if (t->store == NULL)
        return NULL; /* the page stays counted; a later call retries */
    /* The thread's name as it is now (PyTorch's "pt_autograd_0"): a finding made on a thread
     * without Python frames names it. One system call, once per thread. */
    if (prctl(PR_GET_NAME, t->store->name) != 0)
        t->store->name[0] = '\0';
    ss_threads_started_by(&t->store->started_by, &t->store->start_stack);
    capture_tls = t;
    capture_flusher_start();
    t->store->timed_setup_ns = capture_timing_since(began);
    return t;
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
    uint32_t gen = atomic_load_explicit(&proc.streams.generation, memory_order_relaxed);
    stream_slot *s = &t->streams[(handle >> 4 ^ handle ^ pt) & (STREAM_SLOTS - 1)];
    if (s->valid && s->handle == handle && s->per_thread == pt && s->context == context &&
        s->generation == gen)
        return s->stream_id;
    uint32_t id = 0;
    if (proc.cupti.fn.cuptiGetStreamIdEx((CUcontext)context, stream, pt, &id) != CUPTI_SUCCESS)
        return 0;
    *s = (stream_slot){handle, context, gen, id, pt, 1};
    return id;
}

static void context_info(thread_state *t, void *context)
{
    if (t->context == context)
        return;
    uint32_t device = UINT32_MAX, id = 0;
    if (proc.cupti.fn.cuptiGetDeviceId((CUcontext)context, &device) != CUPTI_SUCCESS)
        device = UINT32_MAX;
    if (proc.cupti.fn.cuptiGetContextId((CUcontext)context, &id) != CUPTI_SUCCESS)
        id = 0;
    t->context = context;
    t->device = device;
    t->context_id = id;
}

/* The calling thread's Python frames into 'py' when the program is a Python interpreter
 * (another thread's, '*py_other' 1, for a thread without its own); returns how many. */
static uint32_t python_stack(thread_state *t, uint32_t *py, uint32_t *py_other)
{
    uint32_t py_depth = 0;
    *py_other = 0;
    if (proc.config.python_depth > 0) {
        /* An interpreter loaded after the start (a program that embeds one) is looked for
         * once more, at the first stack. */
        if (!atomic_exchange_explicit(&proc.python_looked_again, 1, memory_order_relaxed))
            ss_python_init(capture_say);
        py_depth = ss_python_capture(t->store, &proc.store.budget, py, proc.config.python_depth);
        /* A thread without Python frames (PyTorch's autograd engine, XLA's runtime) works for
         * a Python thread that waits meanwhile: its stack names the program's line. */
        if (py_depth == 0 && proc.config.cross_thread) {
            py_depth =
                ss_python_capture_other(t->store, &proc.store.budget, py, proc.config.python_depth);
            *py_other = py_depth > 0;
        }
    }
    return py_depth;
}

/* The key of a site of Python frames that ss_python_site_key did not key (their ids 'py',
 * 'py_depth' of them), made from 'n' innermost program counters 'prefix' (frame 0, this
 * library's, left out), the stack pointer 'sp' (the same native frames in between) and the
 * call 'call'. */
static ss_site_key prefix_site(void *const *prefix, int n, const uint32_t *py, uint32_t py_depth,
                               uint64_t sp, uint64_t call)
{
    ss_site_key key = ss_site_key_start(sp, call);
    for (int i = 1; i < n; i++)
        ss_site_key_mix(&key, (uint64_t)(uintptr_t)prefix[i]);
    for (uint32_t i = 0; i < py_depth; i++)
        ss_site_key_mix(&key, py[i]);
    ss_site_key_mix(&key, (uint64_t)n << 32 | py_depth);
    return key;
}

/* Unwinds the current call's whole stack and interns it with Python frames 'py' ('py_depth'
 * of them, another thread's when 'py_other'). Returns the stack id (0: none). Always inlined,
 * as stack_by_prefix is, into capture_stack: a stack starts with as many of
 * syncscope's own frames as before there was a site cache (SS_STACK_DEPTH counts them). */
static inline __attribute__((always_inline)) uint32_t
unwind_stack(thread_state *t, const uint32_t *py, uint32_t py_depth, uint32_t py_other)
{
    void *frames[SS_STACK_DEPTH];
    uint64_t unwinding = capture_timing_now();
    int n = backtrace(frames, SS_STACK_DEPTH);
    t->store->timed_unwind_ns += capture_timing_since(unwinding);
    t->store->timed_unwound++;
    uint64_t pcs[SS_STACK_DEPTH];
    uint32_t depth = 0;
    /* Frame 0 is this library's callback; the finisher drops CUPTI's and the driver's. */
    for (int i = 1; i < n; i++)
        pcs[depth++] = (uint64_t)(uintptr_t)frames[i];
    if (depth == 0 && py_depth == 0)
        return 0;
    return ss_stack_intern_py(&t->store->stacks, &proc.store.budget, pcs, depth, py, py_depth,
                              py_other);
}

/* The stack of call 'call' whose Python frames 'py' were not keyed as they lie in memory:
 * another thread's (a thread without its own), or its own in the full mode (fast_site_keys),
 * at a thread's start, or when they could not be read so: its SITE_PREFIX innermost frames are
 * unwound to find its site in the cache, the whole stack on a miss. Without Python frames the
 * whole stack is unwound. */
static inline __attribute__((always_inline)) uint32_t
stack_by_prefix(thread_state *t, const uint32_t *py, uint32_t py_depth, uint32_t py_other,
                uint64_t call)
{
    if (py_depth == 0)
        return unwind_stack(t, py, 0, 0);
    void *prefix[SITE_PREFIX + 1];
    uint64_t unwinding = capture_timing_now();
    int n = backtrace(prefix, SITE_PREFIX + 1);
    t->store->timed_unwind_ns += capture_timing_since(unwinding);
    ss_site_key key =
        prefix_site(prefix, n, py, py_depth, (uint64_t)(uintptr_t)__builtin_frame_address(0), call);
    uint32_t id = ss_site_find(&t->sites, &key);
    if (id == 0) {
        id = unwind_stack(t, py, py_depth, py_other);
        ss_site_remember(&t->sites, &key, id);
    }
    return id;
}

/* Whether capture_stack keys a call's site by its Python frames as they lie in memory: in the
 * light mode, outside a full window. The full mode keeps the prefix key (stack_by_prefix),
 * whose unwinding after a readback's copy returned is what its answers were validated with:
 * without it the synchronization PyTorch makes right after a one-byte readback enters while
 * the copy's own transfer is in flight, and the records show it waiting for that (a SYNC401 of
 * its own, about 6 us on the H200 with CUPTI's synchronization records; docs/studies/
 * performance.md, issue 28). */
static int fast_site_keys(void)
{
    return proc.light && proc.config.python_depth > 0 &&
           !atomic_load_explicit(&proc.sampling.window_calls, memory_order_relaxed);
}

/* Records the program counters of the current call 'call' (its API, 0 for none), and the
 * calling thread's Python frames when the program is a Python interpreter, and returns the
 * stack id (0: none). In the light mode a call on a thread with Python frames of its own is
 * looked up in the thread's site cache by those frames as they lie in memory
 * (ss_python_site_key), the call and the stack pointer (the same native frames in between):
 * at a site this thread took a stack at before, the call gets that stack with neither its
 * Python frames resolved nor its native frames unwound. Otherwise its innermost frames key it
 * (stack_by_prefix). The stacks of a loop's calls are taken once. */
static uint32_t capture_stack(thread_state *t, uint64_t call)
{
    t->store->timed_stacks++;
    uint64_t python = capture_timing_now();
    ss_site_key key = ss_site_key_start((uint64_t)(uintptr_t)__builtin_frame_address(0), call + 1);
    int keyed = call != 0 && fast_site_keys() &&
                ss_python_site_key(&key, &t->sites, proc.config.python_depth) > 0;
    uint32_t id = keyed ? ss_site_find(&t->sites, &key) : 0;
    if (id != 0) {
        t->store->timed_python_ns += capture_timing_since(python);
        return id;
    }
    uint32_t py[SS_PY_DEPTH_MAX];
    uint32_t py_other = 0;
    uint32_t py_depth = python_stack(t, py, &py_other);
    t->store->timed_python_ns += capture_timing_since(python);
    if (py_depth == 0 || py_other || !keyed)
        return stack_by_prefix(t, py, py_depth, py_other, call + 1);
    id = unwind_stack(t, py, py_depth, 0);
    if (keyed)
        ss_site_remember(&t->sites, &key, id);
    return id;
}

void ss_capture_starter(uint32_t *thread, uint32_t *stack)
{
    *thread = *stack = 0;
    if (!atomic_load_explicit(&proc.active, memory_order_relaxed) || !proc.config.cross_thread)
        return;
    int saved_errno = errno;
    thread_state *t = capture_thread_get();
    if (t != NULL && !t->busy) {
        t->busy = 1;
        *thread = t->store->index;
        *stack = capture_stack(t, 0);
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
int capture_handle_add(_Atomic uint64_t *table, size_t slots, uint64_t handle)
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

/* Adds 'handle' to 'table' as capture_handle_add does, but into the first forgotten slot of
 * the handle's probe sequence when the handle is not in the table: for a table whose handles
 * are always forgotten before the same handle can be added again (the light mode's live
 * streams, forgotten at their destruction), which then holds the handles that live rather
 * than every handle ever added. Returns 1 when it added the handle, 0 when the table held it,
 * or -1 when no slot is empty or forgotten. */
int capture_handle_add_reusing(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    for (;;) {
        size_t i = handle_slot(handle, slots), reuse = slots, empty = slots;
        for (size_t n = 0; n < slots; n++, i = (i + 1) & (slots - 1)) {
            uint64_t seen = atomic_load_explicit(&table[i], memory_order_relaxed);
            if (seen == handle)
                return 0;
            if (seen == HANDLE_TOMBSTONE && reuse == slots)
                reuse = i;
            if (seen == 0) {
                empty = i;
                break;
            }
        }
        size_t at = reuse != slots ? reuse : empty;
        if (at == slots)
            return -1;
        uint64_t expected = at == reuse ? HANDLE_TOMBSTONE : 0;
        if (atomic_compare_exchange_strong_explicit(&table[at], &expected, handle,
                                                    memory_order_release, memory_order_relaxed))
            return 1;
        /* Another thread took the slot meanwhile: look again. */
    }
}

/* Forgets 'handle' in 'table'. Returns 1 when this call forgot it, else 0. */
int capture_handle_forget(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    size_t i = handle_slot(handle, slots);
    for (size_t n = 0; n < slots; n++, i = (i + 1) & (slots - 1)) {
        uint64_t seen = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (seen == 0)
            return 0;
        if (seen == handle &&
            atomic_compare_exchange_strong_explicit(&table[i], &seen, HANDLE_TOMBSTONE,
                                                    memory_order_release, memory_order_relaxed))
            return 1;
    }
    return 0;
}

long capture_handle_find(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    size_t i = handle_slot(handle, slots);
    for (size_t n = 0; n < slots; n++, i = (i + 1) & (slots - 1)) {
        uint64_t seen = atomic_load_explicit(&table[i], memory_order_relaxed);
        if (seen == handle)
            return (long)i;
        if (seen == 0)
            return -1;
    }
    return -1;
}

int capture_handle_known(_Atomic uint64_t *table, size_t slots, uint64_t handle)
{
    return capture_handle_find(table, slots, handle) >= 0;
}

/* Remembers a stream created blocking. When the table is full, every launch counts as one
 * that may serialize from then on. */
static void remember_blocking(uint64_t handle)
{
    if (capture_handle_add(proc.streams.blocking, BLOCKING_STREAM_SLOTS, handle) < 0)
        atomic_store_explicit(&proc.streams.legacy_partners, 1, memory_order_relaxed);
}

/* Forgets a handle that a destroyed blocking stream had and a new non-blocking stream got. */
static void forget_blocking(uint64_t handle)
{
    capture_handle_forget(proc.streams.blocking, BLOCKING_STREAM_SLOTS, handle);
}

static int is_blocking(uint64_t handle)
{
    return capture_handle_known(proc.streams.blocking, BLOCKING_STREAM_SLOTS, handle);
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
    atomic_fetch_add_explicit(&proc.streams.generation, 1, memory_order_relaxed);
    ss_event *e = ss_evbuf_reserve(&t->store->events, &proc.store.budget);
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

/* Whether the device pointers of a call of 'spec' are recorded (SS_EV_ARGS, --pointers): not a
 * copy's or memset's in the light mode where no full window can open (no --sample, no
 * --trigger-file): only SYNC601 reads them, which needs the full mode or a window, and the
 * light mode's rules (SYNC201 to SYNC402) take a copy's direction and memory kinds from its
 * call. An allocation's, a free's and an event's are recorded as before. */
static int records_pointers(const ss_args_spec *spec)
{
    return spec->pointers != 0 && proc.config.pointers &&
           !(spec->pointers == SS_ARGS_COPY && proc.light && proc.config.sample[0] == '\0' &&
             proc.config.trigger_file[0] == '\0');
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
    ss_event *e = ss_evbuf_reserve(&t->store->events, &proc.store.budget);
    if (e == NULL)
        return;
    e->u.args = args;
    e->type = SS_EV_ARGS;
}

/* The argument table's row of a runtime or driver callback, NULL for a call not followed. */
static const ss_args_spec *spec_of(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
        return proc.cupti.runtime_specs[cbid];
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
        return proc.cupti.driver_specs[cbid];
    return NULL;
}

/* A driver call inside a recorded runtime call is not recorded: the runtime call around it is
 * the one recorded, and a launch names its kernel's parameters in it. */
static void nested_driver_call(thread_state *t, const ss_args_spec *spec,
                               const CUpti_CallbackData *cb)
{
    if (spec->pointers != SS_ARGS_LAUNCH || t->open_call == NULL || !proc.config.pointers)
        return;
    t->busy = 1;
    uint64_t begin = capture_now_ns();
    record_pointers(t, spec, cb->functionParams, &t->open_call->u.api, 0);
    t->self_pending += capture_now_ns() - begin;
    t->busy = 0;
}

/* The light mode's questions to the driver at a call's entry (capture_light.c): a copy's or
 * memset's memory kinds (asked before its event, light_leaves_out), then the pending work the
 * call may wait for; timed for SYNCSCOPE_TIMING. The call carries SS_API_BETWEEN when a copy
 * between device memory was left out since its thread's last recorded call. */
static void light_questions(thread_state *t, const ss_args_spec *spec, ss_ev_api *a)
{
    if (spec->pointers == SS_ARGS_COPY)
        a->flags = t->entry_kinds;
    if (t->came_between) {
        a->flags |= SS_API_BETWEEN;
        t->came_between = 0;
    }
    uint64_t began = capture_timing_now();
    capture_probe_enter(t, spec, a);
    t->store->timed_probes++;
    t->store->timed_probes_ns += capture_timing_since(began);
}

/* Fills the event 'e' of a call at its entry: what the call is, its arguments (stream, bytes,
 * copy kind, flags or, in the light mode, the memory kinds), the light mode's probe, its entry
 * time, and the pointers it was handed. */
static void enter_call(thread_state *t, const ss_args_spec *spec, const CUpti_CallbackData *cb,
                       ss_event *e)
{
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
    if (proc.light)
        light_questions(t, spec, a);
    /* After the light mode's questions to the driver: their time is not the call's. */
    a->enter_ns = capture_now_ns();
    e->type = SS_EV_API;
    *cb->correlationData = (uint64_t)(uintptr_t)e;
    /* a counted call's pointers would join no event */
    if (records_pointers(spec) && !capture_is_spill(t, e))
        record_pointers(t, spec, p, a, 0);
}

/* The entry of a followed call: its event reserved and filled (enter_call), the pointer to it
 * left in CUPTI's correlation data for the exit; nothing while the thread is inside syncscope,
 * and a driver call inside a runtime call only names a launch's parameters. */
/* SYNCSCOPE_TIMING's own time: only the thread adds to its counter, others may read it
 * (syncscope_light_probe_own_ns), so a relaxed load and store, no read-modify-write. */
static void add_own_ns(ss_thread_store *store, uint64_t ns)
{
    uint64_t own = atomic_load_explicit(&store->timed_own_ns, memory_order_relaxed);
    atomic_store_explicit(&store->timed_own_ns, own + ns, memory_order_relaxed);
}

/* Whether work already went to a stream that the legacy default stream serializes with (a
 * stream created blocking, or the per-thread default stream); this call's work, on stream
 * handle 'stream', 'enqueues' and not 'legacy', is noted as the first such when it is. */
static int legacy_partners(const ss_args_spec *spec, uint64_t stream, int enqueues, int legacy)
{
    if (atomic_load_explicit(&proc.streams.legacy_partners, memory_order_relaxed) != 0)
        return 1;
    if (!enqueues || legacy ||
        !(spec->per_thread || stream == SS_STREAM_PER_THREAD || is_blocking(stream)))
        return 0;
    atomic_store_explicit(&proc.streams.legacy_partners, 1, memory_order_relaxed);
    return 1;
}

/* legacy_partners for a call of 'spec' (row 'row') on stream handle 'stream'; '*legacy' set
 * to whether the call puts work on the legacy default stream. */
static int stream_partners(const ss_args_spec *spec, const ss_api *row, uint64_t stream,
                           int *legacy)
{
    int enqueues = spec->stream.size != 0 && ss_api_enqueues(row);
    *legacy = enqueues && ((stream == SS_STREAM_LEGACY_NULL && !spec->per_thread) ||
                           stream == SS_STREAM_LEGACY);
    return legacy_partners(spec, stream, enqueues, *legacy);
}

/* Whether the light mode leaves out the call of 'spec' with 'params' at its entry, before its
 * event: an asynchronous memset of device memory (capture_light_skips) or an asynchronous copy
 * between device memory (capture_light_passes_copy); either way the thread's next recorded
 * call carries SS_API_BETWEEN (capture_light_left_out). A copy's memory kinds are asked here
 * (timed for SYNCSCOPE_TIMING) and kept in t->entry_kinds for its event. A call left out
 * still counts as work on its stream for the stacks of legacy-stream work (legacy_partners),
 * as when it was recorded. */
static int light_leaves_out(thread_state *t, const ss_args_spec *spec, const void *params)
{
    if (capture_light_skips(spec, params)) {
        capture_light_left_out(t);
    } else {
        if (spec->pointers != SS_ARGS_COPY)
            return 0;
        uint64_t began = capture_timing_now();
        t->entry_kinds = capture_host_kinds(t, spec, params);
        t->store->timed_kinds++;
        t->store->timed_kinds_ns += capture_timing_since(began);
        if (!capture_light_passes_copy(t, spec, params, t->entry_kinds))
            return 0;
    }
    if (!atomic_load_explicit(&proc.streams.legacy_partners, memory_order_relaxed)) {
        int present, legacy;
        stream_partners(spec, &proc.api_rows[spec->api],
                        ss_args_read(params, &spec->stream, &present), &legacy);
    }
    return 1;
}

/* The event of a call entering on thread 't': a slot of its buffer; in the light mode past the
 * memory cap, one of its spill slots (capture_spill_take), whose call is counted at its exit
 * rather than kept, the drop the buffer counted taken back. NULL: dropped (counted). */
static ss_event *reserve_event(thread_state *t)
{
    ss_budget *budget = &proc.store.budget;
    /* the thread's own chunk first: past the cap its free slots are still the thread's */
    ss_event *e = ss_evbuf_reserve(&t->store->events, budget);
    if (e == NULL && proc.light) {
        e = capture_spill_take(t);
        if (e != NULL)
            atomic_fetch_sub_explicit(&budget->dropped_events, 1, memory_order_relaxed);
    }
    return e;
}

static void api_enter(const ss_args_spec *spec, int runtime, const CUpti_CallbackData *cb)
{
    *cb->correlationData = 0;
    if (!atomic_load_explicit(&proc.active, memory_order_relaxed))
        return;
    thread_state *t = capture_thread_get();
    if (t == NULL) {
        atomic_fetch_add_explicit(&proc.store.budget.dropped_events, 1, memory_order_relaxed);
        return;
    }
    if (t->busy)
        return;
    if (runtime) {
        t->runtime_depth++;
    } else if (t->runtime_depth > 0) {
        t->store->timed_nested++;
        nested_driver_call(t, spec, cb);
        return;
    }
    /* After the driver calls inside runtime calls returned: SYNCSCOPE_TIMING's clock is read
     * only where the own time is counted (the thread's registration is timed apart). */
    uint64_t began = capture_timing_now();
    t->busy = 1;
    if (proc.light && spec->pointers == SS_ARGS_FREE)
        capture_light_track(spec, cb->functionParams, 0, 0, 0);
    if (proc.light && spec->host.size != 0)
        capture_light_track_host(spec, cb->functionParams, 0, 0, 0);
    ss_event *e = NULL;
    if (!(proc.light && light_leaves_out(t, spec, cb->functionParams)))
        e = reserve_event(t);
    if (e != NULL)
        enter_call(t, spec, cb, e);
    if (runtime)
        t->open_call = e;
    if (e != NULL && proc.api_rows[spec->api].klass == SS_CLASS_LAUNCH)
        t->self_pending = capture_now_ns() - e->u.api.enter_ns;
    if (began != 0) {
        t->store->timed_callbacks++;
        add_own_ns(t->store, capture_timing_since(began));
    }
    t->busy = 0;
}

/* What a call's exit tells: its result, its device and stream, the stream it created, the
 * pointers it returned or freed (not for a call counted past the memory cap, 'spilled': they
 * would join no event). */
static void exit_call(thread_state *t, const ss_args_spec *spec, const CUpti_CallbackData *cb,
                      ss_ev_api *a, int spilled)
{
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
    if (proc.light && spec->pointers == SS_ARGS_ALLOC)
        capture_light_track(spec, cb->functionParams, 1, a->result, a->bytes);
    if (proc.light && spec->host.size != 0)
        capture_light_track_host(spec, cb->functionParams, 1, a->result, a->bytes);
    if (records_pointers(spec) && !spilled)
        record_pointers(t, spec, cb->functionParams, a, 1);
}

/* The stack decision: stacks only for calls that may become findings: synchronizing ones,
 * long ones, work put on the legacy default stream (SYNC101/SYNC102), and the rare calls whose
 * site a finding names: stream creation (SYNC103) and capture begin/end (SYNC501); in the
 * light mode, not for the synchronization right after a readback that found its stream idle,
 * which the detectors take as the readback's (capture_probe_enter). */
static int wants_stack(const thread_state *t, const ss_args_spec *spec, const ss_api *row,
                       const ss_ev_api *a, uint64_t exit_ns)
{
    int legacy;
    int partners = stream_partners(spec, row, a->stream, &legacy);
    /* after stream_partners: the call's stream counts for later calls' stacks */
    if (proc.light && t->readback_sync)
        return 0;
    return row->sync != SS_SYNC_NEVER || exit_ns - a->enter_ns >= proc.config.stack_min_ns ||
           (legacy && partners) || row->klass == SS_CLASS_STREAM_CREATE ||
           row->klass == SS_CLASS_CAPTURE_BEGIN || row->klass == SS_CLASS_CAPTURE_END;
}

/* syncscope's own time in a launch, its enter side included: what the launch-bound what-if
 * takes off the traced launches (docs/detectors.md, SYNC502). A launch that took longer (a
 * kernel's first, whose parameter layout the driver is asked for, or one whose stack was
 * taken) is counted apart: one-time work, not the cost of every launch. */
static void count_launch_self_time(thread_state *t, uint64_t exit_ns)
{
    uint64_t own = t->self_pending + (capture_now_ns() - exit_ns);
    t->self_pending = 0;
    if (own <= SELF_LAUNCH_MAX_NS) {
        t->store->self_launch_ns += own;
        t->store->self_launches++;
    } else {
        t->store->self_slow_launches++;
    }
}

/* syncscope's own time after a call whose stack it took returned: host time the program
 * spends after the call (after a synchronization: while the device may be idle), which
 * SYNC301's what-if takes off (docs/detectors.md). A first stack of its kind, slower, is
 * counted apart as the slow launches are. */
static void count_stack_self_time(thread_state *t, uint64_t exit_ns)
{
    uint64_t own = capture_now_ns() - exit_ns;
    if (own <= SELF_STACK_MAX_NS) {
        t->store->self_stack_ns += own;
        t->store->self_stacks++;
    } else {
        t->store->self_slow_stacks++;
    }
}

/* The exit of a recorded call: what the exit tells (exit_call), a stack when the call may
 * become a finding (wants_stack), its exit time, a launch's own time and the stack's. Always
 * inlined into on_api: a stack starts with as many of syncscope's own frames as when on_api
 * took it, in every build (SS_STACK_DEPTH counts them). */
static inline __attribute__((always_inline)) void api_exit(const ss_args_spec *spec, int runtime,
                                                           const CUpti_CallbackData *cb)
{
    if (proc.light)
        capture_light_kinds_changed(spec);
    thread_state *t = capture_tls;
    if (t == NULL || t->busy)
        return;
    if (runtime && t->runtime_depth > 0)
        t->runtime_depth--;
    else if (!runtime && t->runtime_depth > 0)
        t->store->timed_nested++;
    if (runtime)
        t->open_call = NULL;
    ss_event *e = (ss_event *)(uintptr_t)*cb->correlationData;
    if (e == NULL)
        return;
    t->busy = 1;
    uint64_t began = capture_timing_now();
    ss_ev_api *a = &e->u.api;
    uint64_t exit_ns = capture_now_ns();
    if (proc.light) {
        uint64_t probing = capture_timing_now();
        a->flags |= capture_probe_exit(t, exit_ns > a->enter_ns ? exit_ns - a->enter_ns : 0);
        t->store->timed_probes_ns += capture_timing_since(probing);
    }
    exit_call(t, spec, cb, a, capture_is_spill(t, e));
    if (proc.light)
        capture_light_note_readback(t, spec, a);
    const ss_api *row = &proc.api_rows[spec->api];
    int stacked = wants_stack(t, spec, row, a, exit_ns);
    if (stacked)
        a->stack = capture_stack(t, (uint64_t)spec->domain << 32 | spec->api);
    a->exit_ns = exit_ns > a->enter_ns ? exit_ns : a->enter_ns + 1;
    if (row->klass == SS_CLASS_LAUNCH)
        count_launch_self_time(t, exit_ns);
    if (stacked)
        count_stack_self_time(t, exit_ns);
    if (proc.light)
        capture_tally(t, e);
    if (began != 0) {
        t->store->timed_callbacks++;
        add_own_ns(t->store, capture_timing_since(began));
    }
    t->busy = 0;
}

/* A followed runtime or driver call's entry or exit. */
static void on_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const ss_args_spec *spec = spec_of(domain, cbid);
    if (spec == NULL)
        return;
    int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    if (cb->callbackSite == CUPTI_API_ENTER)
        api_enter(spec, runtime, cb);
    else
        api_exit(spec, runtime, cb);
}

/* libsyncscope_cudart.so's wrappers of the runtime's exported calls (wrap_cudart.c), a
 * measurement aid for now (SYNCSCOPE_LIGHT_PROBE=switch, levels LEVEL_WRAP and
 * LEVEL_WRAP_ONLY; docs/studies/performance.md, "The light mode's runtime calls without
 * CUPTI"): while syncscope_wrap_on is set a wrapper hands its call's CUPTI callback id and a
 * parameter struct of CUPTI's layout, filled from its arguments, to syncscope_wrap_enter before
 * the runtime's call and to syncscope_wrap_exit after it, which do what the callbacks do at
 * its entry and exit; 'slot' is the wrapper's own word for the call's event (CUPTI's
 * correlation data). No correlation id (no activity record is joined in the light mode); the
 * context is the thread's current one, asked of the driver at the exit of a recorded call. */
SS_EXPORT atomic_int syncscope_wrap_on;

/* Whether libsyncscope_cudart.so is loaded: without it no wrapper takes a call, and the
 * runtime's callbacks must stay. */
static int wrappers_loaded(void)
{
    void *wrappers = dlopen(SS_INTERPOSE_WRAPPERS, RTLD_LAZY | RTLD_NOLOAD);
    if (wrappers == NULL)
        return 0;
    dlclose(wrappers);
    return 1;
}

void capture_wrap_from_start(void)
{
    if (!proc.light || proc.sampling.every_ns != 0 || !wrappers_loaded()) {
        capture_say("%s=wrap: the wrappers take nothing (%s)", SS_ENV(LIGHT_PROBE),
                    !proc.light || proc.sampling.every_ns != 0
                        ? "the light mode only, without --sample"
                        : SS_INTERPOSE_WRAPPERS " is not loaded: give it with LD_PRELOAD");
        return;
    }
    atomic_store_explicit(&proc.probe_level, LEVEL_WRAP, memory_order_relaxed);
    capture_cupti_switch_rows(LEVEL_WORK, LEVEL_WRAP);
    atomic_store_explicit(&syncscope_wrap_on, 1, memory_order_relaxed);
}

SS_EXPORT void syncscope_wrap_enter(uint32_t cbid, const void *params, uint64_t *slot)
{
    int saved_errno = errno;
    *slot = 0;
    const ss_args_spec *spec = spec_of(CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
    if (spec != NULL) {
        CUpti_CallbackData cb = {
            .callbackSite = CUPTI_API_ENTER, .functionParams = params, .correlationData = slot};
        api_enter(spec, 1, &cb);
    }
    errno = saved_errno;
}

SS_EXPORT void syncscope_wrap_exit(uint32_t cbid, const void *params, uint64_t *slot,
                                   int32_t result)
{
    int saved_errno = errno;
    const ss_args_spec *spec = spec_of(CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
    if (spec != NULL) {
        CUcontext context = NULL;
        ctx_current_fn current =
            atomic_load_explicit(&proc.probe.ctx_current, memory_order_acquire);
        if (*slot != 0 && current != NULL && current(&context) != CUDA_SUCCESS)
            context = NULL;
        CUpti_CallbackData cb = {.callbackSite = CUPTI_API_EXIT,
                                 .functionParams = params,
                                 .functionReturnValue = &result,
                                 .correlationData = slot,
                                 .context = context};
        api_exit(spec, 1, &cb);
    }
    errno = saved_errno;
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

/* CUPTI's one callback: API calls (the profiler API's are scope marks), the first context
 * (activity records on), the light mode's stream resources. Keeps errno. */
void CUPTIAPI capture_on_callback(void *userdata, CUpti_CallbackDomain domain,
                                  CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    int saved_errno = errno;
    int start = 0;
    if ((domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) &&
        is_profiler_call(domain, cbid, &start))
        capture_on_profiler(domain, start, (const CUpti_CallbackData *)data);
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        if (!capture_stream_destroying(domain, cbid, (const CUpti_CallbackData *)data))
            on_api(domain, cbid, (const CUpti_CallbackData *)data);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        capture_enable_activity_once();
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE)
        capture_on_stream_resource(cbid, (const CUpti_ResourceData *)data);
    errno = saved_errno;
}

void CUPTIAPI capture_on_callback_noop(void *userdata, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid, const void *data)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API)
        return;
    capture_on_callback(userdata, domain, cbid, data);
}

void CUPTIAPI capture_on_callback_switch(void *userdata, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId cbid, const void *data)
{
    if (atomic_load_explicit(&proc.probe_level, memory_order_relaxed) == LEVEL_NOOP)
        capture_on_callback_noop(userdata, domain, cbid, data);
    else
        capture_on_callback(userdata, domain, cbid, data);
}

/* SYNCSCOPE_LIGHT_PROBE=switch (a measurement aid, docs/studies/performance.md): 'level' 1 makes
 * the API callbacks return at once from now on, 0 makes them work again, 2 makes them work
 * with a memset's memory kind always asked of the driver (the device allocations not looked
 * at), 3 disables the mode's API callbacks in CUPTI (cuptiEnableCallback(0), the profiler's
 * scope marks' too; a stream's destruction stays, which keeps the live streams' table right)
 * and leaving 3 enables them again; 4 makes libsyncscope_cudart.so's wrappers take the runtime's
 * calls (syncscope_wrap_on), the mode's runtime callbacks disabled in CUPTI, and 5 the same with
 * its driver callbacks disabled too; with any other probe, or none, before the capture started,
 * or 3 to 5 outside the light mode (the full or the sampled mode), nothing. For a program that
 * switches between its own steps, with no CUDA call in progress on another thread (a call entered
 * before a switch and left after it is not recorded whole). */
SS_EXPORT void syncscope_light_probe_set(int level)
{
    if (proc.bench_probe != PROBE_SWITCH || level < LEVEL_WORK || level > LEVEL_WRAP_ONLY ||
        !atomic_load(&proc.active) ||
        (level >= LEVEL_OFF && (!proc.light || proc.sampling.every_ns != 0)) ||
        (level >= LEVEL_WRAP && !wrappers_loaded()))
        return;
    int was = atomic_exchange_explicit(&proc.probe_level, level, memory_order_relaxed);
    capture_cupti_switch_rows(was, level);
    if ((was == LEVEL_OFF) != (level == LEVEL_OFF))
        capture_set_scope_callbacks(level != LEVEL_OFF);
    /* The wrappers' levels: the wrapped runtime rows (and at LEVEL_WRAP_ONLY the driver's)
     * off in CUPTI while the wrappers take those calls. */
    atomic_store_explicit(&syncscope_wrap_on, level == LEVEL_WRAP || level == LEVEL_WRAP_ONLY,
                          memory_order_relaxed);
}

/* The same measurement aid: syncscope's own time in its callbacks so far, in ns, every
 * thread's (SYNCSCOPE_TIMING's 'own time': a program that switches reads it around its steps,
 * whose own time then leaves out the set-up's). Walks the threads' counters; not for a
 * callback. 0 with any other probe or without SYNCSCOPE_TIMING. */
SS_EXPORT uint64_t syncscope_light_probe_own_ns(void)
{
    uint64_t own = 0;
    if (proc.bench_probe != PROBE_SWITCH)
        return 0;
    for (ss_thread_store *t = atomic_load(&proc.store.threads); t != NULL; t = t->next)
        own += atomic_load_explicit(&t->timed_own_ns, memory_order_relaxed);
    return own;
}

/* The same measurement aid: the events recorded so far, every thread's (a program that
 * switches counts what its steps recorded at each level). Walks the threads' buffers; not for
 * a callback. 0 with any other probe. */
SS_EXPORT uint64_t syncscope_light_probe_events(void)
{
    uint64_t events = 0;
    if (proc.bench_probe != PROBE_SWITCH)
        return 0;
    for (ss_thread_store *t = atomic_load(&proc.store.threads); t != NULL; t = t->next)
        events += ss_evbuf_count(&t->events);
    return events;
}
