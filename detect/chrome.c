/* chrome.c: event logs as Chrome trace event JSON (Perfetto, chrome://tracing). */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Track kinds, in the order a process's tracks are sorted. */
enum { TRACK_THREAD = 0, TRACK_SYNC = 1, TRACK_STREAM = 2, TRACK_RANGES = 3 };

/* Preferred thread ids (docs/output-formats.md, "Chrome trace"): input i's host thread t is
 * i * TID_INPUT_STRIDE + t, the NVTX and scope ranges of that thread TID_RANGES above that,
 * its CUPTI synchronization records TID_SYNC above it, and stream s of device d TID_STREAM +
 * d * TID_DEVICE_STRIDE + s above it. An id out of these ranges, or one that another track or
 * another process's pid has, takes the next of TID_SPARE up. */
#define TID_INPUT_STRIDE 10000000ull
#define TID_RANGES 2000000ull
#define TID_MAX_THREAD 1000000ull
#define TID_SYNC 4000000ull
#define TID_STREAM 5000000ull
#define TID_DEVICE_STRIDE 100000ull
#define TID_MAX_DEVICE 40
#define TID_SPARE 3000000000ull

/* The longest finding message an instant's name carries, in bytes. */
#define INSTANT_MESSAGE_MAX 80

/* 'text' (NULL as "") as a JSON string of at most 'max' bytes (util.h). */
static void put_json_string_max(FILE *out, const char *text, size_t max)
{
    ss_json_write_string(out, text ? text : "", max);
}

static void put_json_string(FILE *out, const char *text)
{
    ss_json_write_string(out, text ? text : "", SIZE_MAX);
}

static const char *copy_kind_name(unsigned kind)
{
    const char *word = det_copy_kind_word(kind);
    return word != NULL ? word : "copy";
}

