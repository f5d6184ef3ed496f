/* evlog.h: the event log the interposer records, the detectors read and the report writers
 * draw (no CUDA headers). */
#ifndef SS_EVLOG_H
#define SS_EVLOG_H

#include <stddef.h>
#include <stdint.h>

typedef enum ss_event_type {
    SS_EV_API = 1, /* a host API call, enter to exit */
    SS_EV_KERNEL,  /* a kernel on the GPU */
    SS_EV_MEMCPY,  /* a copy on the GPU */
    SS_EV_MEMSET,  /* a memset on the GPU */
    SS_EV_SYNC,    /* a CUPTI synchronization record (host waited in the driver) */
    SS_EV_STREAM,  /* a stream became known: handle, CUPTI id, flags */
    SS_EV_SCOPE,   /* a scope mark: an NVTX range, cudaProfilerStart/Stop, syncscope.scope() */
    SS_EV_ARGS     /* the device pointers an API call was handed (ss_ev_args) */
} ss_event_type;

/* Copy direction as the GPU saw it. */
typedef enum ss_copy_kind {
    SS_COPY_UNKNOWN = 0,
    SS_COPY_HTOD,
    SS_COPY_DTOH,
    SS_COPY_DTOD,
    SS_COPY_HTOH,
    SS_COPY_PTOP
} ss_copy_kind;

/* Memory kind of one side of a copy, as CUPTI reports it. */
typedef enum ss_mem_kind {
    SS_MEM_UNKNOWN = 0,
    SS_MEM_PAGEABLE,
    SS_MEM_PINNED,
    SS_MEM_DEVICE,
    SS_MEM_ARRAY,
    SS_MEM_MANAGED
} ss_mem_kind;

/* Synchronization record types (CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_*). */
typedef enum ss_sync_type {
    SS_SYNCREC_UNKNOWN = 0,
    SS_SYNCREC_EVENT_SYNCHRONIZE,
    SS_SYNCREC_STREAM_WAIT_EVENT,
    SS_SYNCREC_STREAM_SYNCHRONIZE,
    SS_SYNCREC_CONTEXT_SYNCHRONIZE
} ss_sync_type;

/* Stream handles with a fixed meaning (as passed to the API). */
#define SS_STREAM_LEGACY_NULL 0u /* 0 / NULL: the legacy default stream (unless per-thread) */
#define SS_STREAM_LEGACY 1u      /* cudaStreamLegacy */
#define SS_STREAM_PER_THREAD 2u  /* cudaStreamPerThread */

/* Stream creation flags as recorded (SS_EV_STREAM.flags). */
#define SS_STREAM_FLAG_NON_BLOCKING 1u

enum { SS_DOMAIN_RUNTIME = 0, SS_DOMAIN_DRIVER = 1 };

/* A copy's or memset's memory kinds in ss_ev_api.flags, as the light mode records them (the
 * full mode takes them from CUPTI's copy and memset records): SS_API_MEM_KNOWN, the source's
 * ss_mem_kind in bits 8-15 and the destination's in bits 0-7 (SS_MEM_UNKNOWN for a pointer
 * not taken). Copies and memsets have no flags of their own. */
#define SS_API_MEM_KNOWN 0x80000000u
/* What the light mode learnt of the work a call could wait for, in ss_ev_api.flags:
 * SS_API_PROBED when it asked the driver at the call's entry and exit, SS_API_WAITED when work
 * pending at the entry was complete at the exit (docs/run.md, "Modes"). */
#define SS_API_PROBED 0x40000000u
#define SS_API_WAITED 0x20000000u
/* SS_API_PENDING: a probed call found work pending at its entry on a stream it asked about
 * (recorded since the metadata probe_pending 1; a copy whose stream was idle at its entry
 * leaves the synchronization after it the copy's own transfer alone to wait for). */
