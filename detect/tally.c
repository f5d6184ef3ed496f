/* tally.c: the light mode's calls past the memory cap (docs/run.md, "Cost and memory"), which
 * the capture counts by kind (ss_tally) rather than keeps: each tally is judged as the calls of
 * its kind that the log kept before the cap were. Where every one of them was made an
 * occurrence of one finding, in the same way (latent or not), the tally's calls are added to
 * that finding (its count, time, bytes and figures, the time and figures as the kept calls of
 * the kind had them); where none was made any finding's, the tally's calls are none's either.
 * A tally whose kind no kept call has is judged by its first call, which the detectors judge
 * as a call of its own (its sample, added to the log for them: det_tally_add_samples). A tally
 * whose kept calls, or whose sample's occurrences, were judged in different ways is not
 * judged: its calls are counted in a warning. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* What the kept calls of a kind were made: not seen yet, one verdict, or several. */
enum { KIND_UNSEEN, KIND_ONE, KIND_MIXED };

/* What the kept calls of one kind were made, and what their occurrences held: the figures of
 * the last one and how much longer than the call itself each one's time was, added up. */
typedef struct kind_state {
    int state;
    uint32_t verdict; /* det_ctx.verdicts' word, with KIND_ONE */
    int has_figures;
    det_figures figures;
    /* the occurrences; their time beyond the call's own, added up ('extra_ns'), the calls' own
     * time, and the part of it the occurrences did not count ('short_ns': a latent readback
     * that found nothing pending counts none of its own time) */
    uint64_t hits, extra_ns, own_ns, short_ns;
} kind_state;

/* The kinds of the tallies: 'exact' by the kind with the neighbours' words (ss_tally.prev,
 * next), 'loose' by the kind without them, for a tally of one call whose neighbours no kept
 * call had (a loop's last iteration, the first call past the cap). Per tally, the state of its
 * exact kind ('exact_states', at the first tally of that kind) and of its loose kind
 * ('loose_states', likewise). 'prev' holds each call's previous call (DET_NONE: it is no
 * call's next); 'last' per thread the last kept call of a thread with tallies (DET_NONE). */
typedef struct det_tally_kinds {
    ss_map exact, loose;
    kind_state *exact_states, *loose_states;
    uint32_t *prev;
    uint32_t *last;
    size_t thread_slots;
    /* With samples (ctx->tally_sampled): per call the tally it is the sample of (SS_MAP_NONE:
     * a kept call), per tally its sample's call (DET_NONE) and what the detectors made of it. */
    uint32_t *sample_of, *sample_call;
    kind_state *sample_states;
} det_tally_kinds;

/* The second word of the key of a call of kind 'a' (the first: its thread and stack), long or
 * not, with the words of its neighbours (ss_tally); 'loose' for the kind without them. */
static uint64_t kind_word(const ss_ev_api *a, int long_call, uint64_t prev, uint64_t next,
                          int loose)
{
    return loose ? ss_tally_kind_hash(a, long_call, 0, 0) ^ 0x9e3779b97f4a7c15ull
                 : ss_tally_kind_hash(a, long_call, prev, next);
}

/* Whether kept call 'c' lasted at least the run's min_blocked_ns, as the capture decided for a
 * counted call (ss_tally.long_calls). */
static int long_call(const det_ctx *ctx, uint32_t c)
{
    return det_blocked_ns(&ctx->calls[c]) >= ctx->probe_exit_min_ns;
}

/* The word of kept call 'c' as a neighbour (ss_tally_neighbor), 0 for DET_NONE. */
static uint64_t neighbor(const det_ctx *ctx, uint32_t c)
{
    return c == DET_NONE ? 0 : ss_tally_neighbor(ctx->calls[c].ev, long_call(ctx, c));
}

/* Whether tallies 'a' and 'b' count one kind of call ('loose': neighbours aside). */
static int same_tally_kind(const ss_tally *a, const ss_tally *b, int loose)
{
    return a->long_calls == b->long_calls &&
           (loose || (a->prev == b->prev && a->next == b->next)) &&
           ss_tally_same_kind(&a->call, &b->call);
}

/* The tally whose kind ('loose' or exact) kept call 'c' has, or SS_MAP_NONE. */
static uint32_t kind_of_call(const det_ctx *ctx, const det_tally_kinds *kd, uint32_t c, int loose)
{
    const ss_ev_api *a = ctx->calls[c].ev;
    int is_long = long_call(ctx, c);
    uint64_t before = neighbor(ctx, kd->prev[c]), after = neighbor(ctx, ctx->calls[c].next);
    uint32_t k = ss_map_get(loose ? &kd->loose : &kd->exact, (uint64_t)a->thread << 32 | a->stack,
                            kind_word(a, is_long, before, after, loose));
    if (k == SS_MAP_NONE)
        return SS_MAP_NONE;
    const ss_tally *t = &ctx->log->tallies[k];
    int same = t->long_calls == is_long && ss_tally_same_kind(&t->call, a) &&
               (loose || (t->prev == before && t->next == after));
    return same ? k : SS_MAP_NONE;
}

/* The tally of the kind of tally 'k' whose state judges it ('loose' or exact), or SS_MAP_NONE
 * (another kind of the same hash). */
static uint32_t kind_of_tally(const det_ctx *ctx, const det_tally_kinds *kd, size_t k, int loose)
{
    const ss_tally *t = &ctx->log->tallies[k];
    uint32_t first =
        ss_map_get(loose ? &kd->loose : &kd->exact, (uint64_t)t->call.thread << 32 | t->call.stack,
                   kind_word(&t->call, t->long_calls, t->prev, t->next, loose));
    if (first == SS_MAP_NONE || !same_tally_kind(&ctx->log->tallies[first], t, loose))
        return SS_MAP_NONE;
    return first;
}

