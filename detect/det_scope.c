/* det_scope.c: scopes (docs/run.md, "Scopes"): which calls lie inside the NVTX ranges, the
 * cudaProfilerStart/Stop regions and the syncscope.scope() regions of the event log, so that
 * only occurrences made inside count, and findings name the range they were observed in. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A range open on one thread (push/pop), in the order ranges were opened. */
typedef struct pushed {
    uint32_t name;
    uint64_t order;
} pushed;

/* The ranges one thread has pushed with one source, innermost last. */
typedef struct thread_stack {
    pushed *items;
    size_t count, cap;
    size_t named; /* items named like the --nvtx-range */
} thread_stack;

/* A range open for the process (start/end), linked with the other open ranges of its source
 * in the order they were opened. */
typedef struct started {
    uint64_t order;
    uint32_t name;
    uint32_t prev, next; /* DET_NONE at the ends */
    uint8_t source;
    uint8_t open;
} started;

/* The open start/end ranges of one source. */
typedef struct started_list {
    uint32_t head, tail; /* DET_NONE when none is open */
    size_t count;
    size_t named; /* open ranges named like the --nvtx-range */
} started_list;

typedef struct det_scope {
    uint8_t *keep;     /* per call: 1 when it lies inside every scope asked for */
    uint32_t *nvtx;    /* per call: the innermost NVTX range around it (string id), 0: none */
    uint32_t *program; /* per call: the innermost syncscope.scope() around it, 0: none */
    int need_profiler; /* --profile-from-start off */
    int need_nvtx;     /* --nvtx-range */
    int need_program;  /* the log has syncscope.scope() marks */
    uint32_t nvtx_name;
    int saw_profiler;  /* a cudaProfilerStart was seen */
    int saw_named;     /* a range named like the --nvtx-range was opened */
    uint64_t left_out; /* occurrences outside the scope */
} det_scope;

/* The working state of one pass over the log. */
typedef struct scope_walk {
    ss_map stack_of; /* (thread, source) -> index into 'stacks' */
    thread_stack *stacks;
    size_t stack_count, stack_cap;
    ss_map started_at; /* (id, source) -> index into 'ranges' */
    started *ranges;
    size_t range_count, range_cap;
    started_list lists[2]; /* by source */
    int profiler_on;
    uint64_t order;
} scope_walk;

/* The id of 'text' in the log, or 0 when the log has no such string. */
static uint32_t find_string(const ss_event_log *log, const char *text)
{
    for (size_t i = 1; i < log->string_count; i++) {
        if (strcmp(log->strings[i], text) == 0)
            return (uint32_t)i;
    }
    return 0;
}

/* The stack of ('thread', 'source'), made when new; NULL when memory is exhausted. */
static thread_stack *stack_of(scope_walk *w, uint32_t thread, uint8_t source)
{
    uint32_t s = ss_map_get(&w->stack_of, thread, source);
    if (s != DET_NONE)
        return &w->stacks[s];
    if (ss_grow((void **)&w->stacks, &w->stack_cap, w->stack_count + 1, sizeof *w->stacks) < 0 ||
        ss_map_put(&w->stack_of, thread, source, (uint32_t)w->stack_count) < 0)
        return NULL;
    thread_stack *st = &w->stacks[w->stack_count++];
    memset(st, 0, sizeof *st);
    return st;
}

static int push(det_scope *sc, scope_walk *w, const ss_ev_scope *m)
{
    thread_stack *st = stack_of(w, m->thread, m->source);
    if (st == NULL || ss_grow((void **)&st->items, &st->cap, st->count + 1, sizeof *st->items) < 0)
        return -1;
    st->items[st->count++] = (pushed){m->name, ++w->order};
    if (m->source == SS_SCOPE_FROM_NVTX && sc->nvtx_name != 0 && m->name == sc->nvtx_name) {
        st->named++;
        sc->saw_named = 1;
    }
    return 0;
}

static int pop(det_scope *sc, scope_walk *w, const ss_ev_scope *m)
{
    thread_stack *st = stack_of(w, m->thread, m->source);
    if (st == NULL)
        return -1;
    if (st->count == 0)
        return 0; /* a pop without its push (pushed before the capture began): nothing to close */
    const pushed *top = &st->items[--st->count];
    if (m->source == SS_SCOPE_FROM_NVTX && sc->nvtx_name != 0 && top->name == sc->nvtx_name)
        st->named--;
    return 0;
}

