/* detect_int.h: what the detector families share, private to detect/: the index of the log
 * (index.c), what a call waited for (waits.c), call sites (callsite.c, site.c), the family
 * table (families.def, detect.c) and the aggregation of occurrences into findings
 * (findings.c). */
#ifndef SS_DETECT_INT_H
#define SS_DETECT_INT_H

#include <stdint.h>

#include "detect.h"
#include "map.h"
#include "util.h"

#define DET_NONE UINT32_MAX

/* ---- the index (index.c) ---- */

/* One API event, indexed. */
typedef struct det_call {
    const ss_ev_api *ev;
    const ss_api *row;  /* NULL when the API is not in cuda_api.def */
    uint32_t owner;     /* the enclosing runtime call for an enclosed driver call, else itself */
    uint32_t first_op;  /* first GPU operation it enqueued (DET_NONE) */
    uint32_t copy_op;   /* first copy it enqueued (DET_NONE) */
    uint32_t next;      /* the next call its thread made, nested driver calls aside (DET_NONE;
                         * also when one the light mode left out came between: SS_API_BETWEEN) */
    uint8_t enclosed;   /* a nested driver call inside a runtime call: never reported */
    uint8_t claimed;    /* a host-blocking rule already reported this call */
    uint8_t serialized; /* SYNC101/102 reported work of this call (streams.c) */
    /* an explicit synchronization that waited for the transfer of the copy its thread made
     * just before alone (det_join_sync): that copy's, never a SYNC401 of its own */
    uint8_t own_copy;
} det_call;

/* One GPU operation (kernel, copy, memset), indexed. */
typedef struct det_op {
    const ss_event *ev;
    uint32_t call;       /* the (owner) call that enqueued it, DET_NONE when unknown */
    uint32_t stream;     /* index into det_ctx.streams */
    uint64_t enqueue_ns; /* the enqueueing call's enter time; the start when unknown */
    uint64_t ready_ns;   /* when it could have started: enqueued and its stream idle */
} det_op;

/* One CUPTI stream seen in the GPU activity. */
typedef struct det_stream {
    uint32_t stream_id;
    uint32_t context; /* CUPTI context id; streams are (context, stream_id): ids may repeat */
    int32_t device;
    int blocking;      /* not created with cudaStreamNonBlocking (unknown streams: blocking) */
    int legacy;        /* work of legacy-default-stream calls ran on it */
    int has_record;    /* a stream record was seen */
    uint64_t handle;   /* from the stream record */
    uint32_t *ops;     /* det_op indices in start order */
    uint64_t *max_end; /* running maximum of the ends of 'ops' */
    size_t count, cap, max_end_cap;
} det_stream;

/* A set of GPU operations (what a call waited for, what a launch held back). */
typedef struct det_opset {
    uint32_t *ops;
    size_t count, cap;
} det_opset;

/* ---- occurrences and findings ---- */

/* The figures a family keeps about its findings besides those every finding has (det_agg):
 * the family fills its own member in each occurrence it reports (det_hit.figures), a finding
 * starts with its first occurrence's, and the family's fold adds each further one's. */
