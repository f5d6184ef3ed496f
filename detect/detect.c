/* detect.c: the runtime detector driver: indexes the event log (calls, GPU operations,
 * streams, pending work), runs the detector table and turns occurrences into findings. */
#include "detect_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the item list of a finding remembers about what was waited for. */
typedef struct det_item {
    uint32_t type; /* SS_EV_KERNEL, SS_EV_MEMCPY, SS_EV_MEMSET */
    uint32_t name; /* kernel name string id */
    uint32_t copy_kind;
    uint32_t stream_id;
    uint64_t count, ns;
} det_item;

#define MAX_ITEMS 32   /* distinct waited-for items tracked per finding */
#define SHOWN_ITEMS 4  /* of which the text names at most this many */
#define MAX_STREAMS 16 /* streams named per finding */

/* The detector table, in precedence order: a family that claims a call (det_call.claimed)
 * hides it from the families after it, so one call gives at most one host-blocking finding
 * (SYNC301 before SYNC201 before SYNC202). */
static const struct family {
    const char *name;
    det_run_fn run;    /* NULL: planned, not implemented yet */
    det_run_fn latent; /* the pass for latent synchronizations, NULL when the family has none */
    det_message_fn message;
    ss_rule_id rules[3];
    size_t rule_count;
} families[] = {
    {"readback",
     det_readback_run,
     det_readback_latent,
     det_readback_message,
     {SS_RULE_SCALAR_READBACK},
     1},
    {"copies",
     det_copies_run,
     det_copies_latent,
     det_copies_message,
     {SS_RULE_PAGEABLE_ASYNC_COPY, SS_RULE_SYNC_COPY_IN_PIPELINE},
     2},
    {"syncs",
     det_syncs_run,
     det_syncs_latent,
     det_syncs_message,
     {SS_RULE_SYNC_IN_LOOP, SS_RULE_DEVICE_WIDE_SYNC_CALL},
     2},
    {"streams",
     det_streams_run,
     det_streams_latent,
     det_streams_message,
     {SS_RULE_DEFAULT_STREAM_LAUNCH, SS_RULE_DEFAULT_STREAM_ASYNC_CALL,
      SS_RULE_BLOCKING_STREAM_CREATE},
     3},
    {"capture", det_capture_run, NULL, det_capture_message, {SS_RULE_CAPTURE_UNSAFE_CALL}, 1},
    /* What-if rules (whatif.c): they estimate a saving rather than observe a stall. */
    {"launch-bound", det_launch_bound_run, NULL, det_whatif_message, {SS_RULE_LAUNCH_BOUND}, 1},
    {"serialized-pipeline",
     det_pipeline_run,
     NULL,
     det_whatif_message,
     {SS_RULE_SERIALIZED_PIPELINE},
     1},
};

#define NFAMILIES (sizeof families / sizeof families[0])

void ss_detect_options_default(ss_detect_options *options)
{
    options->readback_max_bytes = 16;
    options->min_blocked_ns = 5000;
    options->slack_ns = 5000;
    options->python_depth = 16;
    options->serial_gap_ns = 10000;
    options->whatif_max_percent = 90;
    options->launch_min_kernels = 20;
    options->launch_split_gap_ns = 100000;
    options->graph_kernel_gap_ns = 0;
    options->graph_launch_host_ns = 2500;
    options->pipeline_min_chunks = 3;
    options->pinned_bytes_per_us = 54000;
    options->latent = 1;
    options->startup_phase = 1;
    options->user_paths = NULL;
    options->user_path_count = 0;
    options->profile_from_start = 1;
    options->nvtx_range = NULL;
}

/* ---- small helpers ---- */

const char *det_mem_kind_word(unsigned kind)
{
    switch (kind) {
    case SS_MEM_PAGEABLE:
        return "pageable";
    case SS_MEM_PINNED:
        return "pinned";
    case SS_MEM_MANAGED:
        return "managed";
    default:
        return NULL;
    }
}

int det_opset_add(det_opset *set, uint32_t op)
{
    if (ss_grow((void **)&set->ops, &set->cap, set->count + 1, sizeof *set->ops) < 0)
        return -1;
    set->ops[set->count++] = op;
    return 0;
}