/* Indexes the tallies by kind, exact and loose; a tally of an exact kind seen already (two
 * stacks of the capture that became one in the log) is added into the first and its count
 * set to 0. Returns 0 or -1. */
static int index_kinds(det_ctx *ctx, det_tally_kinds *kd)
{
    for (size_t k = 0; k < ctx->log->tally_count; k++) {
        ss_tally *t = &ctx->log->tallies[k];
        uint64_t at = (uint64_t)t->call.thread << 32 | t->call.stack;
        uint32_t first = ss_map_put_first(
            &kd->exact, at, kind_word(&t->call, t->long_calls, t->prev, t->next, 0), (uint32_t)k);
        if (first == SS_MAP_NONE ||
            ss_map_put_first(&kd->loose, at, kind_word(&t->call, t->long_calls, 0, 0, 1),
                             (uint32_t)k) == SS_MAP_NONE)
            return -1;
        ss_tally *into = &ctx->log->tallies[first];
        if (first == k || !same_tally_kind(into, t, 0))
            continue; /* its own, or another kind of the same hash: judged apart */
        into->count += t->count;
        into->total_ns += t->total_ns;
        into->bytes += t->bytes;
        if (t->max_ns > into->max_ns)
            into->max_ns = t->max_ns;
        if (t->call.exit_ns > into->call.exit_ns)
            into->call.exit_ns = t->call.exit_ns;
        t->count = 0;
    }
    return 0;
}

/* Whether call 'c' is a tally's sample rather than a kept call. */
static int is_sample(const det_tally_kinds *kd, uint32_t c)
{
    return kd->sample_of != NULL && kd->sample_of[c] != SS_MAP_NONE;
}

/* The key of a tally's sample among the calls: its thread and stack, and its entry. */
static uint64_t sample_key(const ss_ev_api *a)
{
    return (uint64_t)a->thread << 32 | a->stack;
}

/* Indexes the samples of the tallies 'sampled' marks in 'map' by thread, stack and entry.
 * Returns 0 or -1. */
static int index_samples(const ss_event_log *log, const uint8_t *sampled, ss_map *map)
{
    for (size_t k = 0; k < log->tally_count; k++) {
        if (sampled[k] == DET_TALLY_SAMPLED &&
            ss_map_put_first(map, sample_key(&log->tallies[k].call), log->tallies[k].call.enter_ns,
                             (uint32_t)k) == SS_MAP_NONE)
            return -1;
    }
    return 0;
}

/* The tally whose sample call 'a' is, or SS_MAP_NONE (a kept call). */
static uint32_t sample_tally(const ss_event_log *log, const ss_map *map, const ss_ev_api *a)
{
    uint32_t k = ss_map_get(map, sample_key(a), a->enter_ns);
    if (k == SS_MAP_NONE)
        return SS_MAP_NONE;
    const ss_ev_api *t = &log->tallies[k].call;
    return t->api == a->api && t->domain == a->domain && a->correlation == 0 ? k : SS_MAP_NONE;
}

/* Finds the samples among the calls (kd->sample_of, sample_call). Returns 0 or -1. */
static int bind_samples(det_ctx *ctx, det_tally_kinds *kd)
{
    size_t n = ctx->log->tally_count;
    kd->sample_of = malloc((ctx->call_count + 1) * sizeof *kd->sample_of);
    kd->sample_call = malloc(n * sizeof *kd->sample_call);
    kd->sample_states = calloc(n, sizeof *kd->sample_states);
    ss_map map = {0};
    if (kd->sample_of == NULL || kd->sample_call == NULL || kd->sample_states == NULL ||
        index_samples(ctx->log, ctx->tally_sampled, &map) < 0) {
        ss_map_free(&map);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        kd->sample_call[k] = DET_NONE;
    for (size_t c = 0; c < ctx->call_count; c++) {
        uint32_t k = sample_tally(ctx->log, &map, ctx->calls[c].ev);
        kd->sample_of[c] = k;
        if (k != SS_MAP_NONE)
            kd->sample_call[k] = (uint32_t)c;
    }
    ss_map_free(&map);
    return 0;
}

/* Each call's previous call, and per thread with tallies its last kept call (by entry: the
 * calls are in entry order). Returns 0 or -1. */
static int index_calls(det_ctx *ctx, det_tally_kinds *kd)
{
    kd->prev = malloc((ctx->call_count + 1) * sizeof *kd->prev);
    uint32_t threads = 0;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (ctx->calls[i].ev->thread > threads)
            threads = ctx->calls[i].ev->thread;
    }
    kd->thread_slots = (size_t)threads + 1;
    kd->last = malloc(kd->thread_slots * sizeof *kd->last);
    if (kd->prev == NULL || kd->last == NULL)
        return -1;
    for (size_t i = 0; i < ctx->call_count; i++)
        kd->prev[i] = DET_NONE;
    for (size_t i = 0; i < kd->thread_slots; i++)
        kd->last[i] = DET_NONE;
    for (size_t i = 0; i < ctx->call_count; i++) {
        const det_call *c = &ctx->calls[i];
        if (c->next != DET_NONE && c->next < ctx->call_count)
            kd->prev[c->next] = (uint32_t)i;
        if (!c->enclosed && c->ev->thread < kd->thread_slots && !is_sample(kd, (uint32_t)i))
            kd->last[c->ev->thread] = (uint32_t)i;
    }
    /* only threads with tallies: their last kept call's next was counted, not kept */
    uint8_t *tallied = calloc(kd->thread_slots, 1);
    if (tallied == NULL)
        return -1;
    for (size_t k = 0; k < ctx->log->tally_count; k++) {
        if (ctx->log->tallies[k].call.thread < kd->thread_slots)
            tallied[ctx->log->tallies[k].call.thread] = 1;
    }
    for (size_t i = 0; i < kd->thread_slots; i++) {
        if (!tallied[i])
            kd->last[i] = DET_NONE;
    }
    free(tallied);
    return 0;
}

