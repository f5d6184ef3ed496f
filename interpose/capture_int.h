/* capture_int.h: what the capture library's files (libsyncscope.so) share; internal to them.
 * capture_callbacks.c: the CUPTI callbacks (the hot path: every call's enter and exit);
 * capture_cupti.c: loading CUPTI and subscribing; capture_light.c: the light mode's questions
 * to the driver; capture_scopes.c and capture_nvtx.c: scope marks, NVTX; capture_activity.c:
 * the GPU activity records; capture_driver.c: what the program's driver and runtime say of
 * themselves; capture_end.c, capture_flusher.c, capture_signals.c and capture_start.c: the
 * lifecycle (the end of the run, the flusher thread, signals and fork, the start). */
#ifndef SS_INTERPOSE_CAPTURE_INT_H
#define SS_INTERPOSE_CAPTURE_INT_H

#include <cupti.h>

#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "args.h"
#include "capture.h"
#include "interpose.h"
#include "rules.h"
#include "sitecache.h"
#include "store.h"

/* Everything declared below stays inside libsyncscope.so: its data is reached directly, its
 * functions called without the PLT. */
#pragma GCC visibility push(hidden)

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
/* The device allocations the light mode remembers (cudaMalloc, cuMemAlloc), so that an
 * asynchronous memset of one is left out without asking the driver, and the pinned host memory
 * (cudaHostAlloc, cudaMallocHost, cudaHostRegister and their driver calls), so that a copy to or
 * from it needs no question either. */
#define DEVICE_RANGE_SLOTS 1024u
/* Host addresses a thread remembers the driver called pageable (thread_state.pageable). */
#define PAGEABLE_SLOTS 4u
/* Calls a thread can be inside at once, in the light mode past the memory cap (a call made
 * from inside another: a callback, a signal handler). */
#define SPILL_DEPTH 4u
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

#define STREAM_SLOTS 16
/* Range names a thread looked up recently (a power of two). */
#define NAME_CACHE_SLOTS 32
/* The innermost frames that name a site with another thread's Python frames (capture_stack's
 * site cache, for a thread without Python frames of its own). */
#define SITE_PREFIX 16

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
    /* The light mode's probe of the call in progress (capture_probe_enter): the streams asked at
     * its entry and which of them had work pending then. */
    CUstream probed[PROBE_STREAMS_MAX];
    uint16_t probed_slot[PROBE_STREAMS_MAX]; /* a listed stream's slot in live_streams */
    uint32_t probed_count;
    uint32_t probed_pending;
    uint32_t probed_listed; /* those taken from the live streams' table */
    int probed_idle;        /* entered before any context existed: probed, nothing pending */
    int probed_deferred;    /* the live streams not asked: the legacy stream was pending */
    /* The light mode: the thread's last recorded call was a readback that found its stream
     * idle (capture_light_note_readback), on this stream handle and variant. */
    int idle_readback;
    int idle_readback_per_thread;
    uint64_t idle_readback_stream;
    const ss_ev_api *last_entered; /* the thread's recorded call entered last */
    /* The light mode: a copy between device memory or a memset of device memory was left out
     * since the thread's last recorded call (capture_light_left_out): its next recorded call
     * carries SS_API_BETWEEN. */
    int came_between;
    uint32_t entry_kinds; /* the memory kinds of the copy or memset being entered */
    /* The call in progress is the synchronization of an idle readback's stream right after it
     * (capture_probe_enter): neither probed nor stacked, it can be no finding of its own. */
    int readback_sync;
    /* The slots of the device allocations ([side][0]) and of the pinned host memory
     * ([side][1]) the light mode remembers where a copy's destination (side 0) and source
     * (side 1) were found last (range_has): a loop's copies read from and write to a few
     * allocations again and again, each side its own. */
    uint32_t range_hint[2][2];
    /* Host addresses the driver called pageable at this thread's last copies (a readback's
     * local variable: PyTorch's .item() copies into one at the same address each time), and
     * the generation of the remembered allocations (capture_probe.kinds_generation) they were
     * asked in: kind_of answers them without a question while no allocation was remembered
     * since. 0: an empty slot. */
    uint64_t pageable[PAGEABLE_SLOTS];
    uint64_t pageable_generation;
    uint32_t pageable_next; /* the slot the next answer replaces */
    ss_site_cache sites;    /* capture_stack's site cache */
    /* The light mode past the memory cap: the events of the thread's calls in progress, counted
     * at their exit (capture_tally) rather than kept; spill_depth of them are taken. */
    ss_event spill[SPILL_DEPTH];
    uint32_t spill_depth;
} thread_state;