static const char *mem_kind_name(unsigned kind)
{
    static const char *const names[] = {"unknown", "pageable", "pinned",
                                        "device",  "array",    "managed"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

static const char *sync_type_name(unsigned type)
{
    static const char *const names[] = {"synchronization", "cudaEventSynchronize",
                                        "cudaStreamWaitEvent", "cudaStreamSynchronize",
                                        "cudaCtxSynchronize"};
    return type < sizeof names / sizeof names[0] ? names[type] : "synchronization";
}

/* One track (a Perfetto thread): a host thread, the synchronization records, or a stream. */
typedef struct track {
    size_t proc;
    int kind;       /* TRACK_* */
    int32_t device; /* streams */
    uint32_t id;    /* the thread index or CUPTI stream id */
    uint64_t tid;
    int legacy, non_blocking;
} track;

/* One input: a process's log, its findings, and the pid it is shown under. */
typedef struct chrome_proc {
    const ss_event_log *log;
    const ss_result *result; /* NULL: no findings */
    long recorded_pid;       /* from the log (or the result), 0 when unknown */
    uint64_t pid;            /* in the file: the recorded pid unless another input has it */
    ss_map by_corr;          /* correlation -> index of its API event */
    ss_map gpu_count;        /* correlation -> GPU operations that carry it */
    ss_map flows_done;       /* correlation -> flow ends written so far */
    ss_map range_names;      /* process-wide range id -> string id of its name */
} chrome_proc;

typedef struct chrome {
    FILE *out;
    const char *sep;
    uint64_t origin;
    chrome_proc *procs;
    size_t n;
    track *tracks;
    size_t track_count, track_cap;
    ss_map track_index; /* (proc << 34 | kind << 32 | device, id) -> track */
    ss_map used_tids;   /* (tid, 0) -> 1 */
    uint64_t next_spare;
    int failed;
} chrome;

static void put_time(FILE *out, const char *key, uint64_t ns)
{
    /* Microseconds with nanosecond precision, written exactly (no floating rounding). */
    fprintf(out, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

static uint64_t rel(const chrome *c, uint64_t t)
{
    return t >= c->origin ? t - c->origin : 0;
}

/* Starts the next event of the array. */
static void begin_event(chrome *c)
{
    fputs(c->sep, c->out);
    c->sep = ",\n";
}

/* Whether 'tid' is free: no track has it and it is no other process's pid. */
static int tid_free(chrome *c, size_t proc, uint64_t tid)
{
    if (tid == 0 || tid > UINT32_MAX || ss_map_get(&c->used_tids, tid, 0) != DET_NONE)
        return 0;
    for (size_t i = 0; i < c->n; i++) {
        if (i != proc && c->procs[i].pid == tid)
            return 0;
    }
    return 1;
}

/* The track of (proc, kind, device, id), created with its thread id when new. Returns its
 * index, or DET_NONE when memory is exhausted. */
static uint32_t track_for(chrome *c, size_t proc, int kind, int32_t device, uint32_t id)
{
    uint64_t a = (uint64_t)proc << 34 | (uint64_t)kind << 32 | (uint32_t)device;
    uint32_t found = ss_map_get(&c->track_index, a, id);
    if (found != DET_NONE)
        return found;
    uint64_t base = proc * TID_INPUT_STRIDE, tid = 0;
    if (kind == TRACK_THREAD && id < TID_MAX_THREAD)
        tid = base + id;
    else if (kind == TRACK_RANGES && id < TID_MAX_THREAD)
        tid = base + TID_RANGES + id;
    else if (kind == TRACK_SYNC)
        tid = base + TID_SYNC;
    else if (kind == TRACK_STREAM && device >= 0 && device < TID_MAX_DEVICE &&
             id < TID_DEVICE_STRIDE)
        tid = base + TID_STREAM + (uint64_t)device * TID_DEVICE_STRIDE + id;
    while (!tid_free(c, proc, tid))
        tid = c->next_spare++;
    if (ss_grow((void **)&c->tracks, &c->track_cap, c->track_count + 1, sizeof *c->tracks) < 0 ||
        ss_map_put(&c->used_tids, tid, 0, 1) < 0 ||
        ss_map_put(&c->track_index, a, id, (uint32_t)c->track_count) < 0) {
        c->failed = 1;
        return DET_NONE;
    }
    track *t = &c->tracks[c->track_count];
    memset(t, 0, sizeof *t);
    t->proc = proc;
    t->kind = kind;
    t->device = device;
    t->id = id;
    t->tid = tid;
    return (uint32_t)c->track_count++;
}

/* The track an event is drawn on, or DET_NONE. */
static uint32_t event_track(chrome *c, size_t proc, const ss_event *e)
{
    if (e->type == SS_EV_API)
        return track_for(c, proc, TRACK_THREAD, -1, e->u.api.thread);
    if (e->type == SS_EV_SYNC)
        return track_for(c, proc, TRACK_SYNC, -1, 0);
    return track_for(c, proc, TRACK_STREAM, e->u.gpu.device, e->u.gpu.stream_id);
}

static int is_gpu(const ss_event *e)
{
    return e->type == SS_EV_KERNEL || e->type == SS_EV_MEMCPY || e->type == SS_EV_MEMSET;
}

/* The id of flow 'k' of correlation 'corr' of input 'proc': unique in the file, and the
 * correlation id itself for the first flow of the first input. */
static void put_flow_id(chrome *c, size_t proc, uint32_t corr, uint32_t k)
{
    fprintf(c->out, ",\"id\":\"0x%" PRIx64 "\"",
            (uint64_t)proc << 48 | (uint64_t)(k & 0xffff) << 32 | corr);
}

/* A flow event: "s" on the API call's track, "f" (bound to the enclosing slice) on the GPU
 * operation's, one tick inside the slice so that it binds to it. */
static void put_flow(chrome *c, size_t proc, const track *t, char phase, uint32_t corr, uint32_t k,
                     uint64_t start, uint64_t end)
{
    begin_event(c);
    fprintf(c->out,
            "{\"ph\":\"%c\",%s\"cat\":\"launch\",\"name\":\"launch\",\"pid\":%" PRIu64
            ",\"tid\":%" PRIu64,
            phase, phase == 'f' ? "\"bp\":\"e\"," : "", c->procs[proc].pid, t->tid);
    put_flow_id(c, proc, corr, k);
    put_time(c->out, "ts", rel(c, start + (end - start > 1 ? 1 : 0)));
    fputc('}', c->out);
}

/* The name and category of the slice of event 'e' of input 'p'. */
static void event_label(const chrome_proc *p, const ss_event *e, const char **name,
                        const char **cat)
{
    if (e->type == SS_EV_API) {
        *name = p->log->strings[e->u.api.name];
        *cat = e->u.api.domain == SS_DOMAIN_DRIVER ? "driver" : "runtime";
    } else if (e->type == SS_EV_SYNC) {
        *name = sync_type_name(e->u.sync.type);
        *cat = "sync";
    } else if (e->type == SS_EV_KERNEL) {
        *name = p->log->strings[e->u.gpu.name];
        *cat = "kernel";
    } else if (e->type == SS_EV_MEMCPY) {
        *name = copy_kind_name(e->u.gpu.copy_kind);
        *cat = "memcpy";
    } else {
        *name = "memset";
        *cat = "memset";
    }
}

/* Writes the "args" members of event 'e': its correlation and what its kind records. */
static void put_event_args(FILE *out, const ss_event *e)
{
    if (e->type == SS_EV_API) {
        const ss_ev_api *a = &e->u.api;
        fprintf(out,
                "\"correlation\":%" PRIu32 ",\"stream\":%" PRIu32 ",\"bytes\":%" PRIu64
                ",\"result\":%" PRId32 ",\"stack\":%" PRIu32,
                a->correlation, a->stream_id, a->bytes, a->result, a->stack);
    } else if (e->type == SS_EV_SYNC) {
        fprintf(out, "\"correlation\":%" PRIu32 ",\"stream\":%" PRIu32, e->u.sync.correlation,
                e->u.sync.stream_id);
    } else {
        const ss_ev_gpu *g = &e->u.gpu;
        fprintf(out, "\"correlation\":%" PRIu32 ",\"bytes\":%" PRIu64, g->correlation, g->bytes);
        if (e->type == SS_EV_MEMCPY)
            fprintf(out, ",\"src\":\"%s\",\"dst\":\"%s\"", mem_kind_name(g->src_kind),
                    mem_kind_name(g->dst_kind));
    }
}

/* Writes the flows event 'e' of input 'proc' (drawn on track 't' from 'start' to 'end') takes
 * part in: an API call starts one flow per GPU operation it enqueued; each operation ends its
 * own. */
static void put_event_flows(chrome *c, size_t proc, const track *t, const ss_event *e,
                            uint64_t start, uint64_t end)
{
    chrome_proc *p = &c->procs[proc];
    if (e->type == SS_EV_API && e->u.api.correlation != 0) {
        uint32_t launched = ss_map_get(&p->gpu_count, e->u.api.correlation, 0);
        if (launched != DET_NONE &&
            ss_map_get(&p->by_corr, e->u.api.correlation, 0) == (uint32_t)(e - p->log->events)) {
            for (uint32_t k = 0; k < launched; k++)
                put_flow(c, proc, t, 's', e->u.api.correlation, k, start, end);
        }
    } else if (is_gpu(e) && e->u.gpu.correlation != 0 &&
               ss_map_get(&p->by_corr, e->u.gpu.correlation, 0) != DET_NONE) {
        uint32_t k = ss_map_get(&p->flows_done, e->u.gpu.correlation, 0);
        k = k == DET_NONE ? 0 : k;
        if (ss_map_put(&p->flows_done, e->u.gpu.correlation, 0, k + 1) < 0) {
            c->failed = 1;
            return;
        }
        put_flow(c, proc, t, 'f', e->u.gpu.correlation, k, start, end);
    }
}

/* Writes event 'e' of input 'proc' as a complete ("X") event, with the flows it starts or
 * ends. */
static void put_event(chrome *c, size_t proc, const ss_event *e)
{
    chrome_proc *p = &c->procs[proc];
    uint32_t ti = event_track(c, proc, e);
    if (ti == DET_NONE)
        return;
    const track *t = &c->tracks[ti];
    uint64_t start = ss_event_start_ns(e), end = ss_event_end_ns(e);
    if (end < start)
        end = start;
    const char *name, *cat;
    event_label(p, e, &name, &cat);
    begin_event(c);
    fputs("{\"ph\":\"X\",\"name\":", c->out);
    put_json_string(c->out, name);
    fprintf(c->out, ",\"cat\":\"%s\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64, cat, p->pid, t->tid);
    put_time(c->out, "ts", rel(c, start));
    put_time(c->out, "dur", end - start);
    fputs(",\"args\":{", c->out);
    put_event_args(c->out, e);
    fputs("}}", c->out);
    put_event_flows(c, proc, t, e, start, end);
}

/* Writes the scope mark 'e' of input 'proc' (docs/output-formats.md, "Chrome trace"): a
 * thread's NVTX or scope range (push and pop) as a begin and an end on that thread's ranges
 * track, a process-wide range (start and end, by id) as an async begin and end named by the
 * start, cudaProfilerStart/Stop as an instant on the thread. Category "nvtx", or "scope" for
 * the program's own syncscope.scope(). */
static void put_scope(chrome *c, size_t proc, const ss_event *e)
{
    chrome_proc *p = &c->procs[proc];
    const ss_ev_scope *sc = &e->u.scope;
    const char *cat = sc->source == SS_SCOPE_FROM_PROGRAM ? "scope" : "nvtx";
    uint32_t name = sc->name < p->log->string_count ? sc->name : 0;
    const char *phase;
    switch (sc->kind) {
    case SS_SCOPE_PUSH:
        phase = "B";
        break;
    case SS_SCOPE_POP:
        phase = "E";
        break;
    case SS_SCOPE_START:
        phase = "b";
        if (ss_map_put(&p->range_names, sc->id, 0, name) < 0) {
            c->failed = 1;
            return;
        }
        break;
    case SS_SCOPE_END:
        phase = "e";
        name = ss_map_get(&p->range_names, sc->id, 0);
        if (name == DET_NONE)
            return; /* the end of a range that never started */
        break;
    case SS_SCOPE_PROFILER_START:
    case SS_SCOPE_PROFILER_STOP:
        phase = "i";
        break;
    default:
        return;
    }
    int kind = sc->kind == SS_SCOPE_PUSH || sc->kind == SS_SCOPE_POP ? TRACK_RANGES : TRACK_THREAD;
    uint32_t ti = track_for(c, proc, kind, -1, sc->thread);
    if (ti == DET_NONE)
        return;
    begin_event(c);
    fprintf(c->out, "{\"ph\":\"%s\",\"cat\":\"%s\"", phase, cat);
    if (sc->kind == SS_SCOPE_PROFILER_START || sc->kind == SS_SCOPE_PROFILER_STOP) {
        fprintf(c->out, ",\"s\":\"t\",\"name\":\"%s\"",
                sc->kind == SS_SCOPE_PROFILER_START ? "cudaProfilerStart" : "cudaProfilerStop");
    } else if (sc->kind != SS_SCOPE_POP) {
        fputs(",\"name\":", c->out);
        put_json_string(c->out, p->log->strings[name]);
    }
    if (sc->kind == SS_SCOPE_START || sc->kind == SS_SCOPE_END)
        fprintf(c->out, ",\"id2\":{\"local\":\"0x%" PRIx64 "\"}", sc->id);
    fprintf(c->out, ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64, p->pid, c->tracks[ti].tid);
    put_time(c->out, "ts", rel(c, sc->time_ns));
    fputc('}', c->out);
}

/* Indexes the correlations of input 'proc': the API call of each (the first top-level one)
 * and how many GPU operations carry it. Returns 0 or -1. */
static int index_correlations(chrome_proc *p)
{
    const ss_event_log *log = p->log;
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_API || e->u.api.correlation == 0)
            continue;
        uint32_t have = ss_map_get(&p->by_corr, e->u.api.correlation, 0);
        if (have == DET_NONE || (log->events[have].u.api.nested && !e->u.api.nested)) {
            if (ss_map_put(&p->by_corr, e->u.api.correlation, 0, (uint32_t)i) < 0)
                return -1;
        }
    }
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (!is_gpu(e) || e->u.gpu.correlation == 0 ||
            ss_map_get(&p->by_corr, e->u.gpu.correlation, 0) == DET_NONE)
            continue;
        uint32_t n = ss_map_get(&p->gpu_count, e->u.gpu.correlation, 0);
        if (ss_map_put(&p->gpu_count, e->u.gpu.correlation, 0, n == DET_NONE ? 1 : n + 1) < 0)
            return -1;
    }
    return 0;
}

/* Marks the stream tracks of input 'proc' that are the legacy default stream (calls given
 * stream 0 or cudaStreamLegacy, not per-thread, with a CUPTI id) or created non-blocking. */
static void mark_streams(chrome *c, size_t proc)
{
    const ss_event_log *log = c->procs[proc].log;
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        uint32_t ti = DET_NONE;
        if (e->type == SS_EV_API && e->u.api.stream_id != 0 && !e->u.api.per_thread &&
            (e->u.api.stream == SS_STREAM_LEGACY_NULL || e->u.api.stream == SS_STREAM_LEGACY)) {
            const ss_api *row = ss_evlog_api(log, e->u.api.name);
            if (row == NULL || row->stream_arg < 0)
                continue;
            uint64_t a =
                (uint64_t)proc << 34 | (uint64_t)TRACK_STREAM << 32 | (uint32_t)e->u.api.device;
            ti = ss_map_get(&c->track_index, a, e->u.api.stream_id);
            if (ti != DET_NONE)
                c->tracks[ti].legacy = 1;
        } else if (e->type == SS_EV_STREAM) {
            uint64_t a =
                (uint64_t)proc << 34 | (uint64_t)TRACK_STREAM << 32 | (uint32_t)e->u.stream.device;
            ti = ss_map_get(&c->track_index, a, e->u.stream.stream_id);
            if (ti != DET_NONE)
                c->tracks[ti].non_blocking = (e->u.stream.flags & SS_STREAM_FLAG_NON_BLOCKING) != 0;
        }
    }
}

/* Whether a frame at ('file', 'line') is the call site of finding 'f': the same line and base
 * name, one path a trailing run of the other's components. */
static int frame_is_site(const char *file, unsigned line, const ss_finding *f)
{
    if (f->file == NULL || f->line == 0 || line != f->line || file == NULL || file[0] == '\0')
        return 0;
    size_t nf = strlen(file), ng = strlen(f->file);
    const char *longer = nf >= ng ? file : f->file, *shorter = nf >= ng ? f->file : file;
    size_t nl = nf >= ng ? nf : ng, ns = nf >= ng ? ng : nf;
    if (strcmp(longer + nl - ns, shorter) != 0)
        return 0;
    return ns == nl || longer[nl - ns - 1] == '/' || shorter[0] == '/';
}

/* The API event of input 'p' that finding 'f' is placed on: the longest call whose stack has
 * a frame at the finding's file and line and whose API is the finding's (when it names one);
 * else the first call of the finding's API; else SIZE_MAX. */
static size_t finding_call(const chrome_proc *p, const ss_finding *f)
{
    const ss_event_log *log = p->log;
    const ss_api *want = f->evidence.api ? ss_api_find(f->evidence.api) : NULL;
    size_t best = SIZE_MAX, first_of_api = SIZE_MAX;
    uint64_t best_ns = 0;
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_API || e->u.api.nested)
            continue;
        const ss_api *row = ss_evlog_api(log, e->u.api.name);
        if (f->evidence.api && row != want)
            continue;
        if (first_of_api == SIZE_MAX && f->evidence.api)
            first_of_api = i;
        if (e->u.api.stack == 0 || e->u.api.stack >= log->stack_count)
            continue;
        const ss_stack *st = &log->stacks[e->u.api.stack];
        int site = 0;
        for (uint32_t k = 0; k < st->depth && !site; k++) {
            const ss_stack_frame *fr = &st->frames[k];
            site =
                fr->file < log->string_count && frame_is_site(log->strings[fr->file], fr->line, f);
        }
        uint64_t ns =
            e->u.api.exit_ns > e->u.api.enter_ns ? e->u.api.exit_ns - e->u.api.enter_ns : 0;
        if (site && (best == SIZE_MAX || ns > best_ns)) {
            best = i;
            best_ns = ns;
        }
    }
    return best != SIZE_MAX ? best : first_of_api;
}