typedef union det_figures {
    /* SYNC301 (det_readback.c). */
    struct det_readback_figures {
        uint64_t waited_in_sync; /* occurrences whose wait was in the synchronization of the
                                  * copy's stream that its thread made next */
        uint32_t sync_call;      /* the first such synchronization, DET_NONE when none */
        uint64_t overlap_ns;     /* the host time a deferred read would overlap with device
                                  * work: per readback the lesser of the time it blocked and
                                  * the GPU's idle time after it, syncscope's own time in it
                                  * taken off */
        uint64_t self_ns;        /* syncscope's own time taken off the GPU's idle times */
    } readback;
    /* SYNC201 and SYNC202 (copies.c). */
    struct det_copies_figures {
        uint64_t waited;         /* occurrences that waited for earlier device work */
        uint64_t waited_in_sync; /* of which in the synchronization that followed (SYNC201) */
        uint32_t sync_call;      /* the first such synchronization, DET_NONE when none */
        uint64_t copy_ns;        /* GPU time of the copies (SYNC201) */
        uint64_t pinned_ns;      /* the same at the pinned rate (SYNC201) */
        uint64_t gap_ns;         /* the host's time from its thread's previous such copy's
                                  * return to this one's call (SYNC201) */
        uint64_t rate;           /* pinned rate assumed, bytes per microsecond (SYNC201; the
                                  * highest of the occurrences') */
    } copies;
    /* SYNC401 (syncs.c). */
    struct det_syncs_figures {
        uint64_t over_synchronized;    /* device synchronizations that waited for work on two
                                        * or more streams */
        uint64_t over_synchronized_ns; /* the host time they blocked */
    } syncs;
    /* SYNC501 (det_capture.c). */
    struct det_capture_figures {
        int32_t capture_error; /* what the cudaStreamEndCapture call returned */
        uint32_t end_call;     /* that call */
    } capture;
    /* SYNC502 (whatif_launch_bound.c): a run of kernels launched one by one. */
    struct det_launch_bound_figures {
        uint64_t kernels;            /* kernels in the run */
        uint64_t iterations;         /* whole repeats of the kernel sequence */
        uint64_t period;             /* kernels per repeat */
        uint64_t measured_ns;        /* GPU time from the first kernel's start to the last's end */
        uint64_t predicted_ns;       /* the same kernels replayed as CUDA graphs, the host's time
                                      * per launch removed */
        uint64_t predicted_calls_ns; /* the same with only the launch calls' time removed */
        uint64_t per_launch_all_ns;  /* host time per launch removed (each gap to the next
                                      * launch up to the median) */
        uint64_t busy_ns;            /* GPU time of the kernels themselves */
        uint64_t idle_ns;            /* GPU idle time between them */
        uint64_t launch_calls_ns;    /* host time inside the launch calls (each capped by the
                                      * time to the next launch) */
        uint64_t launch_api_ns;      /* median duration of one launch call */
        uint64_t per_launch_ns;    /* median host time from one launch call's entry to the next's */
        uint64_t graph_launches;   /* graph launches the prediction assumes */
        uint64_t graph_iterations; /* iterations captured per graph in the prediction */
        uint64_t bare_low_ns;      /* the saving without syncscope's cost per launch, at the
                                    * high end of that cost */
        uint64_t bare_high_ns;     /* the same at its low end */
        uint64_t self_launch_ns;   /* syncscope's own callbacks' time per launch, measured */
        uint64_t cupti_low_ns;     /* what CUPTI adds to a launch, at least and at most */
        uint64_t cupti_high_ns;
    } launch_bound;
    /* SYNC503 (whatif_pipeline.c): a chain of chunks of copy in, kernel, copy out. */
    struct det_pipeline_figures {
        uint64_t chunks;        /* chunks in the chain (after the startup phase) */
        uint64_t measured_ns;   /* first chunk's start to last chunk's end */
        uint64_t gpu_ns;        /* the chunks' stages, as observed */
        uint64_t removable_ns;  /* measured_ns less the host's own work: the stages and the
                                 * host's time inside their calls */
        uint64_t predicted_ns;  /* double-buffered: per chunk the longer of the GPU's idle time
                                 * around it and its slowest stage (pinned), plus one fill */
        uint64_t idle_ns;       /* median host's own work per chunk: the time neither its
                                 * operations nor their calls took */
        uint64_t period_ns;     /* median time from one chunk's start to the next's */
        uint64_t h2d_ns;        /* median copy-in stage, as observed */
        uint64_t kernel_ns;     /* median compute stage */
        uint64_t d2h_ns;        /* median copy-out stage, as observed */
        uint64_t h2d_pinned_ns; /* median copy-in stage at the pinned rate (pageable copies) */
        uint64_t d2h_pinned_ns; /* median copy-out stage at the pinned rate */
        uint64_t pageable;      /* copies whose host side was pageable */
        uint64_t h2d_rate;      /* pinned copy-in rate assumed, bytes per microsecond */
        uint64_t d2h_rate;      /* pinned copy-out rate assumed */
        uint64_t self_ns;       /* syncscope's own time in the host's own work between the
                                 * stages (its stacks' capture, its launch callbacks): taken off
                                 * measured_ns and the host's own work */
    } pipeline;
    /* SYNC601 (overwide.c): a wait wider than the buffer read back needed. */
    struct det_overwide_figures {
        uint64_t waited_ns;       /* host time the call blocked */
        uint64_t narrow_ns;       /* what a wait for the needed work alone would have blocked */
        uint32_t producer_name;   /* string id of the needed kernel that ended last, 0: none */
        uint32_t producer_kind;   /* its event type (SS_EV_KERNEL, ...), 0: nothing was needed */
        uint32_t producer_stream; /* its CUPTI stream id */
        uint32_t read_call;       /* a synchronization's first readback after it, DET_NONE: the call
                                   * is the readback */
    } overwide;
} det_figures;

