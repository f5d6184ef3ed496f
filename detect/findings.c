/* findings.c: occurrences become findings: det_report aggregates each occurrence into the
 * finding of its (rule, call site, device) with what it waited for and the streams involved,
 * and det_findings_emit writes every finding (location, evidence, message, hint, latent,
 * startup and device marks) into the result. */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stdarg.h>
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

const char *det_times(uint64_t n, char *buf, size_t size)
{
    snprintf(buf, size, "%" PRIu64 " time%s", n, n == 1 ? "" : "s");
    return buf;
}

/* ---- aggregation ---- */

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

/* The finding of 'hit': its rule at its call site (site and via frame), and with two or more
 * devices on its device, made from 'hit' when new ('*made' set). NULL when memory is
 * exhausted. */
static det_agg *finding_of(det_ctx *ctx, const det_hit *hit, int *made)
{
    *made = 0;
    uint32_t pair = det_site_pair(ctx, hit->call);
    if (pair == DET_NONE)
        return NULL;
    /* With two or more devices, each device's occurrences at a site are a finding of their
     * own, so that every finding names the one device it is about. */
    uint64_t device = ctx->multi_device ? (uint64_t)(uint32_t)(hit->device + 1) : 0;
    /* What a framework did while compiling or autotuning (XLA's autotuner reads its
     * candidates' results back through the same copy as the program's own readbacks) is a
     * finding of its own, marked as startup work (mark_message). */
    int compile = det_stack_compiles(ctx, ctx->calls[hit->call].ev->stack);
    uint32_t index =
        ss_map_put_first(&ctx->agg_map, device << 32 | (uint64_t)hit->rule << 8 | (uint64_t)compile,
                         pair, (uint32_t)ctx->agg_count);
    if (index == DET_NONE)
        return NULL;
    if (index < ctx->agg_count)
        return &ctx->aggs[index];
    if (ss_grow((void **)&ctx->aggs, &ctx->agg_cap, ctx->agg_count + 1, sizeof *ctx->aggs) < 0)
        return NULL;
    det_agg *a = &ctx->aggs[ctx->agg_count++];
    memset(a, 0, sizeof *a);
    a->rule = hit->rule;
    a->family = det_family_of(hit->rule);
    a->call = hit->call;
    a->figures = hit->figures;
    a->direction = hit->direction;
    a->host_kind = hit->host_kind;
    a->device = hit->device;
    a->stream_id = hit->stream_id;
    a->compile = compile;
    *made = 1;
    return a;
}

/* Adds what 'hit' names (bytes, the streams involved, what it waited for) to its finding 'a'.
 * Returns 0 or -1. */
static int add_evidence(det_ctx *ctx, det_agg *a, const det_hit *hit)
{
    a->bytes += hit->bytes;
    for (size_t i = 0; i < hit->other_count; i++) {
        if (add_stream(a, hit->other_streams[i]) < 0)
            return -1;
    }
    for (size_t i = 0; hit->waited && i < hit->waited->count; i++) {
        if (add_item(a, &ctx->ops[hit->waited->ops[i]]) < 0)
            return -1;
    }
    return 0;
}

void det_agg_count(det_agg *a, int latent, uint64_t count, uint64_t total_ns, uint64_t max_ns)
{
    if (latent) {
        a->latent_count += count;
        a->latent_ns += total_ns;
        if (max_ns > a->latent_max_ns)
            a->latent_max_ns = max_ns;
    } else {
        a->count += count;
        a->total_ns += total_ns;
        if (max_ns > a->max_ns)
            a->max_ns = max_ns;
    }
}