/* An instant ("i", thread scope) for each finding of input 'proc', named by its rule and
 * message, on the call it was observed at (finding_call), or at the process's first event on
 * its first host thread when no call matches. */
static void put_findings(chrome *c, size_t proc)
{
    const chrome_proc *p = &c->procs[proc];
    if (p->result == NULL)
        return;
    uint64_t first = UINT64_MAX;
    uint32_t first_thread = UINT32_MAX;
    for (size_t i = 0; i < p->log->count; i++) {
        const ss_event *e = &p->log->events[i];
        if (e->type == SS_EV_STREAM)
            continue;
        if (ss_event_start_ns(e) < first)
            first = ss_event_start_ns(e);
        if (e->type == SS_EV_API && e->u.api.thread < first_thread)
            first_thread = e->u.api.thread;
    }
    if (first_thread == UINT32_MAX)
        first_thread = 1;
    for (size_t i = 0; i < p->result->count && !c->failed; i++) {
        const ss_finding *f = &p->result->findings[i];
        const ss_rule *rule = ss_rules_get(f->rule);
        size_t call = finding_call(p, f);
        uint32_t thread = call != SIZE_MAX ? p->log->events[call].u.api.thread : first_thread;
        uint64_t at = call != SIZE_MAX ? p->log->events[call].u.api.enter_ns
                                       : (first == UINT64_MAX ? c->origin : first);
        uint32_t ti = track_for(c, proc, TRACK_THREAD, -1, thread);
        if (ti == DET_NONE)
            return;
        char *label = ss_xasprintf("%s: %s", rule->id, f->message ? f->message : rule->summary);
        begin_event(c);
        fputs("{\"ph\":\"i\",\"s\":\"t\",\"name\":", c->out);
        put_json_string_max(c->out, label, strlen(rule->id) + 2 + INSTANT_MESSAGE_MAX);
        free(label);
        fprintf(c->out, ",\"cat\":\"finding\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64, p->pid,
                c->tracks[ti].tid);
        put_time(c->out, "ts", rel(c, at));
        fputs(",\"args\":{\"rule\":", c->out);
        put_json_string(c->out, rule->id);
        fputs(",\"name\":", c->out);
        put_json_string(c->out, rule->name);
        fprintf(c->out,
                ",\"severity\":\"%s\",\"cost\":\"%s\",\"message\":", ss_severity_name(f->severity),
                ss_cost_name(rule->cost));
        put_json_string(c->out, f->message);
        fputs(",\"file\":", c->out);
        put_json_string(c->out, f->file);
        fprintf(
            c->out, ",\"line\":%u,\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"matched\":%s}}",
            f->line, f->evidence.count, f->evidence.total_ns, call != SIZE_MAX ? "true" : "false");
    }
}

