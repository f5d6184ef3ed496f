/* detect.h: the runtime detectors and the trace formats: pure C over the event log. */
#ifndef SS_DETECT_H
#define SS_DETECT_H

#include <stdint.h>
#include <stdio.h>

#include "evlog.h"
#include "report.h"

typedef struct ss_detect_options {
    /* The numeric options, one per row of detect_options.def (their meaning there). */
#define SS_DETECT_OPTION(field, unit, fallback) uint64_t field;
#include "detect_options.def"
    unsigned python_depth; /* Python frames kept per finding */
    /* Latent synchronizations (docs/detectors.md): calls that synchronized but blocked less than
     * min_blocked_ns are reported as notes (1, the default), or not at all (0). */
    int latent;
    /* Findings whose every occurrence came before the program's first repeated GPU work are
     * marked as startup work and shown as notes (1, the default), or not told apart (0). */
    int startup_phase;
    /* Just-my-code: path prefixes under which a frame is the user's code (--attribute-to);
     * none (the default): every frame outside installed packages, the Python standard
     * library, the CUDA toolkit's and the system's headers and libraries is. The strings
     * belong to the caller and must outlive ss_detect_run. */
    const char *const *user_paths;
    size_t user_path_count;
    /* Scopes (docs/run.md, "Scopes"): an occurrence counts only when its call was made inside
     * every scope asked for. 0: only between cudaProfilerStart and cudaProfilerStop (1, the
     * default: from the start). */
    int profile_from_start;
    /* Only inside an NVTX range of this name (NULL, the default: anywhere). The string belongs
     * to the caller. Marks of syncscope.scope() always scope the run they are in. */
    const char *nvtx_range;
} ss_detect_options;

/* The newest trace format version this build writes (1.4 when a call of the log carries
 * SS_API_BETWEEN, else 1.3 when it has event arguments, else 1.2 when it has argument records,
 * else 1.1 when it has scope marks, else 1.0); it reads any 1.x (docs/trace-format.md). */
#define SS_TRACE_MAJOR 1
#define SS_TRACE_MINOR 5

/* Fills 'options' with the documented defaults. */
void ss_detect_options_default(ss_detect_options *options);

/* Runs every runtime detector (docs/detectors.md) over 'log' (which it sorts in place) with
 * 'options' (NULL: the defaults) and appends the findings, aggregated per (rule, call site),
 * to 'out' (an SS_RESULT_RUN result), together with the run's metadata and totals taken from
 * the log. The findings depend only on the log's contents and the options. Returns 0, or -1
 * on memory exhaustion. */
int ss_detect_run(ss_event_log *log, const ss_detect_options *options, ss_result *out);

/* Whether the light mode (docs/run.md, "Modes") reports 'rule': SYNC201, SYNC202, SYNC301,
 * SYNC401 and SYNC402, the calls that blocked the host, timed around the call. */
int ss_detect_light_rule(ss_rule_id rule);

/* Writes 'log' in the syncscope trace format (docs/trace-format.md). Returns 0 or -1. */
int ss_trace_write(FILE *out, const ss_event_log *log);

/* Reads a trace file ('path', or "-" for standard input) into 'log' (initialized here), in
 * one streaming pass. Returns 0, or -1 with "FILE:LINE: what was wrong" in 'err' and 'log'
 * already released. */
int ss_trace_read(const char *path, ss_event_log *log, char *err, size_t err_size);

/* Writes 'log' as Chrome trace events (JSON), which Perfetto and chrome://tracing open:
 * ss_chrome_trace_write_runs for one log without findings. Returns 0 or -1. */
int ss_chrome_trace_write(FILE *out, const ss_event_log *log);

/* Writes the logs of 'n' processes as one Chrome trace (docs/output-formats.md, "Chrome
 * trace"): one process per log under its recorded pid (distinct pids when two logs share one),
 * a track per host thread and per stream, flow arrows from each API call to the GPU operations
 * it enqueued, and an instant per finding of 'results'[i] (NULL, or an entry NULL: none) on the
 * call it was observed at. Returns 0, or -1 when writing failed or memory ran out. */
int ss_chrome_trace_write_runs(FILE *out, const ss_event_log *const *logs,
                               const ss_result *const *results, size_t n);

/* The metadata keys under which a run records its scope settings, so that `syncscope analyze`
 * scopes its trace as the run did (docs/trace-format.md). */
#define SS_META_PROFILE_FROM_START "profile_from_start"
#define SS_META_NVTX_RANGE "nvtx_range"

/* Takes the scope settings recorded in 'log' (SS_META_*) into 'options'; 'nvtx_range' then
 * points into the log's metadata. */
void ss_detect_scope_from_log(ss_detect_options *options, const ss_event_log *log);

/* The gate of a run (docs/run.md, "Gates"): findings at or above a severity, or more host time
 * blocked than a budget, fail it. */
typedef struct ss_gate {
    int fail_on_none;    /* 1: findings never fail it */
    ss_severity fail_on; /* findings at or above this fail it (warning) */
    int budget_set;      /* 0: no budget */
    int budget_percent;  /* 1: 'budget' is in hundredths of a percent of the wall time */
    uint64_t budget;     /* nanoseconds, or hundredths of a percent */
} ss_gate;

/* Fills 'gate' with the defaults: fail on warnings, no budget. */
void ss_gate_init(ss_gate *gate);
/* Parses --fail-on: note, warning, error or none. Returns 0, or -1 when 'text' is none of
 * them. */
int ss_gate_parse_fail_on(const char *text, ss_gate *gate);
/* Parses --fail-over: a share of the wall time ("2%", "0.25%": at most two decimals, at most
 * 100%) or a duration with its unit ("50ms", "1.5s", "200us", "800ns"). Returns 0, or -1 when
 * 'text' is neither. */
int ss_gate_parse_budget(const char *text, ss_gate *gate);
/* Judges 'result' by 'gate'. Writes why it failed, or what it was judged on, into 'why'
 * ('why_size' bytes): "2 findings at or above warning; 3.10 ms blocked, over the budget of
 * 1.00 ms (2% of 50.00 ms)". Returns 1 when it failed, 0 when it passed, -1 when a share of
 * the wall time was asked for and the result has no wall time. */
int ss_gate_check(const ss_gate *gate, const ss_result *result, char *why, size_t why_size);

/* The gate file (internal to `syncscope run`, SYNCSCOPE_GATE_FILE): each observed process
 * appends one line "syncscope-gate 1 PID FAILED WHY" (FAILED 0 or 1). Appends that line for
 * 'pid' to 'path' with one write. Returns 0, or -1 with errno set. */
int ss_gate_record(const char *path, long pid, int failed, const char *why);
/* Reads one line of the gate file ('line', without its newline). Returns 1 when it says the
 * process failed the gate, 0 when it passed, -1 when the line is not a gate line; sets '*pid'
 * and '*why' (pointing into 'line'). */
int ss_gate_parse_record(const char *line, long *pid, const char **why);

#endif