int det_tally_prepare(det_ctx *ctx)
{
    size_t n = ctx->log->tally_count;
    if (n == 0)
        return 0;
    det_tally_kinds *kd = calloc(1, sizeof *kd);
    ctx->tally_kinds = kd;
    ctx->verdicts = calloc(ctx->call_count + 1, sizeof *ctx->verdicts);
    if (kd == NULL || ctx->verdicts == NULL)
        return -1;
    kd->exact_states = calloc(n, sizeof *kd->exact_states);
    kd->loose_states = calloc(n, sizeof *kd->loose_states);
    if (kd->exact_states == NULL || kd->loose_states == NULL || index_kinds(ctx, kd) < 0)
        return -1;
    if (ctx->tally_sampled != NULL && bind_samples(ctx, kd) < 0)
        return -1;
    return index_calls(ctx, kd);
}

void det_tally_free(det_ctx *ctx)
{
    det_tally_kinds *kd = ctx->tally_kinds;
    if (kd != NULL) {
        ss_map_free(&kd->exact);
        ss_map_free(&kd->loose);
        free(kd->exact_states);
        free(kd->loose_states);
        free(kd->prev);
        free(kd->last);
        free(kd->sample_of);
        free(kd->sample_call);
        free(kd->sample_states);
        free(kd);
    }
    free(ctx->verdicts);
    ctx->tally_kinds = NULL;
    ctx->verdicts = NULL;
}

/* Whether kept call 'c' is its thread's last before its tallies (judged as one of them). */
static int last_kept(const det_tally_kinds *kd, const det_ctx *ctx, uint32_t c)
{
    uint32_t thread = ctx->calls[c].ev->thread;
    return thread < kd->thread_slots && kd->last[thread] == c;
}

/* Adds what occurrence 'hit' of kept call 'c' held (its figures, its time beyond the call's
 * own) to state 's'. */
static void note_hit(det_ctx *ctx, kind_state *s, const det_hit *hit, uint32_t c)
{
    uint64_t own = det_blocked_ns(&ctx->calls[c]);
    s->figures = hit->figures;
    s->has_figures = 1;
    s->hits++;
    s->extra_ns += hit->ns > own ? hit->ns - own : 0;
    s->own_ns += own;
    s->short_ns += hit->ns < own ? own - hit->ns : 0;
}

void det_tally_note(det_ctx *ctx, const det_hit *hit, size_t agg)
{
    uint32_t c = hit->call;
    det_tally_kinds *kd = ctx->tally_kinds;
    if (ctx->verdicts == NULL || kd == NULL || c >= ctx->call_count)
        return;
    uint32_t verdict = (uint32_t)(agg + 1) << 1 | (hit->latent ? 1u : 0u);
    uint32_t *seen = &ctx->verdicts[c];
    *seen = *seen == 0 || *seen == verdict ? verdict : DET_VERDICT_SEVERAL;
    if (is_sample(kd, c)) {
        note_hit(ctx, &kd->sample_states[kd->sample_of[c]], hit, c);
        return;
    }
    if (last_kept(kd, ctx, c))
        return;
    uint32_t k = kind_of_call(ctx, kd, c, 0);
    if (k != SS_MAP_NONE)
        note_hit(ctx, &kd->exact_states[k], hit, c);
    k = kind_of_call(ctx, kd, c, 1);
    if (k != SS_MAP_NONE)
        note_hit(ctx, &kd->loose_states[k], hit, c);
}

/* Notes 'verdict' in 's'. */
static void note_verdict(kind_state *s, uint32_t verdict)
{
    if (s->state == KIND_UNSEEN) {
        s->state = KIND_ONE;
        s->verdict = verdict;
    } else if (s->verdict != verdict) {
        s->state = KIND_MIXED;
    }
}

/* Notes every kept call's verdict in its kinds' states, but each thread's last kept call
 * before its tallies, whose next was counted (it is judged with them, judge_last). */
/* Whether call 'c' is a kept call whose kinds judge tallies (not an enclosed call, its
 * thread's last kept call or a sample), with its exact and loose kinds' tallies (SS_MAP_NONE:
 * none) in '*exact' and '*loose'. */
static int kept_kinds(const det_ctx *ctx, const det_tally_kinds *kd, uint32_t c, uint32_t *exact,
                      uint32_t *loose)
{
    if (ctx->calls[c].enclosed || last_kept(kd, ctx, c) || is_sample(kd, c))
        return 0;
    *exact = kind_of_call(ctx, kd, c, 0);
    *loose = kind_of_call(ctx, kd, c, 1);
    return 1;
}

static void note_calls(det_ctx *ctx, det_tally_kinds *kd)
{
    uint32_t exact, loose;
    for (uint32_t c = 0; c < ctx->call_count; c++) {
        if (!kept_kinds(ctx, kd, c, &exact, &loose))
            continue;
        if (exact != SS_MAP_NONE)
            note_verdict(&kd->exact_states[exact], ctx->verdicts[c]);
        if (loose != SS_MAP_NONE)
            note_verdict(&kd->loose_states[loose], ctx->verdicts[c]);
    }
}

