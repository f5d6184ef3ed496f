/* overwide.c: SYNC601 at run time: waits wider than the data the host read. A blocking
 * device-to-host copy, or a device, stream or event synchronization followed by device-to-host
 * copies, waited for GPU work; the `args` records (docs/trace-format.md) say which allocations
 * each waited-for kernel, copy and memset was handed. The work that was handed the buffer read
 * back, and the work ordered before it, was needed; the rest was waited for in vain.
 * Conservative: only when the buffer read is a recorded allocation and every waited-for
 * operation's pointers are known (docs/detectors.md, "Over-wide waits"). */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Buffers read back after one synchronization, at most. */
#define READS_MAX 8
/* Operations waited for that one call's split examines, at most (a wider wait is left alone:
 * the split is quadratic in them). */
#define WAITED_MAX 4096
/* Allocations at lower addresses looked at for one address: past them it counts as in none. */
#define NEIGHBOURS_MAX 64

/* A device allocation as the args records give it: live from 'from_ns' until 'until_ns'. */
typedef struct ow_alloc {
    uint64_t base, size, from_ns, until_ns;
} ow_alloc;

typedef struct ow_index {
    ss_map args; /* (correlation, 0) -> log event of the call's first args record */
    ow_alloc *allocs;
    size_t alloc_count, alloc_cap;
    struct ow_base {
        uint64_t base, from_ns;
        uint32_t alloc;
    } * by_base;     /* 'allocs' by base address */
    uint64_t *waits; /* enter times of the cudaStreamWaitEvent calls, in order */
    size_t wait_count, wait_cap;
    ss_map records; /* (event handle, 0) -> its last record so far (the calls in order) */
} ow_index;

/* What an operation was handed, against the buffers read back. */
enum { OW_CLEAR, OW_TOUCHES, OW_UNKNOWN };

static const ss_ev_args *args_of(const det_ctx *ctx, ow_index *ow, const det_call *call)
{
    uint32_t e = ss_map_get(&ow->args, call->ev->correlation, 0);
    return e == DET_NONE ? NULL : &ctx->log->events[e].u.args;
}

/* The allocation holding 'address' at 'ns', or DET_NONE: among the NEIGHBOURS_MAX
 * allocations with the highest bases at or below it. */
static uint32_t alloc_at(const ow_index *ow, uint64_t address, uint64_t ns)
{
    size_t lo = 0, hi = ow->alloc_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ow->by_base[mid].base <= address)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo, seen = 0; k-- > 0 && seen < NEIGHBOURS_MAX; seen++) {
        const ow_alloc *a = &ow->allocs[ow->by_base[k].alloc];
        if (address - a->base < a->size && a->from_ns <= ns && ns < a->until_ns)
            return ow->by_base[k].alloc;
    }
    return DET_NONE;
}

static int cmp_base(const void *pa, const void *pb)
{
    const struct ow_base *a = pa, *b = pb;
    if (a->base != b->base)
        return a->base < b->base ? -1 : 1;
    return a->from_ns < b->from_ns ? -1 : a->from_ns > b->from_ns;
}

/* Ends each allocation at its free (the log is in time order: a free ends the allocation at
 * its address that is live then), and sorts the allocations by base. Returns 0 or -1. */
static int apply_frees(det_ctx *ctx, ow_index *ow)
{
    ss_map live = {0}; /* (base, 0) -> the allocation at that base allocated last */
    const ss_event_log *log = ctx->log;
    int rc = 0;
    size_t next = 0;
    for (size_t i = 0; i < log->count && rc == 0; i++) {
        const ss_ev_args *a = &log->events[i].u.args;
        if (log->events[i].type != SS_EV_ARGS || a->count == 0)
            continue;
        if (a->kind == SS_ARGS_ALLOC && next < ow->alloc_count &&
            ow->allocs[next].from_ns == a->time_ns && ow->allocs[next].base == a->values[0]) {
            rc = ss_map_put(&live, a->values[0], 0, (uint32_t)next++);
        } else if (a->kind == SS_ARGS_FREE) {
            uint32_t k = ss_map_get(&live, a->values[0], 0);
            if (k != DET_NONE && ow->allocs[k].until_ns == UINT64_MAX &&
                ow->allocs[k].from_ns <= a->time_ns)
                ow->allocs[k].until_ns = a->time_ns;
        }
    }
    ss_map_free(&live);
    ow->by_base = malloc((ow->alloc_count ? ow->alloc_count : 1) * sizeof *ow->by_base);
    if (rc < 0 || ow->by_base == NULL)
        return -1;
    for (size_t i = 0; i < ow->alloc_count; i++)
        ow->by_base[i] = (struct ow_base){ow->allocs[i].base, ow->allocs[i].from_ns, (uint32_t)i};
    qsort(ow->by_base, ow->alloc_count, sizeof *ow->by_base, cmp_base);
    return 0;
}