static int start(det_scope *sc, scope_walk *w, const ss_ev_scope *m)
{
    if (ss_grow((void **)&w->ranges, &w->range_cap, w->range_count + 1, sizeof *w->ranges) < 0 ||
        ss_map_put(&w->started_at, m->id, m->source, (uint32_t)w->range_count) < 0)
        return -1;
    uint32_t r = (uint32_t)w->range_count++;
    started_list *list = &w->lists[m->source];
    w->ranges[r] = (started){++w->order, m->name, list->tail, DET_NONE, m->source, 1};
    if (list->tail != DET_NONE)
        w->ranges[list->tail].next = r;
    else
        list->head = r;
    list->tail = r;
    list->count++;
    if (m->source == SS_SCOPE_FROM_NVTX && sc->nvtx_name != 0 && m->name == sc->nvtx_name) {
        list->named++;
        sc->saw_named = 1;
    }
    return 0;
}

static void end(det_scope *sc, scope_walk *w, const ss_ev_scope *m)
{
    uint32_t r = ss_map_get(&w->started_at, m->id, m->source);
    if (r == DET_NONE || !w->ranges[r].open)
        return; /* an end without its start: nothing to close */
    started *range = &w->ranges[r];
    started_list *list = &w->lists[m->source];
    range->open = 0;
    if (range->prev != DET_NONE)
        w->ranges[range->prev].next = range->next;
    else
        list->head = range->next;
    if (range->next != DET_NONE)
        w->ranges[range->next].prev = range->prev;
    else
        list->tail = range->prev;
    list->count--;
    if (m->source == SS_SCOPE_FROM_NVTX && sc->nvtx_name != 0 && range->name == sc->nvtx_name)
        list->named--;
}

/* Applies scope mark 'm'. Returns 0, or -1 when memory is exhausted. */
static int apply_mark(det_scope *sc, scope_walk *w, const ss_ev_scope *m)
{
    if (m->source > SS_SCOPE_FROM_PROGRAM)
        return 0; /* a source of a newer trace format */
    switch (m->kind) {
    case SS_SCOPE_PROFILER_START:
        w->profiler_on = 1;
        sc->saw_profiler = 1;
        return 0;
    case SS_SCOPE_PROFILER_STOP:
        w->profiler_on = 0;
        return 0;
    case SS_SCOPE_PUSH:
        return push(sc, w, m);
    case SS_SCOPE_POP:
        return pop(sc, w, m);
    case SS_SCOPE_START:
        return start(sc, w, m);
    case SS_SCOPE_END:
        end(sc, w, m);
        return 0;
    default:
        return 0; /* a kind of a newer trace format */
    }
}

/* The name of the innermost range of 'source' around a call of 'thread': the later opened of
 * the thread's innermost pushed range and the process's innermost started one; 0 when none is
 * open. */
static uint32_t innermost(scope_walk *w, uint32_t thread, uint8_t source)
{
    uint32_t s = ss_map_get(&w->stack_of, thread, source);
    const thread_stack *st = s != DET_NONE ? &w->stacks[s] : NULL;
    const pushed *top = st != NULL && st->count > 0 ? &st->items[st->count - 1] : NULL;
    const started_list *list = &w->lists[source];
    const started *last = list->tail != DET_NONE ? &w->ranges[list->tail] : NULL;
    if (top != NULL && (last == NULL || top->order > last->order))
        return top->name;
    return last != NULL ? last->name : 0;
}

/* Whether a call of 'thread' lies inside every scope asked for, with the state after the
 * marks made before it. */
static int inside(const det_scope *sc, scope_walk *w, uint32_t thread)
{
    if (sc->need_profiler && !w->profiler_on)
        return 0;
    if (sc->need_nvtx) {
        uint32_t s = ss_map_get(&w->stack_of, thread, SS_SCOPE_FROM_NVTX);
        size_t named = s != DET_NONE ? w->stacks[s].named : 0;
        if (named == 0 && w->lists[SS_SCOPE_FROM_NVTX].named == 0)
            return 0;
    }
    if (sc->need_program) {
        uint32_t s = ss_map_get(&w->stack_of, thread, SS_SCOPE_FROM_PROGRAM);
        size_t open = s != DET_NONE ? w->stacks[s].count : 0;
        if (open == 0 && w->lists[SS_SCOPE_FROM_PROGRAM].count == 0)
            return 0;
    }
    return 1;
}