void det_opset_free(det_opset *set)
{
    free(set->ops);
    memset(set, 0, sizeof *set);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL + (a << 6) + (a >> 2));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static uint32_t *map_slot(det_map *m, uint64_t a, uint64_t b, int insert)
{
    if (insert && (m->count + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        uint64_t *keys = calloc(ncap * 2, sizeof *keys);
        uint32_t *values = calloc(ncap, sizeof *values);
        if (keys == NULL || values == NULL) {
            free(keys);
            free(values);
            return NULL;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (m->values[i] == 0)
                continue;
            size_t s = (size_t)mix(m->keys[2 * i], m->keys[2 * i + 1]) & (ncap - 1);
            while (values[s] != 0)
                s = (s + 1) & (ncap - 1);
            keys[2 * s] = m->keys[2 * i];
            keys[2 * s + 1] = m->keys[2 * i + 1];
            values[s] = m->values[i];
        }
        free(m->keys);
        free(m->values);
        m->keys = keys;
        m->values = values;
        m->cap = ncap;
    }
    if (m->cap == 0)
        return NULL;
    size_t s = (size_t)mix(a, b) & (m->cap - 1);
    while (m->values[s] != 0) {
        if (m->keys[2 * s] == a && m->keys[2 * s + 1] == b)
            return &m->values[s];
        s = (s + 1) & (m->cap - 1);
    }
    if (!insert)
        return NULL;
    m->keys[2 * s] = a;
    m->keys[2 * s + 1] = b;
    m->count++;
    return &m->values[s];
}

uint32_t det_map_get(det_map *m, uint64_t a, uint64_t b)
{
    uint32_t *v = map_slot(m, a, b, 0);
    return v && *v ? *v - 1 : DET_NONE;
}

int det_map_put(det_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    uint32_t *v = map_slot(m, a, b, 1);
    if (v == NULL)
        return -1;
    *v = value + 1;
    return 0;
}

/* Sets (a, b) to 'value' unless it is set already. Returns 0 or -1. */
static int map_put_first(det_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    uint32_t *v = map_slot(m, a, b, 1);
    if (v == NULL)
        return -1;
    if (*v == 0)
        *v = value + 1;
    return 0;
}

void det_map_free(det_map *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}

uint64_t det_blocked_ns(const det_call *call)
{
    return call->ev->exit_ns > call->ev->enter_ns ? call->ev->exit_ns - call->ev->enter_ns : 0;
}

const char *det_call_name(const det_ctx *ctx, const det_call *call)
{
    const char *name = ctx->log->strings[call->ev->name];
    if (name[0] == '\0' && call->row != NULL)
        return call->row->name;
    return name[0] ? name : "unknown API";
}

int det_call_on_legacy(const det_call *call)
{
    const ss_api *row = call->row;
    if (row == NULL)
        return 0;
    int has_stream = row->stream_arg >= 0;
    /* Synchronous copies and memsets take no stream: they run on the default stream. */
    int implicit_default =
        row->stream_arg < 0 && (row->klass == SS_CLASS_COPY || row->klass == SS_CLASS_MEMSET);
    if (!has_stream && !implicit_default)
        return 0;
    if (call->ev->stream == SS_STREAM_LEGACY)
        return 1;
    return call->ev->stream == SS_STREAM_LEGACY_NULL && !call->ev->per_thread;
}

static const char *copy_kind_word(unsigned kind)
{
    static const char *const names[] = {NULL, "HtoD", "DtoH", "DtoD", "HtoH", "PtoP"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}

const char *det_call_direction(const det_ctx *ctx, const det_call *call)
{
    /* An API whose name says the direction (cuMemcpyDtoHAsync, cudaMemcpyPeer) is taken at its
     * word: the driver's copies have no kind argument, and a peer copy without peer access is
     * staged through host memory, which CUPTI reports as DtoH and HtoD pieces. */
    if (call->row != NULL) {
        switch (call->row->dir) {
        case SS_DIR_H2D:
            return "HtoD";
        case SS_DIR_D2H:
            return "DtoH";
        case SS_DIR_D2D:
            return "DtoD";
        case SS_DIR_PEER:
            return "PtoP";
        default:
            break;
        }
    }
    /* Otherwise the copy CUPTI saw, then a runtime call's cudaMemcpyKind; unknown rather than
     * guessed (a driver cuMemcpy has no kind to read). */
    if (call->copy_op != DET_NONE) {
        const char *d = copy_kind_word(ctx->ops[call->copy_op].ev->u.gpu.copy_kind);
        if (d)
            return d;
    }
    if (call->row == NULL || call->row->dir != SS_DIR_KIND || call->ev->domain != SS_DOMAIN_RUNTIME)
        return NULL;
    /* cudaMemcpyKind: 0 HtoH, 1 HtoD, 2 DtoH, 3 DtoD, 4 default (unknown). */
    static const char *const kinds[] = {"HtoH", "HtoD", "DtoH", "DtoD"};
    int k = call->ev->copy_kind;
    return k >= 0 && k < 4 ? kinds[k] : NULL;
}

uint64_t det_call_bytes(const det_ctx *ctx, const det_call *call)
{
    if (call->ev->bytes)
        return call->ev->bytes;
    uint32_t op = call->copy_op != DET_NONE ? call->copy_op : call->first_op;
    return op != DET_NONE ? ctx->ops[op].ev->u.gpu.bytes : 0;
}

uint32_t det_call_stream(const det_ctx *ctx, const det_call *call)
{
    if (call->ev->stream_id)
        return call->ev->stream_id;
    return call->first_op != DET_NONE ? ctx->ops[call->first_op].ev->u.gpu.stream_id : 0;
}

int det_call_device(const det_ctx *ctx, const det_call *call)
{
    if (call->ev->device >= 0)
        return call->ev->device;
    return call->first_op != DET_NONE ? ctx->ops[call->first_op].ev->u.gpu.device : -1;
}

const char *det_times(uint64_t n, char *buf, size_t size)
{
    snprintf(buf, size, "%" PRIu64 " time%s", n, n == 1 ? "" : "s");
    return buf;
}

/* ---- indexing ---- */

static const ss_api *resolve_api(det_ctx *ctx, const ss_ev_api *ev)
{
    /* By name, so that the in-process log and its trace (which stores only the name) agree. */
    return ev->name == 0 ? NULL : ss_evlog_api(ctx->log, ev->name);
}

typedef struct call_key {
    uint32_t thread;
    uint8_t domain;
    uint64_t enter, exit;
    uint32_t index;
} call_key;

static int cmp_call_key(const void *pa, const void *pb)
{
    const call_key *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->enter != b->enter)
        return a->enter < b->enter ? -1 : 1;
    if (a->exit != b->exit)
        return a->exit > b->exit ? -1 : 1; /* the enclosing call first */
    if (a->domain != b->domain)
        return a->domain < b->domain ? -1 : 1; /* runtime before driver */
    return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_call_order(const void *pa, const void *pb)
{
    const call_key *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->enter != b->enter)
        return a->enter < b->enter ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Marks driver calls made inside a runtime call of the same thread as enclosed by it, and
 * links each thread's calls (det_call.next). */
static int mark_enclosed(det_ctx *ctx)
{
    if (ctx->call_count == 0)
        return 0;
    call_key *keys = malloc(ctx->call_count * sizeof *keys);
    if (keys == NULL)
        return -1;
    for (size_t i = 0; i < ctx->call_count; i++) {
        const ss_ev_api *a = ctx->calls[i].ev;
        keys[i] = (call_key){a->thread, a->domain, a->enter_ns, a->exit_ns, (uint32_t)i};
    }
    qsort(keys, ctx->call_count, sizeof *keys, cmp_call_key);
    uint32_t open = DET_NONE; /* the outermost runtime call of the thread so far */
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (i > 0 && keys[i].thread != keys[i - 1].thread)
            open = DET_NONE;
        det_call *c = &ctx->calls[keys[i].index];
        const ss_ev_api *o = open != DET_NONE ? ctx->calls[open].ev : NULL;
        int inside = o && o->enter_ns <= c->ev->enter_ns && o->exit_ns >= c->ev->exit_ns;
        if (c->ev->domain == SS_DOMAIN_DRIVER && c->ev->nested && inside) {
            c->enclosed = 1;
            c->owner = open;
        } else if (c->ev->domain == SS_DOMAIN_RUNTIME && !inside) {
            open = keys[i].index;
        }
    }
    /* Each thread's calls in the order it made them, nested driver calls aside: by entry, and
     * for equal entries by log order (a thread's calls enter the log as they are made). */
    qsort(keys, ctx->call_count, sizeof *keys, cmp_call_order);
    uint32_t prev = DET_NONE;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (i > 0 && keys[i].thread != keys[i - 1].thread)
            prev = DET_NONE;
        if (ctx->calls[keys[i].index].enclosed)
            continue;
        if (prev != DET_NONE)
            ctx->calls[prev].next = keys[i].index;
        prev = keys[i].index;
    }
    free(keys);
    return 0;
}