/* Adds 'figures' 'times' times to 'sum' through the family's fold (doubling: as many folds as
 * the count has bits). */
static void fold_times(const det_family *family, det_figures *sum, det_figures figures,
                       uint64_t times)
{
    if (family == NULL || family->fold == NULL)
        return;
    while (times > 0) {
        if (times & 1)
            family->fold(sum, &figures);
        times >>= 1;
        if (times > 0) {
            det_figures twice = figures;
            family->fold(&twice, &figures);
            figures = twice;
        }
    }
}

/* Adds 'count' calls of summed time 'total_ns' and longest 'max_ns' and 'bytes' to finding 'a'
 * as state 's' says its kept calls of that kind were (latent or not, their time beyond the
 * call's own or the part of it they did not count, their figures). */
static void add_to_finding(det_agg *a, const kind_state *s, uint64_t count, uint64_t total_ns,
                           uint64_t max_ns, uint64_t bytes)
{
    uint64_t extra = s->hits > 0 ? s->extra_ns / s->hits : 0;
    if (s->short_ns > 0 && s->own_ns > 0) {
        /* the kept occurrences counted only part of their calls' own time: as much of theirs */
        double kept = 1.0 - (double)s->short_ns / (double)s->own_ns;
        total_ns = (uint64_t)((double)total_ns * kept);
        max_ns = (uint64_t)((double)max_ns * kept);
    }
    total_ns += extra * count;
    max_ns += extra;
    det_agg_count(a, (int)(s->verdict & 1), count, total_ns, max_ns);
    a->bytes += bytes;
    a->tallied += count;
    if (s->has_figures)
        fold_times(a->family, &a->figures, s->figures, count);
}

/* The state that judges tally 'k': its exact kind's; for a tally whose exact kind no kept call
 * had, of one call or whose first call lacks the call its calls followed (DET_TALLY_LACKING),
 * its loose kind's. NULL: none. */
static const kind_state *judging_state(const det_ctx *ctx, const det_tally_kinds *kd, size_t k)
{
    uint32_t exact = kind_of_tally(ctx, kd, k, 0);
    if (exact != SS_MAP_NONE && kd->exact_states[exact].state != KIND_UNSEEN)
        return &kd->exact_states[exact];
    int lacking = ctx->tally_sampled != NULL && ctx->tally_sampled[k] == DET_TALLY_LACKING;
    if (ctx->log->tallies[k].count != 1 && !lacking)
        return NULL;
    uint32_t loose = kind_of_tally(ctx, kd, k, 1);
    return loose != SS_MAP_NONE ? &kd->loose_states[loose] : NULL;
}

/* Whether state 's' gives a verdict. */
static int judges(const kind_state *s)
{
    return s != NULL && s->state == KIND_ONE && s->verdict != DET_VERDICT_SEVERAL;
}

/* Each thread's last kept call before its tallies, which the detectors judged without its
 * next: where it was made no finding's occurrence and its loose kind's kept calls were all
 * made one finding's, it is added to that finding, as a counted call of its kind. */
static void judge_last(det_ctx *ctx, det_tally_kinds *kd)
{
    for (size_t i = 0; i < kd->thread_slots; i++) {
        uint32_t c = kd->last[i];
        if (c == DET_NONE || ctx->verdicts[c] != 0)
            continue;
        uint32_t loose = kind_of_call(ctx, kd, c, 1);
        const kind_state *s = loose != SS_MAP_NONE ? &kd->loose_states[loose] : NULL;
        if (!judges(s) || s->verdict == 0)
            continue;
        uint64_t own = det_blocked_ns(&ctx->calls[c]);
        add_to_finding(&ctx->aggs[(s->verdict >> 1) - 1], s, 1, own, own, ctx->calls[c].ev->bytes);
    }
}

/* Tally 'k', whose kind no kept call had, as the detectors judged its sample (its first call,
 * one of its calls, which they counted already): the other calls are added to the finding the
 * sample was made an occurrence of (none where it was none's), with the sample's figures and
 * its time beyond the call's own. */
static void judge_by_sample(det_ctx *ctx, det_tally_kinds *kd, size_t k)
{
    const ss_tally *t = &ctx->log->tallies[k];
    uint32_t c = kd->sample_call[k];
    uint32_t verdict = ctx->verdicts[c];
    ctx->tally_by_sample += t->count;
    ctx->tally_by_sample_kinds++;
    if (verdict == 0)
        return;
    kind_state s = kd->sample_states[k];
    s.state = KIND_ONE;
    s.verdict = verdict;
    det_agg *a = &ctx->aggs[(verdict >> 1) - 1];
    uint64_t own = det_blocked_ns(&ctx->calls[c]);
    uint64_t own_bytes = ctx->calls[c].ev->bytes;
    if (t->count > 1)
        add_to_finding(a, &s, t->count - 1, t->total_ns > own ? t->total_ns - own : 0, t->max_ns,
                       t->bytes > own_bytes ? t->bytes - own_bytes : 0);
    a->tallied++; /* the sample's own occurrence, counted by the detectors */
    a->by_sample += t->count;
}