/* Indexes the args records and the allocations they describe (the log is in time order).
 * Returns 0 or -1. */
static int index_build(det_ctx *ctx, ow_index *ow)
{
    int rc = 0;
    const ss_event_log *log = ctx->log;
    for (size_t i = 0; i < log->count && rc == 0; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_ARGS)
            continue;
        const ss_ev_args *a = &e->u.args;
        if (ss_map_put_first(&ow->args, a->correlation, 0, (uint32_t)i) == DET_NONE) {
            rc = -1;
            break;
        }
        uint32_t call = det_call_by_correlation(ctx, a->correlation);
        if (a->kind == SS_ARGS_ALLOC && a->count >= 1 && call != DET_NONE) {
            if (ss_grow((void **)&ow->allocs, &ow->alloc_cap, ow->alloc_count + 1,
                        sizeof *ow->allocs) < 0) {
                rc = -1;
                break;
            }
            ow->allocs[ow->alloc_count++] =
                (ow_alloc){a->values[0], ctx->calls[call].ev->bytes, a->time_ns, UINT64_MAX};
        }
    }
    for (size_t i = 0; i < ctx->call_count && rc == 0; i++) {
        const det_call *c = &ctx->calls[i];
        if (c->row == NULL || c->row->klass != SS_CLASS_STREAM_WAIT)
            continue;
        if (ss_grow((void **)&ow->waits, &ow->wait_cap, ow->wait_count + 1, sizeof *ow->waits) < 0)
            rc = -1;
        else
            ow->waits[ow->wait_count++] = c->ev->enter_ns;
    }
    return rc < 0 ? -1 : apply_frees(ctx, ow);
}

/* Whether 'call' is a device-to-host copy. */
static int is_readback_copy(const det_ctx *ctx, const det_call *call)
{
    const char *dir = call->row != NULL && call->row->klass == SS_CLASS_COPY
                          ? det_call_direction(ctx, call)
                          : NULL;
    return dir != NULL && strcmp(dir, "DtoH") == 0;
}

/* The allocation copy 'call' read from, or DET_NONE when unknown. */
static uint32_t read_buffer(const det_ctx *ctx, ow_index *ow, const det_call *call)
{
    const ss_ev_args *a = args_of(ctx, ow, call);
    if (a == NULL || a->kind != SS_ARGS_COPY || a->count < 2)
        return DET_NONE;
    return alloc_at(ow, a->values[1], call->ev->enter_ns);
}

/* Whether 'value' lies in one of the 'n' allocations 'reads' (of the launch at 'ns'). */
static int in_reads(const ow_index *ow, const uint32_t *reads, size_t n, uint64_t value,
                    uint64_t ns)
{
    for (size_t r = 0; r < n; r++) {
        const ow_alloc *a = &ow->allocs[reads[r]];
        if (value >= a->base && value - a->base < a->size && a->from_ns <= ns)
            return 1;
    }
    return 0;
}

/* What operation 'o' was handed against the buffers 'reads': a kernel its parameters, a copy
 * or memset its destination. */
