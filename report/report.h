/* report.h: the finding model shared by lint and run, and its writers. */
#ifndef SS_REPORT_H
#define SS_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "rules.h"
#include "util.h"

#define SS_VERSION "0.1.0"
#define SS_INFORMATION_URI "https://github.com/syncscope/syncscope"

/* One frame of a call stack (runtime findings). Strings are owned by the finding. */
typedef struct ss_frame {
    uint64_t pc;    /* program counter, 0 for Python frames */
    char *function; /* NULL when unknown */
    char *file;     /* NULL when unknown */
    unsigned line;  /* 0 when unknown */
    char *module;   /* shared object or executable path, NULL when unknown */
    int is_python;  /* 1 for a Python frame */
} ss_frame;

/* A named extra figure of a finding ("predicted_ns", "chunks", ...). */
typedef struct ss_kv {
    char *key;
    char *value;
} ss_kv;

/* What the run observed for a finding; all zero/NULL for lint findings. */
typedef struct ss_evidence {
    uint64_t count;    /* occurrences aggregated into this finding */
    uint64_t total_ns; /* host time blocked (or GPU time held back), summed */
    uint64_t max_ns;   /* the longest single occurrence */
    uint64_t bytes;    /* bytes copied, summed over occurrences */
    char *api;         /* the API observed ("cudaMemcpyAsync") */
    char *direction;   /* "HtoD", "DtoH", "DtoD", "PtoP" or NULL */
    char *host_kind;   /* "pageable", "pinned", "managed" or NULL */
    char *waited_for;  /* what the call waited for, in words, or NULL */
    char *stream;      /* the stream(s) involved, in words, or NULL */
    int device;        /* CUDA device ordinal, -1 when unknown */
} ss_evidence;

enum { SS_ORIGIN_STATIC = 1, SS_ORIGIN_RUNTIME = 2 };

/* A fix-it of a lint finding: replace the bytes of 'line' from 'column' up to, not including,
 * 'end_column' (1-based byte columns; equal for an insertion) with 'text'. */
typedef struct ss_fixit {
    unsigned line, column, end_column;
    char *text;
} ss_fixit;

typedef struct ss_finding {
    ss_rule_id rule;
    ss_severity severity; /* effective severity (default or configured) */
    int origin;           /* SS_ORIGIN_STATIC or SS_ORIGIN_RUNTIME */
    char *file;           /* path as shown to the user; NULL when unknown */
    unsigned line;        /* 1-based, 0 when unknown */
    unsigned column;      /* 1-based, 0 when unknown */
    char *function;       /* enclosing function, NULL when unknown */
    char *message;        /* what was found */
    char *hint;           /* what to do instead, NULL when the catalog's fix suffices */
    char *line_text;      /* text of the source line, NULL when unreadable */
    ss_frame *frames;     /* call stack, innermost first (runtime) */
    size_t frame_count;
    ss_evidence evidence;
    ss_kv *extra;
    size_t extra_count;
    /* Run findings (docs/detectors.md, "Call sites"). The library frame the call went through
     * between the reported line and CUDA ("via transformers/generation/utils.py:2192"), when
     * the reported line is not the innermost frame that matters; all NULL/0 otherwise. */
    char *via_file;
    unsigned via_line;
    char *via_function;
    /* The call site's module when the site has no source line (a binary built without -g),
     * and its offset in the module: "function (module+0xOFFSET)". NULL/0 otherwise. */
    char *module;
    uint64_t module_offset;
    int latent;  /* 1: it synchronized, but blocked less than the evidence threshold */
    int startup; /* 1: every occurrence came before the program's first repeated GPU work */
    /* Lint findings: the mechanical edits that fix it (clang's fix-its), on the finding's line,
     * in column order, not overlapping; applied together by syncscope lint --fix. */
    ss_fixit *fixits;
    size_t fixit_count;
    /* Lint findings at a call written in a macro's argument ('CHECK(\n cudaMemcpy(...))'):
     * the finding is at the call as written, as clang places a diagnostic; 'macro' names the
     * (outermost) macro it is expanded from, invoked at 'macro_line':'macro_column' of the
     * same file. NULL/0 otherwise. */
    char *macro;
    unsigned macro_line, macro_column;
    /* Lint findings: where a warning's call is in no loop and no loop of its unit reaches it,
     * the words that make it a note once every unit's facts are in (ss_context_apply_unshown);
     * NULL otherwise. Never written to a report. */
    char *unshown;
} ss_finding;