/* The name of input 'proc' as a process: "rank R: PROGRAM (pid P)". Malloc'ed. */
static char *process_label(const chrome_proc *p)
{
    const char *program = ss_evlog_get_meta(p->log, "program");
    const char *rank = ss_evlog_get_meta(p->log, "rank");
    if (program == NULL && p->result != NULL)
        program = p->result->program;
    char pid[48];
    if (p->recorded_pid > 0)
        snprintf(pid, sizeof pid, "pid %ld", p->recorded_pid);
    else
        snprintf(pid, sizeof pid, "pid unknown");
    return ss_xasprintf("%s%s%s%s (%s)", rank ? "rank " : "", rank ? rank : "", rank ? ": " : "",
                        program ? program : "program", pid);
}

/* The metadata events: each process's name and order, each track's name and order. */
static void put_names(chrome *c)
{
    for (size_t i = 0; i < c->n; i++) {
        int has_track = 0;
        for (size_t t = 0; t < c->track_count && !has_track; t++)
            has_track = c->tracks[t].proc == i;
        if (!has_track)
            continue; /* an empty log: nothing to name */
        char *label = process_label(&c->procs[i]);
        begin_event(c);
        fprintf(c->out,
                "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
                ",\"args\":{\"name\":",
                c->procs[i].pid, c->procs[i].pid);
        put_json_string(c->out, label);
        free(label);
        fputs("}}", c->out);
        begin_event(c);
        fprintf(c->out,
                "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
                ",\"args\":{\"sort_index\":%zu}}",
                c->procs[i].pid, c->procs[i].pid, i);
    }
    for (size_t i = 0; i < c->track_count; i++) {
        const track *t = &c->tracks[i];
        uint64_t pid = c->procs[t->proc].pid;
        begin_event(c);
        fprintf(c->out,
                "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
                ",\"args\":{\"name\":\"",
                pid, t->tid);
        if (t->kind == TRACK_THREAD)
            fprintf(c->out, "thread %" PRIu32, t->id);
        else if (t->kind == TRACK_RANGES)
            fprintf(c->out, "thread %" PRIu32 " ranges", t->id);
        else if (t->kind == TRACK_SYNC)
            fputs("CUPTI synchronization", c->out);
        else
            fprintf(c->out, "GPU %" PRId32 " stream %" PRIu32 "%s", t->device, t->id,
                    t->legacy         ? " (legacy default)"
                    : t->non_blocking ? " (non-blocking)"
                                      : "");
        fputs("\"}}", c->out);
        /* Host threads first, by index, each followed by its ranges; then the synchronization
         * records; then the streams, by device and id. */
        uint64_t order =
            t->kind == TRACK_THREAD   ? 2 * (uint64_t)t->id
            : t->kind == TRACK_RANGES ? 2 * (uint64_t)t->id + 1
            : t->kind == TRACK_SYNC
                ? TID_SYNC
                : TID_STREAM + (uint64_t)(uint32_t)t->device * TID_DEVICE_STRIDE + t->id;
        begin_event(c);
        fprintf(c->out,
                "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
                ",\"args\":{\"sort_index\":%" PRIu64 "}}",
                pid, t->tid, order);
    }
}

