/* interpose.h: the public face of the interposer: its environment variables, their defaults,
 * and the configuration helpers that `syncscope run` and the capture library share. */
#ifndef SS_INTERPOSE_H
#define SS_INTERPOSE_H

#include <stddef.h>
#include <stdint.h>

/* File names of the capture library (LD_PRELOAD) and of its exit-time finisher, which is
 * loaded from the same folder only when the program ends. */
#define SS_INTERPOSE_LIBRARY "libsyncscope.so"
#define SS_INTERPOSE_FINISHER "libsyncscope_finish.so"

/* Environment variables (docs/run.md). `syncscope run` options set the same variables. */
#define SS_ENV_OUTPUT "SYNCSCOPE_OUTPUT"                   /* result file; %p %h %r %% expanded */
#define SS_ENV_FORMAT "SYNCSCOPE_FORMAT"                   /* json (default), sarif, text, github */
#define SS_ENV_SARIF "SYNCSCOPE_SARIF"                     /* a second result file, always SARIF */
#define SS_ENV_TRACE "SYNCSCOPE_TRACE"                     /* event log for `syncscope analyze` */
#define SS_ENV_CHROME_TRACE "SYNCSCOPE_CHROME_TRACE"       /* Chrome/Perfetto timeline */
#define SS_ENV_MAX_MEMORY "SYNCSCOPE_MAX_MEMORY"           /* capture memory cap: 256M, 1G, bytes */
#define SS_ENV_KERNEL_ACTIVITY "SYNCSCOPE_KERNEL_ACTIVITY" /* 0: no per-kernel records */
#define SS_ENV_MIN_BLOCKED_US "SYNCSCOPE_MIN_BLOCKED_US"   /* detector: shortest finding */
#define SS_ENV_READBACK_BYTES "SYNCSCOPE_READBACK_BYTES"   /* detector: SYNC301 size limit */
#define SS_ENV_SLACK_US "SYNCSCOPE_SLACK_US"               /* detector: matching tolerance */
#define SS_ENV_STACK_MIN_US "SYNCSCOPE_STACK_MIN_US" /* stack for any call at least this long */
#define SS_ENV_CUPTI_PATH "SYNCSCOPE_CUPTI_PATH"     /* libcupti file or folder to use */
#define SS_ENV_QUIET "SYNCSCOPE_QUIET"               /* 1: no summary on stderr */
#define SS_ENV_PYTHON_DEPTH "SYNCSCOPE_PYTHON_DEPTH" /* Python frames per stack, 0: none */
/* How long a SIGINT/SIGTERM waits for the outputs to be written before the program dies of
 * it anyway; 0: no handler, a signal writes nothing */
#define SS_ENV_SIGNAL_FLUSH_MS "SYNCSCOPE_SIGNAL_FLUSH_MS"
#define SS_ENV_LATENT "SYNCSCOPE_LATENT" /* 0: no latent notes (docs/detectors.md) */
/* Path prefixes of the user's own code, separated by ':' (--attribute-to, docs/run.md) */
#define SS_ENV_ATTRIBUTE_TO "SYNCSCOPE_ATTRIBUTE_TO"
#define SS_ENV_TIMING "SYNCSCOPE_TIMING" /* 1: one line on the exit-time work's cost */
/* The finisher's symbol cache: 0 none, 1 (default) $XDG_CACHE_HOME/syncscope/symbols, or a
 * folder (docs/run.md, "Symbol cache") */
#define SS_ENV_SYMBOL_CACHE "SYNCSCOPE_SYMBOL_CACHE"
/* Gates and scopes (docs/run.md, "Gates" and "Scopes"). */
/* `syncscope run`: the exit status when the gate fails */
#define SS_ENV_ERROR_EXITCODE "SYNCSCOPE_ERROR_EXITCODE"
#define SS_ENV_FAIL_ON "SYNCSCOPE_FAIL_ON"               /* note, warning (default), error, none */
#define SS_ENV_FAIL_OVER "SYNCSCOPE_FAIL_OVER"           /* blocked-time budget: 2%, 50ms */
#define SS_ENV_BASELINE "SYNCSCOPE_BASELINE"             /* findings accepted earlier: left out */
#define SS_ENV_WRITE_BASELINE "SYNCSCOPE_WRITE_BASELINE" /* record the findings as a baseline */
/* 0: only calls between cudaProfilerStart and cudaProfilerStop count */
#define SS_ENV_PROFILE_FROM_START "SYNCSCOPE_PROFILE_FROM_START"
#define SS_ENV_NVTX_RANGE "SYNCSCOPE_NVTX_RANGE" /* only calls inside NVTX ranges of this name */
#define SS_ENV_NVTX "SYNCSCOPE_NVTX"             /* 0: NVTX ranges are not observed */
/* Set by `syncscope run` for its gate: the file each observed process appends its verdict to */
#define SS_ENV_GATE_FILE "SYNCSCOPE_GATE_FILE"

/* Launcher variables that carry a process's rank, in the order they are tried. */
#define SS_RANK_VARIABLES                                                                          \
    {                                                                                              \
        "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", "RANK", "LOCAL_RANK"                   \
    }