int det_report(det_ctx *ctx, const det_hit *hit)
{
    if (!det_scope_keeps(ctx, hit->call))
        return 0; /* made outside the scopes asked for (det_scope.c) */
    int made;
    det_agg *a = finding_of(ctx, hit, &made);
    if (a == NULL)
        return -1;
    det_tally_note(ctx, hit, (size_t)(a - ctx->aggs));
    if (!made && a->family != NULL && a->family->fold != NULL)
        a->family->fold(&a->figures, &hit->figures);
    uint64_t at = hit->at_ns ? hit->at_ns : ctx->calls[hit->call].ev->enter_ns;
    if (at > a->last_ns)
        a->last_ns = at;
    det_agg_count(a, hit->latent, 1, hit->ns, hit->ns);
    /* Folded into a finding that blocked, a latent occurrence is only counted; what it waited
     * for does not belong to what the blocking ones waited for. */
    if (hit->latent && a->count > 0)
        return 0;
    return add_evidence(ctx, a, hit);
}

void det_findings_free(det_ctx *ctx)
{
    for (size_t i = 0; i < ctx->agg_count; i++) {
        free(ctx->aggs[i].others);
        free(ctx->aggs[i].items);
    }
    free(ctx->aggs);
    ss_map_free(&ctx->agg_map);
}

/* ---- the findings' text ---- */