/* Chooses the pid of every input: the recorded one, unless it is unknown or an earlier input
 * has it; then the smallest number no input was recorded with and none is shown under. */
static void choose_pids(chrome *c)
{
    for (size_t i = 0; i < c->n; i++) {
        chrome_proc *p = &c->procs[i];
        const char *text = ss_evlog_get_meta(p->log, "pid");
        p->recorded_pid = text ? atol(text) : 0;
        if (p->recorded_pid <= 0 && p->result != NULL)
            p->recorded_pid = p->result->pid;
    }
    uint64_t next = 1;
    for (size_t i = 0; i < c->n; i++) {
        chrome_proc *p = &c->procs[i];
        int taken = p->recorded_pid <= 0 || (uint64_t)p->recorded_pid > UINT32_MAX;
        for (size_t j = 0; j < i && !taken; j++)
            taken = c->procs[j].pid == (uint64_t)p->recorded_pid;
        if (!taken) {
            p->pid = (uint64_t)p->recorded_pid;
            continue;
        }
        for (;; next++) {
            int used = 0;
            for (size_t j = 0; j < c->n && !used; j++)
                used = (uint64_t)c->procs[j].recorded_pid == next || c->procs[j].pid == next;
            if (!used)
                break;
        }
        p->pid = next++;
    }
}