typedef struct end_key {
    uint64_t end;
    uint32_t op;
} end_key;

static int cmp_end_key(const void *pa, const void *pb)
{
    const end_key *a = pa, *b = pb;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

static int is_gpu(uint32_t type)
{
    return type == SS_EV_KERNEL || type == SS_EV_MEMCPY || type == SS_EV_MEMSET;
}

/* The stream (context, stream_id), made when new; DET_NONE when memory is exhausted. CUPTI
 * stream ids are only known to be unique within a context, so two devices' streams may share
 * one. A stream record that does not know its context (0) is taken by the first context
 * whose work uses its id on the same device. */
static uint32_t stream_index(det_ctx *ctx, det_map *by_id, uint32_t context, uint32_t stream_id,
                             int32_t device)
{
    uint32_t s = det_map_get(by_id, context, stream_id);
    if (s != DET_NONE)
        return s;
    if (context != 0) {
        s = det_map_get(by_id, 0, stream_id);
        det_stream *st = s != DET_NONE ? &ctx->streams[s] : NULL;
        if (st && st->context == 0 && (st->device < 0 || device < 0 || st->device == device)) {
            st->context = context;
            return det_map_put(by_id, context, stream_id, s) < 0 ? DET_NONE : s;
        }
    }
    if (ss_grow((void **)&ctx->streams, &ctx->stream_cap, ctx->stream_count + 1,
                sizeof *ctx->streams) < 0)
        return DET_NONE;
    s = (uint32_t)ctx->stream_count++;
    det_stream *st = &ctx->streams[s];
    memset(st, 0, sizeof *st);
    st->stream_id = stream_id;
    st->context = context;
    st->device = device;
    st->blocking = 1;
    if (map_put_first(by_id, context, stream_id, s) < 0)
        return DET_NONE;
    return s;
}

/* Whether the log names two or more devices (API calls' current devices, GPU operations). */
static int names_two_devices(const ss_event_log *log)
{
    int32_t first = -1;
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        int32_t d = e->type == SS_EV_API ? e->u.api.device : is_gpu(e->type) ? e->u.gpu.device : -1;
        if (d < 0)
            continue;
        if (first < 0)
            first = d;
        else if (d != first)
            return 1;
    }
    return 0;
}

static int build_index(det_ctx *ctx)
{
    ss_event_log *log = ctx->log;
    int rc = -1;
    det_map by_corr = {0}, by_stream = {0};
    end_key *ends = NULL;

    ctx->site_frame = malloc(log->stack_count * sizeof *ctx->site_frame);
    ctx->via_frame = malloc(log->stack_count * sizeof *ctx->via_frame);
    if (!ctx->site_frame || !ctx->via_frame)
        goto out;
    for (size_t i = 0; i < log->stack_count; i++) {
        ctx->site_frame[i] = -2;
        ctx->via_frame[i] = -1;
    }

    size_t ncalls = 0, nops = 0;
    for (size_t i = 0; i < log->count; i++) {
        ncalls += log->events[i].type == SS_EV_API;
        nops += is_gpu(log->events[i].type);
    }
    ctx->calls = calloc(ncalls ? ncalls : 1, sizeof *ctx->calls);
    ctx->ops = calloc(nops ? nops : 1, sizeof *ctx->ops);
    ctx->ops_by_end = malloc((nops ? nops : 1) * sizeof *ctx->ops_by_end);
    ends = malloc((nops ? nops : 1) * sizeof *ends);
    if (!ctx->calls || !ctx->ops || !ctx->ops_by_end || !ends)
        goto out;

    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_API)
            continue;
        det_call *c = &ctx->calls[ctx->call_count];
        c->ev = &e->u.api;
        c->row = resolve_api(ctx, &e->u.api);
        c->owner = (uint32_t)ctx->call_count;
        c->first_op = c->copy_op = c->next = DET_NONE;
        ctx->call_count++;
    }
    if (mark_enclosed(ctx) < 0)
        goto out;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (map_put_first(&by_corr, ctx->calls[i].ev->correlation, 0, ctx->calls[i].owner) < 0)
            goto out;
    }

    /* Stream records first: they carry the flags. */
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_STREAM)
            continue;
        uint32_t s = stream_index(ctx, &by_stream, e->u.stream.context, e->u.stream.stream_id,
                                  e->u.stream.device);
        if (s == DET_NONE)
            goto out;
        ctx->streams[s].blocking = !(e->u.stream.flags & SS_STREAM_FLAG_NON_BLOCKING);
        ctx->streams[s].has_record = 1;
        ctx->streams[s].handle = e->u.stream.handle;
    }

    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (!is_gpu(e->type))
            continue;
        uint32_t o = (uint32_t)ctx->op_count++;
        det_op *op = &ctx->ops[o];
        op->ev = e;
        op->call = det_map_get(&by_corr, e->u.gpu.correlation, 0);
        op->enqueue_ns = e->u.gpu.start_ns;
        if (op->call != DET_NONE) {
            det_call *c = &ctx->calls[op->call];
            if (c->ev->enter_ns < op->enqueue_ns)
                op->enqueue_ns = c->ev->enter_ns;
            if (c->first_op == DET_NONE)
                c->first_op = o;
            if (c->copy_op == DET_NONE && e->type == SS_EV_MEMCPY)
                c->copy_op = o;
        }
        op->stream =
            stream_index(ctx, &by_stream, e->u.gpu.context, e->u.gpu.stream_id, e->u.gpu.device);
        if (op->stream == DET_NONE)
            goto out;
        det_stream *st = &ctx->streams[op->stream];
        if (st->device < 0)
            st->device = e->u.gpu.device;
        if (op->call != DET_NONE && det_call_on_legacy(&ctx->calls[op->call]))
            st->legacy = 1;
        if (ss_grow((void **)&st->ops, &st->cap, st->count + 1, sizeof *st->ops) < 0)
            goto out;
        if (ss_grow((void **)&st->max_end, &st->max_end_cap, st->count + 1, sizeof *st->max_end) <
            0)
            goto out;
        uint64_t prev = st->count ? st->max_end[st->count - 1] : 0;
        op->ready_ns = op->enqueue_ns > prev ? op->enqueue_ns : prev;
        if (op->ready_ns > e->u.gpu.start_ns)
            op->ready_ns = e->u.gpu.start_ns;
        st->ops[st->count] = o;
        st->max_end[st->count] = e->u.gpu.end_ns > prev ? e->u.gpu.end_ns : prev;
        st->count++;
        ends[o] = (end_key){e->u.gpu.end_ns, o};
    }
    qsort(ends, ctx->op_count, sizeof *ends, cmp_end_key);
    for (size_t i = 0; i < ctx->op_count; i++)
        ctx->ops_by_end[i] = ends[i].op;
    rc = 0;
