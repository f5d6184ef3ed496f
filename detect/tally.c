/* tally.c: the light mode's calls past the memory cap (docs/run.md, "Cost and memory"), which the
 * capture counts by kind (ss_tally) rather than keeps: each tally is judged as the calls of its
 * kind that the log recorded before the cap were. Where every one of them was made an
 * occurrence of one finding, in the same way (latent or not), the tally's calls are added to
 * that finding (its count, time, bytes); where none was made any finding's, the tally's calls
 * are none's either. A tally whose kind no recorded call has, or whose recorded calls were
 * judged in different ways, is not judged: its calls are counted in a warning. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* What the recorded calls of a tally's kind were made: not seen yet, one verdict, or several. */
enum { KIND_UNSEEN, KIND_ONE, KIND_MIXED };

typedef struct kind_state {
    int state;
    uint32_t verdict; /* det_ctx.verdicts' word, with KIND_ONE */
} kind_state;

int det_tally_prepare(det_ctx *ctx)
{
    if (ctx->log->tally_count == 0 || ctx->call_count == 0)
        return 0;
    ctx->verdicts = calloc(ctx->call_count, sizeof *ctx->verdicts);
    return ctx->verdicts != NULL ? 0 : -1;
}

void det_tally_note(det_ctx *ctx, uint32_t call, size_t agg, int latent)
{
    if (ctx->verdicts == NULL || call >= ctx->call_count)
        return;
    uint32_t verdict = (uint32_t)(agg + 1) << 1 | (latent ? 1u : 0u);
    uint32_t *seen = &ctx->verdicts[call];
    *seen = *seen == 0 || *seen == verdict ? verdict : DET_VERDICT_SEVERAL;
}

/* The second word of the key of a call of kind 'a' (the first: its thread and stack), long or
 * not, with the words of its neighbours (ss_tally). */
static uint64_t kind_word(const ss_ev_api *a, int long_call, uint64_t prev, uint64_t next)
{
    const uint64_t words[] = {(uint64_t)a->api << 32 | (uint64_t)a->domain << 24 |
                                  (uint64_t)a->nested << 16 | (uint64_t)a->per_thread << 8 |
                                  (uint64_t)long_call,
                              a->stream,
                              (uint64_t)a->stream_id << 32 | (uint32_t)a->copy_kind,
                              (uint64_t)a->flags << 32 | (uint32_t)a->result,
                              (uint64_t)(uint32_t)a->device,
                              prev,
                              next};
    return ss_fnv1a(SS_FNV1A_SEED, words, sizeof words);
}

/* Whether recorded call 'c' lasted at least the run's min_blocked_ns, as the capture decided
 * for a counted call (ss_tally.long_calls). */
static int long_call(const det_ctx *ctx, uint32_t c)
{
    return det_blocked_ns(&ctx->calls[c]) >= ctx->probe_exit_min_ns;
}

/* The word of recorded call 'c' as a neighbour (ss_tally_neighbor), 0 for DET_NONE. */
static uint64_t neighbor(const det_ctx *ctx, uint32_t c)
{
    return c == DET_NONE ? 0 : ss_tally_neighbor(ctx->calls[c].ev, long_call(ctx, c));
}

/* The kinds of the tallies, each with what the recorded calls of that kind were made: 'exact'
 * by the kind with the neighbours' words (ss_tally.prev, next), 'loose' by the kind without
 * them, for a tally whose neighbours no recorded call had (a loop's last iteration, the first
 * call past the cap). Per tally, the state of its exact kind ('states', by the first tally of
 * that kind) and of its loose kind ('loose_states', likewise). */
typedef struct kinds {
    ss_map exact, loose;
    kind_state *states, *loose_states;
} kind_index;

/* The key of the kind of call 'a' (long or not, its neighbours' words 'prev' and 'next'; both 0
 * for the loose kind). */