/* Sets up the writer 'c' for the 'n' inputs: the clock origin (the earliest event of any), the
 * correlations of each and the pids they are shown under. Returns 0, or -1 when memory is
 * exhausted (chrome_free frees what was made either way). */
static int chrome_open(chrome *c, FILE *out, const ss_event_log *const *logs,
                       const ss_result *const *results, size_t n)
{
    memset(c, 0, sizeof *c);
    c->out = out;
    c->sep = "\n";
    c->n = n;
    c->next_spare = TID_SPARE;
    c->procs = calloc(n ? n : 1, sizeof *c->procs);
    if (c->procs == NULL)
        return -1;
    c->origin = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        c->procs[i].log = logs[i];
        c->procs[i].result = results ? results[i] : NULL;
        for (size_t e = 0; e < logs[i]->count; e++) {
            if (logs[i]->events[e].type == SS_EV_STREAM)
                continue; /* no time */
            uint64_t t = ss_event_start_ns(&logs[i]->events[e]);
            if (t < c->origin)
                c->origin = t;
        }
        if (index_correlations(&c->procs[i]) < 0)
            c->failed = 1;
    }
    if (c->origin == UINT64_MAX)
        c->origin = 0;
    choose_pids(c);
    return 0;
}

static void chrome_free(chrome *c)
{
    for (size_t i = 0; c->procs != NULL && i < c->n; i++) {
        ss_map_free(&c->procs[i].by_corr);
        ss_map_free(&c->procs[i].gpu_count);
        ss_map_free(&c->procs[i].flows_done);
        ss_map_free(&c->procs[i].range_names);
    }
    free(c->procs);
    free(c->tracks);
    ss_map_free(&c->track_index);
    ss_map_free(&c->used_tids);
}