/* A tool diagnostic: a parse error, an unreadable file, a dropped-events warning. */
typedef struct ss_diag {
    ss_severity severity;
    char *file; /* NULL when not about a file */
    unsigned line, column;
    char *message;
} ss_diag;

/* Why a source file that `syncscope lint` found was not analyzed. */
typedef enum ss_skip_reason {
    SS_SKIP_EXCLUDED = 1, /* an exclude pattern matches it */
    SS_SKIP_INCLUDED,     /* folder walk: another source #includes it */
    SS_SKIP_UNLISTED,     /* folder walk: the compile database does not list it */
    SS_SKIP_EMPTY,        /* the file is empty */
    SS_SKIP_STOPPED       /* the run stopped at an earlier file's parse errors (--fail-fast) */
} ss_skip_reason;

typedef struct ss_skipped_file {
    char *file; /* as shown to the user */
    ss_skip_reason reason;
} ss_skipped_file;

/* What a lint run did with the source files it found (docs/output-formats.md, the summary's
 * "files"). 'total' is 'analyzed' plus 'not_analyzed_count'. */
typedef struct ss_file_counts {
    int counted;        /* 1: a lint run counted its files; 0: nothing below (run results) */
    size_t total;       /* source files found: named, listed or found in folders */
    size_t analyzed;    /* analyzed, as far as clang recovered: the files with errors among them */
    char **with_errors; /* the analyzed files that had parse errors, as shown, in input order */
    size_t with_errors_count;
    ss_skipped_file *not_analyzed; /* in input order */
    size_t not_analyzed_count;
    /* Lint runs: the first error of each file of 'with_errors' ("k.cu:3:10: 'x.h' file not
     * found"), NULL where unknown; NULL when none was recorded. */
    char **first_errors;
} ss_file_counts;

typedef enum ss_result_kind { SS_RESULT_LINT = 1, SS_RESULT_RUN = 2 } ss_result_kind;

typedef struct ss_result {
    ss_result_kind kind;
    ss_finding *findings;
    size_t count, cap;
    ss_diag *diags;
    size_t diag_count, diag_cap;
    char *root; /* directory that SARIF URIs are relative to; NULL: cwd */
    /* Run metadata (SS_RESULT_RUN). */
    char *program;      /* argv[0] of the observed program */
    char *command_line; /* the whole command line, space separated */
    char *hostname;
    long pid;
    int rank;            /* -1 when not launched as a rank */
    char *gpu;           /* GPU name(s), NULL when unknown */
    char *driver;        /* kernel driver version ("580.65.06"), NULL when unknown */
    char *cuda;          /* the driver's CUDA version ("13.0"), NULL when unknown */
    char *cuda_runtime;  /* the program's CUDA runtime version, NULL when unknown */
    uint64_t wall_ns;    /* wall time of the run */
    uint64_t blocked_ns; /* host time blocked in implicit synchronization */
    uint64_t gpu_busy_ns;
    uint64_t events;      /* events recorded */
    uint64_t dropped;     /* events dropped past the memory cap */
    char *started_at;     /* ISO 8601 UTC */
    ss_file_counts files; /* lint: what became of each source file */
} ss_result;

/* The output formats: one per row of formats.def, in its order. */
typedef enum ss_format {
#define SS_FORMAT(enum_name, name, extension, writer, lint, run, analyze, report, doc)             \
    SS_FORMAT_##enum_name,
#include "formats.def"
    SS_FORMAT_COUNT
} ss_format;

void ss_result_init(ss_result *result, ss_result_kind kind);
/* Frees everything the result owns (findings, diagnostics, metadata strings). */
void ss_result_free(ss_result *result);

/* Appends a zeroed finding (evidence.device = -1) owned by 'result' and returns it. */
ss_finding *ss_result_add(ss_result *result);
/* Appends a tool diagnostic; 'file' may be NULL. Strings are copied. */
void ss_result_add_diag(ss_result *result, ss_severity severity, const char *file, unsigned line,
                        unsigned column, const char *message);
/* Adds a key/value figure to 'finding' (both copied). */
void ss_finding_add_extra(ss_finding *finding, const char *key, const char *value);
/* Frees what one finding owns (not the finding itself). */
void ss_finding_clear(ss_finding *finding);
/* Appends a fix-it to 'finding' (see ss_fixit; 'text' is copied). */
void ss_finding_add_fixit(ss_finding *finding, unsigned line, unsigned column, unsigned end_column,
                          const char *text);

/* 'path' without the folders of an installed package or of the Python standard library
 * ("/usr/lib/python3/dist-packages/transformers/x.py" -> "transformers/x.py"), a pointer into
 * 'path'; 'path' itself otherwise. */
