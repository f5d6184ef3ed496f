/* analyzer.c: `syncscope lint` end to end: makes the jobs (jobs.c), one per translation
 * unit, runs them on worker threads (workers.c), and merges, configures and suppresses the
 * findings in a stable order. */
#include "analyzer.h"
#include "cache.h"
#include "checks/context.h"
#include "checks/project_facts.h"
#include "compdb.h"
#include "jobs.h"
#include "log.h"
#include "path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A set of 64-bit keys (open addressing), each with a value, for dropping repeated findings
 * and diagnostics. */
typedef struct key_set {
    uint64_t *slots;
    size_t *values;
    size_t cap, count;
} key_set;

/* Adds 'key' with 'value'. Returns NULL when it was new, else the value kept with it. */
static size_t *key_set_put(key_set *set, uint64_t key, size_t value)
{
    key |= 1; /* 0 marks an empty slot */
    if (2 * (set->count + 1) > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 256;
        key_set grown = {ss_xcalloc(cap, sizeof(uint64_t)), ss_xcalloc(cap, sizeof(size_t)), cap,
                         0};
        for (size_t i = 0; i < set->cap; i++) {
            if (set->slots[i])
                key_set_put(&grown, set->slots[i], set->values[i]);
        }
        free(set->slots);
        free(set->values);
        *set = grown;
    }
    size_t i = (size_t)(key % set->cap);
    while (set->slots[i]) {
        if (set->slots[i] == key)
            return &set->values[i];
        i = (i + 1) % set->cap;
    }
    set->slots[i] = key;
    set->values[i] = value;
    set->count++;
    return NULL;
}

/* Adds 'key'. Returns 1 when it was new, 0 when it was there already. */
static int key_set_add(key_set *set, uint64_t key)
{
    return key_set_put(set, key, 0) == NULL;
}

static void key_set_free(key_set *set)
{
    free(set->slots);
    free(set->values);
}

static uint64_t hash_string(const char *s, uint64_t seed)
{
    return s ? ss_hash_bytes(s, strlen(s) + 1, seed) : ss_hash_bytes("", 0, seed ^ 1);
}

/* Moves the findings and diagnostics of the jobs up to 'last' into 'out' in job order,
 * each finding (rule and position) and each diagnostic once: a header seen by several
 * translation units is reported once, as the unit that gives it the highest severity reports it
 * (a helper that one unit calls on every iteration and another never calls is that unit's
 * warning, whatever the order of the units); at the same severity, a unit's own reason for a
 * note over the "not shown" one (ss_context_apply_unshown). */
static void merge(ss_job_list *jobs, size_t last, ss_result *out)
{
    key_set findings = {0}, diags = {0};
    for (size_t i = 0; i < out->diag_count; i++) {
        const ss_diag *d = &out->diags[i];
        uint64_t h = hash_string(d->message, hash_string(d->file, d->line * 65599ULL + d->column));
        key_set_add(&diags, h);
    }
    for (size_t i = 0; i <= last && i < jobs->count; i++) {
        ss_result *r = &jobs->v[i].result;
        for (size_t k = 0; k < r->count; k++) {
            ss_finding *f = &r->findings[k];
            uint64_t h = hash_string(f->file, ((uint64_t)f->rule << 48) ^
                                                  ((uint64_t)f->line << 20) ^ f->column);
            size_t *kept = key_set_put(&findings, h, out->count);
            if (kept == NULL) {
                *ss_result_add(out) = *f;
                memset(f, 0, sizeof *f);
            } else if (f->severity > out->findings[*kept].severity ||
                       (f->severity == out->findings[*kept].severity &&
                        out->findings[*kept].unshown != NULL && f->unshown == NULL)) {
                /* The highest severity; at the same, a reason over "not shown". */
                ss_finding_clear(&out->findings[*kept]);
                out->findings[*kept] = *f;
                memset(f, 0, sizeof *f);
            }
        }
        for (size_t k = 0; k < r->diag_count; k++) {
            const ss_diag *d = &r->diags[k];
            uint64_t h =
                hash_string(d->message, hash_string(d->file, d->line * 65599ULL + d->column));
            if (key_set_add(&diags, h))
                ss_result_add_diag(out, d->severity, d->file, d->line, d->column, d->message);
        }
    }
    key_set_free(&findings);
    key_set_free(&diags);
}

static int cmp_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files the policy is applied to: those of the findings of 'out' and the main files
 * 'sources', sorted (a name may repeat). Malloc'ed, each name too; '*count' receives their
 * number. */
static char **policy_files(const ss_result *out, char **sources, size_t source_count, size_t *count)
{
    size_t file_count = 0;
    char **files = ss_xreallocarray(NULL, out->count + source_count + 1, sizeof *files);
    for (size_t i = 0; i < out->count; i++) {
        if (out->findings[i].file)
            files[file_count++] = ss_xstrdup(out->findings[i].file);
    }
    for (size_t i = 0; i < source_count; i++)
        files[file_count++] = ss_xstrdup(sources[i]);
    qsort(files, file_count, sizeof *files, cmp_strings);
    *count = file_count;
    return files;
}

