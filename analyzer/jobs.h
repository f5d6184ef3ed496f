/* jobs.h: the jobs of a lint run, one per translation unit, and the files that make and run
 * them: jobs.c (the units found, configured and checked), clang_args.c (each unit's clang
 * command line), workers.c (the worker threads, the cache) and guard.c (the bounds on memory
 * and time). Private to the analyzer; analyzer.c drives them. */
#ifndef SS_ANALYZER_JOBS_H
#define SS_ANALYZER_JOBS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "analyzer.h"
#include "cache.h"
#include "compdb.h"
#include "flags.h"
#include "tu.h"

/* One translation unit to analyze. */
typedef struct ss_job {
    char *file;                        /* absolute path */
    const ss_compile_command *command; /* its compile_commands.json entry, or NULL */
    unsigned readback_bytes;           /* the file's effective readback-bytes */
    char **hot_functions;              /* the file's effective hot-functions (owned) */
    size_t hot_count;
    int skip;          /* 0, or why it is not parsed (an ss_skip_reason) */
    int from_folder;   /* found by a folder walk (not named, not listed) */
    char *included_by; /* folder walk: another source #includes it, or NULL */
    int status;        /* as ss_tu_analyze returns it */
    int started;
    int finished;
    int abandoned;         /* the guard gave up waiting for its parse (--parse-timeout): its
                              worker may still be in libclang and writes nothing into the job */
    struct timespec began; /* when a worker took it (CLOCK_MONOTONIC) */
    ss_result result;      /* this unit's findings and diagnostics */
    ss_args args;          /* its clang arguments, made before the workers start */
    ss_flags_info info;
    size_t user_begin, extra_begin, extra_end; /* as in ss_tu_input */
    char *args_error; /* why its command line could not be read whole, or NULL */
    const char *text; /* the source read from standard input (not owned), or NULL */
    size_t text_len;
    ss_tu_streams streams; /* what the other units need to know of its streams */
} ss_job;

typedef struct ss_job_list {
    ss_job *v;
    size_t count, cap;
} ss_job_list;

/* What became of the files before any was parsed, for --stats. */
typedef struct ss_jobs_prepared {
    size_t excluded; /* by the configuration */
    size_t included; /* folder walk: #included by another source */
    size_t unlisted; /* folder walk: not in the compile database */
    int folder_walk; /* some file was found by a folder walk */
} ss_jobs_prepared;

/* Makes the jobs: the translation units named by 'o' (and 'db', may be NULL), their
 * configuration, the folder walk's extras left out, and each remaining file checked to be a
 * readable text source (empty ones are skipped, refused ones noted in 'out'). Returns 0, or
 * -1 (message printed). */
int ss_jobs_prepare(const ss_lint_options *o, const ss_compdb *db, ss_config_cache *configs,
                    ss_job_list *jobs, ss_result *out, ss_jobs_prepared *prep);
/* Frees every job of 'jobs' and the list. */
void ss_jobs_free(ss_job_list *jobs);

/* clang's resource folder (builtin headers, cuda_wrappers/) for the libclang actually loaded.
 * libclang derives it from the path it was loaded by, and Debian's layout defeats that: the
 * real library lies in /usr/lib/<triple>/ while the folder is /usr/lib/llvm-N/lib/clang/N, so
 * cuda_wrappers/new is missing and Thrust/CUB fail to parse. Tried in order: beside the
 * library as loaded, beside it with links resolved, the folder found at build time, and
 * /usr/lib/llvm-N/lib/clang/N. Malloc'ed, or NULL when none has the wrappers. */
char *ss_clang_resource_dir(void);
/* Makes the clang arguments of one job: the compile command's response files expanded and
 * its arguments translated (what the allow-list drops and --remove-arg names left out, and
 * said with --verbose), the toolkit's arguments, the --extra-arg values. */
void ss_job_args(ss_job *j, const ss_lint_options *o, const ss_toolkit *toolkit,
                 const char *resource_dir);

/* What the workers share (workers.c), and the guard (guard.c). */
typedef struct ss_run_state {
    const ss_lint_options *options;
    const ss_toolkit *toolkit;
    const char *resource_dir; /* clang's resource folder, or NULL */
    char *build_dir;          /* -p BUILD_DIR, absolute, or NULL */
    ss_job_list *jobs;
    ss_cache *cache;
    pthread_mutex_t lock;
    size_t next;    /* the next job to start */
    int keep_going; /* analyze every unit after one with parse errors (all but --fail-fast) */
    size_t stop;    /* with --fail-fast: the first job with parse errors (count: none) */
    size_t done;    /* jobs finished, for the progress line */
    size_t total;   /* jobs to parse, for the progress line */
    size_t parsed, cached;
    struct timespec started;
    /* The guard (guard.c): its bounds, and its wake-up for the end of the run. */
    uint64_t max_memory;    /* bytes, or SS_LINT_NO_LIMIT */
    uint64_t parse_timeout; /* seconds per unit, or SS_LINT_NO_LIMIT */
    pthread_cond_t guard_wake;
    int workers_done;
    /* The workers still taking jobs (a worker whose unit the guard gave up on leaves the count
     * and a new one takes its place), and the signal that one has left. */
    unsigned live_workers;
    pthread_cond_t workers_left;
    size_t abandoned; /* units the guard gave up on */
} ss_run_state;

/* Sets up 'st' to run 'jobs': their clang arguments, the cache, the lock, the guard's bounds
 * and wake-up. Returns the number of workers to start. */
unsigned ss_workers_start(ss_run_state *st, const ss_lint_options *o, ss_job_list *jobs,
                          const ss_toolkit *toolkit, const char *resource_dir);
/* Runs the jobs on 'nworkers' worker threads with large stacks (stack.c; on this thread when
 * none can be started) under the guard thread, then releases what ss_workers_start set up. */
void ss_workers_run(ss_run_state *st, unsigned nworkers);
/* The seconds from 'start' (CLOCK_MONOTONIC) to now. */
double ss_workers_seconds_since(const struct timespec *start);

/* The default memory bound for 'workers' threads: 8 GiB, or 2 GiB per worker when that is
 * more (a large unit under libclang takes about one), but at most three quarters of the
 * memory available (past that, the system would swap or kill the process without a word). */
uint64_t ss_guard_default_max_memory(unsigned workers);
/* The guard thread ('data': the ss_run_state): every 0.1 s until the workers are done, the
 * resident memory of the process against max_memory and the oldest unit being parsed against
 * parse_timeout. Past the memory bound it names the file and ends the process with status 2;
 * past the time bound it gives up on the unit (ss_job.abandoned: a unit with an error, as a
 * parse error is; with --fail-fast the last one started) and starts a worker in its place
 * (ss_workers_replace), so that the other units are analyzed and reported. */
void *ss_guard_thread(void *data);
/* Starts a worker in place of one whose unit the guard gave up on (the caller holds the
 * lock). Returns 0, or -1 when no thread could be started (the units left are then not
 * analyzed: the run stops there, as with --fail-fast). */
int ss_workers_replace(ss_run_state *st);
/* The result of a unit the guard gave up on, made after the workers are done: status 1 and
 * one error, "parsing stopped: it took longer than N s ...". */
void ss_workers_abandoned_result(ss_run_state *st, ss_job *j);

#endif