static void walk_free(scope_walk *w)
{
    for (size_t i = 0; i < w->stack_count; i++)
        free(w->stacks[i].items);
    free(w->stacks);
    free(w->ranges);
    ss_map_free(&w->stack_of);
    ss_map_free(&w->started_at);
}

/* One pass over the log in time order: each call gets the scope state left by the marks made
 * before it (a mark and a call at the same time: the mark first when it was logged first). */
static int walk(det_ctx *ctx, det_scope *sc)
{
    scope_walk w;
    memset(&w, 0, sizeof w);
    for (int i = 0; i < 2; i++)
        w.lists[i].head = w.lists[i].tail = DET_NONE;
    const ss_event_log *log = ctx->log;
    size_t call = 0;
    int rc = 0;
    for (size_t i = 0; i < log->count && rc == 0; i++) {
        const ss_event *e = &log->events[i];
        if (e->type == SS_EV_SCOPE) {
            rc = apply_mark(sc, &w, &e->u.scope);
        } else if (e->type == SS_EV_API && call < ctx->call_count) {
            uint32_t thread = e->u.api.thread;
            sc->keep[call] = (uint8_t)inside(sc, &w, thread);
            sc->nvtx[call] = innermost(&w, thread, SS_SCOPE_FROM_NVTX);
            sc->program[call] = innermost(&w, thread, SS_SCOPE_FROM_PROGRAM);
            call++;
        }
    }
    walk_free(&w);
    return rc;
}

int det_scope_build(det_ctx *ctx)
{
    const ss_event_log *log = ctx->log;
    int marks = 0, program = 0;
    for (size_t i = 0; i < log->count; i++) {
        if (log->events[i].type != SS_EV_SCOPE)
            continue;
        marks = 1;
        program |= log->events[i].u.scope.source == SS_SCOPE_FROM_PROGRAM;
    }
    const char *range = ctx->opt->nvtx_range;
    int need_nvtx = range != NULL && range[0] != '\0';
    if (!marks && !need_nvtx && ctx->opt->profile_from_start)
        return 0; /* nothing to scope and nothing to name: every call counts */
    det_scope *sc = calloc(1, sizeof *sc);
    size_t n = ctx->call_count ? ctx->call_count : 1;
    if (sc == NULL)
        return -1;
    ctx->scope = sc;
    sc->keep = calloc(n, sizeof *sc->keep);
    sc->nvtx = calloc(n, sizeof *sc->nvtx);
    sc->program = calloc(n, sizeof *sc->program);
    if (sc->keep == NULL || sc->nvtx == NULL || sc->program == NULL)
        return -1;
    sc->need_profiler = !ctx->opt->profile_from_start;
    sc->need_nvtx = need_nvtx;
    sc->need_program = program;
    sc->nvtx_name = need_nvtx ? find_string(log, range) : 0;
    return walk(ctx, sc);
}

int det_scope_keeps(det_ctx *ctx, uint32_t call)
{
    det_scope *sc = ctx->scope;
    if (sc == NULL)
        return 1;
    if (call < ctx->call_count && sc->keep[call])
        return 1;
    sc->left_out++;
    return 0;
}

void det_scope_annotate(det_ctx *ctx, uint32_t call, ss_finding *finding)
{
    const det_scope *sc = ctx->scope;
    if (sc == NULL || call >= ctx->call_count)
        return;
    const ss_event_log *log = ctx->log;
    if (sc->nvtx[call] != 0 && sc->nvtx[call] < log->string_count)
        ss_finding_add_extra(finding, "nvtx", log->strings[sc->nvtx[call]]);
    if (sc->program[call] != 0 && sc->program[call] < log->string_count)
        ss_finding_add_extra(finding, "scope", log->strings[sc->program[call]]);
}

/* The NVTX ranges that were opened, each name once in the order first seen, quoted and
 * joined ("'fwd', 'bwd' and 'opt'"): the first SEEN_LISTED names, then "and others" when there
 * were more. "" when none was. Malloc'ed. */
