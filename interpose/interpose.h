/* interpose.h: the public face of the interposer: its environment variables, their defaults,
 * and the configuration helpers that `syncscope run` and the capture library share. */
#ifndef SS_INTERPOSE_H
#define SS_INTERPOSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* File names of the capture library (LD_PRELOAD) and of its exit-time finisher, which is
 * loaded from the same folder only when the program ends. */
#define SS_INTERPOSE_LIBRARY "libsyncscope.so"
#define SS_INTERPOSE_FINISHER "libsyncscope_finish.so"
/* The runtime's wrappers (wrap_cudart.c), a measurement aid of the light mode, preloaded after
 * the capture library from the same folder. */
#define SS_INTERPOSE_WRAPPERS "libsyncscope_cudart.so"

/* SYNCSCOPE_LIGHT_PROBE's words (a measurement aid's probes), in the order of the capture
 * library's enum bench_probe after PROBE_OFF. */
#define SS_LIGHT_PROBES "load", "subscribe", "noop", "noop_runtime", "noop_driver", "switch", "wrap"

/* Environment variables: one row each in settings.def, which gives the name, the parser, the
 * default, the `syncscope run` option and the line of docs/run.md. SS_ENV(NAME) spells
 * SYNCSCOPE_NAME as a string literal. */
#define SS_ENV(name) "SYNCSCOPE_" #name

/* The names the rest of the code already uses; new code writes SS_ENV(NAME). */
#define SS_ENV_OUTPUT SS_ENV(OUTPUT)
#define SS_ENV_FORMAT SS_ENV(FORMAT)
#define SS_ENV_FRAMES SS_ENV(FRAMES)
#define SS_ENV_FULL_NAMES SS_ENV(FULL_NAMES)
#define SS_ENV_SARIF SS_ENV(SARIF)
#define SS_ENV_TRACE SS_ENV(TRACE)
#define SS_ENV_CHROME_TRACE SS_ENV(CHROME_TRACE)
#define SS_ENV_MAX_MEMORY SS_ENV(MAX_MEMORY)
#define SS_ENV_KERNEL_ACTIVITY SS_ENV(KERNEL_ACTIVITY)
#define SS_ENV_MIN_BLOCKED_US SS_ENV(MIN_BLOCKED_US)
#define SS_ENV_READBACK_BYTES SS_ENV(READBACK_BYTES)
#define SS_ENV_SLACK_US SS_ENV(SLACK_US)
#define SS_ENV_STACK_MIN_US SS_ENV(STACK_MIN_US)
#define SS_ENV_CUPTI_PATH SS_ENV(CUPTI_PATH)
#define SS_ENV_QUIET SS_ENV(QUIET)
#define SS_ENV_PYTHON_DEPTH SS_ENV(PYTHON_DEPTH)
#define SS_ENV_CROSS_THREAD SS_ENV(CROSS_THREAD)
#define SS_ENV_SIGNAL_FLUSH_MS SS_ENV(SIGNAL_FLUSH_MS)
#define SS_ENV_LATENT SS_ENV(LATENT)
#define SS_ENV_ATTRIBUTE_TO SS_ENV(ATTRIBUTE_TO)
#define SS_ENV_TIMING SS_ENV(TIMING)
#define SS_ENV_SYMBOL_CACHE SS_ENV(SYMBOL_CACHE)
#define SS_ENV_ERROR_EXITCODE SS_ENV(ERROR_EXITCODE)
#define SS_ENV_FAIL_ON SS_ENV(FAIL_ON)
#define SS_ENV_FAIL_OVER SS_ENV(FAIL_OVER)
#define SS_ENV_BASELINE SS_ENV(BASELINE)
#define SS_ENV_WRITE_BASELINE SS_ENV(WRITE_BASELINE)
#define SS_ENV_PROFILE_FROM_START SS_ENV(PROFILE_FROM_START)
#define SS_ENV_NVTX_RANGE SS_ENV(NVTX_RANGE)
#define SS_ENV_NVTX SS_ENV(NVTX)
#define SS_ENV_GATE_FILE SS_ENV(GATE_FILE)

/* Launcher variables that carry a process's rank, in the order they are tried. */
#define SS_RANK_VARIABLES                                                                          \
    {                                                                                              \
        "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", "RANK", "LOCAL_RANK"                   \
    }