/* Writes every input's timed events in log order: API calls, synchronization records and GPU
 * operations as slices with their flows, scope marks as ranges and instants. */
static void put_events(chrome *c)
{
    for (size_t i = 0; i < c->n && !c->failed; i++) {
        const ss_event_log *log = c->procs[i].log;
        for (size_t e = 0; e < log->count && !c->failed; e++) {
            const ss_event *ev = &log->events[e];
            if (ev->type == SS_EV_SCOPE)
                put_scope(c, i, ev);
            else if (ev->type == SS_EV_API || ev->type == SS_EV_SYNC || is_gpu(ev))
                put_event(c, i, ev);
        }
    }
}

int ss_chrome_trace_write_runs(FILE *out, const ss_event_log *const *logs,
                               const ss_result *const *results, size_t n)
{
    chrome c;
    if (chrome_open(&c, out, logs, results, n) < 0) {
        chrome_free(&c);
        return -1;
    }
    /* The clock origin lets traces written apart be lined up: ts = clock - origin. */
    fprintf(out,
            "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"syncscope %s\","
            "\"clock_origin_ns\":\"%" PRIu64 "\"},\"traceEvents\":[",
            SS_VERSION, c.origin);
    put_events(&c);
    for (size_t i = 0; i < n && !c.failed; i++) {
        put_findings(&c, i);
        mark_streams(&c, i);
    }
    if (!c.failed)
        put_names(&c);
    fputs("\n]}\n", out);
    chrome_free(&c);
    fflush(out);
    return !c.failed && !ferror(out) ? 0 : -1;
}

int ss_chrome_trace_write(FILE *out, const ss_event_log *log)
{
    return ss_chrome_trace_write_runs(out, &log, NULL, 1);
}