/* One occurrence of a rule, handed to det_report. */
typedef struct det_hit {
    ss_rule_id rule;
    uint32_t call; /* whose call site is reported */
    uint64_t ns;   /* host time blocked, or GPU time held back */
    uint64_t bytes;
    const char *direction; /* static strings or NULL */
    const char *host_kind;
    const det_opset *waited;       /* what it waited for / held back, or NULL */
    uint32_t stream_id;            /* the call's stream, 0 when unknown */
    const uint32_t *other_streams; /* streams involved besides it (SYNC101/102/103) */
    size_t other_count;
    int device;
    det_figures figures; /* the reporting family's own figures */
    /* 1: a latent occurrence: it synchronized but blocked less than min_blocked_ns ('ns' is
     * the time it blocked while device work was pending, 0 when none was) */
    int latent;
    uint64_t at_ns; /* when it happened (for the startup phase); 0: the call's enter time */
} det_hit;

typedef struct det_family det_family;

/* A finding: the occurrences of one rule at one call site (and device), added up. Read by the
 * families' message functions. */
typedef struct det_agg {
    ss_rule_id rule;
    const det_family *family; /* the family that reports the rule */
    uint32_t call;            /* first occurrence */
    uint64_t count, total_ns, max_ns, bytes;
    det_figures figures; /* the family's own figures, added up */
    const char *direction, *host_kind;
    int device;
    uint32_t stream_id;
    uint32_t *others; /* streams involved, first seen first */
    size_t other_count, other_cap;
    struct det_item *items; /* what was waited for, first seen first */
    size_t item_count, item_cap;
    uint64_t items_untracked;
    /* Latent occurrences (det_hit.latent): how many, the time they blocked, the longest. A
     * finding with no other occurrence is a latent note; otherwise they are only counted. */
    uint64_t latent_count, latent_ns, latent_max_ns;
    uint64_t last_ns; /* when the last occurrence happened (det_hit.at_ns) */
    int compile;      /* 1: every occurrence was made while a framework compiled or autotuned */
    /* of its occurrences (latent ones included), the calls made past the memory cap, counted
     * by kind and judged as the recorded calls of that kind (tally.c); 'by_sample' of them
     * judged as the first call of their kind past the cap (no recorded call had the kind) */
    uint64_t tallied, by_sample;
} det_agg;

/* ---- the run ---- */