/* Values the rows of settings.def refer to. SS_DEFAULT_STACK_MIN_US repeats the row's default
 * for the --help text of `syncscope run` (check_settings holds the two equal). */
#define SS_DEFAULT_OUTPUT "syncscope-%p.json"
#define SS_DEFAULT_STACK_MIN_US 100
#define SS_MAX_PYTHON_DEPTH 32 /* SS_PY_DEPTH_MAX in store.h */
#define SS_MAX_TEXT_FRAMES 100 /* more than a recorded stack holds (native and Python) */
/* The exit-time work of a PyTorch process took 3.5-4 s on an H200 (docs/studies/performance.md). */
#define SS_MAX_SIGNAL_FLUSH_MS 3600000
/* Smallest accepted memory cap: below it not even one thread's buffers fit. */
#define SS_MIN_MAX_MEMORY (4ull << 20)

#define SS_CONFIG_PATH_MAX 4096
#define SS_CONFIG_NAME_MAX 256 /* an NVTX range name, a --fail-over value */
#define SS_CONFIG_WORD_MAX 16  /* a --fail-on level, a format's name */

/* The member of ss_interpose_config that each parser kind of settings.def fills. */
#define SS_SETTING_FIELD_PATH(field) char field[SS_CONFIG_PATH_MAX];
#define SS_SETTING_FIELD_LIST(field) char field[SS_CONFIG_PATH_MAX];
#define SS_SETTING_FIELD_CACHE_FOLDER(field) char field[SS_CONFIG_PATH_MAX];
#define SS_SETTING_FIELD_NAME(field) char field[SS_CONFIG_NAME_MAX];
#define SS_SETTING_FIELD_LEVEL(field) char field[SS_CONFIG_WORD_MAX];
#define SS_SETTING_FIELD_FORMAT(field) char field[SS_CONFIG_WORD_MAX];
#define SS_SETTING_FIELD_COLOR(field) char field[SS_CONFIG_WORD_MAX];
#define SS_SETTING_FIELD_SWITCH(field) int field;
#define SS_SETTING_FIELD_SIZE(field) uint64_t field;
#define SS_SETTING_FIELD_MICROS(field) uint64_t field;
#define SS_SETTING_FIELD_MILLIS(field) uint32_t field;
#define SS_SETTING_FIELD_FRAMES(field) uint32_t field;
#define SS_SETTING_FIELD_EXIT_STATUS(field) uint32_t field;
#define SS_SETTING_FIELD_MODE(field) char field[SS_CONFIG_WORD_MAX];
#define SS_SETTING_FIELD_SAMPLE(field) char field[SS_CONFIG_WORD_MAX * 2];
#define SS_SETTING_FIELD_SECONDS(field) uint32_t field;
#define SS_SETTING_FIELD_PROBE(field) char field[SS_CONFIG_WORD_MAX];

/* The interposer's settings, read once from the environment when the program starts (the
 * program may change its environment later): one member per row of settings.def, which says
 * what each holds. Strings are empty and numbers 0 when the row has no default; so are the
 * detector thresholds, and the detector's own defaults then apply. */
typedef struct ss_interpose_config {
#define SS_SETTING(name, field, kind, limit, default_value, option, doc)                           \
    SS_SETTING_FIELD_##kind(field)
#include "settings.def"
    char cwd[SS_CONFIG_PATH_MAX]; /* relative output paths are relative to this */
    /* 1: SYNCHRONIZATION records, which only the timeline shows: on when a trace or a Chrome
     * trace is written (about 1.1 us more per empty launch on an H200:
     * docs/studies/performance.md) */
    int sync_records;
} ss_interpose_config;

/* One per row of the interposer's in settings.def, in its order. */
typedef enum ss_setting_id {
#define SS_SETTING(name, field, kind, limit, default_value, option, doc) SS_SETTING_##name,
#include "settings.def"
    SS_SETTING_COUNT
} ss_setting_id;

/* The parser kinds of settings.def. */
typedef enum ss_setting_kind {
    SS_KIND_PATH,
    SS_KIND_LIST,
    SS_KIND_CACHE_FOLDER,
    SS_KIND_NAME,
    SS_KIND_LEVEL,
    SS_KIND_FORMAT,
    SS_KIND_COLOR,
    SS_KIND_SWITCH,
    SS_KIND_SIZE,
    SS_KIND_MICROS,
    SS_KIND_MILLIS,
    SS_KIND_FRAMES,
    SS_KIND_EXIT_STATUS,
    SS_KIND_MODE,
    SS_KIND_SAMPLE,
    SS_KIND_SECONDS,
    SS_KIND_PROBE
} ss_setting_kind;