int det_tally_merge(det_ctx *ctx)
{
    det_tally_kinds *kd = ctx->tally_kinds;
    if (ctx->log->tally_count == 0 || kd == NULL)
        return 0;
    /* Calls counted past the cap lie in no scope the log can show (its marks past the cap
     * were not kept): with scopes asked, no tally is judged. */
    if (ctx->scope == NULL) {
        note_calls(ctx, kd);
        judge_last(ctx, kd);
    }
    for (size_t k = 0; k < ctx->log->tally_count; k++) {
        const ss_tally *t = &ctx->log->tallies[k];
        if (t->count == 0)
            continue;
        const kind_state *s = ctx->scope == NULL ? judging_state(ctx, kd, k) : NULL;
        if (!judges(s) && kd->sample_call != NULL && kd->sample_call[k] != DET_NONE &&
            ctx->verdicts[kd->sample_call[k]] != DET_VERDICT_SEVERAL) {
            judge_by_sample(ctx, kd, k);
        } else if (!judges(s)) {
            int lacking = ctx->tally_sampled != NULL && ctx->tally_sampled[k] == DET_TALLY_LACKING;
            ctx->tally_unjudged += t->count;
            ctx->tally_unjudged_kinds++;
            ctx->tally_unscoped += ctx->scope != NULL ? t->count : 0;
            ctx->tally_lacking += lacking && ctx->scope == NULL ? t->count : 0;
            ctx->tally_lacking_kinds += lacking && ctx->scope == NULL;
        } else if (s->verdict != 0) {
            add_to_finding(&ctx->aggs[(s->verdict >> 1) - 1], s, t->count, t->total_ns, t->max_ns,
                           t->bytes);
        }
    }
    return 0;
}

/* The warning for the tallies left unjudged that lack their joined call (DET_TALLY_LACKING). */
static void report_lacking(const det_ctx *ctx, ss_result *out)
{
    if (ctx->tally_lacking == 0)
        return;
    char *msg = ss_xasprintf(
        "%" PRIu64 " of those calls (%" PRIu64 " kind%s) could not be judged: each came right "
        "after or before the call it is judged with (a readback and the synchronization after "
        "it), of a kind recorded before the cap, and the calls of %s kind recorded before the "
        "cap, whatever came before and after them, were judged in different ways or not at "
        "all; the findings may be incomplete (raise SYNCSCOPE_MAX_MEMORY)",
        ctx->tally_lacking, ctx->tally_lacking_kinds, ctx->tally_lacking_kinds == 1 ? "" : "s",
        ctx->tally_lacking_kinds == 1 ? "its" : "their");
    ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
    free(msg);
}

void det_tally_report(const det_ctx *ctx, ss_result *out)
{
    uint64_t calls = 0;
    size_t kinds = 0;
    for (size_t k = 0; k < ctx->log->tally_count; k++) {
        calls += ctx->log->tallies[k].count;
        kinds += ctx->log->tallies[k].count > 0;
    }
    if (calls == 0)
        return;
    char *msg = ss_xasprintf(
        "the memory cap was reached: %" PRIu64 " later call%s (%zu kind%s) %s counted by kind, "
        "not kept, and judged as the calls of %s kind recorded before the cap (more "
        "SYNCSCOPE_MAX_MEMORY keeps more of them)",
        calls, calls == 1 ? "" : "s", kinds, kinds == 1 ? "" : "s", calls == 1 ? "was" : "were",
        calls == 1 ? "its" : "their");
    ss_result_add_diag(out, SS_SEV_NOTE, NULL, 0, 0, msg);
    free(msg);
    if (ctx->tally_by_sample > 0) {
        msg = ss_xasprintf(
            "%" PRIu64 " of those calls (%" PRIu64 " kind%s) %s of a kind no call recorded "
            "before the cap had: %s judged as the first call of %s kind, which was kept for "
            "that (judged with the recorded calls around it, the counted ones between not seen)",
            ctx->tally_by_sample, ctx->tally_by_sample_kinds,
            ctx->tally_by_sample_kinds == 1 ? "" : "s", ctx->tally_by_sample == 1 ? "was" : "were",
            ctx->tally_by_sample == 1 ? "it was" : "they were",
            ctx->tally_by_sample_kinds == 1 ? "its" : "their");
        ss_result_add_diag(out, SS_SEV_NOTE, NULL, 0, 0, msg);
        free(msg);
    }
    if (ctx->tally_unjudged == 0)
        return;
    if (ctx->tally_unscoped == ctx->tally_unjudged) {
        msg = ss_xasprintf("%" PRIu64 " of those calls (%" PRIu64 " kind%s) could not be judged: "
                           "the scope marks past the cap were not kept, so no counted call can "
                           "be placed in the scopes asked for (--nvtx-range, "
                           "--profile-from-start off); the findings may be incomplete (raise "
                           "SYNCSCOPE_MAX_MEMORY)",
                           ctx->tally_unjudged, ctx->tally_unjudged_kinds,
                           ctx->tally_unjudged_kinds == 1 ? "" : "s");
        ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
        free(msg);
        return;
    }
    report_lacking(ctx, out);
    uint64_t other = ctx->tally_unjudged - ctx->tally_lacking;
    uint64_t other_kinds = ctx->tally_unjudged_kinds - ctx->tally_lacking_kinds;
    if (other == 0)
        return;
    msg = ss_xasprintf("%" PRIu64 " of those calls (%" PRIu64 " kind%s) could not be judged: the "
                       "calls of %s kind recorded before the cap, or its first call past it, "
                       "were judged in different ways; the findings may be incomplete (raise "
                       "SYNCSCOPE_MAX_MEMORY)",
                       other, other_kinds, other_kinds == 1 ? "" : "s",
                       other_kinds == 1 ? "its" : "their");
    ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
    free(msg);
}

/* Whether tally 'k' has a kind that kept calls judge ('exact_seen', 'loose_seen': per kind's
 * first tally, whether a kept call of that kind was noted), as judging_state looks for it. */