#define SS_DEFAULT_OUTPUT "syncscope-%p.json"
#define SS_DEFAULT_FORMAT "json"
#define SS_DEFAULT_MAX_MEMORY (256ull << 20)
#define SS_DEFAULT_STACK_MIN_US 100
#define SS_DEFAULT_PYTHON_DEPTH 8
#define SS_MAX_PYTHON_DEPTH 32 /* SS_PY_DEPTH_MAX in store.h */
/* The exit-time work of a PyTorch process took 3.5-4 s on an H200 (docs/performance.md). */
#define SS_DEFAULT_SIGNAL_FLUSH_MS 10000
#define SS_MAX_SIGNAL_FLUSH_MS 3600000
/* Smallest accepted memory cap: below it not even one thread's buffers fit. */
#define SS_MIN_MAX_MEMORY (4ull << 20)

#define SS_CONFIG_PATH_MAX 4096
#define SS_CONFIG_NAME_MAX 256 /* an NVTX range name, a --fail-over value */

/* The interposer's settings, read once from the environment when the program starts (the
 * program may change its environment later). Strings are empty when unset. Detector
 * thresholds are 0 when unset (the detector's defaults apply). */
typedef struct ss_interpose_config {
    char output[SS_CONFIG_PATH_MAX];
    char format[16];
    char sarif[SS_CONFIG_PATH_MAX];
    char trace[SS_CONFIG_PATH_MAX];
    char chrome_trace[SS_CONFIG_PATH_MAX];
    char cupti_path[SS_CONFIG_PATH_MAX];
    char cwd[SS_CONFIG_PATH_MAX]; /* relative output paths are relative to this */
    uint64_t max_memory;
    uint64_t min_blocked_ns;
    uint64_t readback_bytes;
    uint64_t slack_ns;
    uint64_t stack_min_ns;
    int kernel_activity; /* 1: CONCURRENT_KERNEL records (default) */
    /* 1: SYNCHRONIZATION records, which only the timeline shows: on when a trace or a Chrome
     * trace is written (about 1.1 us more per empty launch on an H200: docs/performance.md) */
    int sync_records;
    int quiet;
    uint32_t python_depth;    /* Python frames kept per stack, 0: none */
    uint32_t signal_flush_ms; /* a signal's wait for the outputs, 0: no signal handler */
    int latent;               /* 1: latent synchronizations are reported as notes (default) */
    int timing;               /* 1: the finisher prints what its steps took */
    char symbol_cache[SS_CONFIG_PATH_MAX]; /* the symbol cache's folder, "" for none */
    char attribute_to[SS_CONFIG_PATH_MAX]; /* ':'-separated path prefixes, "" for none */
    /* Gates (docs/run.md, "Gates"): judged at exit; the exit status is changed by `syncscope
     * run` alone, from the gate file. */
    uint32_t error_exitcode;                 /* 0: none */
    char fail_on[16];                        /* "", note, warning, error, none */
    char fail_over[SS_CONFIG_NAME_MAX];      /* "" or a budget (ss_gate_parse_budget) */
    char gate_file[SS_CONFIG_PATH_MAX];      /* "" when not run by `syncscope run` with a gate */
    char baseline[SS_CONFIG_PATH_MAX];       /* "" or the baseline to leave findings out by */
    char write_baseline[SS_CONFIG_PATH_MAX]; /* "" or where to record a baseline (%p ...) */
    /* Scopes (docs/run.md, "Scopes"). */
    int profile_from_start;              /* 0: only between cudaProfilerStart/Stop (default 1) */
    char nvtx_range[SS_CONFIG_NAME_MAX]; /* "" or the NVTX range name calls must be inside */
    int nvtx;                            /* 1: NVTX ranges are observed (default) */
} ss_interpose_config;

/* Parses a byte size: digits with an optional K, M, G or T suffix (powers of 1024,
 * optionally followed by "B" or "iB", any case). Returns 0, or -1 when 'text' is not a
 * size or overflows. */
int ss_interpose_parse_size(const char *text, uint64_t *out);

/* Parses a non-negative decimal integer. Returns 0, or -1 when 'text' is not one. */
int ss_interpose_parse_uint(const char *text, uint64_t *out);

/* The process's rank from the first launcher variable that is set to an integer
 * (SS_RANK_VARIABLES), or -1 when none is. */
int ss_interpose_rank(void);

/* Expands an output name: %p the pid, %h the host name, %r the rank (0 when the process
 * has no rank), %% a percent sign; any other '%' sequence is kept as written. Writes the
 * result with its NUL into 'out' ('size' bytes). Returns 0, or -1 when it does not fit. */
int ss_interpose_expand(const char *pattern, long pid, const char *host, int rank, char *out,
                        size_t size);

/* Fills 'config' with the defaults, then reads the SYNCSCOPE_* variables. Returns 0, or -1
 * with a one-line description in 'err' ('err_size' bytes) when a variable's value is not
 * valid. */
int ss_interpose_config_load(ss_interpose_config *config, char *err, size_t err_size);

#endif