#define SS_API_PENDING 0x10000000u
/* SS_API_BETWEEN: a call of the same thread that the light mode left out at its entry (an
 * asynchronous copy between device memory or memset of device memory, capture_light_left_out)
 * came between this call
 * and the thread's previous recorded call: this call is no earlier call's next (det_call.next),
 * as it was not when that copy was recorded (trace format 1.4 on; read in light and sampled
 * logs only). */
#define SS_API_BETWEEN 0x08000000u
#define SS_API_MEM_WORD(src, dst) (SS_API_MEM_KNOWN | (uint32_t)(src) << 8 | (uint32_t)(dst))
#define SS_API_MEM_SRC(flags) ((uint8_t)((flags) >> 8 & 0xffu))
#define SS_API_MEM_DST(flags) ((uint8_t)((flags)&0xffu))

typedef struct ss_ev_api {
    uint64_t enter_ns, exit_ns;
    uint64_t stream;      /* stream handle as passed; SS_STREAM_* for the fixed ones; for
                           * STREAM_CREATE calls the handle of the created stream */
    uint64_t bytes;       /* byte count for copies/memsets/allocations, 0 otherwise */
    uint32_t correlation; /* CUPTI correlation id; joins with GPU activity */
    uint32_t thread;      /* small per-process host thread index, from 1 */
    uint32_t stream_id;   /* CUPTI stream id of 'stream', 0 when unknown */
    uint32_t stack;       /* stack id (ss_event_log.stacks), 0 when none captured */
    uint32_t name;        /* string id of the API name */
    uint32_t flags;       /* stream flags or capture mode, where the API has them; for a copy
                           * or memset in the light mode, the memory kinds of its pointers
                           * (SS_API_MEM_*) */
    int32_t result;       /* the call's return code */
    int32_t device;       /* current device, -1 when unknown */
    int32_t copy_kind;    /* cudaMemcpyKind argument, -1 when none */
    uint16_t api;         /* ss_api_id, or SS_API_COUNT when not in cuda_api.def */
    uint8_t domain;       /* SS_DOMAIN_RUNTIME or SS_DOMAIN_DRIVER */
    uint8_t nested;       /* 1: a driver call made inside a runtime call */
    uint8_t per_thread;   /* 1: the call was a per-thread-default-stream (_ptsz) variant */
} ss_ev_api;

typedef struct ss_ev_gpu {
    uint64_t start_ns, end_ns;
    uint64_t bytes;       /* copies and memsets */
    uint32_t correlation; /* of the API call that enqueued it */
    uint32_t stream_id;   /* CUPTI stream id */
    uint32_t context;     /* CUPTI context id */
    uint32_t name;        /* string id of the kernel name, 0 for copies/memsets */
    int32_t device;
    uint8_t copy_kind; /* ss_copy_kind */
    uint8_t src_kind;  /* ss_mem_kind */
    uint8_t dst_kind;  /* ss_mem_kind */
    uint8_t graph;     /* 1: part of a graph launch */
} ss_ev_gpu;

typedef struct ss_ev_sync {
    uint64_t start_ns, end_ns;
    uint32_t correlation;
    uint32_t stream_id; /* 0 when not about one stream */
    uint32_t context;
    uint32_t type; /* ss_sync_type */
} ss_ev_sync;

typedef struct ss_ev_stream {
    uint64_t handle;
    uint32_t stream_id;
    uint32_t flags; /* SS_STREAM_FLAG_* */
    int32_t device;
    int32_t priority;
    uint32_t context;
} ss_ev_stream;

/* What a scope mark (SS_EV_SCOPE) says (docs/run.md, "Scopes"). */
typedef enum ss_scope_kind {
    SS_SCOPE_PROFILER_START = 1, /* cudaProfilerStart or cuProfilerStart returned */
    SS_SCOPE_PROFILER_STOP,      /* cudaProfilerStop or cuProfilerStop was called */
    SS_SCOPE_PUSH,               /* a range opened on its thread (nvtxRangePush*) */
    SS_SCOPE_POP,                /* the thread's innermost range closed (nvtxRangePop) */
    SS_SCOPE_START,              /* a range opened for the process, 'id' names it */
    SS_SCOPE_END                 /* the range 'id' closed */
} ss_scope_kind;
#define SS_SCOPE_KIND_MAX SS_SCOPE_END