typedef struct det_ctx {
    ss_event_log *log;
    const ss_detect_options *opt;
    det_call *calls;
    size_t call_count;
    det_op *ops;
    size_t op_count;
    uint32_t *ops_by_end;  /* op indices by end time */
    ss_map by_correlation; /* (correlation, 0) -> the first call with that correlation id */
    det_stream *streams;
    size_t stream_count, stream_cap;
    int32_t *site_frame; /* per stack: chosen frame index, -1 none, -2 not computed yet */
    int32_t *via_frame;  /* per stack: the library frame the call went through, -1 none */
    /* per stack: 1 made while a framework compiled or autotuned (compile_frames.def), 0 not,
     * -1 not computed yet (phase.c) */
    int8_t *compile_stack;
    /* per call: 1 a free that waits for nothing (syncs.c, quiet_frees); NULL not computed yet */
    uint8_t *quiet_frees;
    /* per host thread: the stack of the line that started it (metadata thread_start:N, through
     * the threads that started its starters) when that line is the program's own, else 0;
     * UINT32_MAX not computed yet (callsite.c) */
    uint32_t *started;
    uint32_t thread_count; /* host thread indexes are below it */
    det_agg *aggs;
    size_t agg_count, agg_cap;
    ss_map agg_map; /* (rule, site pair[, device]) -> index into aggs */
    ss_map pairs;   /* (call site, via frame) -> site pair id */
    size_t pair_count;
    ss_map sited;     /* (thread, kernel name) -> the first launch of it with a stack */
    det_opset joined; /* scratch of det_join_sync */
    int sited_built;
    int multi_device;        /* the log names two or more devices: findings are per device */
    uint64_t steady_ns;      /* start of the first repeated GPU work (phase.c), 0: none found */
    int python_program;      /* the log's program is a Python interpreter */
    struct det_scope *scope; /* det_scope.c: NULL when the log has no scope to keep or name */
    /* How the log was recorded (metadata "mode", docs/run.md "Modes"): DET_MODE_FULL,
     * DET_MODE_LIGHT (no launch, no GPU record), or DET_MODE_SAMPLED (light, with full
     * windows: 'windows' holds their start and end, 'window_count' pairs). */
    int mode;
    int probe_pending; /* the light mode's calls say whether work was pending at their entry
                        * (metadata probe_pending 1, SS_API_PENDING) */
    /* the light mode did not ask at the exit of a call held less than this (metadata
     * probe_exit_min_ns; 0: it asked at every probed call's exit) */
    uint64_t probe_exit_min_ns;
    uint64_t *windows;
    size_t window_count;
    /* With tallies in the log (tally.c): per call, what det_report made of it: 0 nothing,
     * (aggs index + 1) << 1 | latent, or DET_VERDICT_SEVERAL; NULL without tallies. */
    uint32_t *verdicts;
    struct det_tally_kinds *tally_kinds; /* tally.c's index of the tallies' kinds, or NULL */
    /* the tallies' calls that no verdict could be given (tally.c), and their kinds */
    uint64_t tally_unjudged, tally_unjudged_kinds;
    uint64_t tally_unscoped; /* of them, those left unjudged because scopes were asked for */
    /* of them, those whose first call lacks its joined call (DET_TALLY_LACKING), and kinds */
    uint64_t tally_lacking, tally_lacking_kinds;
    /* Per tally, DET_TALLY_SAMPLED where its first call was added to the log as a call of its
     * own, its sample (det_tally_add_samples; NULL: none), 'tally_samples' of them, and
     * DET_TALLY_LACKING where it was not because that call would lack the call before it; the
     * tallies' calls judged by their samples, and their kinds. */
    uint8_t *tally_sampled;
    size_t tally_samples;
    uint64_t tally_by_sample, tally_by_sample_kinds;
} det_ctx;

/* A call that det_report made two or more findings' occurrence of (det_ctx.verdicts). */
#define DET_VERDICT_SEVERAL UINT32_MAX
/* det_ctx.tally_sampled's marks */
#define DET_TALLY_SAMPLED 1
#define DET_TALLY_LACKING 2

enum { DET_MODE_FULL, DET_MODE_LIGHT, DET_MODE_SAMPLED };

/* ---- detector families (families.def) ---- */

/* A detector family: the passes that report its rules and how its findings read. Each is
 * defined in the family's own file as det_family_<id>, and families.def registers it with its
 * rules, in precedence order. */