static int classify(const det_ctx *ctx, ow_index *ow, uint32_t o, const uint32_t *reads, size_t n)
{
    const det_op *op = &ctx->ops[o];
    if (op->call == DET_NONE || op->ev->u.gpu.graph)
        return OW_UNKNOWN;
    const det_call *c = &ctx->calls[op->call];
    const ss_ev_args *a = args_of(ctx, ow, c);
    uint64_t ns = c->ev->enter_ns;
    if (op->ev->type == SS_EV_KERNEL) {
        if (a == NULL || a->kind != SS_ARGS_LAUNCH || !a->complete)
            return OW_UNKNOWN;
        for (unsigned i = 0; i < a->count; i++) {
            if (in_reads(ow, reads, n, a->values[i], ns))
                return OW_TOUCHES;
        }
        return OW_CLEAR;
    }
    if (a == NULL || a->kind != SS_ARGS_COPY || a->count < 1)
        return OW_UNKNOWN;
    return in_reads(ow, reads, n, a->values[0], ns) ? OW_TOUCHES : OW_CLEAR;
}

/* Whether call 'c' waits for the legacy default stream (and with it every blocking stream). */
static int waits_for_legacy(const det_call *c)
{
    return c->ev->stream == SS_STREAM_LEGACY ||
           (c->ev->stream == SS_STREAM_LEGACY_NULL && !c->ev->per_thread);
}

/* What call 'c' waited for, by what it waits for by definition: the device's work for a device
 * synchronization, one stream's for a stream's, and for the legacy stream its work and that of
 * the blocking streams; a readback's own copy aside. An event synchronization waits for what
 * its event's record ('record', else DET_NONE) was enqueued after on the record's stream.
 * Returns 0 or -1. */
static int waited_for(det_ctx *ctx, uint32_t call, uint32_t record, det_opset *out)
{
    const det_call *c = &ctx->calls[call];
    const det_call *on = record != DET_NONE ? &ctx->calls[record] : c;
    out->count = 0;
    int device_wide = c->row->klass == SS_CLASS_DEVICE_SYNC;
    int legacy = !device_wide && waits_for_legacy(on);
    uint32_t only = device_wide || legacy ? 0 : det_call_stream(ctx, on);
    if (!device_wide && !legacy && only == 0)
        return 0;
    if (det_waited(ctx, call, only, out) < 0)
        return -1;
    size_t kept = 0;
    for (size_t k = 0; k < out->count; k++) {
        const det_op *op = &ctx->ops[out->ops[k]];
        const det_stream *st = &ctx->streams[op->stream];
        if (op->call == call || (legacy && !st->legacy && !st->blocking) ||
            (record != DET_NONE && op->enqueue_ns >= on->ev->enter_ns))
            continue;
        out->ops[kept++] = out->ops[k];
    }
    out->count = kept;
    return 0;
}

/* Whether work enqueued before 'o' orders 'before' ahead of it: the same stream, or the legacy
 * stream and a blocking one. */
static int ordered_before(const det_ctx *ctx, uint32_t before, uint32_t o)
{
    const det_op *a = &ctx->ops[before], *b = &ctx->ops[o];
    if (a->enqueue_ns > b->enqueue_ns ||
        (a->enqueue_ns == b->enqueue_ns && a->ev->u.gpu.start_ns >= b->ev->u.gpu.start_ns))
        return 0;
    if (a->stream == b->stream)
        return 1;
    const det_stream *sa = &ctx->streams[a->stream], *sb = &ctx->streams[b->stream];
    return (sa->legacy && sb->blocking) || (sb->legacy && sa->blocking);
}

/* Whether a stream waited on an event between 'from' and 'to' ns: work on it may then depend on
 * any stream's, which the log does not say. */