#define SEEN_LISTED 8
static char *ranges_seen(const ss_event_log *log)
{
    uint32_t seen[SEEN_LISTED];
    size_t listed = 0;
    int others = 0;
    for (size_t i = 0; i < log->count && !others; i++) {
        const ss_event *e = &log->events[i];
        if (e->type != SS_EV_SCOPE || e->u.scope.source != SS_SCOPE_FROM_NVTX ||
            (e->u.scope.kind != SS_SCOPE_PUSH && e->u.scope.kind != SS_SCOPE_START))
            continue;
        uint32_t name = e->u.scope.name;
        if (name == 0 || name >= log->string_count)
            continue;
        size_t k = 0;
        while (k < listed && seen[k] != name)
            k++;
        if (k < listed)
            continue;
        if (listed < SEEN_LISTED)
            seen[listed++] = name;
        else
            others = 1;
    }
    char *text = ss_xstrdup("");
    for (size_t k = 0; k < listed; k++) {
        const char *sep = k == 0 ? "" : k + 1 == listed && !others ? " and " : ", ";
        char *joined = ss_xasprintf("%s%s'%s'", text, sep, log->strings[seen[k]]);
        free(text);
        text = joined;
    }
    if (others) {
        char *joined = ss_xasprintf("%s and others", text);
        free(text);
        text = joined;
    }
    return text;
}

void det_scope_report(det_ctx *ctx, ss_result *out)
{
    const det_scope *sc = ctx->scope;
    if (sc == NULL || !(sc->need_profiler || sc->need_nvtx || sc->need_program))
        return;
    if (sc->need_profiler && !sc->saw_profiler)
        ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0,
                           "the program never called cudaProfilerStart: with "
                           "--profile-from-start off no call is in scope");
    if (sc->need_nvtx && !sc->saw_named) {
        char *seen = ranges_seen(ctx->log);
        char *msg;
        if (seen[0] != '\0')
            msg = ss_xasprintf("no NVTX range named '%s' was seen: no call is in scope (the "
                               "ranges seen: %s)",
                               ctx->opt->nvtx_range, seen);
        else
            msg = ss_xasprintf("no NVTX range named '%s' was seen, nor any other: no call is in "
                               "scope (NVTX ranges are seen under syncscope run or LD_PRELOAD "
                               "unless %s turns them off or NVTX_INJECTION64_PATH names another "
                               "tool)",
                               ctx->opt->nvtx_range, "SYNCSCOPE_NVTX=0");
        ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
        free(msg);
        free(seen);
    }
    /* Which scopes, in words: "inside NVTX range 'step', between cudaProfilerStart and
     * cudaProfilerStop and inside syncscope.scope()". */
    char *what = ss_xstrdup("");
    const char *parts[3];
    size_t n = 0;
    char *range = NULL;
    if (sc->need_nvtx) {
        range = ss_xasprintf("inside NVTX range '%s'", ctx->opt->nvtx_range);
        parts[n++] = range;
    }
    if (sc->need_profiler)
        parts[n++] = "between cudaProfilerStart and cudaProfilerStop";
    if (sc->need_program)
        parts[n++] = "inside syncscope.scope()";
    for (size_t i = 0; i < n; i++) {
        char *joined = ss_xasprintf("%s%s%s", what,
                                    i == 0       ? ""
                                    : i + 1 == n ? " and "
                                                 : ", ",
                                    parts[i]);
        free(what);
        what = joined;
    }
    char *msg = ss_xasprintf("scope: only calls made %s count; %" PRIu64 " occurrence%s outside %s "
                             "left out",
                             what, sc->left_out, sc->left_out == 1 ? "" : "s",
                             sc->left_out == 1 ? "was" : "were");
    ss_result_add_diag(out, SS_SEV_NOTE, NULL, 0, 0, msg);
    free(msg);
    free(what);
    free(range);
}

void det_scope_free(det_ctx *ctx)
{
    det_scope *sc = ctx->scope;
    if (sc == NULL)
        return;
    free(sc->keep);
    free(sc->nvtx);
    free(sc->program);
    free(sc);
    ctx->scope = NULL;
}

void ss_detect_scope_from_log(ss_detect_options *options, const ss_event_log *log)
{
    const char *from_start = ss_evlog_get_meta(log, SS_META_PROFILE_FROM_START);
    if (from_start != NULL && strcmp(from_start, "0") == 0)
        options->profile_from_start = 0;
    const char *range = ss_evlog_get_meta(log, SS_META_NVTX_RANGE);
    if (range != NULL && range[0] != '\0')
        options->nvtx_range = range;
}
