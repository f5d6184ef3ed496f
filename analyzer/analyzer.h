/* analyzer.h: the libclang pass behind `syncscope lint`: the analyzer's only public header. */
#ifndef SS_ANALYZER_H
#define SS_ANALYZER_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "report.h"

/* Environment: set to 1 to parse with the bundled CUDA declarations even when a toolkit is
 * installed (the same as --cuda-path=none). */
#define SS_ENV_NO_CUDA "SYNCSCOPE_NO_CUDA"
/* Environment: the CUDA toolkit root, used when --cuda-path is not given. */
#define SS_ENV_CUDA_PATH "CUDA_PATH"
/* Environment: the stack of each lint worker thread (bytes, or with K, M or G; default 1G):
 * deeper nesting exits 2 (docs/reliability.md). */
#define SS_ENV_LINT_STACK "SYNCSCOPE_LINT_STACK"

/* --cuda-path value that selects the bundled declarations. */
#define SS_CUDA_PATH_NONE "none"

/* The guard against parses that never end (docs/lint.md, "Runaway parses"): the value of
 * ss_lint_options.max_memory and .parse_timeout that turns a bound off, and the time one
 * translation unit may take by default, in seconds. */
#define SS_LINT_NO_LIMIT UINT64_MAX
#define SS_LINT_DEFAULT_PARSE_TIMEOUT 600

/* What a run did, for --stats. */
typedef struct ss_lint_stats {
    size_t units;    /* translation units analyzed (parsed or from the cache) */
    size_t parsed;   /* parsed by libclang */
    size_t cached;   /* taken from the cache */
    size_t excluded; /* source files skipped by an exclude pattern */
    size_t files;    /* source files found (named, listed or found in folders) */
    size_t failed;   /* units analyzed with parse errors (or not parsed at all) */
    size_t included; /* folder walks: sources left out because another source #includes them */
    size_t unlisted; /* folder walks: sources left out because the compile database lacks them */
} ss_lint_stats;

typedef struct ss_lint_options {
    const char *const *inputs; /* files and folders; may be empty when build_dir is set */
    size_t input_count;
    const char *build_dir;         /* folder holding compile_commands.json, or NULL */
    const char *const *extra_args; /* appended to every translation unit's arguments */
    size_t extra_arg_count;
    const char *cuda_path; /* toolkit root, SS_CUDA_PATH_NONE, or NULL to discover */
    int keep_going;        /* parse errors do not decide the exit status (the CLI's business) */
    int fail_fast;         /* stop at the first file with parse errors (else analyze all) */
    /* The fields below may be left zero. */
    const ss_config *config;       /* the command-line configuration layer, or NULL */
    ss_config_cache *config_cache; /* shared with the caller, or NULL for a private one */
    unsigned jobs;                 /* translation units parsed at once; 0: one per CPU */
    const char *cache_dir;         /* result cache folder, or NULL for no cache */
    int progress;                  /* 1: show progress on stderr (the caller checks isatty) */
    ss_lint_stats *stats;          /* filled in when not NULL */
    /* --remove-arg: compile-command arguments to leave out. */
    const char *const *remove_args;
    size_t remove_arg_count;
    /* 1: say, file by file, which compile-command arguments were dropped. */
    int verbose;
    /* The guard: the resident memory of the whole process, in bytes, past which the run
     * stops (0: 8 GiB, or 2 GiB per worker when that is more, at most three quarters of the
     * machine's memory), and the seconds one translation unit may take (0:
     * SS_LINT_DEFAULT_PARSE_TIMEOUT); SS_LINT_NO_LIMIT turns either off. libclang cannot be
     * interrupted in the middle of a parse, so passing a bound prints what was being parsed
     * and ends the process with exit status 2 (nothing more is written). */
    uint64_t max_memory;
    uint64_t parse_timeout;
    /* The source read from standard input (syncscope lint -), or NULL: then 'inputs' names
     * the one file it is analyzed as (--stdin-filename; it need not exist), and this text,
     * not the file's, is what is parsed, read for suppression comments and shown ('stdin_len'
     * bytes, NUL-terminated). No cache goes with it. */
    const char *stdin_text;
    size_t stdin_len;
} ss_lint_options;

/* Runs the static checks over the translation units named by 'options' and appends their
 * findings (sorted by file, line, column and rule; each reported once, also when a header is
 * seen by several units) and tool diagnostics (parse errors, files that were skipped,
 * malformed suppression comments) to 'out', which the caller has initialized with
 * ss_result_init(SS_RESULT_LINT). Translation units are parsed by 'jobs' threads (one
 * libclang index each); the result does not depend on their number. Every finding has been
 * passed through the configuration of its own file (.syncscope.yml over 'config': disabled
 * rules and excluded paths removed, severities set) and through the suppression comments of
 * its file; source files that an exclude pattern matches are not parsed. Returns -1 when the
 * input itself is unusable (a missing file, a folder without sources, a broken
 * compile_commands.json, a malformed .syncscope.yml, a binary file, no toolkit where one was
 * named): a message has been printed and nothing was analyzed. Otherwise returns the number
 * of translation units that had parse errors (0 when every file parsed cleanly); each such
 * file is still analyzed as far as clang recovered, and with fail_fast the result ends with
 * the first of them (in input order). A folder walk leaves out
 * the sources another source #includes and, with build_dir, those the compile database does
 * not list. A main file whose own #include line names a device, FIFO or socket by an absolute
 * path (or, in quotes, beside the file) is unusable input (-1). While the units are parsed, a
 * guard thread watches the process's resident memory and each unit's time: past
 * 'max_memory' it names the file and ends the process (exit status 2); past 'parse_timeout' it
 * gives up on that unit, which counts as one with parse errors ("parsing stopped: it took
 * longer than N s ...", with fail_fast the last one), and the run goes on with the others
 * (ss_analyzer_parses_left). */
int ss_analyzer_run(const ss_lint_options *options, ss_result *out);

/* Whether the last ss_analyzer_run gave up on a unit whose parse is still running: the
 * process must then end with _exit once its output is written (exit() would run libclang's
 * destructors under that parse), and the run's jobs are kept for it. Returns 1 or 0. */
int ss_analyzer_parses_left(void);

/* Why the lint finding 'f' carries no fix-it although its rule has one: a SYNC103 whose stream
 * the unit's legacy-stream work relies on being blocking ("legacy-stream work at lines 12 and
 * 20 is ordered with this stream only because it is blocking: move that work onto the stream
 * first"), pointing into its message; NULL otherwise. syncscope lint --fix says it. */
const char *ss_lint_fix_refused(const ss_finding *f);

#endif