out:
    free(ends);
    det_map_free(&by_corr);
    det_map_free(&by_stream);
    return rc;
}

int det_waited(const det_ctx *ctx, uint32_t call, uint32_t stream_id, det_opset *out)
{
    out->count = 0;
    const det_call *c = &ctx->calls[call];
    uint64_t enter = c->ev->enter_ns, limit = c->ev->exit_ns + ctx->opt->slack_ns;
    /* Only the call's own device: a device-wide synchronization on one GPU does not wait for
     * another's work. */
    int device = det_call_device(ctx, c);
    /* First operation that ends after the call was entered. */
    size_t lo = 0, hi = ctx->op_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ctx->ops[ctx->ops_by_end[mid]].ev->u.gpu.end_ns > enter)
            hi = mid;
        else
            lo = mid + 1;
    }
    for (size_t i = lo; i < ctx->op_count; i++) {
        const det_op *op = &ctx->ops[ctx->ops_by_end[i]];
        const ss_ev_gpu *g = &op->ev->u.gpu;
        if (g->end_ns > limit)
            break;
        if (op->enqueue_ns >= enter || op->call == c->owner)
            continue;
        if (device >= 0 && g->device >= 0 && device != g->device)
            continue;
        if (stream_id != 0 && g->stream_id != stream_id)
            continue;
        if (det_opset_add(out, ctx->ops_by_end[i]) < 0)
            return -1;
    }
    return 0;
}

/* Whether a stream synchronization call waits for the legacy default stream (and so for every
 * blocking stream) rather than for one stream. */
static int syncs_legacy(const det_call *sync)
{
    return sync->ev->stream == SS_STREAM_LEGACY ||
           (sync->ev->stream == SS_STREAM_LEGACY_NULL && !sync->ev->per_thread);
}

/* Whether the work of copy call 'c' runs on a stream the legacy stream synchronizes with: the
 * legacy stream itself, or a blocking one (the per-thread default stream is one). */
static int on_blocking_stream(const det_ctx *ctx, const det_call *c)
{
    if (c->copy_op == DET_NONE)
        return det_call_on_legacy(c);
    const det_stream *st = &ctx->streams[ctx->ops[c->copy_op].stream];
    return st->blocking || st->legacy;
}

/* Adds the operations of 'src' that 'dst' does not hold yet. Returns 0 or -1. */
static int opset_merge(det_opset *dst, const det_opset *src)
{
    for (size_t i = 0; i < src->count; i++) {
        size_t j = 0;
        while (j < dst->count && dst->ops[j] != src->ops[i])
            j++;
        if (j == dst->count && det_opset_add(dst, src->ops[i]) < 0)
            return -1;
    }
    return 0;
}

/* The next call of the thread of asynchronous copy call 'copy' when it is an explicit
 * synchronization no family has claimed that covers the copy's stream: a device
 * synchronization, a synchronization of that stream, or of the legacy stream when the copy's
 * stream is blocking. Sets '*only' to the stream it waits for (0: not narrowed). DET_NONE when
 * there is none. */
static uint32_t covering_sync(const det_ctx *ctx, uint32_t copy, uint32_t *only)
{
    *only = 0;
    const det_call *c = &ctx->calls[copy];
    /* A synchronous copy's work is done when it returns: nothing is left to wait for. */
    if (c->row == NULL || c->row->sync == SS_SYNC_ALWAYS || c->copy_op == DET_NONE ||
        c->next == DET_NONE)
        return DET_NONE;
    const det_call *s = &ctx->calls[c->next];
    if (s->claimed || s->row == NULL || s->row->sync != SS_SYNC_EXPLICIT)
        return DET_NONE;
    if (s->row->klass == SS_CLASS_STREAM_SYNC && syncs_legacy(s)) {
        if (!on_blocking_stream(ctx, c))
            return DET_NONE;
    } else if (s->row->klass == SS_CLASS_STREAM_SYNC) {
        if (s->ev->stream_id != ctx->ops[c->copy_op].ev->u.gpu.stream_id)
            return DET_NONE;
        *only = s->ev->stream_id;
    } else if (s->row->klass != SS_CLASS_DEVICE_SYNC) {
        return DET_NONE;
    }
    return c->next;
}

uint32_t det_latent_sync(det_ctx *ctx, uint32_t copy, uint64_t *blocked, int *failed)
{
    *blocked = 0;
    uint32_t only;
    uint32_t sync = covering_sync(ctx, copy, &only);
    if (sync == DET_NONE)
        return DET_NONE;
    det_opset *out = &ctx->joined;
    if (det_waited(ctx, sync, only, out) < 0) {
        *failed = 1;
        return DET_NONE;
    }
    uint64_t ns = det_blocked_ns(&ctx->calls[sync]);
    if (out->count > 0 && ns >= ctx->opt->min_blocked_ns)
        return DET_NONE; /* a synchronization that cost time is a finding of its own */
    /* Waiting for the copy's own transfer is the copy, not earlier work. */
    size_t earlier = 0;
    for (size_t k = 0; k < out->count; k++)
        earlier += ctx->ops[out->ops[k]].call != copy;
    *blocked = earlier > 0 ? ns : 0;
    ctx->calls[sync].claimed = 1;
    return sync;
}

int det_join_sync(det_ctx *ctx, uint32_t copy, det_opset *waited, uint64_t *blocked, uint32_t *sync)
{
    *sync = DET_NONE;
    det_opset *out = &ctx->joined;
    out->count = 0;
    const det_call *c = &ctx->calls[copy];
    uint32_t only;
    uint32_t next = covering_sync(ctx, copy, &only);
    if (next == DET_NONE || det_blocked_ns(&ctx->calls[next]) < ctx->opt->min_blocked_ns)
        return 0;
    const det_call *s = &ctx->calls[next];
    uint32_t stream = ctx->ops[c->copy_op].stream;
    if (det_waited(ctx, c->next, only, out) < 0)
        return -1;
    size_t kept = 0;
    for (size_t k = 0; k < out->count; k++) {
        const det_op *op = &ctx->ops[out->ops[k]];
        if (op->stream != stream) {
            out->count = 0; /* it waited for other streams too: a synchronization of its own */
            return 0;
        }
        if (op->call != copy)
            out->ops[kept++] = out->ops[k];
    }
    out->count = kept;
    if (kept == 0)
        return 0;
    if (opset_merge(waited, out) < 0)
        return -1;
    *sync = c->next;
    *blocked += det_blocked_ns(s);
    ctx->calls[c->next].claimed = 1;
    return 0;
}