struct det_family {
    /* Reports the family's occurrences through det_report. Returns 0 or -1. */
    int (*run)(det_ctx *ctx);
    /* Reports latent occurrences (docs/detectors.md) over the calls no finding claimed, after
     * every family's run; NULL when the family has none. Returns 0 or -1. */
    int (*latent)(det_ctx *ctx);
    /* What the call of a latent note did ("cudaFree, which synchronizes the device"), as a
     * malloc'ed string; NULL: the API's name. */
    char *(*latent_what)(det_ctx *ctx, const det_agg *agg);
    /* The message of a finding that blocked, as a malloc'ed string (NULL: the rule's summary);
     * it may add extra figures to 'finding'. */
    char *(*message)(det_ctx *ctx, const det_agg *agg, ss_finding *finding);
    /* Adds the figures of a further occurrence 'one' into those of its finding 'sum'; NULL:
     * the finding keeps its first occurrence's. */
    void (*fold)(det_figures *sum, const det_figures *one);
    /* 1: its findings are about repeated work by definition (the what-if rules), so they are
     * never marked as startup work. */
    int repeated_work;
};

#define DET_FAMILY(file, id, ...) extern const det_family det_family_##id;
#include "families.def"
#undef DET_FAMILY

/* The family that reports 'rule' (families.def), or NULL. */
const det_family *det_family_of(ss_rule_id rule);

/* ---- the index (index.c) ---- */

/* Builds the index of ctx->log: calls, GPU operations, streams, and whether the log names two
 * or more devices. Returns 0 or -1; det_index_free frees what it built either way. */
int det_index_build(det_ctx *ctx);
/* The first call with correlation id 'correlation' (an enclosed driver call's own, not its
 * owner), or DET_NONE. */
uint32_t det_call_by_correlation(const det_ctx *ctx, uint32_t correlation);
void det_index_free(det_ctx *ctx);

/* Host time a call blocked. */
uint64_t det_blocked_ns(const det_call *call);

/* Whether 'call' was observed in the light mode: the whole log in the light mode, and a call
 * entered outside every full window in the sampled mode. Such a call has no GPU operation. */
int det_call_light(const det_ctx *ctx, const det_call *call);

/* Whether 'call' waited for earlier device work: 'waited' (det_waited) holds some of it; or,
 * for a call of the light mode, which sees no device work: the driver said that work pending
 * at its entry was complete at its exit (SS_API_WAITED), or, where it was not asked (an event
 * synchronization), the call blocked at least min_blocked_ns. */
int det_call_waited(const det_ctx *ctx, const det_call *call, const det_opset *waited);

/* The memory kinds (ss_mem_kind) of the source and destination of copy or memset 'call': its
 * GPU operation's, as CUPTI reported them, or those the light mode recorded with the call.
 * Returns 1, or 0 when neither is known. */
int det_call_mem_kinds(const det_ctx *ctx, const det_call *call, uint8_t *src, uint8_t *dst);
/* The name of a call's API ("cudaMemcpy"). */
const char *det_call_name(const det_ctx *ctx, const det_call *call);
/* Whether 'call' puts its work on the legacy default stream. */
int det_call_on_legacy(const det_call *call);
/* "HtoD", ... for a copy call (from its copy, else its arguments), NULL when unknown. */
const char *det_call_direction(const det_ctx *ctx, const det_call *call);
/* Bytes of a call: its argument, else its copy's. */
uint64_t det_call_bytes(const det_ctx *ctx, const det_call *call);
/* The call's CUPTI stream id: its own, else its first operation's. */
uint32_t det_call_stream(const det_ctx *ctx, const det_call *call);
/* The device a call worked on: its own (the current device when it was made), else its first
 * operation's; -1 when unknown. */
int det_call_device(const det_ctx *ctx, const det_call *call);
/* "pageable", "pinned" or "managed" for a CUPTI memory kind (SS_MEM_*); NULL otherwise. */
const char *det_mem_kind_word(unsigned kind);
/* "HtoD", "DtoH", "DtoD", "HtoH" or "PtoP" for a CUPTI copy kind; NULL otherwise. */
const char *det_copy_kind_word(unsigned kind);

/* ---- what a call waited for (waits.c) ---- */

/* The operations enqueued (API enter) before 'call' was entered, on its device, that were
 * still pending when it was entered and ended before it returned (within the slack); when
 * 'stream_id' is not 0 only that stream's. Fills 'out' (cleared first). Returns 0 or -1. */