/* Moves finding 'i' of 'from' to 'to', leaving an empty finding behind. */
static void move_finding(ss_result *from, size_t i, ss_result *to)
{
    *ss_result_add(to) = from->findings[i];
    memset(&from->findings[i], 0, sizeof(ss_finding));
}

/* Applies to 'slice', the findings of 'file', the file's own configuration (when it has
 * findings) and then, unless that failed, its suppression comments (whose diagnostics go to
 * 'out'). Returns 0, or -1 (message printed) for a malformed configuration file. */
static int apply_to_file(const ss_lint_options *o, ss_config_cache *configs, const char *file,
                         ss_result *slice, ss_result *out)
{
    char err[2048];
    if (slice->count) {
        ss_config effective;
        if (ss_config_for_path(configs, file, o->config, &effective, err, sizeof err) != 0) {
            ss_log_error("%s", err);
            return -1;
        }
        ss_policy_apply(&effective, slice);
        ss_config_free(&effective);
    }
    ss_suppressions sup;
    /* The source read from standard input has its comments in its text, not in the file. */
    char *stdin_shown = o->stdin_text ? ss_path_display(o->inputs[0]) : NULL;
    int scanned = stdin_shown && strcmp(stdin_shown, file) == 0
                      ? ss_suppress_scan(file, o->stdin_text, o->stdin_len, &sup, out)
                      : ss_suppress_scan_file(file, &sup, out, err, sizeof err);
    free(stdin_shown);
    if (scanned >= 0) {
        ss_suppress_apply(&sup, file, slice);
        ss_suppress_free(&sup);
    }
    return 0;
}

/* Applies, file by file, the file's own configuration and its suppression comments to the
 * sorted findings of 'out'. 'sources' are the analyzed main files (their suppression
 * comments are checked even when they have no finding). Returns 0, or -1 (message printed)
 * for a malformed configuration file. */
static int apply_policy(const ss_lint_options *o, ss_config_cache *configs, char **sources,
                        size_t source_count, ss_result *out)
{
    size_t file_count;
    char **files = policy_files(out, sources, source_count, &file_count);
    ss_result kept;
    ss_result_init(&kept, SS_RESULT_LINT);
    size_t next = 0;
    int rc = 0;
    for (size_t i = 0; i < file_count && rc == 0; i++) {
        if (i > 0 && strcmp(files[i], files[i - 1]) == 0)
            continue;
        const char *file = files[i];
        /* Findings are sorted by file, like 'files'. A finding without a file (none today)
         * is kept as it is. */
        while (next < out->count &&
               (out->findings[next].file == NULL || strcmp(out->findings[next].file, file) < 0))
            move_finding(out, next++, &kept);
        ss_result slice;
        ss_result_init(&slice, SS_RESULT_LINT);
        while (next < out->count && out->findings[next].file &&
               strcmp(out->findings[next].file, file) == 0)
            move_finding(out, next++, &slice);
        rc = apply_to_file(o, configs, file, &slice, out);
        for (size_t k = 0; k < slice.count; k++)
            move_finding(&slice, k, &kept);
        ss_result_free(&slice);
    }
    while (next < out->count)
        move_finding(out, next++, &kept);
    for (size_t i = 0; i < file_count; i++)
        free(files[i]);
    free(files);
    /* Hand the surviving findings back to 'out'. */
    for (size_t i = 0; i < out->count; i++)
        ss_finding_clear(&out->findings[i]);
    free(out->findings);
    out->findings = kept.findings;
    out->count = kept.count;
    out->cap = kept.cap;
    kept.findings = NULL;
    kept.count = kept.cap = 0;
    ss_result_free(&kept);
    return rc;
}

/* Records in 'counts' what became of each job, in input order: not parsed (and why), not
 * reached because the result ends at job 'last', or analyzed (with or without errors). */
static void count_files(const ss_job_list *jobs, size_t last, ss_file_counts *counts)
{
    counts->counted = 1;
    counts->total = jobs->count;
    for (size_t i = 0; i < jobs->count; i++) {
        const ss_job *j = &jobs->v[i];
        char *shown = ss_path_display(j->file);
        if (j->skip) {
            ss_file_counts_add_skipped(counts, shown, (ss_skip_reason)j->skip);
        } else if (!j->started || i > last) {
            ss_file_counts_add_skipped(counts, shown, SS_SKIP_STOPPED);
        } else {
            counts->analyzed++;
            if (j->status != 0) {
                ss_file_counts_add_error(counts, shown);
                /* Its first error, for the summary (before the results are merged). */
                for (size_t k = 0; k < j->result.diag_count; k++) {
                    const ss_diag *d = &j->result.diags[k];
                    if (d->severity != SS_SEV_ERROR)
                        continue;
                    char *where = d->file && d->line
                                      ? ss_xasprintf("%s:%u:%u: ", d->file, d->line, d->column)
                                  : d->file ? ss_xasprintf("%s: ", d->file)
                                            : ss_xstrdup("");
                    char *text = ss_xasprintf("%s%s", where, d->message);
                    ss_file_counts_set_first_error(counts, text);
                    free(text);
                    free(where);
                    break;
                }
            }
        }
        free(shown);
    }
}