/* ---- call sites and aggregation ---- */

/* The kernel a launch call ran (its name's string id), 0 for any other call. */
static uint32_t launched_kernel(const det_ctx *ctx, const det_call *c)
{
    if (c->row != NULL && c->row->klass == SS_CLASS_LAUNCH && c->first_op != DET_NONE &&
        ctx->ops[c->first_op].ev->type == SS_EV_KERNEL)
        return ctx->ops[c->first_op].ev->u.gpu.name;
    return 0;
}

uint32_t det_site_call(det_ctx *ctx, uint32_t call)
{
    const det_call *c = &ctx->calls[call];
    uint32_t kernel = launched_kernel(ctx, c);
    if (c->ev->stack != 0 || kernel == 0)
        return call;
    if (!ctx->sited_built) {
        for (size_t i = 0; i < ctx->call_count; i++) {
            const det_call *s = &ctx->calls[i];
            uint32_t k = launched_kernel(ctx, s);
            if (s->enclosed || s->ev->stack == 0 || k == 0)
                continue;
            if (map_put_first(&ctx->sited, s->ev->thread, k, (uint32_t)i) < 0)
                return DET_NONE;
        }
        ctx->sited_built = 1;
    }
    uint32_t found = det_map_get(&ctx->sited, c->ev->thread, kernel);
    return found != DET_NONE ? found : call;
}

static int32_t site_frame(det_ctx *ctx, uint32_t stack)
{
    if (stack >= ctx->log->stack_count)
        return -1;
    if (ctx->site_frame[stack] == -2)
        ctx->site_frame[stack] =
            det_choose_site(ctx, &ctx->log->stacks[stack], &ctx->via_frame[stack]);
    return ctx->site_frame[stack];
}

/* The via frame index of 'stack' (site_frame computes it), -1 when none. */
static int32_t via_frame(det_ctx *ctx, uint32_t stack)
{
    if (site_frame(ctx, stack) < 0)
        return -1;
    return ctx->via_frame[stack];
}

const ss_stack_frame *det_call_site(det_ctx *ctx, uint32_t call)
{
    uint32_t stack = ctx->calls[call].ev->stack;
    int32_t frame = site_frame(ctx, stack);
    return frame >= 0 ? &ctx->log->stacks[stack].frames[frame] : NULL;
}

const ss_stack_frame *det_call_via(det_ctx *ctx, uint32_t call)
{
    uint32_t stack = ctx->calls[call].ev->stack;
    int32_t frame = via_frame(ctx, stack);
    return frame >= 0 ? &ctx->log->stacks[stack].frames[frame] : NULL;
}

static int add_item(det_agg *agg, const det_op *op)
{
    const ss_ev_gpu *g = &op->ev->u.gpu;
    det_item key = {op->ev->type,
                    op->ev->type == SS_EV_KERNEL ? g->name : 0,
                    op->ev->type == SS_EV_MEMCPY ? g->copy_kind : 0,
                    g->stream_id,
                    0,
                    0};
    uint64_t ns = g->end_ns > g->start_ns ? g->end_ns - g->start_ns : 0;
    for (size_t i = 0; i < agg->item_count; i++) {
        det_item *it = &agg->items[i];
        if (it->type == key.type && it->name == key.name && it->copy_kind == key.copy_kind &&
            it->stream_id == key.stream_id) {
            it->count++;
            it->ns += ns;
            return 0;
        }
    }
    if (agg->item_count == MAX_ITEMS) {
        agg->items_untracked++;
        return 0;
    }
    if (ss_grow((void **)&agg->items, &agg->item_cap, agg->item_count + 1, sizeof *agg->items) < 0)
        return -1;
    key.count = 1;
    key.ns = ns;
    agg->items[agg->item_count++] = key;
    return 0;
}

static int add_stream(det_agg *agg, uint32_t stream_id)
{
    for (size_t i = 0; i < agg->other_count; i++) {
        if (agg->others[i] == stream_id)
            return 0;
    }
    if (agg->other_count == MAX_STREAMS)
        return 0;
    if (ss_grow((void **)&agg->others, &agg->other_cap, agg->other_count + 1, sizeof *agg->others) <
        0)
        return -1;
    agg->others[agg->other_count++] = stream_id;
    return 0;
}

/* The aggregation key of a frame: file and line when it has them, else its pc (one call site
 * of a binary without -g, however it was reached), else its function. 'kind' says which. */
static uint64_t frame_key(const ss_stack_frame *f, uint64_t *kind)
{
    if (f->file != 0 && f->line != 0) {
        *kind = 0;
        return (uint64_t)f->file << 32 | f->line;
    }
    if (f->pc != 0) {
        *kind = 1;
        return f->pc;
    }
    *kind = 3;
    return f->function;
}