/* How a `syncscope run` option sets its variable (the option column of settings.def). */
typedef enum ss_option_form {
    SS_OPTION_FORM_NONE,  /* no option */
    SS_OPTION_FORM_VALUE, /* --opt VALUE sets the variable to VALUE */
    SS_OPTION_FORM_FLAG,  /* --opt sets the variable to a fixed value */
    SS_OPTION_FORM_LIST   /* repeatable; the values are joined with ':' */
} ss_option_form;

/* A row of settings.def as data. */
typedef struct ss_interpose_setting {
    const char *variable;      /* "SYNCSCOPE_OUTPUT" */
    ss_setting_kind kind;      /* the parser (not used when 'read_by' is set) */
    const char *kind_name;     /* "PATH", "SWITCH", ...: the kind column */
    uint64_t limit;            /* the kind's bound, 0 for none */
    const char *default_value; /* as written in the variable; "" none */
    ss_option_form form;
    const char *option;       /* "--output", NULL when none */
    char short_option;        /* 'o', 0 when none */
    const char *option_value; /* VALUE, LIST: the value's name ("FILE"); FLAG: the value set */
    const char *doc;          /* one Markdown line */
    const char *read_by;      /* NULL: the interposer; else the part that reads it ("report") */
    /* SS_SETTING_DETECTOR rows: the row of detect/detect_options.def whose default applies
     * when the variable is unset ("min_blocked_ns"), and that default as written in the
     * variable ("5"); NULL for the others. */
    const char *detector;
    const char *detector_default;
} ss_interpose_setting;

/* The rows of settings.def as data, in its order: the interposer's first (SS_SETTING_COUNT of
 * them, indexed by ss_setting_id), then those other parts read; how many in all in '*n'.
 * Static storage. */
const ss_interpose_setting *ss_interpose_settings(size_t *n);

/* The row of the variable named 'variable' ("SYNCSCOPE_FORMAT"), or NULL when none is. */
const ss_interpose_setting *ss_interpose_setting_find(const char *variable);

/* Parses 'value' into the member of 'config' of 'setting' (one of the interposer's rows, as
 * ss_interpose_settings or ss_interpose_setting_find give it) as the interposer reads the
 * variable; NULL or "" gives the row's default. Other members stay as they are. Returns 0, or
 * -1 with a one-line description in 'err' ('err_size' bytes), such as "SYNCSCOPE_FORMAT='xml'
 * is not one of text, json, sarif, github, html, gitlab". */
int ss_interpose_setting_set(ss_interpose_config *config, const ss_interpose_setting *setting,
                             const char *value, char *err, size_t err_size);

/* The default of 'setting' as a user would write it in the variable: its default_value ("" when
 * it has none), or for a detector's threshold the detector's default ("5"). */
const char *ss_interpose_setting_default(const ss_interpose_setting *setting);

/* Writes the Markdown table of the interposer's variables and their options ('elsewhere' 0,
 * docs/run.md), or of the variables that other parts read ('elsewhere' 1,
 * docs/configuration.md). Returns 0, or -1 when writing failed. */
int ss_interpose_write_settings_table(FILE *out, int elsewhere);

/* Parses a byte size: digits with an optional K, M, G or T suffix (powers of 1024,
 * optionally followed by "B" or "iB", any case). Returns 0, or -1 when 'text' is not a
 * size or overflows. */
int ss_interpose_parse_size(const char *text, uint64_t *out);

/* Parses a --sample value, "ON/EVERY": two durations, each digits with ms, s or m ("5s/120s"),
 * ON shorter than EVERY and at least 1 ms. Returns 0 with the durations in nanoseconds in
 * '*on_ns' and '*every_ns', or -1 when 'text' is not one. */
int ss_interpose_parse_sample(const char *text, uint64_t *on_ns, uint64_t *every_ns);

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

/* Fills 'config' with the defaults, then reads the SYNCSCOPE_* variables of settings.def, in
 * its order. Returns 0, or -1 with a one-line description in 'err' ('err_size' bytes) for the
 * first variable whose value is not valid. */
int ss_interpose_config_load(ss_interpose_config *config, char *err, size_t err_size);

#endif