/* Who made a scope mark. */
typedef enum ss_scope_source {
    SS_SCOPE_FROM_NVTX = 0,   /* NVTX, or the CUDA profiler API */
    SS_SCOPE_FROM_PROGRAM = 1 /* the program called syncscope's own scope API (syncscope.scope()) */
} ss_scope_source;

typedef struct ss_ev_scope {
    uint64_t time_ns; /* when the mark was made (API clock) */
    uint64_t id;      /* SS_SCOPE_START/END: the range's id; 0 otherwise */
    uint32_t thread;  /* the host thread that made it */
    uint32_t name;    /* string id of the range's name (PUSH, START); 0 otherwise */
    uint8_t kind;     /* ss_scope_kind */
    uint8_t source;   /* ss_scope_source */
} ss_ev_scope;

/* Pointers kept per call (ss_ev_args.values). */
#define SS_ARGS_MAX 8

/* What the pointers of an SS_EV_ARGS event are. */
typedef enum ss_args_kind {
    SS_ARGS_LAUNCH = 1, /* a kernel launch: the pointer-sized words of its parameters that lay
                         * in the address range of the device allocations seen so far */
    SS_ARGS_COPY,       /* a copy or memset: values[0] the destination, values[1] the source
                         * (0 for a memset) */
    SS_ARGS_ALLOC,      /* an allocation that succeeded: values[0] its address, the call's
                         * bytes its size */
    SS_ARGS_FREE,       /* a free: values[0] the address */
    SS_ARGS_EVENT       /* an event recorded or waited for: values[0] the event's handle
                         * (trace format 1.3) */
} ss_args_kind;
#define SS_ARGS_KIND_MAX SS_ARGS_EVENT

/* The device pointers one API call was handed, joined to it by 'correlation'
 * (docs/trace-format.md, "args"). */
typedef struct ss_ev_args {
    uint64_t time_ns; /* the call's enter time, so that the record sorts beside it */
    uint64_t values[SS_ARGS_MAX];
    uint32_t correlation; /* the API call's */
    uint8_t kind;         /* ss_args_kind */
    /* SS_ARGS_LAUNCH: 1 when every parameter of the kernel was read and 'values' holds every
     * word that lay in the range (at most SS_ARGS_MAX); 0 when the kernel's parameters could
     * not be had or there were more such words: what it was handed is unknown */
    uint8_t complete;
    uint8_t count; /* values used */
} ss_ev_args;
_Static_assert(sizeof(ss_ev_args) <= sizeof(ss_ev_api), "args events do not make events larger");

typedef struct ss_event {
    uint32_t type; /* ss_event_type */
    union {
        ss_ev_api api;
        ss_ev_gpu gpu; /* SS_EV_KERNEL, SS_EV_MEMCPY, SS_EV_MEMSET */
        ss_ev_sync sync;
        ss_ev_stream stream;
        ss_ev_scope scope;
        ss_ev_args args;
    } u;
} ss_event;

/* One frame of a recorded stack: a native pc (symbolized into the string ids at exit or
 * offline), or a Python frame. String ids are 0 when unknown. */
typedef struct ss_stack_frame {
    uint64_t pc;
    uint32_t function;
    uint32_t file;
    uint32_t module;
    uint32_t line;
    uint32_t python; /* 1 for a Python frame, SS_FRAME_OTHER_THREAD for one of another thread */
} ss_stack_frame;

/* ss_stack_frame.python of a Python frame of another thread: a call made on a thread without
 * Python frames carries the stack of the Python thread that waited meanwhile (docs/run.md,
 * "Work of other threads"). */
#define SS_FRAME_OTHER_THREAD 2u