static int waits_on_events(const ow_index *ow, uint64_t from, uint64_t to)
{
    size_t lo = 0, hi = ow->wait_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ow->waits[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ow->wait_count && ow->waits[lo] <= to;
}

/* One over-wide wait, worked out. */
typedef struct ow_wait {
    uint64_t saving_ns, narrow_ns;
    uint32_t producer;   /* the needed operation that ended last, DET_NONE: none was needed */
    uint32_t streams[8]; /* CUPTI ids of the streams of the work not needed */
    size_t stream_count;
    det_opset wide; /* the operations not needed */
} ow_wait;

/* Whether waited-for operation 'o' is ordered before readback copy 'reader' anyway: on the
 * copy's own stream (the readback is work handed the buffer, and what precedes it on its stream
 * is needed); and for a copy made after the wait ('after' 1), also by the legacy stream's
 * ordering with the blocking streams, which a narrower wait would not lift. */
static int before_reader(const det_ctx *ctx, uint32_t o, const det_call *reader, int after)
{
    const det_op *op = &ctx->ops[o];
    const det_stream *st = &ctx->streams[op->stream];
    uint32_t rs = reader->copy_op != DET_NONE ? ctx->ops[reader->copy_op].stream : DET_NONE;
    if (rs != DET_NONE ? op->stream == rs : op->ev->u.gpu.stream_id == det_call_stream(ctx, reader))
        return 1;
    if (!after)
        return 0;
    if (waits_for_legacy(reader) && (st->blocking || st->legacy))
        return 1;
    return rs != DET_NONE && ctx->streams[rs].blocking && !ctx->streams[rs].legacy && st->legacy;
}

/* Marks in 'needed' the operations of 'waited' (what call 'call' waited for) that the buffers
 * 'reads' need: that touch them (classify), are ordered before one of the 'readers' anyway, or
 * are ordered before such an operation. Returns whether that is proven: no operation of
 * unknown buffers, no wait on events since the first was enqueued. */
static int mark_needed(const det_ctx *ctx, ow_index *ow, uint32_t call, const det_opset *waited,
                       const uint32_t *reads, size_t n, const uint32_t *readers, uint8_t *needed)
{
    size_t count = waited->count;
    uint64_t first_enqueue = UINT64_MAX;
    int proven = 1;
    for (size_t k = 0; k < count && proven; k++) {
        int what = classify(ctx, ow, waited->ops[k], reads, n);
        proven = what != OW_UNKNOWN;
        needed[k] = what == OW_TOUCHES;
        for (size_t r = 0; r < n && !needed[k]; r++)
            needed[k] =
                before_reader(ctx, waited->ops[k], &ctx->calls[readers[r]], readers[r] != call);
        if (ctx->ops[waited->ops[k]].enqueue_ns < first_enqueue)
            first_enqueue = ctx->ops[waited->ops[k]].enqueue_ns;
    }
    if (proven && count > 0 && waits_on_events(ow, first_enqueue, ctx->calls[call].ev->enter_ns))
        proven = 0;
    for (int grew = 1; proven && grew;) {
        grew = 0;
        for (size_t k = 0; k < count; k++) {
            for (size_t j = 0; needed[k] && j < count; j++) {
                if (!needed[j] && ordered_before(ctx, waited->ops[j], waited->ops[k]))
                    needed[j] = grew = 1;
            }
        }
    }
    return proven;
}

/* Splits 'waited' (what call 'call' waited for) by what the buffers 'reads' need. Returns 1
 * when part of the wait was not needed and that is proven, 0 when not, -1 out of memory. */
static int split_wait(det_ctx *ctx, ow_index *ow, uint32_t call, const det_opset *waited,
                      const uint32_t *reads, size_t n, const uint32_t *readers, ow_wait *w)
{
    const det_call *c = &ctx->calls[call];
    size_t count = waited->count;
    uint8_t *needed = calloc(count ? count : 1, 1);
    if (needed == NULL)
        return -1;
    int proven = mark_needed(ctx, ow, call, waited, reads, n, readers, needed);
    uint64_t ready = c->ev->enter_ns, last = 0;
    w->producer = DET_NONE;
    w->wide.count = 0;
    w->stream_count = 0;
    for (size_t k = 0; proven && k < count; k++) {
        const det_op *op = &ctx->ops[waited->ops[k]];
        uint64_t end = op->ev->u.gpu.end_ns;
        if (end > last)
            last = end;
        if (needed[k]) {
            if (end >= ready) {
                ready = end;
                w->producer = waited->ops[k];
            }
            continue;
        }
        if (det_opset_add(&w->wide, waited->ops[k]) < 0) {
            free(needed);
            return -1;
        }
        size_t s = 0;
        while (s < w->stream_count && w->streams[s] != op->ev->u.gpu.stream_id)
            s++;
        if (s == w->stream_count && s < sizeof w->streams / sizeof w->streams[0])
            w->streams[w->stream_count++] = op->ev->u.gpu.stream_id;
    }
    free(needed);
    uint64_t blocked = det_blocked_ns(c);
    w->saving_ns = proven && w->wide.count > 0 && last > ready ? last - ready : 0;
    if (w->saving_ns > blocked)
        w->saving_ns = blocked;
    w->narrow_ns = blocked - w->saving_ns;
    return w->saving_ns >= ctx->opt->min_blocked_ns && w->saving_ns > 0;
}

/* The buffers read back by the device-to-host copies the thread of synchronization 'call' made
 * next (up to READS_MAX), into 'reads'; the first such copy into '*read_call'. Returns how many,
 * 0 when the next call is no such copy or a buffer is unknown. */
static size_t reads_after(const det_ctx *ctx, ow_index *ow, const det_call *call, uint32_t *reads,
                          uint32_t *readers, uint32_t *read_call)
{
    size_t n = 0;
    *read_call = call->next;
    for (uint32_t next = call->next; next != DET_NONE && n < READS_MAX;
         next = ctx->calls[next].next) {
        const det_call *r = &ctx->calls[next];
        if (!is_readback_copy(ctx, r))
            break;
        uint32_t buffer = read_buffer(ctx, ow, r);
        if (buffer == DET_NONE)
            return 0;
        readers[n] = next;
        reads[n++] = buffer;
    }
    return n;
}

/* SYNC601 for call 'i' (not enclosed, known API): a readback or a synchronization followed by
 * readbacks that waited for work the buffers read did not need. Returns 0 or -1. */
static int check_call(det_ctx *ctx, ow_index *ow, uint32_t i, ow_wait *w, det_opset *waited)
{
    det_call *c = &ctx->calls[i];
    uint32_t reads[READS_MAX], readers[READS_MAX];
    size_t n = 0;
    uint32_t read_call = DET_NONE, record = DET_NONE;
    const ss_ev_args *a = args_of(ctx, ow, c);
    int event = a != NULL && a->kind == SS_ARGS_EVENT && a->count >= 1;
    if (c->row->klass == SS_CLASS_EVENT_RECORD && event && c->ev->result == 0)
        return ss_map_put(&ow->records, a->values[0], 0, i);
    if (c->ev->result != 0 || det_blocked_ns(c) < ctx->opt->min_blocked_ns)
        return 0;
    if (is_readback_copy(ctx, c)) {
        reads[0] = read_buffer(ctx, ow, c);
        readers[0] = i;
        n = reads[0] != DET_NONE;
    } else if (c->row->klass == SS_CLASS_DEVICE_SYNC || c->row->klass == SS_CLASS_STREAM_SYNC) {
        n = reads_after(ctx, ow, c, reads, readers, &read_call);
    } else if (c->row->klass == SS_CLASS_EVENT_SYNC && event) {
        /* The event's last record before the wait: an event never recorded is complete. */
        record = ss_map_get(&ow->records, a->values[0], 0);
        if (record != DET_NONE)
            n = reads_after(ctx, ow, c, reads, readers, &read_call);
    }
    if (n == 0)
        return 0;
    if (waited_for(ctx, i, record, waited) < 0)
        return -1;
    if (waited->count == 0 || waited->count > WAITED_MAX)
        return 0;
    int over = split_wait(ctx, ow, i, waited, reads, n, readers, w);
    if (over <= 0)
        return over;
    const det_op *p = w->producer != DET_NONE ? &ctx->ops[w->producer] : NULL;
    det_hit hit = {
        .rule = SS_RULE_OVER_WIDE_WAIT,
        .call = i,
        .ns = w->saving_ns,
        .waited = &w->wide,
        .stream_id = det_call_stream(ctx, c),
        .other_streams = w->streams,
        .other_count = w->stream_count,
        .device = det_call_device(ctx, c),
        .figures.overwide = {.waited_ns = det_blocked_ns(c),
                             .narrow_ns = w->narrow_ns,
                             .producer_name = p != NULL ? p->ev->u.gpu.name : 0,
                             .producer_kind = p != NULL ? p->ev->type : 0,
                             .producer_stream = p != NULL ? p->ev->u.gpu.stream_id : 0,
                             .read_call = read_call},
    };
    return det_report(ctx, &hit);
}

static int overwide_run(det_ctx *ctx)
{
    ow_index ow = {0};
    ow_wait w = {0};
    det_opset waited = {0};
    int rc = index_build(ctx, &ow);
    for (size_t i = 0; i < ctx->call_count && rc == 0 && ow.alloc_count > 0; i++) {
        const det_call *c = &ctx->calls[i];
        if (!c->enclosed && c->row != NULL)
            rc = check_call(ctx, &ow, (uint32_t)i, &w, &waited);
    }
    det_opset_free(&waited);
    det_opset_free(&w.wide);
    ss_map_free(&ow.args);
    ss_map_free(&ow.records);
    free(ow.allocs);
    free(ow.by_base);
    free(ow.waits);
    return rc;
}

/* "stream 13", "streams 13 and 14", "streams 13, 14 and 15" into 'buf'. */
static const char *stream_words(const uint32_t *ids, size_t n, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "stream%s", n == 1 ? "" : "s");
    for (size_t i = 0; i < n && used < size; i++) {
        const char *sep = i == 0 ? " " : i + 1 == n ? " and " : ", ";
        used += (size_t)snprintf(buf + used, size - used, "%s%" PRIu32, sep, ids[i]);
    }
    return buf;
}

