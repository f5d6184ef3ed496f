/* html_timeline.c: the HTML report's timeline: the lanes (host threads, then streams by
 * device), the drawn operations of every trace packed into five columns, and the moments of
 * each finding on it. */
#include "html_page.h"
#include "log.h"
#include "path.h"

#include "evlog.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_OCCURRENCES = 50,     /* timeline moments kept per finding (the longest) */
    BLOCKED_MIN_NS = 10000,   /* a synchronizing call this long is drawn as host-blocked */
    CONTEXT_MIN_NS = 10000000 /* a first call this long, before any GPU work, created the
                               * context (context_creation_call) */
};

/* Operation kinds of the timeline; report.js has the same table. */
enum {
    OP_KERNEL = 0,
    OP_HTOD,
    OP_DTOH,
    OP_DTOD,
    OP_COPY_OTHER,
    OP_MEMSET,
    OP_API,
    OP_BLOCKED,
    OP_CONTEXT /* the call that created the context: neither a sync nor host-blocked */
};

static void bytes_reserve(bytes *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len)
        ss_out_of_memory();
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) {
        if (cap > SIZE_MAX / 2)
            ss_out_of_memory();
        cap *= 2;
    }
    b->data = ss_xreallocarray(b->data, cap, 1);
    b->cap = cap;
}

static void bytes_add(bytes *b, const void *p, size_t n)
{
    bytes_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void bytes_varint(bytes *b, uint64_t v)
{
    unsigned char tmp[10];
    size_t n = 0;
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        tmp[n++] = c | (v ? 0x80 : 0);
    } while (v);
    bytes_add(b, tmp, n);
}

static uint32_t page_name(page *pg, const char *text)
{
    size_t id = ss_strmap_get(&pg->names, text);
    if (id != SIZE_MAX)
        return (uint32_t)id;
    ss_xgrow((void **)&pg->name_list, &pg->name_cap, pg->name_count + 1, sizeof *pg->name_list);
    pg->name_list[pg->name_count] = ss_xstrdup(text);
    ss_html_strmap_put(&pg->names, text, pg->name_count);
    return (uint32_t)pg->name_count++;
}

/* The lane of host thread 'id', or of stream 'id' of 'device' (CUPTI stream ids repeat across
 * devices; a 'device' < 0, unknown, matches the first stream lane with that id). Returns its
 * index in pg->lanes, which this call may grow and move: a pointer into pg->lanes taken
 * before the call (or in the same expression) is stale after it. */
static size_t page_lane_for(page *pg, size_t first_lane, size_t proc, int is_stream, uint32_t id,
                            int device)
{
    for (size_t i = first_lane; i < pg->lane_count; i++) {
        if (pg->lanes[i].is_stream == is_stream && pg->lanes[i].id == id &&
            (!is_stream || device < 0 || pg->lanes[i].key_device < 0 ||
             pg->lanes[i].key_device == device)) {
            if (is_stream && pg->lanes[i].key_device < 0)
                pg->lanes[i].key_device = device;
            return i;
        }
    }
    ss_xgrow((void **)&pg->lanes, &pg->lane_cap, pg->lane_count + 1, sizeof *pg->lanes);
    page_lane *l = &pg->lanes[pg->lane_count];
    memset(l, 0, sizeof *l);
    l->proc = proc;
    l->is_stream = is_stream;
    l->id = id;
    l->key_device = is_stream ? device : -1;
    l->device = is_stream ? device : -1;
    return pg->lane_count++;
}

static int cmp_op(const void *pa, const void *pb)
{
    const page_op *a = pa, *b = pb;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->end > b->end) - (a->end < b->end);
}

/* Lanes are numbered in the order: host threads, then streams by device (legacy first), each
 * by id. */
static int cmp_lane(const void *pa, const void *pb)
{
    const page_lane *a = pa, *b = pb;
    if (a->is_stream != b->is_stream)
        return a->is_stream - b->is_stream;
    if (a->is_stream && a->key_device != b->key_device)
        return a->key_device < b->key_device ? -1 : 1;
    if (a->legacy != b->legacy)
        return b->legacy - a->legacy;
    return (a->id > b->id) - (a->id < b->id);
}