int det_report(det_ctx *ctx, const det_hit *hit)
{
    if (!det_scope_keeps(ctx, hit->call))
        return 0; /* made outside the scopes asked for (scope.c) */
    const det_call *call = &ctx->calls[hit->call];
    uint32_t stack = call->ev->stack;
    int32_t frame = site_frame(ctx, stack);
    uint64_t kind, site;
    if (frame >= 0) {
        site = frame_key(&ctx->log->stacks[stack].frames[frame], &kind);
    } else if (stack != 0) {
        kind = 2;
        site = stack;
    } else {
        kind = 4;
        site = call->ev->name;
    }
    /* Occurrences at one call site that came through different library lines stay apart: each
     * names its own "via" frame (the line PyTorch's sync debug mode names). */
    int32_t via = via_frame(ctx, stack);
    uint64_t via_kind = 0, via_site = 0;
    if (via >= 0)
        via_site = frame_key(&ctx->log->stacks[stack].frames[via], &via_kind) ^ (via_kind + 1)
                                                                                    << 60;
    uint32_t *pair = map_slot(&ctx->pairs, site ^ kind << 61, via_site, 1);
    if (pair == NULL)
        return -1;
    if (*pair == 0)
        *pair = (uint32_t)++ctx->pair_count;
    /* With two or more devices, each device's occurrences at a site are a finding of their
     * own, so that every finding names the one device it is about. */
    uint64_t device = ctx->multi_device ? (uint64_t)(uint32_t)(hit->device + 1) : 0;
    uint32_t *slot = map_slot(&ctx->agg_map, device << 32 | (uint64_t)hit->rule << 8, *pair, 1);
    if (slot == NULL)
        return -1;
    if (*slot == 0) {
        if (ss_grow((void **)&ctx->aggs, &ctx->agg_cap, ctx->agg_count + 1, sizeof *ctx->aggs) < 0)
            return -1;
        det_agg *a = &ctx->aggs[ctx->agg_count];
        memset(a, 0, sizeof *a);
        a->rule = hit->rule;
        a->call = hit->call;
        a->code = hit->code;
        a->aux_call = hit->aux_call;
        a->direction = hit->direction;
        a->host_kind = hit->host_kind;
        a->device = hit->device;
        a->stream_id = hit->stream_id;
        *slot = (uint32_t)++ctx->agg_count;
    }
    det_agg *a = &ctx->aggs[*slot - 1];
    if (a->aux_call == DET_NONE)
        a->aux_call = hit->aux_call;
    uint64_t at = hit->at_ns ? hit->at_ns : call->ev->enter_ns;
    if (at > a->last_ns)
        a->last_ns = at;
    if (hit->latent) {
        a->latent_count++;
        a->latent_ns += hit->ns;
        if (hit->ns > a->latent_max_ns)
            a->latent_max_ns = hit->ns;
        /* Folded into a finding that blocked, a latent occurrence is only counted; what it
         * waited for does not belong to what the blocking ones waited for. */
        if (a->count > 0)
            return 0;
    } else {
        a->count++;
        a->total_ns += hit->ns;
        if (hit->ns > a->max_ns)
            a->max_ns = hit->ns;
        a->flag_count += hit->flag != 0;
        a->flag_ns += hit->flag ? hit->flag_ns : 0;
    }
    a->bytes += hit->bytes;
    for (size_t i = 0; i < hit->other_count; i++) {
        if (add_stream(a, hit->other_streams[i]) < 0)
            return -1;
    }
    for (size_t i = 0; hit->figures != NULL && i < DET_FIGURES; i++)
        a->figures[i] += hit->figures[i];
    for (size_t i = 0; hit->waited && i < hit->waited->count; i++) {
        if (add_item(a, &ctx->ops[hit->waited->ops[i]]) < 0)
            return -1;
    }
    return 0;
}

/* ---- findings ---- */

/* Appends printf output to a growing string. */
static void append(char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *piece = NULL;
    int n = vasprintf(&piece, fmt, ap);
    va_end(ap);
    if (n < 0)
        ss_out_of_memory();
    char *p = ss_reallocarray(*buf, *len + (size_t)n + 1, 1);
    memcpy(p + *len, piece, (size_t)n + 1);
    *buf = p;
    *len += (size_t)n;
    free(piece);
}

static char *waited_text(const det_ctx *ctx, const det_agg *agg)
{
    if (agg->item_count == 0)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    char d[32];
    size_t shown = agg->item_count < SHOWN_ITEMS ? agg->item_count : SHOWN_ITEMS;
    for (size_t i = 0; i < shown; i++) {
        const det_item *it = &agg->items[i];
        const char *sep = i ? ", " : "";
        if (it->type == SS_EV_KERNEL)
            append(&text, &len, "%skernel '%s'", sep, ctx->log->strings[it->name]);
        else if (it->type == SS_EV_MEMCPY && copy_kind_word(it->copy_kind))
            append(&text, &len, "%s%s copy", sep, copy_kind_word(it->copy_kind));
        else
            append(&text, &len, "%s%s", sep, it->type == SS_EV_MEMCPY ? "copy" : "memset");
        append(&text, &len, " on stream %" PRIu32 " (", it->stream_id);
        if (it->count > 1)
            append(&text, &len, "%" PRIu64 " times, ", it->count);
        append(&text, &len, "%s)", ss_format_duration(it->ns, d, sizeof d));
    }
    uint64_t more = agg->item_count - shown + agg->items_untracked;
    if (more)
        append(&text, &len, ", and %" PRIu64 " more", more);
    return text;
}

static char *stream_text(const det_agg *agg)
{
    if (agg->stream_id == 0 && agg->other_count == 0)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    if (agg->stream_id)
        append(&text, &len, "stream %" PRIu32, agg->stream_id);
    for (size_t i = 0; i < agg->other_count; i++)
        append(&text, &len, "%s%" PRIu32, i == 0 ? (len ? "; other streams: " : "streams ") : ", ",
               agg->others[i]);
    return text;
}

static char *string_or_null(const ss_event_log *log, uint32_t id)
{
    return id != 0 && id < log->string_count ? ss_strdup(log->strings[id]) : NULL;
}

/* The load address of native module 'module' in the observed process, from the trace's
 * metadata ("base:" + the module's path, written by the finisher). Returns 0 with '*base' set,
 * or -1 when the log does not say. */
static int module_base(const ss_event_log *log, const char *module, uint64_t *base)
{
    char key[4096];
    if (snprintf(key, sizeof key, "base:%s", module) >= (int)sizeof key)
        return -1;
    const char *value = ss_evlog_get_meta(log, key);
    if (value == NULL || strncmp(value, "0x", 2) != 0)
        return -1;
    char *end;
    unsigned long long v = strtoull(value + 2, &end, 16);
    if (*end != '\0' || end == value + 2)
        return -1;
    *base = (uint64_t)v;
    return 0;
}

static void fill_location(det_ctx *ctx, const det_agg *agg, ss_finding *f)
{
    const ss_event_log *log = ctx->log;
    const det_call *call = &ctx->calls[agg->call];
    uint32_t stack = call->ev->stack;
    int32_t frame = site_frame(ctx, stack);
    if (frame >= 0) {
        const ss_stack_frame *sf = &log->stacks[stack].frames[frame];
        f->file = string_or_null(log, sf->file);
        f->line = sf->line;
        f->function = string_or_null(log, sf->function);
        /* A binary built without -g: the site is a function at an offset in a module. */
        uint64_t base;
        if (f->file == NULL && !sf->python && sf->module != 0 && sf->pc != 0 &&
            module_base(log, log->strings[sf->module], &base) == 0 && sf->pc >= base) {
            f->module = string_or_null(log, sf->module);
            f->module_offset = sf->pc - base;
        }
    }
    int32_t via = via_frame(ctx, stack);
    if (via >= 0) {
        const ss_stack_frame *vf = &log->stacks[stack].frames[via];
        f->via_file = string_or_null(log, vf->file);
        f->via_line = vf->file != 0 ? vf->line : 0;
        f->via_function = string_or_null(log, vf->function);
    }
    const ss_stack *s = stack < log->stack_count ? &log->stacks[stack] : &log->stacks[0];
    if (s->depth == 0)
        return;
    f->frames = ss_calloc(s->depth, sizeof *f->frames);
    unsigned python = 0;
    for (uint32_t i = 0; i < s->depth; i++) {
        const ss_stack_frame *sf = &s->frames[i];
        if (sf->python && python++ >= ctx->opt->python_depth)
            continue;
        ss_frame *out = &f->frames[f->frame_count++];
        out->pc = sf->pc;
        out->function = string_or_null(log, sf->function);
        out->file = string_or_null(log, sf->file);
        out->line = sf->line;
        out->module = string_or_null(log, sf->module);
        out->is_python = sf->python != 0;
    }
}