const char *ss_report_short_path(const char *path);
/* 'name' (a demangled kernel or function name) without its template arguments, parameter
 * list and return type, as the readable outputs show it: "void at::native::elementwise_kernel<
 * 128, 4, ...>(int, ...)" -> "at::native::elementwise_kernel", "at::(anonymous namespace)::
 * f(int) [clone .isra.0]" -> "at::(anonymous namespace)::f". A name without any, or whose
 * brackets do not pair, is kept whole. Returns a malloc'ed string. */
char *ss_report_short_name(const char *name);
/* 'text' (a finding's message or "waited for" evidence) with each "kernel 'NAME'" shortened
 * as ss_report_short_name does. Returns a malloc'ed string. */
char *ss_report_short_kernels(const char *text);
/* Whether frame 'index' of 'finding' belongs to the Python interpreter or the C library's
 * start rather than to the program or its libraries: a native frame of libpython or of the
 * python executable (_PyEval_EvalFrameDefault, bare addresses), one below the outermost Python
 * frame (the interpreter's start), or one below a native main (__libc_start_main, _start).
 * The readable outputs leave these out; JSON and SARIF keep every frame. Returns 1 or 0. */
int ss_report_frame_hidden(const ss_finding *finding, size_t index);
/* "file:line" of the finding's via frame ('out', 'size' bytes), its function when it has no
 * file; "" when the finding has none. Returns 'out'. */
const char *ss_finding_via_text(const ss_finding *finding, char *out, size_t size);
/* "function (module+0xOFFSET)" for a finding whose site has no source line ('out', 'size'
 * bytes); "" when it has a source line or no module. Returns 'out'. */
const char *ss_finding_module_text(const ss_finding *finding, char *out, size_t size);

/* Records in 'counts' an analyzed file that had parse errors ('file' as shown; copied). */
void ss_file_counts_add_error(ss_file_counts *counts, const char *file);
/* Records the first error ('first_error', copied) of the file added last by
 * ss_file_counts_add_error, for the summary that names each file with errors. */
void ss_file_counts_set_first_error(ss_file_counts *counts, const char *first_error);
/* Records in 'counts' a file that was not analyzed, and why ('file' as shown; copied). */
void ss_file_counts_add_skipped(ss_file_counts *counts, const char *file, ss_skip_reason reason);
/* "excluded", "included", "unlisted", "empty", "stopped" (the JSON names); NULL for another
 * value. */
const char *ss_skip_reason_name(ss_skip_reason reason);
/* Why one file was not analyzed, in words: "not analyzed: an exclude pattern matches it". */
const char *ss_skip_reason_sentence(ss_skip_reason reason);
/* Parses a name of ss_skip_reason_name. Returns 0, or -1 when unknown. */
int ss_skip_reason_parse(const char *name, ss_skip_reason *out);
/* Whether the counts are worth a line of their own: several files, and some had errors. */
int ss_file_counts_notable(const ss_file_counts *counts);
/* "812 files, 650 analyzed, 162 with errors; not analyzed: 40 #included by other sources, 2
 * excluded" (docs/lint.md). Returns a malloc'ed string. */
char *ss_file_counts_text(const ss_file_counts *counts);

/* Lint order: file, line, column, rule. Run order: total cost descending, then as lint. */
void ss_result_sort(ss_result *result);
/* Compares two findings in lint order (file, line, column, rule, message; a NULL file or
 * message first). Returns <0, 0 or >0. */
int ss_finding_compare(const ss_finding *a, const ss_finding *b);

/* Decides whether 'finding' leaves its result; 'context' is the caller's. Returns 1 to remove
 * it, 0 to keep it. Called once per finding, in the result's order. */
typedef int (*ss_finding_pred)(const ss_finding *finding, void *context);
/* Removes (and frees) the findings of 'result' for which 'remove' returns 1, keeping the
 * order of the others. Returns the number removed. */
size_t ss_result_remove_if(ss_result *result, ss_finding_pred remove, void *context);

/* Number of findings whose severity is at least 'threshold'. */
size_t ss_result_count_at_least(const ss_result *result, ss_severity threshold);

/* A stable fingerprint of a finding that does not depend on its line number: rule, path
 * and the whitespace-normalized text of the line. Writes 16 hex digits and a NUL into
 * 'out' (at least 17 bytes). */
void ss_finding_fingerprint(const ss_finding *finding, char *out);

/* ss_text_options.frames: every frame. */
#define SS_TEXT_ALL_FRAMES ((unsigned)-1)