/* Records one timeline moment of 'pf', keeping the longest MAX_OCCURRENCES. */
static void finding_add_moment(page_finding *pf, uint64_t start, uint64_t end, uint64_t lane)
{
    pf->occ_total++;
    if (pf->occ == NULL)
        pf->occ = ss_xcalloc(MAX_OCCURRENCES, sizeof *pf->occ);
    if (pf->occ_count < MAX_OCCURRENCES) {
        pf->occ[pf->occ_count][0] = start;
        pf->occ[pf->occ_count][1] = end;
        pf->occ[pf->occ_count][2] = lane;
        pf->occ_count++;
        return;
    }
    size_t shortest = 0;
    for (size_t i = 1; i < pf->occ_count; i++) {
        if (pf->occ[i][1] - pf->occ[i][0] < pf->occ[shortest][1] - pf->occ[shortest][0])
            shortest = i;
    }
    if (end - start > pf->occ[shortest][1] - pf->occ[shortest][0]) {
        pf->occ[shortest][0] = start;
        pf->occ[shortest][1] = end;
        pf->occ[shortest][2] = lane;
    }
}

/* The findings of one process by call site, and the findings each stack of its trace reaches,
 * while page_match_moments runs. */
typedef struct moment_match {
    ss_strmap sites;    /* "line\x1fbase name" -> the last finding with that call site */
    size_t *chain;      /* per finding: the previous one with the same key, or SIZE_MAX */
    size_t *stack_list; /* per stack: its list's start in 'lists', SIZE_MAX for none, or
                         * STACK_UNSEEN */
    size_t *lists;      /* the lists of findings, each SIZE_MAX-terminated */
    size_t list_len, list_cap;
} moment_match;

/* The stack_list value of a stack not looked at yet. */
static const size_t STACK_UNSEEN = SIZE_MAX - 1;

/* Indexes the findings of process 'proc' that have a file and line into m->sites and
 * m->chain. Returns whether there was any. */
static bool match_index_findings(const page *pg, size_t proc, moment_match *m)
{
    bool any = false;
    for (size_t i = 0; i < pg->finding_count; i++) {
        const page_finding *pf = &pg->findings[i];
        m->chain[i] = SIZE_MAX;
        if (pf->proc != proc || pf->f->file == NULL || pf->f->line == 0)
            continue;
        char *key = ss_xasprintf("%u\x1f%s", pf->f->line, ss_path_base_name(pf->f->file));
        m->chain[i] = ss_strmap_get(&m->sites, key);
        ss_html_strmap_put(&m->sites, key, i);
        free(key);
        any = true;
    }
    return any;
}

/* Makes room for 'extra' more entries in m->lists. */
static void match_list_reserve(moment_match *m, size_t extra)
{
    ss_xgrow((void **)&m->lists, &m->list_cap, m->list_len + extra, sizeof *m->lists);
}

/* Appends to the list begun at 'begin' the findings whose call site is the frame at
 * 'file':'line' (the same line, and one path a trailing run of the other's components), each
 * once. */
static void match_frame(const page *pg, moment_match *m, const char *file, uint32_t line,
                        size_t begin)
{
    char *key = ss_xasprintf("%u\x1f%s", line, ss_path_base_name(file));
    for (size_t c = ss_strmap_get(&m->sites, key); c != SIZE_MAX; c = m->chain[c]) {
        const char *ffile = pg->findings[c].f->file;
        if (!ss_html_component_suffix(file, ffile) && !ss_html_component_suffix(ffile, file))
            continue;
        bool dup = false;
        for (size_t d = begin; d < m->list_len; d++)
            dup |= m->lists[d] == c;
        if (dup)
            continue;
        match_list_reserve(m, 2);
        m->lists[m->list_len++] = c;
    }
    free(key);
}

/* Sets m->stack_list[sid] to the list of the findings whose call site is a frame of stack
 * 'sid' of 'log', or to SIZE_MAX when there is none. */
static void match_stack(const page *pg, const ss_event_log *log, moment_match *m, uint32_t sid)
{
    m->stack_list[sid] = SIZE_MAX;
    const ss_stack *st = &log->stacks[sid];
    size_t begin = m->list_len;
    for (uint32_t k = 0; k < st->depth; k++) {
        const ss_stack_frame *fr = &st->frames[k];
        if (fr->file == 0 || fr->file >= log->string_count || fr->line == 0)
            continue;
        match_frame(pg, m, log->strings[fr->file], fr->line, begin);
    }
    if (m->list_len > begin) {
        match_list_reserve(m, 1);
        m->lists[m->list_len++] = SIZE_MAX;
        m->stack_list[sid] = begin;
    }
}

