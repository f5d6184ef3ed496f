/* finish.c: libsyncscope_finish.so, loaded only when the observed program ends: turns the
 * captured buffers into an event log (finish_log.c), symbolizes stacks with elfutils libdw
 * (finish_stacks.c), runs the detectors and writes the outputs (finish_outputs.c), the summary
 * on stderr (finish_summary.c) and interval lines (finish_interval.c). This file runs those
 * steps in order. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"
#include "finish_int.h"
#include "interpose.h"
#include "log.h"
#include "path.h"

#define SS_EXPORT __attribute__((visibility("default")))

/* The clocks of the exit-time steps and what the symbolization did, for SYNCSCOPE_TIMING. */
typedef struct exit_timing {
    uint64_t start;        /* the finisher began */
    uint64_t log;          /* the event log was built and symbolized */
    uint64_t trace;        /* the trace was written */
    uint64_t detect;       /* the detectors ran */
    uint64_t symbolize_ns; /* of the time before 'log', what symbolizing took */
    char symbolize_detail[512];
} exit_timing;

/* This machine's name into 'host' ("localhost" when it cannot be had). */
static void host_name(char *host, size_t size)
{
    if (gethostname(host, size) != 0)
        snprintf(host, size, "localhost");
    host[size - 1] = '\0';
}

/* Builds 'log' (initialized here) from the capture, its stacks symbolized, and saves what the
 * symbolization learned in the symbol cache. Returns 0, or -1 with nothing left to free. */
static int collect_events(const ss_capture_view *v, const char *host, ss_event_log *log,
                          exit_timing *t)
{
    t->start = fin_monotonic_ns();
    if (ss_evlog_init(log) < 0)
        return -1;
    fin_symbolizer sym;
    fin_symbolizer_init(&sym, v->config->symbol_cache);
    uint64_t t_init = fin_monotonic_ns();
    fin_add_metadata(log, v, host);
    if (fin_build_log(v, log, &sym) < 0) {
        ss_log_error("out of memory while collecting the events; no report written");
        fin_symbolizer_free(&sym);
        ss_evlog_free(log);
        return -1;
    }
    fin_add_module_bases(&sym, log);
    /* What this run learned goes into the symbol cache for the next run of the program. */
    uint64_t t_save = fin_monotonic_ns();
    ss_sym_save(sym.sym);
    t->symbolize_ns = (t_init - t->start) + sym.resolve_ns + (fin_monotonic_ns() - t_save);
    fin_symbolize_text(&sym, t->symbolize_detail, sizeof t->symbolize_detail);
    fin_symbolizer_free(&sym);
    t->log = fin_monotonic_ns();
    return 0;
}

/* Splits the ':'-separated path list 'list' into 'paths' (at most 'max'; relative paths are
 * joined to 'cwd'), each malloc'ed. Returns how many. */
static size_t split_paths(const char *list, const char *cwd, char **paths, size_t max)
{
    size_t n = 0;
    while (*list != '\0' && n < max) {
        size_t len = strcspn(list, ":");
        if (len > 0) {
            char *piece = strndup(list, len);
            if (piece == NULL)
                break;
            paths[n++] = ss_path_normalize(cwd[0] != '\0' ? cwd : NULL, piece);
            free(piece);
        }
        list += len;
        if (*list == ':')
            list++;
    }
    return n;
}

/* The detectors' options from the settings into 'options', also recorded in the log's
 * metadata; the SYNCSCOPE_ATTRIBUTE_TO paths go into 'user_paths' (at most 'max', malloc'ed:
 * the caller frees the options.user_path_count of them). */