/* Reads BUILD_DIR/compile_commands.json into 'db'. Returns 0, or -1 (message printed) when it
 * cannot be read or holds no entries. */
static int load_compdb(const char *build_dir, ss_compdb *db)
{
    char err[1024];
    if (ss_compdb_load(build_dir, db, err, sizeof err) != 0) {
        int missing = errno == ENOENT;
        ss_log_error("%s%s", err,
                     missing ? " (-p takes the folder that holds compile_commands.json: the build "
                               "folder of a CMake project configured with "
                               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"
                             : "");
        return -1;
    }
    if (db->count == 0) {
        ss_log_error("'%s/compile_commands.json' holds no entries", build_dir);
        ss_compdb_free(db);
        return -1;
    }
    return 0;
}

/* Gathers the results of the jobs up to the one the run stopped at ('stop'; the count when
 * none) into 'out': merged, counted, sorted, then configured and suppressed file by file.
 * '*fatal_units' receives the number of units with parse errors. 'every_entry': every entry of
 * the database is a unit the run analyzes, each file under one command (every_entry_once).
 * Returns 0, or -1 (message printed) for a malformed configuration. */
static int finish_results(const ss_lint_options *o, ss_config_cache *configs, ss_job_list *jobs,
                          size_t stop, size_t unlinted, int every_entry, ss_result *out,
                          int *fatal_units)
{
    size_t last = stop < jobs->count ? stop : jobs->count - 1;
    char **sources = ss_xreallocarray(NULL, jobs->count + 1, sizeof *sources);
    size_t source_count = 0;
    for (size_t i = 0; i <= last && i < jobs->count; i++) {
        if (jobs->v[i].started) {
            *fatal_units += jobs->v[i].status != 0;
            sources[source_count++] = ss_path_display(jobs->v[i].file);
        }
    }
    /* Facts from other units (a callee that ends by waiting for the stream), before the
     * units' findings are merged: a header's finding keeps the highest severity any unit
     * gives it after them. */
    size_t units = last < jobs->count ? last + 1 : jobs->count;
    ss_project_facts **facts = ss_xcalloc(units + 1, sizeof *facts);
    ss_result **results = ss_xcalloc(units + 1, sizeof *results);
    for (size_t i = 0; i < units; i++) {
        facts[i] = jobs->v[i].started ? jobs->v[i].streams.facts : NULL;
        results[i] = &jobs->v[i].result;
    }
    /* No unit of the database left out (the calls of its functions are all seen, if some only
     * as far as a unit's errors let them be), and a database's every unit linted without
     * errors: a call no unit makes is none. Without a database nothing says which units make
     * the project: the files named may be some of them, so the run is never complete. */
    unsigned scope = o->build_dir != NULL && unlinted == 0 ? SS_PROJECT_COMPLETE : 0;
    if (o->build_dir != NULL && unlinted == 0 && *fatal_units == 0)
        scope |= SS_PROJECT_WHOLE;
    if ((scope & SS_PROJECT_WHOLE) && every_entry)
        scope |= SS_PROJECT_EVERY_ENTRY;
    ss_project_apply(facts, results, units, scope);
    for (size_t i = 0; i < units; i++)
        ss_context_apply_unshown(results[i]);
    free(facts);
    free(results);
    merge(jobs, last, out);
    /* SYNC103 across units: a blocking stream that another unit of the run shares. */
    const ss_tu_streams **streams = ss_xcalloc(jobs->count + 1, sizeof *streams);
    for (size_t i = 0; i <= last && i < jobs->count; i++)
        streams[i] = jobs->v[i].started ? &jobs->v[i].streams : NULL;
    ss_streams_relate(streams, last < jobs->count ? last + 1 : jobs->count, unlinted, out);
    free(streams);
    count_files(jobs, last, &out->files);
    ss_result_sort(out);
    int rc = apply_policy(o, configs, sources, source_count, out);
    for (size_t i = 0; i < source_count; i++)
        free(sources[i]);
    free(sources);
    return rc;
}

/* How many C, C++ and CUDA units of the compile database 'db' the run does not analyze
 * (files were named, or some were excluded or skipped). */