/* What the run learns of its GPUs and CUDA (docs/trace-format.md, metadata keys gpu, driver,
 * cuda and cuda_runtime). */
typedef struct device_info {
    char names[512];     /* the devices' names, ", " between them; "" when unknown */
    char driver[64];     /* the kernel driver's version ("580.65.06"); "" when unknown */
    int cuda_version;    /* cuDriverGetVersion (13000: the driver's CUDA 13.0), 0 unknown */
    int runtime_version; /* cudaRuntimeGetVersion of the loaded runtime, 0 when unknown */
} device_info;

/* The calling thread's state (capture_callbacks.c), NULL until its first recorded call. */
extern __thread thread_state *capture_tls __attribute__((tls_model("initial-exec")));

/* cuPointerGetAttributes and cuStreamQuery, from the program's own driver (the light mode's
 * host memory kinds and pending work). */
typedef CUresult (*pointer_attributes_fn)(unsigned int, CUpointer_attribute *, void **,
                                          CUdeviceptr);
typedef CUresult (*stream_query_fn)(CUstream);
typedef CUresult (*ctx_current_fn)(CUcontext *);

/* The CUPTI library and syncscope's subscription to it. */
typedef struct capture_cupti {
    void *handle;
    char path[PATH_MAX];
    cupti_api fn;
    CUpti_SubscriberHandle subscriber;
    const ss_args_spec *runtime_specs[CUPTI_RUNTIME_TRACE_CBID_SIZE];
    const ss_args_spec *driver_specs[CUPTI_DRIVER_TRACE_CBID_SIZE];
} capture_cupti;

/* What the capture follows of the program's streams. */
typedef struct capture_streams {
    _Atomic uint32_t generation; /* bumped at each stream creation: the threads' caches */
    /* Nonzero once work went to a stream that the legacy default stream serializes with: a
     * stream created blocking, or the per-thread default stream. Until then a legacy-stream
     * launch gets no stack: PyTorch runs everything there, and cuBLASLt creates a blocking
     * stream it does not use; a finding about such a launch borrows the site of a launch of
     * the same kernel that has one (det_site_call). */
    atomic_uint legacy_partners;
    _Atomic uint64_t blocking[BLOCKING_STREAM_SLOTS]; /* open addressing, 0: empty */
} capture_streams;

/* Allocations the light mode remembers: [base, end), base 0 for a free slot and 1 for one being
 * written; slots below 'used' are looked at. Lock-free. */
typedef struct capture_ranges {
    _Atomic uint64_t base[DEVICE_RANGE_SLOTS];
    _Atomic uint64_t end[DEVICE_RANGE_SLOTS];
    atomic_uint used;
} capture_ranges;

/* The light mode (docs/run.md, "Modes"): only the calls ss_api_light selects are subscribed
 * to, no activity record is enabled, and a copy's or memset's host memory kind is asked of
 * the driver (capture_host_kinds), as is the work pending at a call that may wait
 * (capture_probe_enter). */
