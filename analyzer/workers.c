/* workers.c: runs the jobs of a lint run on worker threads, each unit parsed and analyzed
 * or taken from the cache, with the progress line. */
#include "files.h"
#include "jobs.h"
#include "log.h"
#include "path.h"
#include "stack.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double ss_workers_seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Redraws the progress line (the caller holds the lock). */
static void show_progress(ss_run_state *st, const char *current)
{
    if (!st->options->progress)
        return;
    char *shown = current ? ss_path_display(current) : NULL;
    fprintf(stderr, "\r\033[K[%zu/%zu] %.1fs %s", st->done, st->total,
            ss_workers_seconds_since(&st->started), shown ? shown : "");
    fflush(stderr);
    free(shown);
}

/* Appends 'path' with 'hash' to 'files', once. */
static void files_add(ss_tu_files *files, const char *path, uint64_t hash)
{
    for (size_t i = 0; i < files->count; i++) {
        if (strcmp(files->v[i].path, path) == 0)
            return;
    }
    if (files->count == files->cap) {
        files->cap = files->cap ? files->cap * 2 : 16;
        files->v = ss_xreallocarray(files->v, files->cap, sizeof *files->v);
    }
    files->v[files->count].path = ss_xstrdup(path);
    files->v[files->count].hash = hash;
    files->count++;
}

/* Lists, as a folder the entry depends on, the deepest existing folder on the way from 'dir'
 * to 'dir'/'name' (a header that was not found): the header, or a folder on its way,
 * appears there. 'dir' must exist. */
static void watch_missing(ss_tu_files *files, const char *dir, const char *name)
{
    struct stat st;
    if (dir[0] != '/' || strncmp(dir, SS_VIRTUAL_INCLUDE, strlen(SS_VIRTUAL_INCLUDE)) == 0 ||
        stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    char *deepest = ss_xasprintf("%s/", dir);
    const char *slash = name;
    while ((slash = strchr(slash, '/')) != NULL) {
        char *candidate = ss_xasprintf("%s/%.*s/", dir, (int)(slash - name), name);
        if (stat(candidate, &st) != 0 || !S_ISDIR(st.st_mode)) {
            free(candidate);
            break;
        }
        free(deepest);
        deepest = candidate;
        slash++;
    }
    uint64_t hash;
    if (ss_cache_folder_hash(deepest, &hash) == 0)
        files_add(files, deepest, hash);
    else
        files->incomplete = 1;
    free(deepest);
}

/* Lists, as a folder the entry depends on, the deepest existing folder on the way to 'path'
 * (absolute or relative to the working directory), a header that is not there yet: it, or a
 * folder on its way, appears there. */
static void watch_absent(ss_tu_files *files, const char *path)
{
    char cwd[PATH_MAX];
    char *absolute = NULL;
    if (path[0] == '/')
        absolute = ss_xstrdup(path);
    else if (getcwd(cwd, sizeof cwd))
        absolute = ss_xasprintf("%s/%s", cwd, path);
    if (absolute == NULL) {
        files->incomplete = 1;
        return;
    }
    char *dir = ss_xstrdup(absolute);
    struct stat st;
    char *slash;
    while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
        *slash = '\0';
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
            watch_missing(files, dir, absolute + strlen(dir) + 1);
            break;
        }
    }
    free(dir);
    free(absolute);
}

/* The folders a unit's headers are searched in: its include options (joined or separate),
 * the resource folder's and the toolkit's include folders, and the usual system folders.
 * Appended (malloc'ed) to 'dirs'. */
static void include_folders(const ss_args *args, ss_args *dirs)
{
    for (size_t i = 0; i < args->count; i++) {
        const char *arg = args->v[i];
        const char *value = ss_flags_include_dir((const char *const *)args->v, args->count, i);
        if (value) {
            /* A relative folder (from --extra-arg) is relative to the working directory. */
            char *real = value[0] ? realpath(value, NULL) : NULL;
            if (real)
                ss_args_push(dirs, real);
            free(real);
        }
        if (strncmp(arg, "-resource-dir=", 14) == 0 || strncmp(arg, "--cuda-path=", 12) == 0) {
            char *inc = ss_xasprintf("%s/include", strchr(arg, '=') + 1);
            ss_args_push(dirs, inc);
            free(inc);
        }
    }
    ss_args_push(dirs, "/usr/local/include");
    ss_args_push(dirs, "/usr/include");
}