static char *overwide_message(det_ctx *ctx, const det_agg *agg, ss_finding *finding)
{
    const struct det_overwide_figures *f = &agg->figures.overwide;
    char waited[32], saving[32], narrow[32], times[48], streams[160], producer[200];
    ss_format_duration(f->waited_ns, waited, sizeof waited);
    ss_format_duration(agg->total_ns, saving, sizeof saving);
    ss_format_duration(f->narrow_ns, narrow, sizeof narrow);
    times[0] = '\0';
    if (agg->count > 1) {
        char n[32];
        snprintf(times, sizeof times, " in all (%s)", det_times(agg->count, n, sizeof n));
    }
    stream_words(agg->others, agg->other_count, streams, sizeof streams);
    det_add_figure(finding, "narrow_ns", f->narrow_ns);
    det_add_figure(finding, "waited_ns", f->waited_ns);
    const char *api = det_call_name(ctx, &ctx->calls[agg->call]);
    char read[160] = "it read back";
    if (f->read_call != DET_NONE) {
        const ss_stack_frame *site = det_call_site(ctx, f->read_call);
        const char *read_api = det_call_name(ctx, &ctx->calls[f->read_call]);
        if (site != NULL && site->line > 0)
            snprintf(read, sizeof read, "read back next (%s, line %" PRIu32 ")", read_api,
                     site->line);
        else
            snprintf(read, sizeof read, "read back next (%s)", read_api);
    }
    if (f->producer_kind == SS_EV_KERNEL && f->producer_name != 0)
        snprintf(producer, sizeof producer, "'%s'", ctx->log->strings[f->producer_name]);
    else
        snprintf(producer, sizeof producer, "the %s into it",
                 f->producer_kind == SS_EV_MEMSET ? "memset" : "copy");
    if (f->producer_kind == 0)
        return ss_xasprintf("%s waited %s%s, of which %s for work on %s that was not handed "
                            "the buffer %s, which no waited-for work was handed: it was ready "
                            "when the wait began",
                            api, waited, times, saving, streams, read);
    return ss_xasprintf("%s waited %s%s, of which %s for work on %s that was not handed the "
                        "buffer %s: wait on an event recorded after %s on stream %" PRIu32
                        " (it would have returned after %s)",
                        api, waited, times, saving, streams, read, producer, f->producer_stream,
                        narrow);
}

static void overwide_fold(det_figures *sum, const det_figures *one)
{
    sum->overwide.waited_ns += one->overwide.waited_ns;
    sum->overwide.narrow_ns += one->overwide.narrow_ns;
}

const det_family det_family_overwide = {
    .run = overwide_run,
    .message = overwide_message,
    .fold = overwide_fold,
};