typedef struct capture_probe {
    _Atomic(pointer_attributes_fn) pointer_attributes;
    _Atomic(stream_query_fn) stream_query;
    _Atomic(ctx_current_fn) ctx_current; /* cuCtxGetCurrent: the context of a wrapped call */
    atomic_int context_seen; /* a context was created: before it, no work can be pending */
    _Atomic uint64_t live_streams[LIVE_STREAM_SLOTS]; /* handles, 0 empty, 1 forgotten */
    /* How many streams live_streams holds: counted up after a stream's slot is taken, down
     * after it is forgotten, so a device-wide call neither counts nor scans the slots (none
     * when it is 0). */
    atomic_uint live_count;
    /* Per slot of live_streams, the probes asking the driver about its stream at this moment:
     * a stream's destruction waits for them (capture_stream_destroying), so that no probe asks
     * about a freed handle. */
    atomic_uint live_pins[LIVE_STREAM_SLOTS];
    /* 1: device-wide calls are not probed (no destruction can be seen, or live_streams is
     * full): they are judged by their time alone */
    _Atomic int live_streams_off;
    /* A probed call held less than this (the run's min_blocked_ns) is not asked at its exit
     * (capture_probe_exit); 0 until the start sets it. */
    uint64_t exit_min_ns;
    /* The run's readback_max_bytes: a copy to the host of at most this many bytes is a
     * readback (capture_light_note_readback); 0 until the start sets it. */
    uint64_t readback_max_bytes;
    capture_ranges device; /* device allocations (capture_light_skips, the copies' kinds) */
    capture_ranges pinned; /* pinned host memory (the copies' kinds) */
    /* Bumped at the exit of every allocation, pinning or registration the light mode follows
     * (capture_light_kinds_changed), before the memory is remembered and whether or not its
     * event was kept: host addresses a thread remembers as pageable from before it are asked
     * again (thread_state.pageable). */
    _Atomic uint64_t kinds_generation;
} capture_probe;

/* The sampled mode (docs/run.md, "Modes"): full windows of on_ns every every_ns, and on
 * demand (SIGUSR2, the trigger file), opened and closed by the flusher thread; 'windows' holds
 * each one's start and end (CUPTI clock, 0: still open). */
typedef struct capture_sampling {
    uint64_t on_ns, every_ns;
    atomic_int window_requested; /* SIGUSR2 asked for a window */
    int window_open;
    /* 1 from a window's start until its callbacks are off: the light mode takes every call it
     * subscribes to (capture_light_skips) */
    atomic_int window_calls;
    uint64_t windows[2 * SAMPLE_WINDOWS_MAX];
    _Atomic uint32_t window_count;
    struct sigaction old_usr2;
    /* SYNCSCOPE_TIMING: the flusher's time opening the windows (the activity records and
     * the callbacks enabled) and closing them (the callbacks and records disabled, the
     * records flushed), in ns; the records converted (buffer_completed, under the activity
     * lock) and the time it took */
    uint64_t open_records_ns, open_callbacks_ns;
    uint64_t close_callbacks_ns, close_records_ns, close_flush_ns;
    uint64_t records, records_ns;
} capture_sampling;

/* SYNCSCOPE_TIMING: the start's steps, in ns of the monotonic clock (capture_start.c). */
typedef struct capture_start_timing {
    uint64_t load_ns;      /* reading the settings, loading and resolving CUPTI */
    uint64_t subscribe_ns; /* cuptiSubscribe and enabling the callbacks */
    uint64_t rest_ns;      /* the unwinder, the Python interpreter, the lifecycle handlers */
} capture_start_timing;

/* Scope marks (docs/run.md, "Scopes"). */
typedef struct capture_scopes {
    _Atomic uint64_t scope_ids;      /* ids of syncscope_scope_begin's ranges so far */
    _Atomic uint64_t nvtx_range_ids; /* ids of NVTX start/end ranges so far */
    pthread_mutex_t ranges_lock;     /* the range-name table (range_name) */
} capture_scopes;

/* The GPU activity records and what they, or the driver, said of the GPUs. */
typedef struct capture_activity {
    int registered;   /* the buffer callbacks are registered (once per process) */
    _Atomic long pid; /* the process that enabled activity records, 0: none yet */
    pthread_mutex_t enable_lock;
    pthread_mutex_t lock; /* the buffers, and the records being converted */
    uint8_t *free_buffers[ACTIVITY_BUFFER_MAX];
    int free_count;
    int buffer_count;
    char gpu[512]; /* the device records' GPU names */
    /* Read when the program created its first context (capture_read_devices), else at the end. */
    device_info devices;
    int devices_read;
} capture_activity;

/* The end of the run (docs/run.md, "What a killed program gets"). At exit the exiting thread
 * runs the finisher. On SIGINT/SIGTERM a thread of syncscope's own runs it (the flusher,
 * started at a process's first recorded CUDA call with every signal blocked), while the
 * handler, which may have interrupted any lock holder, only asks and waits. */