static const struct family *family_of(ss_rule_id rule)
{
    for (size_t i = 0; i < NFAMILIES; i++) {
        for (size_t j = 0; j < families[i].rule_count; j++) {
            if (families[i].rules[j] == rule)
                return &families[i];
        }
    }
    return NULL;
}

/* What a latent finding's call did, for its message: "cudaFree, which synchronizes the
 * device". */
static char *latent_what(det_ctx *ctx, const det_agg *agg)
{
    const det_call *call = &ctx->calls[agg->call];
    const char *api = det_call_name(ctx, call);
    switch (agg->rule) {
    case SS_RULE_SCALAR_READBACK:
        if (agg->aux_call != DET_NONE)
            return ss_asprintf("%s read %" PRIu64 " bytes back to the host and %s waited for the "
                               "device",
                               api, agg->bytes, det_call_name(ctx, &ctx->calls[agg->aux_call]));
        return ss_asprintf("%s read %" PRIu64 " bytes back to the host", api, agg->bytes);
    case SS_RULE_PAGEABLE_ASYNC_COPY:
        return ss_asprintf("%s %s with pageable host memory, %" PRIu64 " bytes", api,
                           agg->direction ? agg->direction : "(direction unknown)", agg->bytes);
    case SS_RULE_SYNC_COPY_IN_PIPELINE:
        return ss_asprintf("synchronous %s", api);
    case SS_RULE_DEVICE_WIDE_SYNC_CALL:
        return ss_asprintf("%s, which synchronizes the device", api);
    case SS_RULE_DEFAULT_STREAM_LAUNCH:
        if (call->first_op != DET_NONE && ctx->ops[call->first_op].ev->type == SS_EV_KERNEL)
            return ss_asprintf("kernel '%s' on the legacy default stream while other blocking "
                               "streams had work",
                               ctx->log->strings[ctx->ops[call->first_op].ev->u.gpu.name]);
        /* fall through */
    case SS_RULE_DEFAULT_STREAM_ASYNC_CALL:
        return ss_asprintf("%s on the legacy default stream while other blocking streams had "
                           "work",
                           api);
    default:
        return ss_strdup(api);
    }
}

/* "latent: synchronized N times, blocked 0.0 ms this run: <what>". */
static char *latent_message(det_ctx *ctx, const det_agg *agg)
{
    char times[32];
    uint64_t tenths = (agg->latent_ns + 50000) / 100000; /* of a millisecond */
    char *what = latent_what(ctx, agg);
    char *text = ss_asprintf("latent: synchronized %s, blocked %" PRIu64 ".%u ms this run: %s",
                             det_times(agg->latent_count, times, sizeof times), tenths / 10,
                             (unsigned)(tenths % 10), what);
    free(what);
    return text;
}

/* Whether the what-if rules, which read repeated work by definition, are exempt from the
 * startup phase. */
static int phase_applies(ss_rule_id rule)
{
    return rule != SS_RULE_LAUNCH_BOUND && rule != SS_RULE_SERIALIZED_PIPELINE;
}

static void emit_findings(det_ctx *ctx, ss_result *out)
{
    for (size_t i = 0; i < ctx->agg_count; i++) {
        const det_agg *agg = &ctx->aggs[i];
        ss_finding *f = ss_result_add(out);
        int latent = agg->count == 0;
        f->rule = agg->rule;
        f->severity = latent ? SS_SEV_NOTE : ss_rules_get(agg->rule)->severity;
        f->origin = SS_ORIGIN_RUNTIME;
        f->latent = latent;
        fill_location(ctx, agg, f);
        det_scope_annotate(ctx, agg->call, f);
        ss_evidence *ev = &f->evidence;
        ev->count = latent ? agg->latent_count : agg->count;
        ev->total_ns = latent ? agg->latent_ns : agg->total_ns;
        ev->max_ns = latent ? agg->latent_max_ns : agg->max_ns;
        ev->bytes = agg->bytes;
        ev->api = ss_strdup(det_call_name(ctx, &ctx->calls[agg->call]));
        ev->direction = ss_strdup(agg->direction);
        ev->host_kind = ss_strdup(agg->host_kind);
        ev->waited_for = waited_text(ctx, agg);
        ev->stream = stream_text(agg);
        ev->device = agg->device;
        const struct family *fam = family_of(agg->rule);
        if (latent)
            f->message = latent_message(ctx, agg);
        else
            f->message = fam && fam->message ? fam->message(ctx, agg, f) : NULL;
        if (f->message == NULL)
            f->message = ss_strdup(ss_rules_get(agg->rule)->summary);
        if (!latent && agg->latent_count > 0) {
            char text[32];
            snprintf(text, sizeof text, "%" PRIu64, agg->latent_count);
            ss_finding_add_extra(f, "latent_count", text);
        }
        const ss_stack_frame *site = det_call_site(ctx, agg->call);
        f->hint = ss_strdup(det_hint(agg->rule, site != NULL && site->python, agg->direction));
        /* Work that happened only before the program's first repeated GPU work (loading,
         * compiling, autotuning, copying the model in) is marked, so that the summary can
         * group it apart from the loop the program spends its time in. */
        if (ctx->steady_ns != 0 && agg->last_ns < ctx->steady_ns && phase_applies(agg->rule)) {
            f->startup = 1;
            char *marked = ss_asprintf("startup: %s", f->message);
            free(f->message);
            f->message = marked;
        }
        if (ctx->multi_device && agg->device >= 0) {
            char *named = ss_asprintf("device %d: %s", agg->device, f->message);
            free(f->message);
            f->message = named;
        }
    }
}

static uint64_t meta_u64(const ss_event_log *log, const char *key, uint64_t fallback)
{
    const char *v = ss_evlog_get_meta(log, key);
    if (v == NULL || *v < '0' || *v > '9')
        return fallback;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end == '\0' ? (uint64_t)n : fallback;
}