/* Makes a unit's result fit for the cache: a unit libclang could not parse at all (status -1)
 * depends on its main file; a unit with a header that was not found also depends on the
 * folders the header could appear in (those of its include path and of the file that
 * included it), so that installing the header re-parses it. Returns 0, or -1 when the
 * result cannot be cached. */
static int watch_failures(const ss_job *j, int status, const ss_result *result, ss_tu_files *files)
{
    if (status < 0) {
        size_t len = 0;
        char *text = ss_read_file(j->file, &len);
        if (text == NULL)
            return -1;
        files_add(files, j->file, ss_hash_bytes(text, len, 0));
        free(text);
    }
    ss_args dirs = {0};
    for (size_t i = 0; i < result->diag_count; i++) {
        const ss_diag *d = &result->diags[i];
        /* A header the build has not made yet (tu.c): making it re-parses the unit. */
        const char *unbuilt = strstr(d->message, " does not exist yet: ");
        if (unbuilt && d->severity == SS_SEV_ERROR) {
            char *header = ss_xasprintf("%.*s", (int)(unbuilt - d->message), d->message);
            watch_absent(files, header);
            free(header);
            continue;
        }
        const char *end = strstr(d->message, "' file not found");
        const char *start = d->message[0] == '\'' ? d->message + 1 : NULL;
        if (end == NULL || start == NULL || end < start)
            continue;
        char *name = ss_xstrdup(start);
        name[end - start] = '\0';
        if (dirs.count == 0)
            include_folders(&j->args, &dirs);
        for (size_t k = 0; k < dirs.count; k++)
            watch_missing(files, dirs.v[k], name);
        /* A quoted include is looked for beside the file that has it first. */
        char *includer = d->file ? realpath(d->file, NULL) : NULL;
        char *slash = includer ? strrchr(includer, '/') : NULL;
        if (slash && slash != includer) {
            *slash = '\0';
            watch_missing(files, includer, name);
        }
        free(includer);
        free(name);
    }
    ss_args_free(&dirs);
    return files->incomplete || files->count == 0 ? -1 : 0;
}

/* Parses and analyzes the unit of 'j' (or takes it from the cache) into what 'out', 'status'
 * and 'streams' point to, the worker's own: a unit the guard gives up on meanwhile keeps the
 * result it gets then. */
static void analyze_unit(ss_run_state *st, CXIndex index, const ss_job *j, ss_result *out,
                         int *status, ss_tu_streams *streams, int *from_cache)
{
    ss_tu_input in = {.file = j->file,
                      .args = &j->args,
                      .info = &j->info,
                      .readback_bytes = j->readback_bytes,
                      .user_begin = j->user_begin,
                      .extra_begin = j->extra_begin,
                      .extra_end = j->extra_end,
                      .hot_functions = (const char *const *)j->hot_functions,
                      .hot_count = j->hot_count,
                      .text = j->text,
                      .text_len = j->text_len,
                      .directory = j->command ? j->command->directory : NULL,
                      .build_dir = st->build_dir,
                      .verbose = st->options->verbose};
    char key[17];
    *from_cache = 0;
    if (st->cache) {
        ss_cache_key(&in, key);
        *from_cache = ss_cache_lookup(st->cache, key, out, status, streams);
    }
    if (!*from_cache) {
        ss_tu_files files = {0};
        ss_stack_set_unit(j->file);
        *status = ss_tu_analyze(index, &in, out, st->cache ? &files : NULL, streams);
        ss_stack_set_unit(NULL);
        /* The guard may have given up on it meanwhile: then the run may be writing its report
         * and the cache may be closed; the result is dropped. */
        pthread_mutex_lock(&st->lock);
        int dropped = j->abandoned;
        pthread_mutex_unlock(&st->lock);
        if (!dropped && st->cache && watch_failures(j, *status, out, &files) == 0)
            ss_cache_store(st->cache, key, &files, out, *status, streams);
        ss_tu_files_free(&files);
    }
}