typedef struct capture_end {
    _Atomic int finishing;    /* the finisher has started (once per process) */
    atomic_int interval_busy; /* 1 while the flusher writes an interval line (the end waits) */
    pthread_mutex_t flusher_lock;
    _Atomic long flusher_pid; /* the process whose flusher runs, 0: none yet */
    sem_t wake;               /* posted when the flusher is asked to run */
    atomic_int request;       /* 0, or END_REQUESTED | END_SKIP_FLUSH | signal number */
    atomic_int done;          /* 1 once the finisher has returned */
    atomic_int waiting;       /* 1 once a signal handler waits (or gave up) */
    atomic_int exit_signal;   /* a signal that interrupted the exiting thread's outputs */
    struct sigaction old_int, old_term;
} capture_end;

/* SYNCSCOPE_LIGHT_PROBE, a measurement aid (docs/studies/performance.md, "Where the light
 * mode's cost is"): how far the start goes, and whether the API callbacks do anything. */
enum bench_probe {
    PROBE_OFF,          /* the mode as chosen */
    PROBE_LOAD,         /* CUPTI loaded and resolved, never subscribed */
    PROBE_SUBSCRIBE,    /* subscribed, no callback enabled */
    PROBE_NOOP,         /* the mode's callbacks enabled, the API ones returning at once */
    PROBE_NOOP_RUNTIME, /* the same, the runtime domain's callbacks only */
    PROBE_NOOP_DRIVER,  /* the same, the driver domain's callbacks only */
    PROBE_SWITCH,       /* the mode as chosen; syncscope_light_probe_set switches its API
                         * callbacks at run time (enum probe_level) */
    PROBE_WRAP          /* the light mode with the runtime's calls taken by
                         * libsyncscope_cudart.so's wrappers from the start (LEVEL_WRAP) */
};

/* What PROBE_SWITCH's callbacks do (syncscope_light_probe_set). */
enum probe_level {
    LEVEL_WORK,      /* the mode's work */
    LEVEL_NOOP,      /* the API callbacks return at once */
    LEVEL_NO_RANGES, /* the mode's work, a memset's memory kind always asked of the driver */
    LEVEL_OFF,       /* the mode's API callbacks disabled in CUPTI (a stream's destruction
                      * kept); those that still come do the mode's work */
    LEVEL_WRAP,      /* the runtime's calls taken by libsyncscope_cudart.so's wrappers instead
                      * of CUPTI's runtime callbacks (disabled in CUPTI); the driver's as usual */
    LEVEL_WRAP_ONLY  /* the same, the driver's callbacks disabled in CUPTI too */
};

/* The observed process, as the capture library sees it (one per process). */
typedef struct capture_process {
    _Atomic int active;           /* subscribed and recording */
    int light;                    /* the light mode, or the sampled mode between its windows */
    int forked;                   /* a child after fork: the parent's events were dropped */
    enum bench_probe bench_probe; /* SYNCSCOPE_LIGHT_PROBE's, PROBE_OFF without it */
    atomic_int probe_level;       /* PROBE_SWITCH: an enum probe_level */
    long pid;
    ss_interpose_config config;
    const ss_api *api_rows;
    uint64_t start_ns;               /* CUPTI clock at start (or at fork in a child) */
    int64_t started_unix_ns;         /* wall clock then */
    _Atomic int python_looked_again; /* the interpreter was looked for at the first stack */
    ss_store store;
    capture_cupti cupti;
    capture_streams streams;
    capture_probe probe;
    capture_sampling sampling;
    capture_start_timing start_timing;
    capture_scopes scopes;
    capture_activity activity;
    capture_end end;
} capture_process;

extern capture_process proc;

/* The CUPTI clock now: every event's time. */
static inline uint64_t capture_now_ns(void)
{
    uint64_t ts = 0;
    proc.cupti.fn.cuptiGetTimestamp(&ts);
    return ts;
}

/* The monotonic clock in ns when SYNCSCOPE_TIMING is set, else 0 (no clock read): the
 * timing counters' clock (capture_timing.c). */