static void detect_options(const ss_interpose_config *cfg, ss_event_log *log,
                           ss_detect_options *options, char **user_paths, size_t max)
{
    ss_detect_options_default(options);
    /* A setting left unset (0) keeps the detector's default; either is recorded below. */
#define SS_DETECT_RECORDED(field, unit, fallback, setting, replay)                                 \
    if (cfg->setting > 0)                                                                          \
        options->field = cfg->setting;
#include "detect_options.def"
    options->latent = cfg->latent;
    options->user_path_count = split_paths(cfg->attribute_to, cfg->cwd, user_paths, max);
    options->user_paths = (const char *const *)user_paths;
    options->profile_from_start = cfg->profile_from_start;
    options->nvtx_range = cfg->nvtx_range[0] != '\0' ? cfg->nvtx_range : NULL;
    if (!cfg->profile_from_start)
        ss_evlog_set_meta(log, SS_META_PROFILE_FROM_START, "0");
    /* The light mode did not ask at the exit of a call held less than this (capture_probe_exit):
     * the detectors judge such a call's wait by its time. */
    if (strcmp(cfg->mode, "light") == 0 || cfg->sample[0] != '\0')
        fin_set_meta_u64(log, "probe_exit_min_ns", options->min_blocked_ns);
    if (cfg->nvtx_range[0] != '\0')
        ss_evlog_set_meta(log, SS_META_NVTX_RANGE, cfg->nvtx_range);
#define SS_DETECT_RECORDED(field, unit, fallback, setting, replay)                                 \
    fin_set_meta_u64(log, #field, options->field);
#include "detect_options.def"
    if (cfg->attribute_to[0] != '\0')
        ss_evlog_set_meta(log, "attribute_to", cfg->attribute_to);
    if (!cfg->latent)
        ss_evlog_set_meta(log, "latent", "0");
}

/* The SYNCSCOPE_TIMING line: the time of each step, up to now ('events' in the log). */
static void print_timing(const exit_timing *t, size_t events)
{
    uint64_t t_end = fin_monotonic_ns();
    ss_log_note("exit timing: symbolize %.1f ms (%s), collect %.1f "
                "ms (%zu events), trace %.1f ms, detect %.1f ms, write %.1f ms, total %.1f ms",
                (double)t->symbolize_ns / 1e6, t->symbolize_detail,
                (double)(t->log - t->start - t->symbolize_ns) / 1e6, events,
                (double)(t->trace - t->log) / 1e6, (double)(t->detect - t->trace) / 1e6,
                (double)(t_end - t->detect) / 1e6, (double)(t_end - t->start) / 1e6);
}

/* Collects the capture into 'log' and judges it into 'result' (both initialized here); with
 * 'trace', writes the trace first, exactly as captured, before the detectors run (`syncscope
 * analyze` reads it and runs the same detectors), '*trace_failed' set when it could not be.
 * Returns 0, or -1 with a message printed and nothing left to free. */
static int judge_capture(const ss_capture_view *v, const char *host, ss_event_log *log,
                         ss_result *result, exit_timing *timing, int trace, int *trace_failed)
{
    *trace_failed = 0;
    if (collect_events(v, host, log, timing) < 0)
        return -1;
    const ss_interpose_config *cfg = v->config;
    ss_detect_options options;
    char *user_paths[64];
    detect_options(cfg, log, &options, user_paths, sizeof user_paths / sizeof user_paths[0]);
    if (trace && fin_write_trace(v, host, log) < 0)
        *trace_failed = 1;
    timing->trace = fin_monotonic_ns();
    ss_result_init(result, SS_RESULT_RUN);
    int detected = ss_detect_run(log, &options, result);
    for (size_t i = 0; i < options.user_path_count; i++)
        free(user_paths[i]);
    if (detected < 0) {
        ss_log_error("out of memory in the detectors; no report written");
        ss_result_free(result);
        ss_evlog_free(log);
        return -1;
    }
    timing->detect = fin_monotonic_ns();
    return 0;
}

SS_EXPORT int syncscope_interval(const ss_capture_view *v, int final);

/* One interval line from the capture as it is now (see capture.h): the events so far
 * collected and symbolized as at exit, the detectors run, no other output written. */
SS_EXPORT int syncscope_interval(const ss_capture_view *v, int final)
{
    if (v == NULL || v->version != SS_CAPTURE_VIEW_VERSION || v->size != sizeof *v)
        return -1;
    char host[256];
    host_name(host, sizeof host);
    exit_timing timing;
    ss_event_log log;
    ss_result result;
    int unused;
    if (judge_capture(v, host, &log, &result, &timing, 0, &unused) < 0)
        return -1;
    if (result.dropped < log.dropped)
        result.dropped = log.dropped;
    ss_result_sort(&result);
    int rc = fin_append_interval(v, host, &result, final);
    ss_result_free(&result);
    ss_evlog_free(&log);
    return rc;
}

SS_EXPORT int syncscope_finish(const ss_capture_view *v);

/* Runs at the end of the observed program (see capture.h). */
SS_EXPORT int syncscope_finish(const ss_capture_view *v)
{
    if (v == NULL || v->version != SS_CAPTURE_VIEW_VERSION || v->size != sizeof *v)
        return -1;
    const ss_interpose_config *cfg = v->config;
    char host[256];
    host_name(host, sizeof host);
    exit_timing timing;
    ss_event_log log;
    ss_result result;
    int trace_failed;
    if (judge_capture(v, host, &log, &result, &timing, 1, &trace_failed) < 0)
        return -1;
    int rc = trace_failed ? -1 : 0;
    if (fin_report_result(v, host, &log, &result) < 0)
        rc = -1;
    /* The run's last interval line: the findings of the whole run, as the result has them. */
    if (cfg->interval > 0 && fin_append_interval(v, host, &result, 1) < 0)
        rc = -1;
    if (cfg->timing)
        print_timing(&timing, log.count);
    ss_result_free(&result);
    ss_evlog_free(&log);
    return rc;
}
