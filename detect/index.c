/* index.c: the index the detectors read the event log through: its API calls (which runtime
 * call encloses a driver call, the next call of each thread, the first GPU operation and copy
 * each enqueued), its GPU operations (their stream, when they were enqueued and when they could
 * have started), its streams, and what a call's figures are (name, direction, bytes, stream,
 * device). */
#include "detect_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- building the index ---- */

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

/* Marks the driver calls made inside a runtime call of the same thread as enclosed by it;
 * 'keys' are the calls in cmp_call_key order. */
static void mark_enclosed(det_ctx *ctx, const call_key *keys)
{
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
}

/* Whether call 'c' of a light or sampled log carries SS_API_BETWEEN: a copy between device
 * memory of its thread, left out by the light mode, came between it and the thread's previous
 * recorded call, which then has no next call, as when the copy was recorded (no rule takes
 * such a copy for a synchronization). */
static int came_between(const det_ctx *ctx, const det_call *c)
{
    return ctx->mode != DET_MODE_FULL && (c->ev->flags & SS_API_BETWEEN);
}

/* Links each thread's calls in the order it made them, nested driver calls aside
 * (det_call.next); 'keys' are the calls in cmp_call_order order: by entry, and for equal
 * entries by log order (a thread's calls enter the log as they are made). */
static void link_threads(det_ctx *ctx, const call_key *keys)
{
    uint32_t prev = DET_NONE;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (i > 0 && keys[i].thread != keys[i - 1].thread)
            prev = DET_NONE;
        if (ctx->calls[keys[i].index].enclosed)
            continue;
        if (prev != DET_NONE && !came_between(ctx, &ctx->calls[keys[i].index]))
            ctx->calls[prev].next = keys[i].index;
        prev = keys[i].index;
    }
}

/* Indexes the log's API calls: enclosed driver calls and each thread's order. Returns 0 or
 * -1. */