static inline uint64_t capture_timing_now(void)
{
    if (!proc.config.timing)
        return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 1;
}

/* The ns from 'since' (capture_timing_now) to now, 0 when SYNCSCOPE_TIMING is not set. */
static inline uint64_t capture_timing_since(uint64_t since)
{
    return since != 0 ? capture_timing_now() - since : 0;
}

/* ---- capture_timing.c ---- */

/* Under SYNCSCOPE_TIMING, the line of the start's steps ("syncscope: start timing: ...",
 * docs/run.md), once the start is done or stopped. */
void capture_timing_start_line(void);

/* Under SYNCSCOPE_TIMING, at the end of the run: the lines of syncscope's own time in the
 * callbacks and, when windows of the sampled mode opened, of their opening and closing. */
void capture_timing_end_lines(void);

/* ---- capture_start.c ---- */

/* The capture library's one message printer: a single "syncscope: " line on stderr, with
 * write(2) so that it allocates nothing and leaves the program's stdio untouched. */
void capture_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- capture_cupti.c ---- */

/* Whether SYNCSCOPE_LIGHT_PROBE leaves the callbacks of 'domain' (runtime or driver API)
 * disabled: noop_runtime leaves the driver's, noop_driver the runtime's. */
int capture_probe_skips_domain(CUpti_CallbackDomain domain);

/* CUPTI's words for result 'r'. */
const char *capture_cupti_error(CUptiResult r);
/* Finds and opens libcupti and resolves its functions. Returns 0, or -1 with a message. */
int capture_cupti_load(void);
/* Subscribes to CUPTI with 'callback' and enables the callbacks of the argument table and the
 * context creation. Returns 0, or -1 with a message, CUPTI set aside (capture_cupti_unload). */
int capture_cupti_subscribe(CUpti_CallbackFunc callback);
/* Unsubscribes and closes libcupti: the program runs unobserved. */
void capture_cupti_unload(void);
/* Enables ('on' 1) or disables the callbacks of the argument table's rows that
 * capture_cupti_subscribe kept, those the light mode takes ('light_rows' 1: its API callbacks)
 * or those it leaves out (0: a sampled mode's full window). Not for a callback. */
void capture_cupti_set_rows(int on, int light_rows);
/* SYNCSCOPE_LIGHT_PROBE=switch's rows from level 'was' to level 'level' (enum probe_level):
 * every light row off at LEVEL_OFF; at LEVEL_WRAP the runtime rows libsyncscope_cudart.so
 * wraps off, at LEVEL_WRAP_ONLY those and the driver's; every one on at the other levels. */
void capture_cupti_switch_rows(int was, int level);

/* ---- capture_callbacks.c ---- */

/* The calling thread's state, made at its first call (NULL when the memory is spent). */
thread_state *capture_thread_get(void);
/* CUPTI's one callback (capture_cupti_subscribe): API calls, profiler calls, resources. */
void CUPTIAPI capture_on_callback(void *userdata, CUpti_CallbackDomain domain,
                                  CUpti_CallbackId cbid, const void *data);
/* SYNCSCOPE_LIGHT_PROBE=noop's callback: API callbacks return at once, the others are
 * capture_on_callback's. */
void CUPTIAPI capture_on_callback_noop(void *userdata, CUpti_CallbackDomain domain,
                                       CUpti_CallbackId cbid, const void *data);
/* SYNCSCOPE_LIGHT_PROBE=switch's: capture_on_callback_noop's at LEVEL_NOOP, else
 * capture_on_callback's. */
void CUPTIAPI capture_on_callback_switch(void *userdata, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId cbid, const void *data);
/* Fixed lock-free sets of stream handles ('slots' of them, a power of two; no allocation).
 * capture_handle_add returns 0, or -1 when the set is full. */
int capture_handle_add(_Atomic uint64_t *table, size_t slots, uint64_t handle);
/* The same, taking a forgotten slot again: for handles forgotten before they can come back;
 * 1 when it added the handle, 0 when the set held it already. */