/* Whether Python source file 'file' belongs to an installed package or to the standard
 * library rather than to the program: under site-packages or dist-packages, code that
 * TorchInductor generated (its cache folder, /tmp/torchinductor_USER/ by default), in
 * PREFIX/lib/python3.N/ (or lib64), or a frozen module. The detectors' default notion of the
 * user's Python code, also used when Python frames are recorded, so that the one user frame a
 * deep stack needs is kept (interpose/python.c). Inline: the capture library does not link the
 * detectors. */
static inline int ss_python_library_file(const char *file)
{
    static const char *const parts[] = {"/site-packages/", "/dist-packages/", "/torchinductor_",
                                        "/lib/python3.", "/lib64/python3."};
    enum { PACKAGE_PARTS = 3 }; /* the parts before the standard library's */
    if (file[0] == '<')
        return file[1] == 'f' && file[2] == 'r' && file[3] == 'o' && file[4] == 'z';
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const char *part = parts[i];
        size_t len = 0;
        while (part[len] != '\0')
            len++;
        for (const char *p = file; *p != '\0'; p++) {
            size_t k = 0;
            while (k < len && p[k] == part[k])
                k++;
            if (k < len)
                continue;
            if (i < PACKAGE_PARTS)
                return 1;            /* a package folder, generated code */
            const char *q = p + len; /* the standard library: python3.N/ */
            while (*q >= '0' && *q <= '9')
                q++;
            if (q > p + len && *q == '/')
                return 1;
        }
    }
    return 0;
}

/* Calls of the light mode made after the capture's memory cap was reached: counted rather than
 * recorded, one tally per kind of call of a thread (docs/run.md, "Cost and memory"). 'call' holds
 * what the detectors read of such a call (its thread, API, stack, stream, flags, result, device;
 * the first one's entry and bytes, the last one's exit); 'count' calls were of that kind,
 * their times (exit minus entry) summed in 'total_ns' and the longest 'max_ns', their bytes
 * summed in 'bytes'; 'long_calls' is 1 when each lasted at least the run's min_blocked_ns
 * (metadata probe_exit_min_ns), 0 when each lasted less: two tallies otherwise alike. */
typedef struct ss_tally {
    ss_ev_api call;
    uint64_t count, total_ns, max_ns, bytes;
    /* The calls its thread made right before and right after each of them, as
     * ss_tally_neighbor words (0: none, or one the light mode left out came between): the
     * detectors judge a readback with the synchronization after it, and that synchronization
     * with the readback before it. */
    uint64_t prev, next;
    uint8_t long_calls;
} ss_tally;

/* The hash of the kind of call 'a' for a tally: ss_tally_same_kind's fields but its thread and
 * stack (the caller keys by those apart), whether it was long, and the words of its
 * neighbours 'prev' and 'next'. The capture's table and the detectors' index of tallies both
 * key by it. */