static int index_calls(det_ctx *ctx)
{
    const ss_event_log *log = ctx->log;
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
    mark_enclosed(ctx, keys);
    qsort(keys, ctx->call_count, sizeof *keys, cmp_call_order);
    link_threads(ctx, keys);
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
static uint32_t stream_index(det_ctx *ctx, ss_map *by_id, uint32_t context, uint32_t stream_id,
                             int32_t device)
{
    uint32_t s = ss_map_get(by_id, context, stream_id);
    if (s != DET_NONE)
        return s;
    if (context != 0) {
        s = ss_map_get(by_id, 0, stream_id);
        det_stream *st = s != DET_NONE ? &ctx->streams[s] : NULL;
        if (st && st->context == 0 && (st->device < 0 || device < 0 || st->device == device)) {
            st->context = context;
            return ss_map_put(by_id, context, stream_id, s) < 0 ? DET_NONE : s;
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
    return ss_map_put_first(by_id, context, stream_id, s) == DET_NONE ? DET_NONE : s;
}

/* Indexes the stream records, which carry the streams' flags and handles. Returns 0 or -1. */
static int index_stream_records(det_ctx *ctx, ss_map *by_stream)
{
    const ss_event_log *log = ctx->log;
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_STREAM)
            continue;
        uint32_t s = stream_index(ctx, by_stream, e->u.stream.context, e->u.stream.stream_id,
                                  e->u.stream.device);
        if (s == DET_NONE)
            return -1;
        ctx->streams[s].blocking = !(e->u.stream.flags & SS_STREAM_FLAG_NON_BLOCKING);
        ctx->streams[s].has_record = 1;
        ctx->streams[s].handle = e->u.stream.handle;
    }
    return 0;
}

/* Links operation 'o' and the call that enqueued it (the owner of the call with its
 * correlation id). */
static void link_op_call(det_ctx *ctx, uint32_t o)
{
    det_op *op = &ctx->ops[o];
    uint32_t call = det_call_by_correlation(ctx, op->ev->u.gpu.correlation);
    op->call = call == DET_NONE ? DET_NONE : ctx->calls[call].owner;
    op->enqueue_ns = op->ev->u.gpu.start_ns;
    if (op->call == DET_NONE)
        return;
    det_call *c = &ctx->calls[op->call];
    if (c->ev->enter_ns < op->enqueue_ns)
        op->enqueue_ns = c->ev->enter_ns;
    if (c->first_op == DET_NONE)
        c->first_op = o;
    if (c->copy_op == DET_NONE && op->ev->type == SS_EV_MEMCPY)
        c->copy_op = o;
}

/* Appends operation 'o' to its stream (ops in start order, with the running maximum of their
 * ends) and sets when it could have started: enqueued, and its stream idle. Returns 0 or -1. */
static int append_to_stream(det_ctx *ctx, ss_map *by_stream, uint32_t o)
{
    det_op *op = &ctx->ops[o];
    const ss_ev_gpu *g = &op->ev->u.gpu;
    op->stream = stream_index(ctx, by_stream, g->context, g->stream_id, g->device);
    if (op->stream == DET_NONE)
        return -1;
    det_stream *st = &ctx->streams[op->stream];
    if (st->device < 0)
        st->device = g->device;
    if (op->call != DET_NONE && det_call_on_legacy(&ctx->calls[op->call]))
        st->legacy = 1;
    if (ss_grow((void **)&st->ops, &st->cap, st->count + 1, sizeof *st->ops) < 0)
        return -1;
    if (ss_grow((void **)&st->max_end, &st->max_end_cap, st->count + 1, sizeof *st->max_end) < 0)
        return -1;
    uint64_t prev = st->count ? st->max_end[st->count - 1] : 0;
    op->ready_ns = op->enqueue_ns > prev ? op->enqueue_ns : prev;
    if (op->ready_ns > g->start_ns)
        op->ready_ns = g->start_ns;
    st->ops[st->count] = o;
    st->max_end[st->count] = g->end_ns > prev ? g->end_ns : prev;
    st->count++;
    return 0;
}

/* Orders the operations by their end (det_ctx.ops_by_end). Returns 0 or -1. */
static int order_by_end(det_ctx *ctx)
{
    end_key *ends = malloc((ctx->op_count ? ctx->op_count : 1) * sizeof *ends);
    if (ends == NULL)
        return -1;
    for (size_t o = 0; o < ctx->op_count; o++)
        ends[o] = (end_key){ctx->ops[o].ev->u.gpu.end_ns, (uint32_t)o};
    qsort(ends, ctx->op_count, sizeof *ends, cmp_end_key);
    for (size_t i = 0; i < ctx->op_count; i++)
        ctx->ops_by_end[i] = ends[i].op;
    free(ends);
    return 0;
}

/* Indexes the GPU operations (after the calls and the stream records). Returns 0 or -1. */
static int index_ops(det_ctx *ctx, ss_map *by_stream)
{
    const ss_event_log *log = ctx->log;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (ss_map_put_first(&ctx->by_correlation, ctx->calls[i].ev->correlation, 0, (uint32_t)i) ==
            DET_NONE)
            return -1;
    }
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (!is_gpu(e->type))
            continue;
        uint32_t o = (uint32_t)ctx->op_count++;
        ctx->ops[o].ev = e;
        link_op_call(ctx, o);
        if (append_to_stream(ctx, by_stream, o) < 0)
            return -1;
    }
    return order_by_end(ctx);
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

/* Allocates the index for the log's calls and operations. Returns 0 or -1. */
static int allocate_index(det_ctx *ctx)
{
    const ss_event_log *log = ctx->log;
    size_t ncalls = 0, nops = 0;
    for (size_t i = 0; i < log->count; i++) {
        ncalls += log->events[i].type == SS_EV_API;
        nops += is_gpu(log->events[i].type);
    }
    ctx->calls = calloc(ncalls ? ncalls : 1, sizeof *ctx->calls);
    ctx->ops = calloc(nops ? nops : 1, sizeof *ctx->ops);
    ctx->ops_by_end = malloc((nops ? nops : 1) * sizeof *ctx->ops_by_end);
    return ctx->calls && ctx->ops && ctx->ops_by_end ? 0 : -1;
}