int capture_handle_add_reusing(_Atomic uint64_t *table, size_t slots, uint64_t handle);
/* 1 when it forgot the handle, 0 when the set did not hold it. */
int capture_handle_forget(_Atomic uint64_t *table, size_t slots, uint64_t handle);
int capture_handle_known(_Atomic uint64_t *table, size_t slots, uint64_t handle);
/* The slot that holds 'handle' in 'table', or -1. */
long capture_handle_find(_Atomic uint64_t *table, size_t slots, uint64_t handle);

/* ---- capture_light.c ---- */

/* The light mode's probe of pending work at a call's entry and exit (docs/run.md, "Modes");
 * capture_probe_exit, told how long the call was held, returns its SS_API_PROBED |
 * SS_API_WAITED | SS_API_PENDING flags. */
void capture_probe_enter(thread_state *t, const ss_args_spec *spec, const ss_ev_api *a);
uint32_t capture_probe_exit(thread_state *t, uint64_t held_ns);
/* At the exit of the light mode's recorded call 'a' of 'spec' (its flags and result known):
 * notes in 't' whether it is a readback that found its stream idle, which leaves the
 * synchronization of that stream its thread makes next nothing to ask (capture_probe_enter). */
void capture_light_note_readback(thread_state *t, const ss_args_spec *spec, const ss_ev_api *a);
/* Whether the light mode leaves out a call at its entry (before its event): an asynchronous
 * memset of device memory, outside the sampled mode's full windows. */
int capture_light_skips(const ss_args_spec *spec, const void *params);
/* A call left out at its entry came between the thread's last recorded call and its next:
 * the next carries SS_API_BETWEEN, and nothing the last one left for its next holds. */
void capture_light_left_out(thread_state *t);

/* At the exit of a call of 'spec' in the light mode, before anything else (the thread may have
 * no state, the call no event): an allocation, pinning or registration bumps
 * capture_probe.kinds_generation, so that no thread answers from an older pageable answer. */
void capture_light_kinds_changed(const ss_args_spec *spec);

/* The event for a call entering on thread 't' in the light mode past the memory cap: one of
 * the thread's spill slots, its call counted at its exit (capture_tally), or NULL when the
 * thread is inside SPILL_DEPTH calls already or a full window of the sampled mode is open (the
 * call is dropped and counted). Only after the buffer refused an event. */
ss_event *capture_spill_take(thread_state *t);

/* Whether 'e' is one of thread 't''s spill slots. */
int capture_is_spill(const thread_state *t, const ss_event *e);

/* In the light mode, at the exit of each followed call 'e' of thread 't' (complete: its exit,
 * stack and flags filled in), kept or counted: a counted call held since the thread's
 * previous call is tallied (ss_thread_store.tallies) with this one as its next; a counted call
 * (a spill slot) is held in turn, its slot given back. */
void capture_tally(thread_state *t, ss_event *e);
/* The light mode's device allocations: at a call's exit ('at_exit' 1, 'result' its result,
 * 'bytes' its size) an allocation of device memory (cudaMalloc, cuMemAlloc; not the
 * stream-ordered ones, whose pool may hold host memory) is remembered, at a free's entry
 * ('at_exit' 0) the allocation is forgotten. Lock-free and allocation-free. */
void capture_light_track(const ss_args_spec *spec, const void *params, int at_exit, int32_t result,
                         uint64_t bytes);
/* The same for pinned host memory (the calls whose spec has a 'host' argument): remembered at
 * the exit of a host allocation or registration, forgotten at the entry of its free or
 * unregistration. */
void capture_light_track_host(const ss_args_spec *spec, const void *params, int at_exit,
                              int32_t result, uint64_t bytes);
/* The light mode's word for a copy or memset of thread 't': its memory kinds
 * (SS_API_MEM_WORD). */
uint32_t capture_host_kinds(thread_state *t, const ss_args_spec *spec, const void *params);
/* Whether the light mode's call 'a' of 'spec' (its memory kinds in a->flags) is an
 * asynchronous copy between device memory, which no light rule can name. */
int capture_light_device_copy(const ss_args_spec *spec, const ss_ev_api *a);
/* Whether the light mode leaves out, at its entry, the copy of 'spec' with 'params' of thread
 * 't' whose memory kinds ('kinds', capture_host_kinds) say it is one between device memory
 * (capture_light_device_copy); then the thread's next recorded call carries SS_API_BETWEEN. */