/* Adds the API call 'ev' of 'log', drawn on 'lane', as a moment of each finding of 'list'
 * (SIZE_MAX-terminated) that names no API or names the one called. */
static void add_call_moments(page *pg, const ss_event_log *log, const ss_event *ev,
                             const size_t *list, uint32_t lane, uint64_t t0)
{
    const ss_api *row = ss_evlog_api(log, ev->u.api.name);
    for (; *list != SIZE_MAX; list++) {
        page_finding *pf = &pg->findings[*list];
        if (pf->api != SS_API_COUNT && (row == NULL || (int)row->api != pf->api))
            continue;
        uint64_t start = ev->u.api.enter_ns >= t0 ? ev->u.api.enter_ns - t0 : 0;
        uint64_t end = ev->u.api.exit_ns >= ev->u.api.enter_ns ? ev->u.api.exit_ns - t0 : start;
        finding_add_moment(pf, start, end, lane);
    }
}

/* Links the API calls of 'log' to the findings of process 'proc' whose call site is on their
 * stack: those are the finding's moments on the timeline. 'api_lane' is the lane of each API
 * call, by event index; times are taken relative to 't0'. */
static void page_match_moments(page *pg, size_t proc, const ss_event_log *log,
                               const uint32_t *api_lane, uint64_t t0)
{
    moment_match m = {0};
    m.chain = ss_xcalloc(pg->finding_count, sizeof *m.chain);
    if (match_index_findings(pg, proc, &m)) {
        m.stack_list = ss_xcalloc(log->stack_count, sizeof *m.stack_list);
        for (size_t s = 0; s < log->stack_count; s++)
            m.stack_list[s] = STACK_UNSEEN;
        for (size_t e = 0; e < log->count; e++) {
            const ss_event *ev = &log->events[e];
            uint32_t sid = ev->type == SS_EV_API ? ev->u.api.stack : 0;
            if (sid == 0 || sid >= log->stack_count)
                continue;
            if (m.stack_list[sid] == STACK_UNSEEN)
                match_stack(pg, log, &m, sid);
            if (m.stack_list[sid] != SIZE_MAX)
                add_call_moments(pg, log, ev, &m.lists[m.stack_list[sid]], api_lane[e], t0);
        }
    }
    free(m.lists);
    free(m.stack_list);
    free(m.chain);
    ss_strmap_free(&m.sites);
}

/* Marks the stream lanes of process 'proc' from what 'log' says about its streams: the legacy
 * default stream (the CUPTI ids of calls given stream 0 or cudaStreamLegacy, not per-thread)
 * and the streams created non-blocking. */
static void page_mark_streams(page *pg, size_t first_lane, size_t proc, const ss_event_log *log)
{
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (ev->type == SS_EV_API && ev->u.api.stream_id != 0 && !ev->u.api.per_thread &&
            (ev->u.api.stream == SS_STREAM_LEGACY_NULL || ev->u.api.stream == SS_STREAM_LEGACY)) {
            const ss_api *row = ss_evlog_api(log, ev->u.api.name);
            if (row && row->stream_arg >= 0) {
                /* Two statements: the call may move pg->lanes, and in one expression the old
                 * pointer could be the one indexed. */
                size_t l =
                    page_lane_for(pg, first_lane, proc, 1, ev->u.api.stream_id, ev->u.api.device);
                pg->lanes[l].legacy = 1;
            }
        } else if (ev->type == SS_EV_STREAM) {
            size_t l =
                page_lane_for(pg, first_lane, proc, 1, ev->u.stream.stream_id, ev->u.stream.device);
            pg->lanes[l].non_blocking = (ev->u.stream.flags & SS_STREAM_FLAG_NON_BLOCKING) != 0;
            pg->lanes[l].device = ev->u.stream.device;
        }
    }
}

/* Whether event 'ev' is drawn on the timeline: a top-level API call or a GPU operation. */
static bool is_drawn(const ss_event *ev)
{
    return (ev->type == SS_EV_API && !ev->u.api.nested) || ev->type == SS_EV_KERNEL ||
           ev->type == SS_EV_MEMCPY || ev->type == SS_EV_MEMSET;
}