static void kind_key(const ss_ev_api *a, int is_long, uint64_t prev, uint64_t next, int loose,
                     uint64_t *k1, uint64_t *k2)
{
    *k1 = (uint64_t)a->thread << 32 | a->stack;
    *k2 = kind_word(a, is_long, prev, next) ^ (loose ? 0x9e3779b97f4a7c15ull : 0);
}

/* Whether tallies 'a' and 'b' count one kind of call. */
static int same_tally_kind(const ss_tally *a, const ss_tally *b)
{
    return a->long_calls == b->long_calls && a->prev == b->prev && a->next == b->next &&
           ss_tally_same_kind(&a->call, &b->call);
}

/* Indexes the tallies by kind, exact and loose; a tally of an exact kind seen already (two
 * stacks of the capture that became one in the log) is added into the first and its count
 * set to 0. Returns 0 or -1. */
static int index_kinds(det_ctx *ctx, kind_index *kd)
{
    for (size_t k = 0; k < ctx->log->tally_count; k++) {
        ss_tally *t = &ctx->log->tallies[k];
        uint64_t k1, k2, l2;
        kind_key(&t->call, t->long_calls, t->prev, t->next, 0, &k1, &k2);
        kind_key(&t->call, t->long_calls, 0, 0, 1, &k1, &l2);
        uint32_t first = ss_map_put_first(&kd->exact, k1, k2, (uint32_t)k);
        if (first == SS_MAP_NONE ||
            ss_map_put_first(&kd->loose, k1, l2, (uint32_t)k) == SS_MAP_NONE)
            return -1;
        ss_tally *into = &ctx->log->tallies[first];
        if (first == k || !same_tally_kind(into, t))
            continue; /* its own, or another kind of the same hash: left unjudged */
        into->count += t->count;
        into->total_ns += t->total_ns;
        into->bytes += t->bytes;
        if (t->max_ns > into->max_ns)
            into->max_ns = t->max_ns;
        t->count = 0;
    }
    return 0;
}

/* Notes 'verdict' in 's'. */
static void note_verdict(kind_state *s, uint32_t verdict)
{
    if (s->state == KIND_UNSEEN)
        *s = (kind_state){KIND_ONE, verdict};
    else if (s->verdict != verdict)
        s->state = KIND_MIXED;
}

/* Notes the verdict of recorded call 'c' (made right after 'prev', DET_NONE when it is no
 * call's next) in the states of its exact and loose kinds, where a tally has them. */
static void note_call(det_ctx *ctx, kind_index *kd, uint32_t c, uint32_t prev)
{
    const ss_ev_api *a = ctx->calls[c].ev;
    int is_long = long_call(ctx, c);
    uint64_t before = neighbor(ctx, prev), after = neighbor(ctx, ctx->calls[c].next);
    uint64_t k1, k2, l2;
    kind_key(a, is_long, before, after, 0, &k1, &k2);
    kind_key(a, is_long, 0, 0, 1, &k1, &l2);
    uint32_t k = ss_map_get(&kd->exact, k1, k2);
    if (k != SS_MAP_NONE) {
        const ss_tally *t = &ctx->log->tallies[k];
        if (t->long_calls == is_long && t->prev == before && t->next == after &&
            ss_tally_same_kind(&t->call, a))
            note_verdict(&kd->states[k], ctx->verdicts[c]);
    }
    k = ss_map_get(&kd->loose, k1, l2);
    if (k != SS_MAP_NONE) {
        const ss_tally *t = &ctx->log->tallies[k];
        if (t->long_calls == is_long && ss_tally_same_kind(&t->call, a))
            note_verdict(&kd->loose_states[k], ctx->verdicts[c]);
    }
}

/* Notes every recorded call's verdict in its kinds' states. Returns 0 or -1. */
static int note_calls(det_ctx *ctx, kind_index *kd)
{
    uint32_t *prev = malloc((ctx->call_count + 1) * sizeof *prev);
    if (prev == NULL)
        return -1;
    for (size_t i = 0; i < ctx->call_count; i++)
        prev[i] = DET_NONE;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (ctx->calls[i].next != DET_NONE && ctx->calls[i].next < ctx->call_count)
            prev[ctx->calls[i].next] = (uint32_t)i;
    }
    for (size_t i = 0; i < ctx->call_count; i++)
        note_call(ctx, kd, (uint32_t)i, prev[i]);
    free(prev);
    return 0;
}