/* Appends printf output to a growing string. */
static void append(char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *piece = ss_xvasprintf(fmt, ap);
    va_end(ap);
    size_t n = strlen(piece);
    char *p = ss_xreallocarray(*buf, *len + n + 1, 1);
    memcpy(p + *len, piece, n + 1);
    *buf = p;
    *len += n;
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
        else if (it->type == SS_EV_MEMCPY && det_copy_kind_word(it->copy_kind))
            append(&text, &len, "%s%s copy", sep, det_copy_kind_word(it->copy_kind));
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

/* "latent: synchronized N times, blocked 0.0 ms this run: <what>". */
static char *latent_message(det_ctx *ctx, const det_agg *agg)
{
    char times[32];
    uint64_t tenths = (agg->latent_ns + 50000) / 100000; /* of a millisecond */
    char *what = agg->family != NULL && agg->family->latent_what != NULL
                     ? agg->family->latent_what(ctx, agg)
                     : ss_xstrdup(det_call_name(ctx, &ctx->calls[agg->call]));
    char *text = ss_xasprintf("latent: synchronized %s, blocked %" PRIu64 ".%u ms this run: %s",
                              det_times(agg->latent_count, times, sizeof times), tenths / 10,
                              (unsigned)(tenths % 10), what);
    free(what);
    return text;
}

/* The finding's evidence: its occurrences (the latent ones for a latent note), their time,
 * bytes, API, what they waited for and the streams involved. */
static void fill_evidence(det_ctx *ctx, const det_agg *agg, ss_evidence *ev)
{
    int latent = agg->count == 0;
    ev->count = latent ? agg->latent_count : agg->count;
    ev->total_ns = latent ? agg->latent_ns : agg->total_ns;
    ev->max_ns = latent ? agg->latent_max_ns : agg->max_ns;
    ev->bytes = agg->bytes;
    ev->api = ss_xstrdup(det_call_name(ctx, &ctx->calls[agg->call]));
    ev->direction = ss_xstrdup(agg->direction);
    ev->host_kind = ss_xstrdup(agg->host_kind);
    ev->waited_for = waited_text(ctx, agg);
    ev->stream = stream_text(agg);
    ev->device = agg->device;
}

/* The finding's message: its family's, a latent note's, or the rule's summary; a finding that
 * blocked also counts its latent occurrences. */
static void write_message(det_ctx *ctx, const det_agg *agg, ss_finding *f)
{
    if (f->latent)
        f->message = latent_message(ctx, agg);
    else if (agg->family != NULL && agg->family->message != NULL)
        f->message = agg->family->message(ctx, agg, f);
    if (f->message == NULL)
        f->message = ss_xstrdup(ss_rules_get(agg->rule)->summary);
    if (!f->latent && agg->latent_count > 0) {
        char text[32];
        snprintf(text, sizeof text, "%" PRIu64, agg->latent_count);
        ss_finding_add_extra(f, "latent_count", text);
    }
}

/* Says how many of the finding's calls came past the memory cap (det_agg.tallied; tally.c), in
 * its message and its extra figure "past_memory_cap". */
static void tallied_words(const det_agg *agg, ss_finding *f)
{
    if (agg->tallied == 0)
        return;
    char *said;
    if (agg->by_sample == agg->tallied)
        said = ss_xasprintf("%s; %" PRIu64 " of these calls came after the memory cap was "
                            "reached: counted by kind and judged as the first call of their "
                            "kind past it (no call recorded before it had their kind)",
                            f->message, agg->tallied);
    else if (agg->by_sample > 0)
        said = ss_xasprintf("%s; %" PRIu64 " of these calls came after the memory cap was "
                            "reached: counted by kind and judged as the calls of their kind "
                            "recorded before it (%" PRIu64 " as the first call of their kind "
                            "past it, no call recorded before it having their kind)",
                            f->message, agg->tallied, agg->by_sample);
    else
        said = ss_xasprintf("%s; %" PRIu64 " of these calls came after the memory cap was "
                            "reached: counted by kind and judged as the calls of their kind "
                            "recorded before it",
                            f->message, agg->tallied);
    free(f->message);
    f->message = said;
    det_add_figure(f, "past_memory_cap", agg->tallied);
}

/* Prefixes the message with "startup: " and "device N: " where they apply. */
static void mark_message(det_ctx *ctx, const det_agg *agg, ss_finding *f)
{
    /* Work that happened only before the program's first repeated GPU work (loading,
     * compiling, autotuning, copying the model in), or only while a framework compiled or
     * autotuned, is marked, so that the summary can group it apart from the loop the program
     * spends its time in. */
    int repeated = agg->family != NULL && agg->family->repeated_work;
    int before_loop = ctx->steady_ns != 0 && agg->last_ns < ctx->steady_ns;
    if ((before_loop || (agg->compile && ctx->opt->startup_phase)) && !repeated) {
        f->startup = 1;
        char *marked = ss_xasprintf("startup: %s", f->message);
        free(f->message);
        f->message = marked;
    }
    if (ctx->multi_device && agg->device >= 0) {
        char *named = ss_xasprintf("device %d: %s", agg->device, f->message);
        free(f->message);
        f->message = named;
    }
}

void det_findings_emit(det_ctx *ctx, ss_result *out)
{
    for (size_t i = 0; i < ctx->agg_count; i++) {
        const det_agg *agg = &ctx->aggs[i];
        ss_finding *f = ss_result_add(out);
        int latent = agg->count == 0;
        f->rule = agg->rule;
        f->severity = latent ? SS_SEV_NOTE : ss_rules_get(agg->rule)->severity;
        f->origin = SS_ORIGIN_RUNTIME;
        f->latent = latent;
        det_site_locate(ctx, agg->call, f);
        det_scope_annotate(ctx, agg->call, f);
        fill_evidence(ctx, agg, &f->evidence);
        write_message(ctx, agg, f);
        tallied_words(agg, f);
        const ss_stack_frame *site = det_call_site(ctx, agg->call);
        f->hint = ss_xstrdup(
            det_hint(ctx, agg->call, agg->rule, site != NULL && site->python, agg->direction));
        mark_message(ctx, agg, f);
        char *note = det_site_note(ctx, agg->call);
        if (note != NULL) {
            char *noted = ss_xasprintf("%s; %s", f->message, note);
            free(f->message);
            f->message = noted;
            free(note);
        }
    }
}

/* Figures that findings of several families carry in their extras. */

void det_add_figure(ss_finding *finding, const char *key, uint64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64, value);
    ss_finding_add_extra(finding, key, text);
}

/* "54.0 GB/s" for a rate in bytes per microsecond. */
const char *det_rate_text(uint64_t bytes_per_us, char *buf, size_t size)
{
    uint64_t tenths = (bytes_per_us + 50) / 100; /* of a GB/s */
    snprintf(buf, size, "%" PRIu64 ".%u GB/s", tenths / 10, (unsigned)(tenths % 10));
    return buf;
}