int det_waited(const det_ctx *ctx, uint32_t call, uint32_t stream_id, det_opset *out);
/* The same, with the operations that ended by 'until_ns' (within the slack) in place of those
 * that ended before the call returned. Returns 0 or -1. */
int det_waited_until(const det_ctx *ctx, uint32_t call, uint32_t stream_id, uint64_t until_ns,
                     det_opset *out);
/* Adds 'op' to 'set'. Returns 0 or -1. */
int det_opset_add(det_opset *set, uint32_t op);
void det_opset_free(det_opset *set);

/* Joins to asynchronous copy call 'copy' the synchronization its thread made next, when that
 * synchronization no family has claimed yet covers the copy's stream (a device synchronization;
 * a synchronization of that stream; or of the legacy stream when the copy's stream is
 * blocking), blocked at least min_blocked_ns, and waited for work of the copy's stream only, and
 * for some besides the copy's own transfer. Such a copy and synchronization are one operation
 * (PyTorch's `.item()`, and its copies with non_blocking=False): the synchronization is
 * claimed, its host time is added to '*blocked', and what it waited for (the copy's own
 * operations aside) to 'waited'. One that waited for the copy's own transfer alone is joined
 * when 'transfer' is 1 (a pageable copy blocks for its own transfer: SYNC201), else it is
 * marked the copy's (det_call.own_copy: a readback's, no SYNC401; det_latent_sync). In the
 * light mode, which sees no operation, the copy's probe tells: a copy that found its stream
 * idle (SS_API_PENDING clear) left its own transfer alone to wait for. Sets '*sync' to the
 * synchronization joined, or to DET_NONE. Returns 0 or -1. */
int det_join_sync(det_ctx *ctx, uint32_t copy, int transfer, det_opset *waited, uint64_t *blocked,
                  uint32_t *sync);

/* The synchronization of asynchronous copy call 'copy' that a latent occurrence of it includes:
 * the next call of its thread when no family has claimed it, it covers the copy's stream (as for
 * det_join_sync) and it is no finding of its own: it did not block at least min_blocked_ns
 * waiting for earlier device work than the copy's own transfer (a wait for that transfer alone
 * is the copy's, however long). Sets '*blocked' to the time it blocked while earlier device work
 * was pending (0 when none was, or when the light mode did not ask) and claims it. Returns the
 * call, DET_NONE when there is none, or DET_NONE with '*failed' set when memory is exhausted. */
uint32_t det_latent_sync(det_ctx *ctx, uint32_t copy, uint64_t *blocked, int *failed);

/* Whether 'call' is a device-to-host copy of at most readback_max_bytes: a readback, judged by
 * SYNC301 alone (never SYNC201/202, whether or not it waited; readback.c). */
int det_is_readback(const det_ctx *ctx, const det_call *call);
/* The next call of the thread of asynchronous copy call 'copy' when it is an explicit
 * synchronization no family has claimed that covers the copy's stream (the pair SYNC301 and
 * SYNC401 judge together), '*only' the stream it waits for (0: not narrowed); DET_NONE when
 * there is none (waits.c). */
uint32_t det_covering_sync(const det_ctx *ctx, uint32_t copy, uint32_t *only);

/* ---- call sites (callsite.c, site.c) ---- */

/* Allocates the per-stack call-site caches. Returns 0 or -1; det_sites_free frees them and the
 * site maps either way. */
int det_sites_init(det_ctx *ctx);
void det_sites_free(det_ctx *ctx);

/* The call-site frame of 'call' (docs/detectors.md), or NULL when it has none: a frame of its
 * stack, or, when none of the program's own code is there, of the stack of the line that
 * started its thread. */
const ss_stack_frame *det_call_site(det_ctx *ctx, uint32_t call);

/* The frame of the stack of 'call' that a finding names as the library code the call went
 * through ("via transformers/generation/utils.py:2192"), or NULL when the call site is the
 * innermost frame that matters (docs/detectors.md, "Call sites"). */
const ss_stack_frame *det_call_via(det_ctx *ctx, uint32_t call);