/* Adds tally 't' to finding 'a' as the occurrences its verdict says (latent or not). */
static void add_to_finding(det_agg *a, const ss_tally *t, int latent)
{
    if (latent) {
        a->latent_count += t->count;
        a->latent_ns += t->total_ns;
        if (t->max_ns > a->latent_max_ns)
            a->latent_max_ns = t->max_ns;
    } else {
        a->count += t->count;
        a->total_ns += t->total_ns;
        if (t->max_ns > a->max_ns)
            a->max_ns = t->max_ns;
    }
    a->bytes += t->bytes;
    a->tallied += t->count;
    if (t->call.exit_ns > a->last_ns)
        a->last_ns = t->call.exit_ns;
}

/* The state that judges tally 'k': its exact kind's, else its loose kind's. */
static const kind_state *judging_state(const det_ctx *ctx, const kind_index *kd, size_t k)
{
    const ss_tally *t = &ctx->log->tallies[k];
    uint64_t k1, k2, l2;
    kind_key(&t->call, t->long_calls, t->prev, t->next, 0, &k1, &k2);
    kind_key(&t->call, t->long_calls, 0, 0, 1, &k1, &l2);
    uint32_t exact = ss_map_get(&kd->exact, k1, k2), loose = ss_map_get(&kd->loose, k1, l2);
    if (exact != SS_MAP_NONE && kd->states[exact].state != KIND_UNSEEN)
        return &kd->states[exact];
    return loose != SS_MAP_NONE ? &kd->loose_states[loose] : NULL;
}

int det_tally_merge(det_ctx *ctx)
{
    size_t n = ctx->log->tally_count;
    if (n == 0)
        return 0;
    kind_index kd = {{0}, {0}, calloc(n, sizeof *kd.states), calloc(n, sizeof *kd.loose_states)};
    int rc = kd.states != NULL && kd.loose_states != NULL ? index_kinds(ctx, &kd) : -1;
    /* Calls counted past the cap lie in no scope the log can show (its marks past the cap
     * were not kept): with scopes asked, no tally is judged. */
    if (rc == 0 && ctx->scope == NULL && ctx->verdicts != NULL)
        rc = note_calls(ctx, &kd);
    for (size_t k = 0; rc == 0 && k < n; k++) {
        const ss_tally *t = &ctx->log->tallies[k];
        const kind_state *s = judging_state(ctx, &kd, k);
        if (t->count == 0)
            continue;
        if (s == NULL || s->state != KIND_ONE || s->verdict == DET_VERDICT_SEVERAL) {
            ctx->tally_unjudged += t->count;
            ctx->tally_unjudged_kinds++;
        } else if (s->verdict != 0) {
            add_to_finding(&ctx->aggs[(s->verdict >> 1) - 1], t, s->verdict & 1);
        }
    }
    free(kd.states);
    free(kd.loose_states);
    ss_map_free(&kd.exact);
    ss_map_free(&kd.loose);
    return rc;
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
    if (ctx->tally_unjudged == 0)
        return;
    msg = ss_xasprintf("%" PRIu64 " of those calls (%" PRIu64 " kind%s) could not be judged: no "
                       "call of %s kind was recorded before the cap, or those recorded were "
                       "judged in different ways; the findings may be incomplete (raise "
                       "SYNCSCOPE_MAX_MEMORY)",
                       ctx->tally_unjudged, ctx->tally_unjudged_kinds,
                       ctx->tally_unjudged_kinds == 1 ? "" : "s",
                       ctx->tally_unjudged_kinds == 1 ? "its" : "their");
    ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
    free(msg);
}