static int kind_kept(const det_ctx *ctx, const det_tally_kinds *kd, size_t k,
                     const uint8_t *exact_seen, const uint8_t *loose_seen)
{
    uint32_t exact = kind_of_tally(ctx, kd, k, 0);
    if (exact != SS_MAP_NONE && exact_seen[exact])
        return 1;
    if (ctx->log->tallies[k].count != 1)
        return 0;
    uint32_t loose = kind_of_tally(ctx, kd, k, 1);
    return loose != SS_MAP_NONE && loose_seen[loose];
}

/* The sample of tally 't': its first call, lasting its own time where it is the tally's only
 * call, else the tally's mean time. */
static ss_event sample_of_tally(const ss_tally *t)
{
    ss_event e = {.type = SS_EV_API};
    e.u.api = t->call;
    e.u.api.correlation = 0;
    if (t->count > 1) {
        uint64_t mean = t->total_ns / t->count;
        e.u.api.exit_ns = e.u.api.enter_ns + (mean > 0 ? mean : 1);
    }
    return e;
}

/* The word of call 'a' as a neighbour (ss_tally_neighbor): a sample's from its tally's own
 * flags and long_calls (its flags may carry a gap mark by now), a kept call's by its time. */
static uint64_t word_of(const det_ctx *ctx, const ss_map *map, const ss_ev_api *a)
{
    uint32_t k = sample_tally(ctx->log, map, a);
    if (k != SS_MAP_NONE) {
        ss_ev_api own = *a;
        own.flags = ctx->log->tallies[k].call.flags;
        return ss_tally_neighbor(&own, ctx->log->tallies[k].long_calls);
    }
    uint64_t ns = a->exit_ns > a->enter_ns ? a->exit_ns - a->enter_ns : 0;
    return ss_tally_neighbor(a, ns >= ctx->probe_exit_min_ns);
}

/* Per thread, its first counted call's tally (the least entry of its tallies) in 'map' at
 * (thread, 1). Returns 0 or -1. */
static int index_first_counted(const ss_event_log *log, ss_map *map)
{
    for (size_t k = 0; k < log->tally_count; k++) {
        const ss_ev_api *a = &log->tallies[k].call;
        uint32_t first = ss_map_get(map, a->thread, 1);
        if (first == SS_MAP_NONE || a->enter_ns < log->tallies[first].call.enter_ns) {
            if (ss_map_put(map, a->thread, 1, (uint32_t)k) < 0)
                return -1;
        }
    }
    return 0;
}

/* Whether sample 'a' of tally 'k' follows 'before', its thread's call right before it in the
 * log, as its tally's calls did: the word before them is before's, and before is a sample
 * whose tally's calls were followed by a call of a's word, or the thread's last kept call,
 * followed by the thread's first counted call, of a's word. (Calls of one word are judged
 * alike as neighbours: where the words match both ways, the pair is judged as the calls that
 * were next to each other were.) */
static int follows(const det_ctx *ctx, const ss_map *map, const ss_map *threads, uint32_t k,
                   const ss_ev_api *a, const ss_ev_api *before)
{
    const ss_tally *t = &ctx->log->tallies[k];
    if (before == NULL || t->prev == 0 || word_of(ctx, map, before) != t->prev)
        return 0;
    uint32_t kb = sample_tally(ctx->log, map, before);
    if (kb != SS_MAP_NONE)
        return ctx->log->tallies[kb].next == word_of(ctx, map, a);
    uint32_t first = ss_map_get(threads, a->thread, 1);
    if (first == SS_MAP_NONE)
        return 0;
    ss_ev_api next = ctx->log->tallies[first].call;
    return ss_tally_neighbor(&next, ctx->log->tallies[first].long_calls) == word_of(ctx, map, a);
}

/* Marks each sample that does not follow the call now before it as its tally's calls followed
 * theirs (follows) with SS_API_BETWEEN: calls of its thread were counted between them, and the
 * sample is no earlier call's next. The log is sorted. Returns 0 or -1. */
static int mark_gaps(det_ctx *ctx, const ss_map *map)
{
    ss_event_log *log = ctx->log;
    ss_map threads = {0}; /* (thread, 0): its last call's event + 1; (thread, 1): first_counted */
    int rc = index_first_counted(log, &threads);
    for (size_t i = 0; rc == 0 && i < log->count; i++) {
        ss_event *e = &log->events[i];
        if (e->type != SS_EV_API || e->u.api.nested)
            continue;
        ss_ev_api *a = &e->u.api;
        uint32_t k = sample_tally(log, map, a);
        if (k != SS_MAP_NONE) {
            uint32_t at = ss_map_get(&threads, a->thread, 0);
            const ss_ev_api *before = at != SS_MAP_NONE ? &log->events[at].u.api : NULL;
            if (follows(ctx, map, &threads, k, a, before))
                a->flags &= ~SS_API_BETWEEN;
            else
                a->flags |= SS_API_BETWEEN;
        }
        rc = ss_map_put(&threads, a->thread, 0, (uint32_t)i);
    }
    ss_map_free(&threads);
    return rc;
}

/* Merges the 'added' events at the log's end, in time order among themselves after
 * ss_evlog_sort of a copy, into the sorted events before them, from the back: no pass over
 * the whole log but this one. Returns 0 or -1. */