/* The index of the call of 'log' that created the CUDA context (docs/report.md, "Context
 * creation"): the earliest top-level API call that lasted CONTEXT_MIN_NS or more and was
 * entered before any work could be pending, that is before the first GPU operation started
 * and before the first call that enqueues work was entered (its own work aside). SIZE_MAX
 * when there is none. Its time is the driver setting up, not the host waiting for the GPU. */
static size_t context_creation_call(const ss_event_log *log)
{
    uint64_t first_work = UINT64_MAX;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        uint64_t at = UINT64_MAX;
        if (ev->type == SS_EV_API) {
            const ss_api *row = ss_evlog_api(log, ev->u.api.name);
            if (row != NULL && ss_api_enqueues(row))
                at = ev->u.api.enter_ns;
        } else if (is_drawn(ev)) {
            at = ev->u.gpu.start_ns;
        }
        if (at < first_work)
            first_work = at;
    }
    size_t found = SIZE_MAX;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (ev->type != SS_EV_API || ev->u.api.nested || ev->u.api.enter_ns > first_work ||
            ev->u.api.exit_ns < ev->u.api.enter_ns ||
            ev->u.api.exit_ns - ev->u.api.enter_ns < CONTEXT_MIN_NS)
            continue;
        if (found == SIZE_MAX || ev->u.api.enter_ns < log->events[found].u.api.enter_ns)
            found = e;
    }
    return found;
}

/* The drawing kind of the GPU operation 'ev'. */
static uint8_t gpu_op_kind(const ss_event *ev)
{
    if (ev->type == SS_EV_KERNEL)
        return OP_KERNEL;
    if (ev->type == SS_EV_MEMSET)
        return OP_MEMSET;
    switch (ev->u.gpu.copy_kind) {
    case SS_COPY_HTOD:
        return OP_HTOD;
    case SS_COPY_DTOH:
        return OP_DTOH;
    case SS_COPY_DTOD:
        return OP_DTOD;
    default:
        return OP_COPY_OTHER;
    }
}

/* Fills 'ops' (one per drawn event of 'log', in log order) and 'api_lane' (the lane of each
 * API call, by event index), creating the lanes of process 'proc'. Returns the number of
 * operations. */
static size_t page_collect_ops(page *pg, size_t first_lane, size_t proc, const ss_event_log *log,
                               page_op *ops, uint32_t *api_lane)
{
    size_t context_call = context_creation_call(log);
    uint32_t *name_map = ss_xcalloc(log->string_count, sizeof *name_map);
    size_t o = 0;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (!is_drawn(ev))
            continue;
        page_op *op = &ops[o++];
        uint32_t name;
        if (ev->type == SS_EV_API) {
            const ss_ev_api *a = &ev->u.api;
            size_t lane = page_lane_for(pg, first_lane, proc, 0, a->thread, -1);
            api_lane[e] = (uint32_t)lane;
            op->lane = (uint32_t)lane;
            op->start = a->enter_ns;
            op->end = a->exit_ns > a->enter_ns ? a->exit_ns : a->enter_ns;
            op->bytes = a->bytes;
            op->kind = OP_API;
            const ss_api *row = ss_evlog_api(log, a->name);
            if (e == context_call) {
                op->kind = OP_CONTEXT;
                pg->proc_context_ns[proc] = op->end - op->start;
            } else if (row && row->sync != SS_SYNC_NEVER && op->end - op->start >= BLOCKED_MIN_NS)
                op->kind = OP_BLOCKED;
            name = a->name;
        } else {
            const ss_ev_gpu *g = &ev->u.gpu;
            size_t lane = page_lane_for(pg, first_lane, proc, 1, g->stream_id, g->device);
            if (pg->lanes[lane].device < 0)
                pg->lanes[lane].device = g->device;
            op->lane = (uint32_t)lane;
            op->start = g->start_ns;
            op->end = g->end_ns > g->start_ns ? g->end_ns : g->start_ns;
            op->bytes = g->bytes;
            op->kind = gpu_op_kind(ev);
            name = g->name;
        }
        if (name >= log->string_count)
            name = 0;
        if (name_map[name] == 0)
            name_map[name] = page_name(pg, log->strings[name]) + 1;
        op->name = name_map[name] - 1;
    }
    free(name_map);
    return o;
}

/* Numbers the lanes of one process (from 'first_lane') in display order and renumbers the
 * lanes of its 'ops' and 'api_lane' to match. */