static inline uint64_t ss_tally_kind_hash(const ss_ev_api *a, int long_call, uint64_t prev,
                                          uint64_t next)
{
    const uint64_t words[] = {(uint64_t)a->api << 32 | (uint64_t)a->domain << 24 |
                                  (uint64_t)a->nested << 16 | (uint64_t)a->per_thread << 8 |
                                  (uint64_t)(long_call != 0),
                              a->stream,
                              (uint64_t)a->stream_id << 32 | (uint32_t)a->copy_kind,
                              (uint64_t)a->flags << 32 | (uint32_t)a->result,
                              (uint64_t)(uint32_t)a->device,
                              prev,
                              next};
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        h ^= words[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* What a tally keeps of a call next to its calls (ss_tally.prev, next): a nonzero word of the
 * call's API, stream, flags and result and whether it lasted at least the run's
 * min_blocked_ns. */
static inline uint64_t ss_tally_neighbor(const ss_ev_api *a, int long_call)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const uint64_t words[] = {(uint64_t)a->api << 32 | (uint64_t)a->domain << 24 |
                                  (uint64_t)a->per_thread << 16 | (uint64_t)(long_call != 0),
                              a->stream, (uint64_t)a->flags << 32 | (uint32_t)a->result};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        h ^= words[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h | 1u;
}

/* Whether calls 'a' and 'b' are of one kind for a tally: every field of ss_ev_api the
 * detectors read of a single call but its times, bytes and correlation. Inline: the capture
 * library tallies without linking the detectors. */
static inline int ss_tally_same_kind(const ss_ev_api *a, const ss_ev_api *b)
{
    return a->thread == b->thread && a->stack == b->stack && a->api == b->api &&
           a->domain == b->domain && a->nested == b->nested && a->per_thread == b->per_thread &&
           a->stream == b->stream && a->stream_id == b->stream_id && a->copy_kind == b->copy_kind &&
           a->flags == b->flags && a->result == b->result && a->device == b->device;
}

typedef struct ss_stack {
    ss_stack_frame *frames; /* innermost first */
    uint32_t depth;
} ss_stack;

typedef struct ss_meta {
    char *key;
    char *value;
} ss_meta;

/* The whole log of one process. Id 0 of strings is "", id 0 of stacks is the empty stack. */
typedef struct ss_event_log {
    ss_event *events;
    size_t count, cap;
    char **strings;
    size_t string_count, string_cap;
    ss_stack *stacks;
    size_t stack_count, stack_cap;
    ss_meta *meta; /* pid, program, command_line, gpu, driver, wall_ns, ... */
    size_t meta_count, meta_cap;
    uint64_t dropped;  /* events dropped past the memory cap */
    ss_tally *tallies; /* the light mode's calls past the memory cap, counted by kind */
    size_t tally_count, tally_cap;
    uint32_t *string_index; /* open-addressing hash of 'strings' (id + 1, 0 = empty slot) */
    size_t string_index_cap;
    /* Per string id: the cuda_api.def row the string names (ss_api_find, suffixes stripped),
     * or NULL; computed once when the string is interned, so that no reader of API events
     * looks a name up per event. */
    const struct ss_api **string_api;
    size_t string_api_cap;
} ss_event_log;

/* Initializes an empty log (string 0 = "", stack 0 = empty). Returns 0, or -1 on memory
 * exhaustion. */
int ss_evlog_init(ss_event_log *log);
void ss_evlog_free(ss_event_log *log);
/* Appends a copy of 'event'. Returns 0 or -1. */
int ss_evlog_append(ss_event_log *log, const ss_event *event);
/* Appends a copy of 'tally'. Returns 0 or -1. */
int ss_evlog_add_tally(ss_event_log *log, const ss_tally *tally);
/* Returns the id of 'text' (interned: the same text gives the same id), in expected O(1).
 * Returns 0 (the id of "") when memory is exhausted. */
uint32_t ss_evlog_intern(ss_event_log *log, const char *text);
/* The cuda_api.def row named by string 'name' (an API event's name id), or NULL when the
 * string names no API in the table or 'name' is out of range. Inline: the report writers read
 * event logs without linking the detectors. */
static inline const struct ss_api *ss_evlog_api(const ss_event_log *log, uint32_t name)
{
    return name < log->string_count ? log->string_api[name] : NULL;
}
/* Adds a stack of 'depth' frames (copied) and returns its id. */
uint32_t ss_evlog_add_stack(ss_event_log *log, const ss_stack_frame *frames, uint32_t depth);
/* Sets (or replaces) a metadata value. */
int ss_evlog_set_meta(ss_event_log *log, const char *key, const char *value);
/* The value of 'key', or NULL. */
const char *ss_evlog_get_meta(const ss_event_log *log, const char *key);
/* Sorts events by their start time (enter_ns/start_ns), stably; streams first. */
void ss_evlog_sort(ss_event_log *log);

/* When an event began (an API call's enter, a GPU operation's or synchronization's start)
 * and ended (exit, end), in nanoseconds; 0 for a stream event, which has no time. */
uint64_t ss_event_start_ns(const ss_event *event);
uint64_t ss_event_end_ns(const ss_event *event);

#endif