static size_t unlinted_units(const ss_compdb *db, const ss_job_list *jobs)
{
    /* A file the database lists twice (two targets build it) is one unit of the run. */
    const char **files = ss_xcalloc(db->count + 1, sizeof *files);
    size_t sources = 0, listed = 0, linted = 0;
    for (size_t i = 0; i < db->count; i++) {
        ss_lang lang;
        if (ss_flags_lang_of(db->commands[i].file, &lang) == 0)
            files[sources++] = db->commands[i].file;
    }
    qsort(files, sources, sizeof *files, cmp_strings);
    for (size_t i = 0; i < sources; i++)
        listed += i == 0 || strcmp(files[i], files[i - 1]) != 0;
    free(files);
    for (size_t i = 0; i < jobs->count; i++)
        linted += jobs->v[i].command != NULL && jobs->v[i].started;
    return listed > linted ? listed - linted : 0;
}

static int cmp_commands(const void *a, const void *b)
{
    return strcmp((*(const ss_compile_command *const *)a)->file,
                  (*(const ss_compile_command *const *)b)->file);
}

static int same_command(const ss_compile_command *a, const ss_compile_command *b)
{
    if (strcmp(a->directory, b->directory) != 0 || a->argv.count != b->argv.count)
        return 0;
    for (size_t i = 0; i < a->argv.count; i++) {
        if (strcmp(a->argv.v[i], b->argv.v[i]) != 0)
            return 0;
    }
    return 1;
}

/* Whether every entry of 'db' is a C, C++ or CUDA source by its name (lint analyzes none of
 * the others: a Fortran or assembly unit's calls go unseen), and a file listed more than once
 * has the same command in each entry (the run analyzes it under the first entry's only). */
static int every_entry_once(const ss_compdb *db)
{
    const ss_compile_command **by_file = ss_xcalloc(db->count + 1, sizeof *by_file);
    int ok = 1;
    for (size_t i = 0; ok && i < db->count; i++) {
        ss_lang lang;
        ok = ss_flags_lang_of(db->commands[i].file, &lang) == 0;
        by_file[i] = &db->commands[i];
    }
    if (ok)
        qsort(by_file, db->count, sizeof *by_file, cmp_commands);
    for (size_t i = 1; ok && i < db->count; i++) {
        ok = strcmp(by_file[i]->file, by_file[i - 1]->file) != 0 ||
             same_command(by_file[i], by_file[i - 1]);
    }
    free(by_file);
    return ok;
}

/* A unit the guard gave up on may still be parsing (ss_analyzer_parses_left). */
static int parses_left;

int ss_analyzer_parses_left(void)
{
    return parses_left;
}

int ss_analyzer_run(const ss_lint_options *o, ss_result *out)
{
    ss_compdb db;
    int have_db = o->build_dir != NULL;
    if (have_db && load_compdb(o->build_dir, &db) != 0)
        return -1;
    ss_job_list jobs = {0};
    ss_toolkit toolkit = {0};
    ss_config_cache *configs = o->config_cache ? o->config_cache : ss_config_cache_new();
    ss_jobs_prepared prep = {0};
    int rc = ss_jobs_prepare(o, have_db ? &db : NULL, configs, &jobs, out, &prep);
    if (rc == 0)
        rc = ss_toolkit_find(o->cuda_path, &toolkit);
    int fatal_units = 0;
    char *resource_dir = NULL;
    /* On the heap: a worker the guard gave up on may use it after this returns. */
    ss_run_state *st = ss_xcalloc(1, sizeof *st);
    if (rc == 0) {
        resource_dir = ss_clang_resource_dir();
        unsigned nworkers = ss_workers_start(st, o, &jobs, &toolkit, resource_dir);
        ss_workers_run(st, nworkers);
        rc = finish_results(o, configs, &jobs, st->stop, have_db ? unlinted_units(&db, &jobs) : 0,
                            have_db && every_entry_once(&db), out, &fatal_units);
    }
    if (o->stats) {
        o->stats->units = st->parsed + st->cached;
        o->stats->parsed = st->parsed;
        o->stats->cached = st->cached;
        o->stats->excluded = prep.excluded;
        o->stats->files = jobs.count;
        o->stats->failed = (size_t)fatal_units;
        o->stats->included = prep.included;
        o->stats->unlisted = prep.unlisted;
    }
    if (configs != o->config_cache)
        ss_config_cache_free(configs);
    parses_left = st->abandoned > 0;
    if (parses_left) /* its parse reads its job, its command and the toolkit's paths: kept */
        return rc < 0 ? -1 : fatal_units;
    free(resource_dir);
    free(st->build_dir);
    free(st);
    ss_toolkit_free(&toolkit);
    ss_jobs_free(&jobs);
    if (have_db)
        ss_compdb_free(&db);
    return rc < 0 ? -1 : fatal_units;
}