static void page_order_lanes(page *pg, size_t first_lane, const ss_event_log *log, page_op *ops,
                             size_t op_count, uint32_t *api_lane)
{
    size_t nl = pg->lane_count - first_lane;
    page_lane *sorted = ss_xcalloc(nl, sizeof *sorted);
    memcpy(sorted, pg->lanes + first_lane, nl * sizeof *sorted);
    for (size_t i = 0; i < nl; i++)
        sorted[i].ops = i; /* remember the old position */
    qsort(sorted, nl, sizeof *sorted, cmp_lane);
    uint32_t *renumber = ss_xcalloc(nl, sizeof *renumber);
    for (size_t i = 0; i < nl; i++) {
        renumber[sorted[i].ops] = (uint32_t)(first_lane + i);
        sorted[i].ops = 0;
    }
    memcpy(pg->lanes + first_lane, sorted, nl * sizeof *sorted);
    free(sorted);
    for (size_t i = 0; i < op_count; i++)
        ops[i].lane = renumber[ops[i].lane - first_lane];
    for (size_t e = 0; e < log->count; e++) {
        if (log->events[e].type == SS_EV_API && !log->events[e].u.api.nested)
            api_lane[e] = renumber[api_lane[e] - first_lane];
    }
    free(renumber);
}

/* Appends 'ops' (sorted here) to the five columns, times relative to 't0'. */
static void page_pack_ops(page *pg, page_op *ops, size_t op_count, uint64_t t0, bytes cols[5])
{
    qsort(ops, op_count, sizeof *ops, cmp_op);
    uint64_t prev = t0;
    uint32_t prev_lane = UINT32_MAX;
    for (size_t i = 0; i < op_count; i++) {
        const page_op *op = &ops[i];
        if (op->lane != prev_lane) {
            prev = t0;
            prev_lane = op->lane;
        }
        pg->lanes[op->lane].ops++;
        bytes_varint(&cols[0], op->start - prev);
        bytes_varint(&cols[1], op->end - op->start);
        bytes_add(&cols[2], &op->kind, 1);
        bytes_varint(&cols[3], op->name);
        bytes_varint(&cols[4], op->bytes);
        prev = op->start;
    }
    pg->op_total += op_count;
}

/* Adds the lanes and operations of process 'proc' from 'log' to the timeline. */
static void page_add_trace(page *pg, size_t proc, const ss_event_log *log, bytes cols[5])
{
    size_t first_lane = pg->lane_count;
    page_mark_streams(pg, first_lane, proc, log);
    uint64_t t0 = UINT64_MAX, t1 = 0;
    size_t op_count = 0;
    for (size_t e = 0; e < log->count; e++) {
        const ss_event *ev = &log->events[e];
        if (!is_drawn(ev))
            continue;
        op_count++;
        uint64_t s = ev->type == SS_EV_API ? ev->u.api.enter_ns : ev->u.gpu.start_ns;
        uint64_t f = ev->type == SS_EV_API ? ev->u.api.exit_ns : ev->u.gpu.end_ns;
        if (s < t0)
            t0 = s;
        if (f > t1)
            t1 = f;
    }
    if (op_count == 0)
        t0 = t1 = 0;
    pg->proc_t0[proc] = t0;
    pg->proc_span[proc] = t1 > t0 ? t1 - t0 : 0;

    page_op *ops = ss_xcalloc(op_count, sizeof *ops);
    uint32_t *api_lane = ss_xcalloc(log->count, sizeof *api_lane);
    page_collect_ops(pg, first_lane, proc, log, ops, api_lane);
    page_order_lanes(pg, first_lane, log, ops, op_count, api_lane);
    page_match_moments(pg, proc, log, api_lane, t0);
    free(api_lane);
    page_pack_ops(pg, ops, op_count, t0, cols);
    free(ops);
}

void ss_html_page_build_timeline(page *pg)
{
    bytes cols[5] = {{0}};
    for (size_t i = 0; i < pg->n; i++) {
        const ss_event_log *log = pg->opt->traces ? pg->opt->traces[i] : NULL;
        if (log && pg->results[i]->kind == SS_RESULT_RUN) {
            page_add_trace(pg, i, log, cols);
            pg->has_trace = 1;
        }
    }
    for (int c = 0; c < 5; c++) {
        pg->col_len[c] = cols[c].len;
        if (cols[c].len)
            bytes_add(&pg->blob, cols[c].data, cols[c].len);
        free(cols[c].data);
    }
}