int capture_light_passes_copy(thread_state *t, const ss_args_spec *spec, const void *params,
                              uint32_t kinds);
/* A stream created, a stream or context about to be destroyed (CUPTI's resource domain). */
void capture_on_stream_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd);
/* At the entry of a stream's destruction (cudaStreamDestroy, cuStreamDestroy): forgets it and
 * waits until no probe is asking the driver about it. Returns 1 when 'domain' and 'cbid' are a
 * stream destruction's (handled), else 0. */
int capture_stream_destroying(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const CUpti_CallbackData *cb);
/* Subscribes to those resource callbacks (the light mode). */
void capture_enable_stream_callbacks(void);
/* Looks up the driver's two functions the light mode asks (once; loads nothing). */
void capture_find_driver_queries(void);

/* ---- capture_scopes.c and capture_nvtx.c ---- */

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
int capture_scope_mark(uint8_t kind, uint8_t source, uint64_t id, enum mark_name_form form,
                       const void *what);
/* The range-name table's key of 'text' (an NVTX registered string's handle). */
uint64_t capture_text_key(const char *text);
/* The scope mark of a profiler start ('start' 1) or stop, a runtime or driver callback. */
void capture_on_profiler(CUpti_CallbackDomain domain, int start, const CUpti_CallbackData *cb);
/* Enables ('on' 1) or disables the profiler API's scope marks' callbacks. */
void capture_set_scope_callbacks(int on);
/* SYNCSCOPE_LIGHT_PROBE=wrap's start: in the light mode without windows, with
 * libsyncscope_cudart.so loaded, its wrappers take the runtime's calls (the mode's runtime
 * callbacks disabled in CUPTI); otherwise says why nothing changed. */
void capture_wrap_from_start(void);
/* Names this library as the program's NVTX tool (NVTX_INJECTION64_PATH), when allowed. */
void capture_observe_nvtx(void);

/* ---- capture_activity.c ---- */

/* Registers the activity buffers (once per process) and enables ('on' 1) or disables the
 * activity kinds the settings ask for. Returns 0, or -1 with the failing call in '*what' and
 * its result in '*why'. */
int capture_set_activity(int on, const char **what, CUptiResult *why);
/* At the program's first context: activity records on, the devices read (once per process). */
void capture_enable_activity_once(void);

/* ---- capture_driver.c ---- */

/* Fills 'out' from the program's driver and runtime ('ask_devices': the devices' names too). */
void capture_read_devices(device_info *out, int ask_devices);

/* ---- capture_end.c ---- */

/* Ends the run: writes the outputs, once per process ('signo': the signal ending it, or 0;
 * 'skip_flush': activity records still buffered are left out). */
void capture_finish(int signo, int skip_flush);
/* Asks the flusher to end the run for signal 'signo'. Async-signal-safe. */
void capture_end_request(int signo, int skip_flush);
/* Waits until the finisher has returned, at most 'bound_ms' (< 0: no bound). Returns 1 when
 * it has, 0 when the bound passed first. Async-signal-safe. */
int capture_end_wait(long bound_ms);
/* The finisher's function 'name', or NULL with a message ending in 'consequence'. */
void *capture_finisher_symbol(const char *name, const char *consequence);
/* What the finisher reads of the run as it is at 'end_ns' ('signo': the signal ending it). */
ss_capture_view capture_make_view(int signo, uint64_t end_ns, const device_info *devices);

/* The request word (proc.end.request): the signal number in the low bits. */
#define END_SIGNAL_MASK 0xffff
#define END_REQUESTED 0x10000
#define END_SKIP_FLUSH 0x20000

/* ---- capture_flusher.c ---- */

/* Starts this process's flusher thread, once (capture_flusher_running says whether it runs). */
void capture_flusher_start(void);
int capture_flusher_running(void);

/* ---- capture_signals.c ---- */

/* The exit, signal and fork handlers (at_exit, SIGINT/SIGTERM, SIGUSR2, the child's reset). */
void capture_install_lifecycle(void);

#pragma GCC visibility pop

#endif
