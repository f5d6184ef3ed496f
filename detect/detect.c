/* detect.c: the runtime detector driver: builds the index of the event log (index.c), runs
 * the detector families in precedence order, then their latent passes, turns the occurrences
 * into findings (findings.c) and adds what the run as a whole says (metadata, GPU busy time,
 * the blocked total, diagnostics). */
#include "detect_int.h"
#include "log.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most rules one family reports. */
#define DET_FAMILY_RULES 3

/* The detector table: the rows of families.def, in their (precedence) order. */
static const struct family_row {
    const det_family *family;
    ss_rule_id rules[DET_FAMILY_RULES];
    size_t rule_count;
} families[] = {
#define DET_FAMILY(file, id, ...)                                                                  \
    {&det_family_##id, {__VA_ARGS__}, sizeof((ss_rule_id[]){__VA_ARGS__}) / sizeof(ss_rule_id)},
#include "families.def"
#undef DET_FAMILY
};

#define NFAMILIES (sizeof families / sizeof families[0])

/* The rules the light mode reports (docs/run.md, "Modes"): the calls that blocked the host,
 * timed around the call, which need no GPU record and no launch. */
static const ss_rule_id light_rules[] = {SS_RULE_PAGEABLE_ASYNC_COPY, SS_RULE_SYNC_COPY_IN_PIPELINE,
                                         SS_RULE_SCALAR_READBACK, SS_RULE_SYNC_IN_LOOP,
                                         SS_RULE_DEVICE_WIDE_SYNC_CALL};

int ss_detect_light_rule(ss_rule_id rule)
{
    for (size_t i = 0; i < sizeof light_rules / sizeof light_rules[0]; i++) {
        if (light_rules[i] == rule)
            return 1;
    }
    return 0;
}

/* Whether family row 'row' runs on 'ctx': every family in the full and the sampled mode (the
 * others see the windows' launches and GPU records only), the light rules' alone in the light
 * mode. */
static int family_runs(const det_ctx *ctx, const struct family_row *row)
{
    if (ctx->mode != DET_MODE_LIGHT)
        return 1;
    for (size_t j = 0; j < row->rule_count; j++) {
        if (!ss_detect_light_rule(row->rules[j]))
            return 0;
    }
    return 1;
}

/* Reads the log's mode and the sampled mode's windows ("START-END,..." in the API clock) into
 * 'ctx'. An unknown mode is read as the full one. Returns 0 or -1. */
static int read_mode(det_ctx *ctx)
{
    const char *mode = ss_evlog_get_meta(ctx->log, "mode");
    ctx->mode = DET_MODE_FULL;
    if (mode != NULL && strcmp(mode, "light") == 0)
        ctx->mode = DET_MODE_LIGHT;
    else if (mode != NULL && strcmp(mode, "sampled") == 0)
        ctx->mode = DET_MODE_SAMPLED;
    const char *pending = ss_evlog_get_meta(ctx->log, "probe_pending");
    ctx->probe_pending = pending != NULL && strcmp(pending, "1") == 0;
    const char *exit_min = ss_evlog_get_meta(ctx->log, "probe_exit_min_ns");
    ctx->probe_exit_min_ns = exit_min != NULL ? strtoull(exit_min, NULL, 10) : 0;
    const char *windows = ss_evlog_get_meta(ctx->log, "sample_windows");
    if (ctx->mode != DET_MODE_SAMPLED || windows == NULL)
        return 0;
    size_t pairs = 1;
    for (const char *p = windows; *p; p++)
        pairs += *p == ',';
    ctx->windows = calloc(pairs * 2, sizeof *ctx->windows);
    if (ctx->windows == NULL)
        return -1;
    const char *p = windows;
    while (*p != '\0' && ctx->window_count < pairs) {
        char *end;
        unsigned long long start = strtoull(p, &end, 10);
        if (*end != '-')
            break;
        unsigned long long stop = strtoull(end + 1, &end, 10);
        if (*end != ',' && *end != '\0')
            break;
        ctx->windows[2 * ctx->window_count] = start;
        ctx->windows[2 * ctx->window_count + 1] = stop;
        ctx->window_count++;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* Says once what a log of the light (or sampled) mode cannot report, and marks each finding
 * with the mode that saw its first occurrence (the extra figure "mode"). */
static void report_mode(det_ctx *ctx, ss_result *out, size_t first)
{
    if (ctx->mode == DET_MODE_FULL)
        return;
    for (size_t i = first; i < out->count && i - first < ctx->agg_count; i++) {
        const det_call *c = &ctx->calls[ctx->aggs[i - first].call];
        ss_finding_add_extra(&out->findings[i], "mode",
                             det_call_light(ctx, c) ? "light" : "full window");
    }
    const char *msg =
        ctx->mode == DET_MODE_LIGHT
            ? "light mode: only SYNC201, SYNC202, SYNC301, SYNC401 and SYNC402 are reported, "
              "timed around each call, without what a call waited for; the default-stream "
              "rules (SYNC101, SYNC102, SYNC103), SYNC501-SYNC601 and the what-ifs need the "
              "full mode (--mode full, or windows of it with --sample)"
            : "sampled mode: outside its full windows only SYNC201, SYNC202, SYNC301, SYNC401 "
              "and SYNC402 are seen, without what a call waited for; the other rules and the "
              "what-ifs cover the full windows alone";
    ss_result_add_diag(out, SS_SEV_NOTE, NULL, 0, 0, msg);
}

const det_family *det_family_of(ss_rule_id rule)
{
    for (size_t i = 0; i < NFAMILIES; i++) {
        for (size_t j = 0; j < families[i].rule_count; j++) {
            if (families[i].rules[j] == rule)
                return families[i].family;
        }
    }
    return NULL;
}

void ss_detect_options_default(ss_detect_options *options)
{
#define SS_DETECT_OPTION(field, unit, fallback) options->field = (uint64_t)(fallback) * (unit);
#include "detect_options.def"
    options->python_depth = 16;
    options->latent = 1;
    options->startup_phase = 1;
    options->user_paths = NULL;
    options->user_path_count = 0;
    options->profile_from_start = 1;
    options->nvtx_range = NULL;
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
        {"cuda", offsetof(ss_result, cuda)},
        {"cuda_runtime", offsetof(ss_result, cuda_runtime)},
        {"started_at", offsetof(ss_result, started_at)},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const char *v = ss_evlog_get_meta(log, strings[i].key);
        if (v == NULL)
            continue;
        char **field = (char **)((char *)out + strings[i].offset);
        free(*field);
        *field = ss_xstrdup(v);
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

/* Runs every family, then (with options->latent) every family's latent pass. Returns 0 or
 * -1. */
static int run_families(det_ctx *ctx)
{
    int rc = 0;
    for (size_t i = 0; i < NFAMILIES && rc == 0; i++) {
        if (family_runs(ctx, &families[i]))
            rc = families[i].family->run(ctx);
    }
    /* Latent synchronizations: over the calls that no finding claimed, after every family has
     * had its turn, so that a latent note never hides a finding that blocked. */
    for (size_t i = 0; i < NFAMILIES && rc == 0 && ctx->opt->latent; i++) {
        if (families[i].family->latent != NULL && family_runs(ctx, &families[i]))
            rc = families[i].family->latent(ctx);
    }
    return rc;
}

/* Adds a warning diagnostic when the log says events or GPU records were lost. */
static void report_losses(const ss_event_log *log, ss_result *out)
{
    if (log->dropped > 0) {
        char *msg = ss_xasprintf("%" PRIu64 " events were dropped past the memory cap; "
                                 "the findings may be incomplete",
                                 log->dropped);
        ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
        free(msg);
    }
    const char *refused = ss_evlog_get_meta(log, "refused_activity_buffers");
    if (refused != NULL && strcmp(refused, "0") != 0) {
        char *msg = ss_xasprintf("%s request%s of CUPTI for an activity buffer %s refused past "
                                 "the memory cap, and CUPTI dropped the GPU records it had "
                                 "no room for; the findings may be incomplete (raise "
                                 "SYNCSCOPE_MAX_MEMORY)",
                                 refused, strcmp(refused, "1") == 0 ? "" : "s",
                                 strcmp(refused, "1") == 0 ? "was" : "were");
        ss_result_add_diag(out, SS_SEV_WARNING, NULL, 0, 0, msg);
        free(msg);
    }
}

/* Adds up the blocked total of the findings from 'first' on, and notes how many of them have
 * no source line. */
static void add_totals(ss_result *out, size_t first)
{
    size_t unlined = 0;
    for (size_t i = first; i < out->count; i++) {
        if (counts_as_blocked(&out->findings[i]))
            out->blocked_ns += out->findings[i].evidence.total_ns;
        unlined += out->findings[i].file == NULL && out->findings[i].module != NULL;
    }
    if (unlined > 0) {
        char *msg = ss_xasprintf("%zu finding%s no source line, only a function and its "
                                 "offset in a module: build with -g (or -lineinfo for "
                                 "device code) for source lines",
                                 unlined, unlined == 1 ? " has" : "s have");
        ss_result_add_diag(out, SS_SEV_NOTE, NULL, 0, 0, msg);
        free(msg);
    }
}

/* Writes the findings and what the run as a whole says into 'out'. */
static void write_result(det_ctx *ctx, ss_result *out)
{
    const ss_event_log *log = ctx->log;
    size_t first = out->count;
    det_findings_emit(ctx, out);
    report_mode(ctx, out, first);
    det_scope_report(ctx, out);
    add_totals(out, first);
    copy_meta(log, out);
    out->gpu_busy_ns = gpu_busy(ctx);
    out->events = log->count - ctx->tally_samples;
    out->dropped = log->dropped;
    report_losses(log, out);
    det_tally_report(ctx, out);
    ss_result_sort(out);
}

/* Builds the detectors' context of 'log' into 'ctx' (zeroed here): the mode, the index of
 * calls and GPU work, the call sites, the scope, the startup phase and the tallies' kinds.
 * 'sampled' (NULL or one byte per tally) marks the tallies whose samples the log holds.
 * Returns 0 or -1. */
static int build_context(det_ctx *ctx, ss_event_log *log, const ss_detect_options *options,
                         uint8_t *sampled)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->log = log;
    ctx->opt = options;
    ctx->tally_sampled = sampled;
    const char *python = ss_evlog_get_meta(log, "python");
    ctx->python_program = python != NULL && python[0] != '\0';
    int rc = read_mode(ctx);
    if (rc == 0)
        rc = det_index_build(ctx);
    if (rc == 0)
        rc = det_sites_init(ctx);
    if (rc == 0)
        rc = det_scope_build(ctx);
    /* The startup phase first: the what-if rules leave it out. */
    if (rc == 0 && options->startup_phase)
        ctx->steady_ns = det_steady_start(ctx);
    if (rc == 0)
        rc = det_tally_prepare(ctx);
    return rc;
}

/* Frees what build_context and the detectors made. */
static void free_context(det_ctx *ctx)
{
    det_tally_free(ctx);
    det_opset_free(&ctx->joined);
    free(ctx->quiet_frees);
    det_findings_free(ctx);
    det_sites_free(ctx);
    det_scope_free(ctx);
    det_index_free(ctx);
    free(ctx->windows);
    /* nothing left to free twice (a failed rebuild frees it again) */
    memset(ctx, 0, sizeof *ctx);
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
    int rc = build_context(&ctx, log, options, NULL);
    /* Tallies whose kind no kept call has: their first calls join the log as calls of their
     * own (tally.c), and the context is built again with them. */
    uint8_t *sampled = NULL;
    if (rc == 0 && ctx.tally_kinds != NULL) {
        sampled = calloc(log->tally_count, 1);
        int added = sampled != NULL ? det_tally_add_samples(&ctx, sampled) : -1;
        if (added != 0) {
            free_context(&ctx);
            rc = added < 0 ? -1 : build_context(&ctx, log, options, sampled);
            ctx.tally_samples = added > 0 ? (size_t)added : 0;
        } else {
            ctx.tally_sampled = sampled; /* no sample, but tallies may be marked lacking */
        }
    }
    if (rc == 0)
        rc = run_families(&ctx);
    if (rc == 0)
        rc = det_tally_merge(&ctx);
    if (rc == 0)
        write_result(&ctx, out);
    free_context(&ctx);
    if (sampled != NULL)
        det_tally_remove_samples(log, sampled);
    free(sampled);
    return rc;
}