static void copy_meta(const ss_event_log *log, ss_result *out)
{
    static const struct {
        const char *key;
        size_t offset;
    } strings[] = {
        {"program", offsetof(ss_result, program)},
        {"command_line", offsetof(ss_result, command_line)},
        {"hostname", offsetof(ss_result, hostname)},
        {"gpu", offsetof(ss_result, gpu)},
        {"driver", offsetof(ss_result, driver)},
        {"started_at", offsetof(ss_result, started_at)},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const char *v = ss_evlog_get_meta(log, strings[i].key);
        if (v == NULL)
            continue;
        char **field = (char **)((char *)out + strings[i].offset);
        free(*field);
        *field = ss_strdup(v);
    }
    out->pid = (long)meta_u64(log, "pid", (uint64_t)out->pid);
    const char *rank = ss_evlog_get_meta(log, "rank");
    if (rank != NULL) {
        char *end;
        long r = strtol(rank, &end, 10);
        if (*rank != '\0' && *end == '\0')
            out->rank = (int)r;
    }
    out->wall_ns = meta_u64(log, "wall_ns", 0);
}

/* Union of GPU busy intervals, per device, summed. The ops are in start order. */
static uint64_t gpu_busy(const det_ctx *ctx)
{
    struct dev {
        int32_t device;
        uint64_t start, end, busy;
    } devs[64];
    size_t ndev = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < ctx->op_count; i++) {
        const ss_ev_gpu *g = &ctx->ops[i].ev->u.gpu;
        if (g->end_ns <= g->start_ns)
            continue;
        size_t d = 0;
        while (d < ndev && devs[d].device != g->device)
            d++;
        if (d == ndev) {
            if (ndev == sizeof devs / sizeof devs[0])
                d = ndev - 1; /* more devices than slots: the last slot merges the rest */
            else
                devs[ndev++] = (struct dev){g->device, g->start_ns, g->end_ns, 0};
        }
        struct dev *v = &devs[d];
        if (g->start_ns > v->end) {
            v->busy += v->end - v->start;
            v->start = g->start_ns;
            v->end = g->end_ns;
        } else if (g->end_ns > v->end) {
            v->end = g->end_ns;
        }
    }
    for (size_t d = 0; d < ndev; d++)
        total += devs[d].busy + (devs[d].end - devs[d].start);
    return total;
}

/* Whether a finding's time is host time blocked in an implicit synchronization: the rule's
 * cost column says so (rules.def), and a latent note blocked under the threshold. */
static int counts_as_blocked(const ss_finding *f)
{
    return !f->latent && ss_rules_get(f->rule)->cost == SS_COST_HOST;
}

static void free_ctx(det_ctx *ctx)
{
    det_map_free(&ctx->sited);
    det_opset_free(&ctx->joined);
    free(ctx->calls);
    free(ctx->ops);
    free(ctx->ops_by_end);
    for (size_t i = 0; i < ctx->stream_count; i++) {
        free(ctx->streams[i].ops);
        free(ctx->streams[i].max_end);
    }
    free(ctx->streams);
    free(ctx->site_frame);
    free(ctx->via_frame);
    det_map_free(&ctx->pairs);
    for (size_t i = 0; i < ctx->agg_count; i++) {
        free(ctx->aggs[i].others);
        free(ctx->aggs[i].items);
    }
    free(ctx->aggs);
    det_map_free(&ctx->agg_map);
    det_scope_free(ctx);
}

int ss_detect_run(ss_event_log *log, const ss_detect_options *options, ss_result *out)
{
    ss_detect_options defaults;
    if (options == NULL) {
        ss_detect_options_default(&defaults);
        options = &defaults;
    }
    ss_evlog_sort(log);
    det_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.log = log;
    ctx.opt = options;
    ctx.multi_device = names_two_devices(log);
    const char *python = ss_evlog_get_meta(log, "python");
    ctx.python_program = python != NULL && python[0] != '\0';
    int rc = build_index(&ctx);
    if (rc == 0)
        rc = det_scope_build(&ctx);
    for (size_t i = 0; i < NFAMILIES && rc == 0; i++) {
        if (families[i].run != NULL)
            rc = families[i].run(&ctx);
    }
    /* Latent synchronizations: over the calls that no finding claimed, after every family has
     * had its turn, so that a latent note never hides a finding that blocked. */
    for (size_t i = 0; i < NFAMILIES && rc == 0 && options->latent; i++) {
        if (families[i].latent != NULL)
            rc = families[i].latent(&ctx);
    }
    if (rc == 0 && options->startup_phase)
        ctx.steady_ns = det_steady_start(&ctx);
    if (rc == 0) {
        size_t first = out->count, unlined = 0;
        emit_findings(&ctx, out);
        det_scope_report(&ctx, out);
        for (size_t i = first; i < out->count; i++) {
            if (counts_as_blocked(&out->findings[i]))
                out->blocked_ns += out->findings[i].evidence.total_ns;
            unlined += out->findings[i].file == NULL && out->findings[i].module != NULL;
        }
        if (unlined > 0) {
            char *msg = ss_asprintf("%zu finding%s no source line, only a function and its "
                                    "offset in a module: build with -g (or -lineinfo for "
                                    "device code) for source lines",
                                    unlined, unlined == 1 ? " has" : "s have");
            ss_result_add_diag(out, SS_SEV_NOTE, NULL, 0, 0, msg);
            free(msg);
        }
        copy_meta(log, out);
        out->gpu_busy_ns = gpu_busy(&ctx);
        out->events = log->count;
        out->dropped = log->dropped;
        if (log->dropped > 0) {
            char *msg = ss_asprintf("%" PRIu64 " events were dropped past the memory cap; "
                                    "the findings may be incomplete",
                                    log->dropped);
            ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
            free(msg);
        }
        const char *refused = ss_evlog_get_meta(log, "refused_activity_buffers");
        if (refused != NULL && strcmp(refused, "0") != 0) {
            char *msg = ss_asprintf("%s request%s of CUPTI for an activity buffer %s refused past "
                                    "the memory cap, and CUPTI dropped the GPU records it had "
                                    "no room for; the findings may be incomplete (raise "
                                    "SYNCSCOPE_MAX_MEMORY)",
                                    refused, strcmp(refused, "1") == 0 ? "" : "s",
                                    strcmp(refused, "1") == 0 ? "was" : "were");
            ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
            free(msg);
        }
        ss_result_sort(out);
    }
    free_ctx(&ctx);
    return rc;
}