/* The call whose site a finding about 'call' names: 'call' itself when it has a stack or is not
 * a kernel launch, else the first launch of the same kernel by the same thread that has a stack,
 * else 'call' (a finding without a source line). Launches get a stack only when they may
 * become a finding, so a finding about one of many identical launches often borrows it; other
 * calls borrow nothing (an API name says too little about where it was called). DET_NONE when
 * memory is exhausted. */
uint32_t det_site_call(det_ctx *ctx, uint32_t call);

/* The id of the call site of 'call' that occurrences aggregate by: its site frame (file and
 * line, else pc, else function; else its stack, else its API) with its via frame. DET_NONE when
 * memory is exhausted. */
uint32_t det_site_pair(det_ctx *ctx, uint32_t call);

/* Writes the location of 'call' into 'finding': file, line, function (or module and offset),
 * via frame and the stack's frames. */
void det_site_locate(det_ctx *ctx, uint32_t call, ss_finding *finding);

/* What the finding's message of 'call' adds about where it was made, malloc'ed, NULL when
 * nothing: for a call whose site is a frame of another thread (docs/run.md, "Work of other
 * threads") "made on thread 3 (pt_autograd_0) while this line waited, in the backward of
 * aten::index -> aten::nonzero"; for one at the line that started its thread (docs/run.md,
 * "Helper threads") "made on thread 2 (pt_data_pin), which this line started, running
 * _pin_memory_loop"; for one with no frame of the program's own code in the process's
 * teardown "in the context teardown at exit (Py_FinalizeEx), after the program's last line". */
char *det_site_note(det_ctx *ctx, uint32_t call);

/* Whether a call site frame is the user's own code and which library frames are never a call
 * site (site.c). */
int32_t det_choose_site(const det_ctx *ctx, const ss_stack *stack, int32_t *via);
/* Whether 'frame' is the user's own code, as det_choose_site judges it. */
int det_frame_is_user(const det_ctx *ctx, const ss_stack_frame *frame);

/* ---- findings (findings.c) ---- */

/* Adds one occurrence to the finding of (rule, call site). Returns 0 or -1. */
int det_report(det_ctx *ctx, const det_hit *hit);
/* Adds 'count' occurrences of summed time 'total_ns' and longest 'max_ns' to finding 'a', as
 * latent ones or ones that blocked. */
void det_agg_count(det_agg *a, int latent, uint64_t count, uint64_t total_ns, uint64_t max_ns);

/* ---- the light mode's calls past the memory cap (tally.c) ---- */

/* Makes ctx->verdicts when the log has tallies. Returns 0 or -1. */
int det_tally_prepare(det_ctx *ctx);
/* Notes that det_report made 'hit' an occurrence of finding 'agg' (latent or not). */
void det_tally_note(det_ctx *ctx, const det_hit *hit, size_t agg);
/* Adds each tally to the finding its kind's recorded calls were all made an occurrence of
 * (or to none, where they all were no finding's); the others are counted as not judged.
 * Returns 0 or -1. */
int det_tally_merge(det_ctx *ctx);
/* Frees what det_tally_prepare made. */
void det_tally_free(det_ctx *ctx);
/* After det_tally_prepare: appends to the log, as a call of its own, the first call of each
 * tally whose kind no recorded call has (its sample), marks those tallies DET_TALLY_SAMPLED in
 * 'sampled' (one byte per tally, zeroed by the caller; DET_TALLY_LACKING those whose first call
 * would lack the call before it, not appended) and re-sorts the log. Returns how many
 * were appended (the context must then be built again), or -1 out of memory. */
int det_tally_add_samples(det_ctx *ctx, uint8_t *sampled);
/* Takes the samples of the tallies 'sampled' marks out of the log again (after the
 * detectors ran): the log holds what it held before det_tally_add_samples, in time order. */
void det_tally_remove_samples(ss_event_log *log, const uint8_t *sampled);
/* The result's words on the tallies: a note when some were judged, a warning when some
 * could not be. */
void det_tally_report(const det_ctx *ctx, ss_result *out);
/* Appends every finding to 'out'. */
void det_findings_emit(det_ctx *ctx, ss_result *out);
void det_findings_free(det_ctx *ctx);