int det_index_build(det_ctx *ctx)
{
    ss_map by_stream = {0};
    ctx->multi_device = names_two_devices(ctx->log);
    int rc = allocate_index(ctx);
    if (rc == 0)
        rc = index_calls(ctx);
    /* Stream records first: they carry the flags. */
    if (rc == 0)
        rc = index_stream_records(ctx, &by_stream);
    if (rc == 0)
        rc = index_ops(ctx, &by_stream);
    ss_map_free(&by_stream);
    return rc;
}

void det_index_free(det_ctx *ctx)
{
    ss_map_free(&ctx->by_correlation);
    free(ctx->calls);
    free(ctx->ops);
    free(ctx->ops_by_end);
    for (size_t i = 0; i < ctx->stream_count; i++) {
        free(ctx->streams[i].ops);
        free(ctx->streams[i].max_end);
    }
    free(ctx->streams);
}

/* ---- what the index says about a call ---- */

uint32_t det_call_by_correlation(const det_ctx *ctx, uint32_t correlation)
{
    return ss_map_get(&ctx->by_correlation, correlation, 0);
}

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

const char *det_copy_kind_word(unsigned kind)
{
    static const char *const names[] = {NULL, "HtoD", "DtoH", "DtoD", "HtoH", "PtoP"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}

uint64_t det_blocked_ns(const det_call *call)
{
    return call->ev->exit_ns > call->ev->enter_ns ? call->ev->exit_ns - call->ev->enter_ns : 0;
}

int det_call_light(const det_ctx *ctx, const det_call *call)
{
    if (ctx->mode == DET_MODE_LIGHT)
        return 1;
    if (ctx->mode != DET_MODE_SAMPLED)
        return 0;
    for (size_t i = 0; i < ctx->window_count; i++) {
        if (call->ev->enter_ns >= ctx->windows[2 * i] &&
            call->ev->enter_ns < ctx->windows[2 * i + 1])
            return 0;
    }
    return 1;
}

int det_call_waited(const det_ctx *ctx, const det_call *call, const det_opset *waited)
{
    if (waited->count > 0)
        return 1;
    if (!det_call_light(ctx, call))
        return 0;
    /* The driver's answer at the call's entry and exit where the light mode asked it, else
     * the call's time alone: also for a call held less than the run's probe_exit_min_ns,
     * which it did not ask at its exit. */
    if ((call->ev->flags & SS_API_PROBED) && det_blocked_ns(call) >= ctx->probe_exit_min_ns)
        return (call->ev->flags & SS_API_WAITED) != 0;
    return det_blocked_ns(call) >= ctx->opt->min_blocked_ns;
}

int det_call_mem_kinds(const det_ctx *ctx, const det_call *call, uint8_t *src, uint8_t *dst)
{
    uint32_t op = call->copy_op != DET_NONE ? call->copy_op : call->first_op;
    if (op != DET_NONE) {
        *src = ctx->ops[op].ev->u.gpu.src_kind;
        *dst = ctx->ops[op].ev->u.gpu.dst_kind;
        return 1;
    }
    const ss_api *row = call->row;
    if (row == NULL || (row->klass != SS_CLASS_COPY && row->klass != SS_CLASS_MEMSET) ||
        (call->ev->flags & SS_API_MEM_KNOWN) == 0)
        return 0;
    *src = SS_API_MEM_SRC(call->ev->flags);
    *dst = SS_API_MEM_DST(call->ev->flags);
    return 1;
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
        const char *d = det_copy_kind_word(ctx->ops[call->copy_op].ev->u.gpu.copy_kind);
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