/* How the text writer shows a run finding (docs/run.md, "Reading the output"): by default its
 * diagnostic, the hint, what was observed, what it waited for and the library line it went
 * through, names shortened; a zeroed struct past 'show_source' gives that. */
typedef struct ss_text_options {
    int color;       /* ANSI colours */
    int show_source; /* print the source line and a caret */
    unsigned frames; /* run findings: call-stack frames shown (interpreter frames never are);
                      * SS_TEXT_ALL_FRAMES for all */
    int evidence;    /* 1: every evidence line (the streams, the detectors' figures) */
    int full_names;  /* 1: kernel and function names as recorded, templates and parameters */
    int no_summary;  /* no "2 warnings generated." line (-q: diagnostics only) */
} ss_text_options;

/* The subcommands that write a format (the lint, run, analyze and report columns of
 * formats.def), as bits. */
enum {
    SS_FORMAT_FOR_LINT = 1,
    SS_FORMAT_FOR_RUN = 2,
    SS_FORMAT_FOR_ANALYZE = 4,
    SS_FORMAT_FOR_REPORT = 8
};

/* A row of formats.def as data. */
typedef struct ss_format_info {
    ss_format format;
    const char *name;      /* "json": what --format takes (in any case) */
    const char *extension; /* "json": the usual file name extension, without the dot */
    unsigned commands;     /* SS_FORMAT_FOR_* bits: the subcommands that write it */
    const char *doc;       /* one Markdown line */
} ss_format_info;

/* What a writer of formats.def may use besides the result. */
typedef struct ss_format_options {
    const ss_text_options *text; /* text: NULL for no colour, with source lines */
    /* html: the run's event log, drawn as the page's timeline; NULL for none */
    const struct ss_event_log *trace;
} ss_format_options;

/* The writer of each row of formats.def (report/<format>.c, or report/formats.c for the
 * writers whose own signature differs): writes 'result'; 'options' may be NULL. Returns 0, or
 * -1 when writing failed (errno set). */
#define SS_FORMAT(enum_name, name, extension, writer, lint, run, analyze, report, doc)             \
    int writer(FILE *out, const ss_result *result, const struct ss_format_options *options);
#include "formats.def"

/* Parses a format's name (formats.def), in any case: "json", "JSON" and "Json" are
 * SS_FORMAT_JSON. Returns 0, or -1 when no format has that name (NULL included). */
int ss_format_parse(const char *text, ss_format *out);

/* The row of 'format', or NULL when it is not one. Static storage. */
const ss_format_info *ss_format_get(ss_format format);

/* The names of the formats that the subcommands in 'commands' (SS_FORMAT_FOR_* bits, any of
 * them) write, in the order of formats.def, separated by ", " and the last by 'last' (", " or
 * " or "): "text, json, sarif, github, html or gitlab". Returns a malloc'ed string. */
char *ss_format_names(unsigned commands, const char *last);

/* Writes 'result' in 'format' through the row's writer; 'options' may be NULL. Returns 0, or
 * -1 when writing failed or 'format' is not one (errno set: EINVAL). */
int ss_report_write_format(FILE *out, ss_format format, const ss_result *result,
                           const ss_format_options *options);

/* Writes the Markdown table of the formats (docs/output-formats.md). Returns 0, or -1 when
 * writing failed. */
int ss_report_write_format_table(FILE *out);

/* Replaces the text between the lines "<!-- NAME:begin -->" and "<!-- NAME:end -->" of
 * 'text' with 'content' (which should end with a newline). Returns the new text (malloc'ed),
 * or NULL when 'text' does not hold the two lines once each, in that order. */
char *ss_doc_region_replace(const char *text, const char *name, const char *content);

/* Writers. Each returns 0, or -1 when writing failed (errno set). */
int ss_report_write_text(FILE *out, const ss_result *result, const ss_text_options *options);
int ss_report_write_json(FILE *out, const ss_result *result);
int ss_report_write_sarif(FILE *out, const ss_result *result);
int ss_report_write_github(FILE *out, const ss_result *result);
/* GitLab Code Quality: a JSON array of issues (docs/output-formats.md). */
int ss_report_write_gitlab(FILE *out, const ss_result *result);

/* The variable that gives the base URL of the rule pages when no option does. */
#define SS_ENV_RULES_URL "SYNCSCOPE_RULES_URL"
/* Sets the base URL under which the rule pages of docs/rules/ are published (for example
 * "https://git.example.com/tools/syncscope/-/blob/v0.1.0/docs/rules"): SARIF's helpUri is
 * then 'base'/<ID>.md. NULL clears it. Returns 0, or -1 when 'base' is not an absolute URL
 * ("scheme://..."), leaving the setting as it was. The string is copied. */