static int merge_added(ss_event_log *log, size_t added)
{
    size_t n = log->count - added;
    ss_event *tail = malloc(added * sizeof *tail);
    if (tail == NULL)
        return -1;
    memcpy(tail, &log->events[n], added * sizeof *tail);
    /* the samples in time order (few: insertion) */
    for (size_t i = 1; i < added; i++) {
        ss_event e = tail[i];
        size_t j = i;
        for (; j > 0 && ss_event_start_ns(&tail[j - 1]) > ss_event_start_ns(&e); j--)
            tail[j] = tail[j - 1];
        tail[j] = e;
    }
    size_t i = n, j = added, k = log->count;
    while (j > 0) {
        /* a sample after every kept event of its time (the sort is stable: kept ones first) */
        if (i > 0 && ss_event_start_ns(&log->events[i - 1]) > ss_event_start_ns(&tail[j - 1]))
            log->events[--k] = log->events[--i];
        else
            log->events[--k] = tail[--j];
    }
    free(tail);
    return 0;
}

/* The word of tally 'u''s calls as neighbours (ss_tally_neighbor). */
static uint64_t tally_word(const ss_tally *u)
{
    return ss_tally_neighbor(&u->call, u->long_calls);
}

/* The pairs the detectors join (det_covering_sync: an asynchronous copy and the explicit
 * synchronization right after it) among the kept calls, per thread: the readbacks' words in
 * 'readbacks' and their synchronizations' in 'syncs', each at (thread, word). Returns 0 or
 * -1. */
static int kept_pairs(det_ctx *ctx, const det_tally_kinds *kd, ss_map *readbacks, ss_map *syncs)
{
    for (uint32_t c = 0; c < ctx->call_count; c++) {
        const det_call *call = &ctx->calls[c];
        uint32_t only;
        if (call->enclosed || is_sample(kd, c) || !det_is_readback(ctx, call) ||
            det_covering_sync(ctx, c, &only) == DET_NONE)
            continue;
        if (ss_map_put(readbacks, call->ev->thread, neighbor(ctx, c), 1) < 0 ||
            ss_map_put(syncs, call->ev->thread, neighbor(ctx, call->next), 1) < 0)
            return -1;
    }
    return 0;
}

/* Whether tally 't''s calls are explicit synchronizations of a stream or the device ('sync'
 * 1), or asynchronous copies of at most readback_max_bytes to the host ('sync' 0): the two
 * sides of a pair the detectors may join. */
static int pair_side(const det_ctx *ctx, const ss_tally *t, int sync)
{
    const ss_api *r = ss_evlog_api(ctx->log, t->call.name);
    if (r == NULL)
        return 0;
    if (sync)
        return r->sync == SS_SYNC_EXPLICIT &&
               (r->klass == SS_CLASS_STREAM_SYNC || r->klass == SS_CLASS_DEVICE_SYNC);
    int to_host = r->dir == SS_DIR_D2H || (r->dir == SS_DIR_KIND && t->call.copy_kind == 2);
    return r->klass == SS_CLASS_COPY && r->sync != SS_SYNC_ALWAYS && to_host &&
           t->call.bytes != 0 && t->call.bytes <= ctx->opt->readback_max_bytes;
}

/* A tally's place in the order of first calls: its thread and first call's entry. */
typedef struct tally_place {
    uint32_t thread;
    uint64_t enter_ns;
    uint32_t tally;
} tally_place;

/* Orders places by thread, then by entry. */
static int by_thread_and_entry(const void *pa, const void *pb)
{
    const tally_place *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->enter_ns != b->enter_ns)
        return a->enter_ns < b->enter_ns ? -1 : 1;
    return a->tally < b->tally ? -1 : a->tally > b->tally;
}

/* Whether the first call of tally order[i] (of the 'n' tallies 'sampled' marks, in 'order')
 * will be in the log next to a call of the word its calls had before them (ss_tally.prev;
 * 'after' 0) or after them (next; 'after' 1), the words matching both ways as mark_gaps
 * (follows) joins calls: the first call beside it of the same thread, or before every such
 * call the thread's last kept call, where the thread's first counted call ('first') is of the
 * word of order[i]'s calls. */
static int neighbor_available(const det_ctx *ctx, const det_tally_kinds *kd, const uint32_t *order,
                              size_t n, size_t i, int after, const ss_tally *first)
{
    const ss_tally *t = &ctx->log->tallies[order[i]];
    uint64_t own = tally_word(t);
    size_t j = after ? i + 1 : i - 1;
    if ((after ? i + 1 < n : i > 0) && ctx->log->tallies[order[j]].call.thread == t->call.thread) {
        const ss_tally *u = &ctx->log->tallies[order[j]];
        return after ? tally_word(u) == t->next && u->prev == own
                     : tally_word(u) == t->prev && u->next == own;
    }
    uint32_t thread = t->call.thread;
    return !after && first != NULL && thread < kd->thread_slots && kd->last[thread] != DET_NONE &&
           neighbor(ctx, kd->last[thread]) == t->prev && tally_word(first) == own;
}

/* Whether tally order[i] lacks the call it is joined to: a synchronization whose calls came
 * right after a readback of a pair kept before the cap ('readbacks'), or a readback whose calls
 * came right before such a synchronization ('syncs'), where that neighbour will not be next to
 * its first call in the log. */
static int lacks_joined(const det_ctx *ctx, const det_tally_kinds *kd, const ss_map *readbacks,
                        const ss_map *syncs, const uint32_t *order, size_t n, size_t i,
                        const ss_tally *first)
{
    const ss_tally *t = &ctx->log->tallies[order[i]];
    uint32_t thread = t->call.thread;
    if (t->prev != 0 && pair_side(ctx, t, 1) &&
        ss_map_get(readbacks, thread, t->prev) != SS_MAP_NONE &&
        !neighbor_available(ctx, kd, order, n, i, 0, first))
        return 1;
    return t->next != 0 && pair_side(ctx, t, 0) &&
           ss_map_get(syncs, thread, t->next) != SS_MAP_NONE &&
           !neighbor_available(ctx, kd, order, n, i, 1, first);
}