/* Runs the job 'j'. Returns 1 when the guard gave up on it meanwhile (the worker then leaves:
 * another took its place), else 0. */
static int run_job(ss_run_state *st, CXIndex index, ss_job *j)
{
    pthread_mutex_lock(&st->lock);
    ss_result result = j->result; /* what the job holds already, moved to the worker */
    ss_result_init(&j->result, result.kind);
    pthread_mutex_unlock(&st->lock);
    int status = 0, from_cache = 0;
    ss_tu_streams streams;
    memset(&streams, 0, sizeof streams);
    analyze_unit(st, index, j, &result, &status, &streams, &from_cache);
    if (j->args_error) {
        /* A response file that could not be read: the command line was not whole. */
        char *shown = ss_path_display(j->file);
        ss_result_add_diag(&result, SS_SEV_ERROR, shown, 0, 0, j->args_error);
        free(shown);
        if (status == 0)
            status = 1;
    }
    pthread_mutex_lock(&st->lock);
    if (j->abandoned) {
        pthread_mutex_unlock(&st->lock);
        return 1; /* the run went on without it: what it found is not reported */
    }
    ss_result_free(&j->result);
    j->result = result;
    j->status = status;
    j->streams = streams;
    if (from_cache)
        st->cached++;
    else
        st->parsed++;
    st->done++;
    j->finished = 1;
    if (j->status != 0 && !st->keep_going) {
        size_t index_of = (size_t)(j - st->jobs->v);
        if (index_of < st->stop)
            st->stop = index_of;
    }
    show_progress(st, j->file);
    pthread_mutex_unlock(&st->lock);
    return 0;
}

/* A worker: one libclang index, jobs taken in input order until none is left (or, without
 * keep_going, none before the first unit with parse errors). A worker whose unit the guard
 * gave up on leaves without a word, and leaves the count of live workers to the one that
 * took its place. */
static void *worker(void *data)
{
    ss_run_state *st = data;
    CXIndex index = clang_createIndex(0, 0);
    int replaced = 0;
    while (!replaced) {
        pthread_mutex_lock(&st->lock);
        ss_job *j = NULL;
        while (st->next < st->jobs->count && st->next <= st->stop) {
            ss_job *candidate = &st->jobs->v[st->next++];
            if (!candidate->skip) {
                j = candidate;
                j->started = 1;
                clock_gettime(CLOCK_MONOTONIC, &j->began);
                break;
            }
        }
        if (j)
            show_progress(st, j->file);
        pthread_mutex_unlock(&st->lock);
        if (j == NULL)
            break;
        replaced = run_job(st, index, j);
    }
    if (replaced)
        return NULL; /* its index may still be in use by a parse that never ends */
    clang_disposeIndex(index);
    pthread_mutex_lock(&st->lock);
    st->live_workers--;
    pthread_cond_broadcast(&st->workers_left);
    pthread_mutex_unlock(&st->lock);
    return NULL;
}

/* Starts a detached worker thread. Returns 0, or an errno value. */
static int start_worker(ss_run_state *st)
{
    pthread_t thread;
    int rc = ss_stack_thread_create(&thread, worker, st);
    if (rc == 0)
        pthread_detach(thread);
    return rc;
}

int ss_workers_replace(ss_run_state *st)
{
    if (start_worker(st) == 0)
        return 0;
    /* No thread: the worker that left took the count with it; the units left are not run. */
    st->live_workers--;
    st->stop = st->next ? st->next - 1 : 0;
    pthread_cond_broadcast(&st->workers_left);
    return -1;
}

void ss_workers_abandoned_result(ss_run_state *st, ss_job *j)
{
    char *shown = ss_path_display(j->file);
    ss_result_free(&j->result);
    ss_result_init(&j->result, SS_RESULT_LINT);
    char *message = ss_xasprintf("parsing stopped: it took longer than %llu s (a header that "
                                 "never arrives, such as an #include of a FIFO?); its findings "
                                 "are not reported (--parse-timeout SECONDS sets the bound, 0 "
                                 "for none)",
                                 (unsigned long long)st->parse_timeout);
    ss_result_add_diag(&j->result, SS_SEV_ERROR, shown, 0, 0, message);
    free(message);
    free(shown);
    j->status = 1;
    memset(&j->streams, 0, sizeof j->streams);
}