int ss_report_set_rules_url(const char *base);
/* The base URL of the rule pages: the one set with ss_report_set_rules_url, else
 * $SYNCSCOPE_RULES_URL when it is an absolute URL, else NULL (no helpUri is written). */
const char *ss_report_rules_url(void);

/* The key under which a baseline remembers a finding (16 hex digits and a NUL into 'out', at
 * least 17 bytes): for a lint finding ss_finding_fingerprint (rule, path, the line's text); for
 * a run finding its rule, API, file (as ss_report_short_path shows it), the text of its line
 * read from that file (whitespace left out) or, where the file cannot be read, its function
 * (and the module's file name for a site without a file), and the via frame's file and
 * function. No line number: a finding that moves keeps its key. */
void ss_baseline_fingerprint(const ss_finding *finding, char *out);

/* Findings accepted earlier: fingerprints (ss_baseline_fingerprint) with how many times each
 * occurred. */
typedef struct ss_baseline_entry {
    char fingerprint[17];
    size_t count;
} ss_baseline_entry;

typedef struct ss_baseline {
    ss_baseline_entry *entries; /* sorted by fingerprint */
    size_t count;
    size_t total; /* findings in the file */
} ss_baseline;

#define SS_BASELINE_VERSION 1

/* Writes the findings of 'result' to the baseline file 'path' (JSON, version
 * SS_BASELINE_VERSION) atomically: a temporary file in the same folder, then rename.
 * Returns 0, or -1 with a message in 'err'. */
int ss_baseline_write(const char *path, const ss_result *result, char *err, size_t err_size);
/* Reads the baseline file 'path' into 'out' (initialized here; ss_baseline_free). Returns 0,
 * or -1 with "PATH:LINE:COLUMN: message" (or "PATH: message") in 'err'. */
int ss_baseline_load(const char *path, ss_baseline *out, char *err, size_t err_size);
void ss_baseline_free(ss_baseline *baseline);
/* Removes from 'result' the findings the baseline holds, counting occurrences: a fingerprint
 * recorded twice removes at most two findings (the first two in the result's order). Returns
 * the number removed. */
size_t ss_baseline_filter(const ss_baseline *baseline, ss_result *result);

struct ss_event_log;

/* Options of the HTML writer; NULL or a zeroed struct gives the defaults. */
typedef struct ss_html_options {
    const char *title;         /* page title; NULL: "syncscope report" */
    const char *root;          /* folder that paths are shown relative to, joined on and
                                * read from for source excerpts; NULL: the current directory */
    const char *const *inputs; /* names of the input files, shown in the header; may be NULL */
    size_t input_count;
    /* traces[i] is the event log of results[i] (a run), drawn as the timeline, or NULL;
     * 'traces' itself may be NULL. */
    const struct ss_event_log *const *traces;
    const char *generated_at; /* date shown in the header; NULL: now (UTC) */
    int no_sources;           /* 1: embed no source excerpts */
    int no_compress;          /* 1: embed the timeline without deflate */
} ss_html_options;

/* Writes one self-contained HTML page for 'n' results (lint and/or runs, one per process),
 * joining lint predictions and run observations on the call site (docs/report.md).
 * 'options' may be NULL. Returns 0, or -1 when writing failed (errno set) or memory ran
 * out. */
int ss_report_write_html(FILE *out, const ss_result *const *results, size_t n,
                         const ss_html_options *options);

/* Writes 'result' in 'format' to 'path' as ss_write_atomic (a regular file: a temporary
 * file in the same folder, then rename), or to stdout when 'path' is NULL or "-". Returns 0, or -1
 * with a message already printed. */
int ss_report_write(const char *path, ss_format format, const ss_result *result,
                    const ss_text_options *options);

/* Reads a JSON result written by ss_report_write_json into 'out' (initialized here).
 * Returns 0, or -1 with a description in 'err' ('err_size' bytes). */
int ss_report_read_json(const char *path, ss_result *out, char *err, size_t err_size);

/* Writes the Markdown documentation page of 'rule' (docs/rules/<ID>.md), generated from
 * the catalog alone. Returns 0, or -1 when writing failed. */
int ss_report_write_rule_doc(FILE *out, const ss_rule *rule);
/* Writes the index of all rule pages (docs/rules/README.md). Returns 0, or -1. */
int ss_report_write_rule_index(FILE *out);

#endif