/* The tallies 'sampled' marks, in 'order', by thread and entry ('places' the room to sort
 * them in); their count. */
static size_t sampled_order(const det_ctx *ctx, const uint8_t *sampled, tally_place *places,
                            uint32_t *order)
{
    size_t n = 0;
    for (size_t k = 0; k < ctx->log->tally_count; k++) {
        const ss_ev_api *a = &ctx->log->tallies[k].call;
        if (sampled[k] == DET_TALLY_SAMPLED)
            places[n++] = (tally_place){a->thread, a->enter_ns, (uint32_t)k};
    }
    qsort(places, n, sizeof *places, by_thread_and_entry);
    for (size_t i = 0; i < n; i++)
        order[i] = places[i].tally;
    return n;
}

/* Marks DET_TALLY_LACKING, instead of DET_TALLY_SAMPLED, each tally 'sampled' marks whose first
 * call would be judged without the call it is joined to (lacks_joined): a synchronization
 * without the readback it completes would be a SYNC401 of its own where the whole run joins it
 * to the readback. Again until none is marked: a first call taken out may be another's
 * neighbour. Such a tally is judged by its loose kind, as a tally of one call is, or left
 * unjudged (judging_state). Returns 0 or -1. */
static int mark_lacking(det_ctx *ctx, const det_tally_kinds *kd, uint8_t *sampled)
{
    size_t count = ctx->log->tally_count;
    ss_map readbacks = {0}, syncs = {0}, firsts = {0};
    uint32_t *order = malloc((count > 0 ? count : 1) * sizeof *order);
    tally_place *places = malloc((count > 0 ? count : 1) * sizeof *places);
    uint8_t *lacking = calloc(count > 0 ? count : 1, 1);
    int rc = order == NULL || places == NULL || lacking == NULL
                 ? -1
                 : kept_pairs(ctx, kd, &readbacks, &syncs);
    if (rc == 0)
        rc = index_first_counted(ctx->log, &firsts);
    for (int changed = 1; rc == 0 && changed;) {
        changed = 0;
        size_t n = sampled_order(ctx, sampled, places, order);
        for (size_t i = 0; i < n; i++) {
            uint32_t first = ss_map_get(&firsts, ctx->log->tallies[order[i]].call.thread, 1);
            lacking[order[i]] =
                (uint8_t)lacks_joined(ctx, kd, &readbacks, &syncs, order, n, i,
                                      first != SS_MAP_NONE ? &ctx->log->tallies[first] : NULL);
        }
        for (size_t i = 0; i < n; i++) {
            if (lacking[order[i]]) {
                sampled[order[i]] = DET_TALLY_LACKING;
                changed = 1;
            }
        }
    }
    ss_map_free(&readbacks);
    ss_map_free(&syncs);
    ss_map_free(&firsts);
    free(order);
    free(places);
    free(lacking);
    return rc;
}

int det_tally_add_samples(det_ctx *ctx, uint8_t *sampled)
{
    det_tally_kinds *kd = ctx->tally_kinds;
    size_t n = ctx->log->tally_count;
    if (kd == NULL || n == 0 || ctx->scope != NULL)
        return 0;
    uint8_t *exact_seen = calloc(n, 1), *loose_seen = calloc(n, 1);
    int added = 0;
    if (exact_seen == NULL || loose_seen == NULL)
        added = -1;
    uint32_t exact, loose;
    for (uint32_t c = 0; added == 0 && c < ctx->call_count; c++) {
        if (!kept_kinds(ctx, kd, c, &exact, &loose))
            continue;
        if (exact != SS_MAP_NONE)
            exact_seen[exact] = 1;
        if (loose != SS_MAP_NONE)
            loose_seen[loose] = 1;
    }
    for (size_t k = 0; added >= 0 && k < n; k++) {
        const ss_tally *t = &ctx->log->tallies[k];
        if (t->count > 0 && !kind_kept(ctx, kd, k, exact_seen, loose_seen))
            sampled[k] = DET_TALLY_SAMPLED;
    }
    if (added == 0 && mark_lacking(ctx, kd, sampled) < 0)
        added = -1;
    for (size_t k = 0; added >= 0 && k < n; k++) {
        if (sampled[k] != DET_TALLY_SAMPLED)
            continue;
        ss_event e = sample_of_tally(&ctx->log->tallies[k]);
        if (ss_evlog_append(ctx->log, &e) < 0)
            added = -1;
        else
            added++;
    }
    free(exact_seen);
    free(loose_seen);
    if (added <= 0)
        return added;
    ss_map map = {0};
    int rc = merge_added(ctx->log, (size_t)added);
    if (rc == 0)
        rc = index_samples(ctx->log, sampled, &map);
    if (rc == 0)
        rc = mark_gaps(ctx, &map);
    ss_map_free(&map);
    return rc < 0 ? -1 : added;
}

void det_tally_remove_samples(ss_event_log *log, const uint8_t *sampled)
{
    ss_map map = {0};
    if (sampled == NULL || index_samples(log, sampled, &map) < 0) {
        ss_map_free(&map);
        return;
    }
    size_t kept = 0;
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        if (e->type == SS_EV_API && sample_tally(log, &map, &e->u.api) != SS_MAP_NONE)
            continue;
        log->events[kept++] = *e;
    }
    log->count = kept;
    ss_map_free(&map);
}