static unsigned worker_count(const ss_lint_options *o, size_t units)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = o->jobs ? o->jobs : (unsigned)(cpus > 0 ? cpus : 1);
    if (n > units)
        n = (unsigned)units;
    return n ? n : 1;
}

unsigned ss_workers_start(ss_run_state *st, const ss_lint_options *o, ss_job_list *jobs,
                          const ss_toolkit *toolkit, const char *resource_dir)
{
    st->options = o;
    st->keep_going = !o->fail_fast;
    st->toolkit = toolkit;
    st->resource_dir = resource_dir;
    st->build_dir = o->build_dir ? realpath(o->build_dir, NULL) : NULL;
    st->jobs = jobs;
    st->stop = jobs->count;
    for (size_t i = 0; i < jobs->count; i++)
        st->total += !jobs->v[i].skip;
    for (size_t i = 0; i < jobs->count; i++) {
        if (!jobs->v[i].skip)
            ss_job_args(&jobs->v[i], o, toolkit, resource_dir);
    }
    st->cache = o->cache_dir && !o->stdin_text ? ss_cache_open(o->cache_dir) : NULL;
    pthread_mutex_init(&st->lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &st->started);
    unsigned nworkers = worker_count(o, st->total);
    st->max_memory = o->max_memory ? o->max_memory : ss_guard_default_max_memory(nworkers);
    st->parse_timeout = o->parse_timeout ? o->parse_timeout : SS_LINT_DEFAULT_PARSE_TIMEOUT;
    pthread_condattr_t wake_attr;
    pthread_condattr_init(&wake_attr);
    pthread_condattr_setclock(&wake_attr, CLOCK_MONOTONIC);
    pthread_cond_init(&st->guard_wake, &wake_attr);
    pthread_condattr_destroy(&wake_attr);
    return nworkers;
}

void ss_workers_run(ss_run_state *st, unsigned nworkers)
{
    /* libclang's crash recovery is enabled by the first index; the stack overflow handler
     * goes in front of it. */
    CXIndex first = clang_createIndex(0, 0);
    ss_stack_prepare();
    clang_disposeIndex(first);
    pthread_cond_init(&st->workers_left, NULL);
    pthread_t guard_thread;
    int guarded = (st->max_memory != SS_LINT_NO_LIMIT || st->parse_timeout != SS_LINT_NO_LIMIT) &&
                  pthread_create(&guard_thread, NULL, ss_guard_thread, st) == 0;
    pthread_mutex_lock(&st->lock);
    for (unsigned i = 0; i < nworkers; i++)
        st->live_workers += start_worker(st) == 0;
    int none = st->live_workers == 0;
    st->live_workers += none;
    pthread_mutex_unlock(&st->lock);
    if (none)
        worker(st);
    pthread_mutex_lock(&st->lock);
    while (st->live_workers > 0)
        pthread_cond_wait(&st->workers_left, &st->lock);
    pthread_mutex_unlock(&st->lock);
    if (guarded) {
        pthread_mutex_lock(&st->lock);
        st->workers_done = 1;
        pthread_cond_signal(&st->guard_wake);
        pthread_mutex_unlock(&st->lock);
        pthread_join(guard_thread, NULL);
    }
    for (size_t i = 0; i < st->jobs->count; i++) {
        if (st->jobs->v[i].abandoned)
            ss_workers_abandoned_result(st, &st->jobs->v[i]);
    }
    if (st->options->progress) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    if (st->abandoned > 0)
        return; /* a parse that never ends may still use the lock and the cache: kept */
    pthread_cond_destroy(&st->guard_wake);
    pthread_cond_destroy(&st->workers_left);
    pthread_mutex_destroy(&st->lock);
    ss_cache_close(st->cache);
}