/* "1 time" / "3 times", written into 'buf'. */
const char *det_times(uint64_t n, char *buf, size_t size);

/* The advice of rules/hints.def for a finding of 'rule' about 'call' whose call site is a
 * Python frame ('python' 1) and whose copy goes in 'direction' (or NULL), or NULL when the
 * catalog's fix is the advice (hints.c). The rows about PyTorch's allocations apply to calls
 * of that class (a free, an allocation, a pinned host allocation) with a frame in the installed
 * torch package. */
const char *det_hint(const det_ctx *ctx, uint32_t call, ss_rule_id rule, int python,
                     const char *direction);

/* ---- figures of findings (findings.c) ---- */

/* Adds the extra figure 'key' = 'value' (decimal) to 'finding'. */
void det_add_figure(ss_finding *finding, const char *key, uint64_t value);
/* "54.0 GB/s" for a rate in bytes per microsecond, into 'buf'. */
const char *det_rate_text(uint64_t bytes_per_us, char *buf, size_t size);

/* ---- what-ifs (whatif.c; the families in whatif_launch_bound.c, whatif_pipeline.c) ---- */

/* Sorts the 'n' 'values' in place, ascending. */
void det_sort_u64(uint64_t *values, size_t n);
/* The median of the 'n' 'values' (sorted in place; the lower middle one for an even count),
 * 0 for none. */
uint64_t det_median(uint64_t *values, size_t n);
/* A GPU operation's duration, 0 when its end is not after its start. */
uint64_t det_gpu_ns(const ss_ev_gpu *g);

/* The median rate, in bytes per microsecond, of the log's pinned copies of at least 1 MiB in
 * direction 'kind' (SS_COPY_HTOD or SS_COPY_DTOH), or the pinned_bytes_per_us option when there
 * is none: the rate a copy from or to pinned memory is predicted at. Returns 0 or -1. */
int det_pinned_rate(const det_ctx *ctx, uint8_t kind, uint64_t *rate);
/* The GPU's idle time on 'device' after 'from_ns': until the next operation on it starts;
 * 'cap' when none starts before from_ns + cap, 0 when none starts at all. */
uint64_t det_gpu_idle_after(const det_ctx *ctx, int32_t device, uint64_t from_ns, uint64_t cap);
/* syncscope's own time per call as the capture measured it: trace metadata 'total_key' over
 * 'count_key' (self_launch_ns over self_launches, self_stack_ns over self_stacks), 0 for a
 * trace without them. */
uint64_t det_self_mean(const det_ctx *ctx, const char *total_key, const char *count_key);

/* ---- phases and scopes (phase.c, det_scope.c) ---- */

/* The start of the program's first repeated GPU work (phase.c, docs/detectors.md "Startup
 * phase"), or 0 when the log shows none. */
uint64_t det_steady_start(const det_ctx *ctx);
/* Whether stack 'stack' was recorded while a framework compiled or autotuned: one of its
 * frames matches rules/compile_frames.def. Cached per stack. */
int det_stack_compiles(det_ctx *ctx, uint32_t stack);

/* Scopes (det_scope.c, docs/run.md "Scopes"). det_scope_build indexes which calls lie inside the
 * scopes the options ask for and the ranges around each call (ctx->scope stays NULL when the
 * log has no scope mark and none is asked for). Returns 0 or -1. */
int det_scope_build(det_ctx *ctx);
/* Whether an occurrence at 'call' counts: it lies inside every scope asked for (counted when
 * not). */
int det_scope_keeps(det_ctx *ctx, uint32_t call);
/* Names the innermost NVTX range ("nvtx") and syncscope.scope() ("scope") around 'call' in
 * the extra figures of 'finding'. */
void det_scope_annotate(det_ctx *ctx, uint32_t call, ss_finding *finding);
/* Adds the diagnostics that say which scopes applied and what they left out. */
void det_scope_report(det_ctx *ctx, ss_result *out);
void det_scope_free(det_ctx *ctx);

#endif
