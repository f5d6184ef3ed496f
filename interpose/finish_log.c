/* finish_log.c: the finisher's event log: the run's metadata, then each thread's complete
 * calls (their stacks symbolized at first use), scope marks and stream events, and the
 * activity (GPU-side records), copied from the capture's buffers. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "finish_int.h"
#include "interpose.h"
#include "rules.h"

void fin_set_meta_u64(ss_event_log *log, const char *key, uint64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    ss_evlog_set_meta(log, key, text);
}

static void read_command_line(ss_event_log *log)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        ss_evlog_set_meta(log, "executable", exe);
    }
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f == NULL)
        return;
    char buf[8192];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (len == 0)
        return;
    buf[len] = '\0';
    ss_evlog_set_meta(log, "program", buf);
    for (size_t i = 0; i + 1 < len; i++) {
        if (buf[i] == '\0')
            buf[i] = ' ';
    }
    ss_evlog_set_meta(log, "command_line", buf);
}

/* Sets 'key' to a CUDA version number as CUDA writes it (13000 -> "13.0", 12080 -> "12.8");
 * nothing when it is 0 (unknown). */
static void set_meta_version(ss_event_log *log, const char *key, int version)
{
    if (version <= 0)
        return;
    char text[32];
    snprintf(text, sizeof text, "%d.%d", version / 1000, version % 1000 / 10);
    ss_evlog_set_meta(log, key, text);
}

/* What the capture itself cost and lost: its settings, memory, the time of its own launches,
 * refused activity buffers, and how the run ended. */
static void add_capture_figures(ss_event_log *log, const ss_capture_view *v)
{
    ss_evlog_set_meta(log, "kernel_activity", v->config->kernel_activity ? "1" : "0");
    ss_evlog_set_meta(log, "sync_records", v->config->sync_records ? "1" : "0");
    fin_set_meta_u64(log, "max_memory", v->config->max_memory);
    fin_set_meta_u64(log, "memory_used", ss_budget_used(&v->store->budget));
    fin_set_meta_u64(log, "dropped_stacks", atomic_load(&v->store->budget.dropped_stacks));
    uint64_t self_ns = 0, launches = 0, slow = 0, stack_ns = 0, stacks = 0, slow_stacks = 0;
    for (ss_thread_store *t = atomic_load(&v->store->threads); t != NULL; t = t->next) {
        self_ns += t->self_launch_ns;
        launches += t->self_launches;
        slow += t->self_slow_launches;
        stack_ns += t->self_stack_ns;
        stacks += t->self_stacks;
        slow_stacks += t->self_slow_stacks;
    }
    if (launches > 0) {
        fin_set_meta_u64(log, "self_launch_ns", self_ns);
        fin_set_meta_u64(log, "self_launches", launches);
    }
    if (slow > 0)
        fin_set_meta_u64(log, "self_slow_launches", slow);
    if (stacks > 0) {
        fin_set_meta_u64(log, "self_stack_ns", stack_ns);
        fin_set_meta_u64(log, "self_stacks", stacks);
    }
    if (slow_stacks > 0)
        fin_set_meta_u64(log, "self_slow_stacks", slow_stacks);
    if (atomic_load(&v->store->budget.refused_buffers) > 0)
        fin_set_meta_u64(log, "refused_activity_buffers",
                         atomic_load(&v->store->budget.refused_buffers));
    if (v->forked)
        ss_evlog_set_meta(log, "forked", "1");
    if (v->signal != 0)
        fin_set_meta_u64(log, "signal", (uint64_t)v->signal);
}

void fin_add_metadata(ss_event_log *log, const ss_capture_view *v, const char *host)
{
    fin_set_meta_u64(log, "pid", (uint64_t)v->pid);
    read_command_line(log);
    ss_evlog_set_meta(log, "hostname", host);
    int rank = ss_interpose_rank();
    if (rank >= 0)
        fin_set_meta_u64(log, "rank", (uint64_t)rank);
    if (v->gpu != NULL && v->gpu[0] != '\0')
        ss_evlog_set_meta(log, "gpu", v->gpu);
    if (v->driver != NULL && v->driver[0] != '\0')
        ss_evlog_set_meta(log, "driver", v->driver);
    set_meta_version(log, "cuda", v->driver_version);
    set_meta_version(log, "cuda_runtime", v->runtime_version);
    fin_set_meta_u64(log, "wall_ns", v->end_ns > v->start_ns ? v->end_ns - v->start_ns : 0);
    fin_set_meta_u64(log, "start_ns", v->start_ns);
    fin_set_meta_u64(log, "end_ns", v->end_ns);
    time_t secs = (time_t)(v->started_unix_ns / 1000000000);
    struct tm tm;
    char when[64];
    if (gmtime_r(&secs, &tm) != NULL && strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm))
        ss_evlog_set_meta(log, "started_at", when);
    ss_evlog_set_meta(log, "cupti", v->cupti_path != NULL ? v->cupti_path : "");
    if (v->python != NULL && v->python[0] != '\0')
        ss_evlog_set_meta(log, "python", v->python);
    add_capture_figures(log, v);
    /* A full run's log says nothing of its mode, as before the modes. */
    if (v->mode != NULL && strcmp(v->mode, "full") != 0) {
        ss_evlog_set_meta(log, "mode", v->mode);
        /* Its probed calls say whether work was pending at their entry (SS_API_PENDING). */
        ss_evlog_set_meta(log, "probe_pending", "1");
    }
    if (v->windows != NULL && v->windows[0] != '\0')
        ss_evlog_set_meta(log, "sample_windows", v->windows);
    ss_evlog_set_meta(log, "syncscope", SS_VERSION);
}

/* One thread's events on their way into the log, with the log's ids of its stacks so far. */
typedef struct thread_copy {
    const ss_capture_view *v;
    ss_thread_store *thread;
    ss_event_log *log;
    fin_symbolizer *sym;
    const uint32_t *api_names; /* the log's string of each API */
    uint32_t *stack_ids; /* the log's id of each stack 0 ... nstacks; UINT32_MAX: not added yet */
    uint32_t nstacks;
} thread_copy;

/* Rewrites event 'e' of the thread in the log's terms (its API name, stack and range name as
 * the log's ids; a stack is symbolized at its first use). Returns 1 when the log takes the
 * event: complete calls, scope marks, stream events and the pointers calls were handed. */
static int thread_event(thread_copy *c, ss_event *e)
{
    if (e->type == SS_EV_API) {
        if (e->u.api.exit_ns == 0)
            return 0; /* still inside the call when the run ended */
        ss_ev_api *a = &e->u.api;
        a->name = a->api < SS_API_COUNT ? c->api_names[a->api] : 0;
        uint32_t local = a->stack <= c->nstacks ? a->stack : 0;
        if (c->stack_ids[local] == UINT32_MAX) {
            const ss_stack_entry *entry = ss_stack_get(&c->thread->stacks, local);
            c->stack_ids[local] =
                entry != NULL ? fin_add_stack(c->sym, c->log, entry, c->thread->python) : 0;
        }
        a->stack = c->stack_ids[local];
        return 1;
    }
    if (e->type == SS_EV_SCOPE) {
        /* A range's name: from the capture's range names into the log's strings. */
        const char *name = ss_name_get(&c->v->store->ranges, e->u.scope.name);
        e->u.scope.name = name != NULL ? ss_evlog_intern(c->log, name) : 0;
        return 1;
    }
    return e->type == SS_EV_STREAM || e->type == SS_EV_ARGS;
}

/* Copies the tallies of the thread's calls past the memory cap (each published slot, its call
 * in the log's terms as an event's: thread_event) into the log. Returns 0, or -1 out of
 * memory. */
static int copy_tallies(thread_copy *c)
{
    const ss_thread_store *t = c->thread;
    uint32_t used = atomic_load_explicit(&t->tally_used, memory_order_acquire);
    for (uint32_t i = 0; i <= used; i++) {
        ss_tally tally;
        if (i < used) {
            tally = t->tallies[i];
        } else if (t->tally_holding) {
            /* the thread's last call, held for a next that did not come */
            uint64_t ns = t->tally_held.exit_ns > t->tally_held.enter_ns
                              ? t->tally_held.exit_ns - t->tally_held.enter_ns
                              : 0;
            tally = (ss_tally){.call = t->tally_held,
                               .count = 1,
                               .total_ns = ns,
                               .max_ns = ns,
                               .bytes = t->tally_held.bytes,
                               .prev = t->tally_held_prev,
                               .long_calls = (uint8_t)t->tally_held_long};
        } else {
            break;
        }
        /* read while the thread may still add to it (an interval line, an exit from another
         * thread): a count, sum and longest of different moments are made consistent, a call
         * half written is left out */
        if (tally.max_ns > tally.total_ns)
            tally.total_ns = tally.max_ns;
        ss_event e = {.type = SS_EV_API};
        e.u.api = tally.call;
        if (tally.count == 0 || tally.call.exit_ns < tally.call.enter_ns || !thread_event(c, &e))
            continue;
        tally.call = e.u.api;
        if (ss_evlog_add_tally(c->log, &tally) < 0)
            return -1;
    }
    return 0;
}

/* Copies the events of thread 't' that the log takes (thread_event) into 'log', and the
 * tallies of its calls past the memory cap. Returns 0, or -1 out of memory. */
static int copy_thread(const ss_capture_view *v, ss_thread_store *t, ss_event_log *log,
                       fin_symbolizer *sym, const uint32_t *api_names)
{
    uint32_t nstacks = atomic_load(&t->stacks.count);
    uint32_t *stack_ids = malloc((nstacks + 1) * sizeof *stack_ids);
    if (stack_ids == NULL)
        return -1;
    for (uint32_t i = 0; i <= nstacks; i++)
        stack_ids[i] = UINT32_MAX;
    stack_ids[0] = 0;
    thread_copy c = {v, t, log, sym, api_names, stack_ids, nstacks};
    for (ss_chunk *chunk = atomic_load(&t->events.head); chunk != NULL; chunk = chunk->next) {
        uint32_t n = atomic_load(&chunk->count);
        for (uint32_t i = 0; i < n; i++) {
            ss_event e = chunk->events[i];
            if (thread_event(&c, &e) && ss_evlog_append(log, &e) < 0) {
                free(stack_ids);
                return -1;
            }
        }
    }
    int rc = copy_tallies(&c);
    free(stack_ids);
    return rc;
}

/* The thread that started each thread of 'threads' (by index, 1 ... 'nthreads') and its
 * stack then into the metadata: "thread_start:N" is "THREAD STACK" (the stack 0 when none was
 * recorded). */
static void add_thread_starts(ss_event_log *log, fin_symbolizer *sym,
                              ss_thread_store *const *threads, uint32_t nthreads)
{
    for (uint32_t ti = 1; ti <= nthreads; ti++) {
        const ss_thread_store *t = threads[ti];
        if (t == NULL || t->started_by == 0 || t->started_by > nthreads ||
            threads[t->started_by] == NULL)
            continue;
        const ss_thread_store *by = threads[t->started_by];
        const ss_stack_entry *entry = ss_stack_get(&by->stacks, t->start_stack);
        uint32_t stack = entry != NULL ? fin_add_stack(sym, log, entry, by->python) : 0;
        char key[32], value[32];
        snprintf(key, sizeof key, "thread_start:%u", (unsigned)ti);
        snprintf(value, sizeof value, "%u %u", (unsigned)t->started_by, (unsigned)stack);
        ss_evlog_set_meta(log, key, value);
    }
}

/* Copies every thread's events into 'log', the threads in registration order, so that the log
 * does not depend on list order. Returns 0, or -1 out of memory. */
static int copy_threads(const ss_capture_view *v, ss_event_log *log, fin_symbolizer *sym,
                        const uint32_t *api_names)
{
    uint32_t nthreads = atomic_load(&v->store->thread_count);
    ss_thread_store **threads = calloc(nthreads + 1, sizeof *threads);
    if (threads == NULL)
        return -1;
    for (ss_thread_store *t = atomic_load(&v->store->threads); t != NULL; t = t->next) {
        if (t->index >= 1 && t->index <= nthreads)
            threads[t->index] = t;
    }
    for (uint32_t ti = 1; ti <= nthreads; ti++) {
        if (threads[ti] != NULL && threads[ti]->name[0] != '\0') {
            char key[32], name[sizeof threads[ti]->name + 1];
            snprintf(key, sizeof key, "thread_name:%u", (unsigned)ti);
            snprintf(name, sizeof name, "%s", threads[ti]->name);
            ss_evlog_set_meta(log, key, name);
        }
        if (threads[ti] != NULL && copy_thread(v, threads[ti], log, sym, api_names) < 0) {
            free(threads);
            return -1;
        }
    }
    add_thread_starts(log, sym, threads, nthreads);
    free(threads);
    return 0;
}

/* Copies the activity (GPU-side records) into 'log', kernel names demangled. Returns 0, or -1
 * out of memory. */
static int copy_activity(const ss_capture_view *v, ss_event_log *log, fin_symbolizer *sym)
{
    const ss_name_table *names = &v->store->names;
    uint32_t *name_ids = calloc(names->count + 1, sizeof *name_ids);
    if (name_ids == NULL)
        return -1;
    for (uint32_t i = 1; i <= names->count; i++)
        name_ids[i] = fin_intern_function(sym, log, ss_name_get(names, i)); /* kernel names */
    for (ss_chunk *c = atomic_load(&v->store->activity.head); c != NULL; c = c->next) {
        uint32_t n = atomic_load(&c->count);
        for (uint32_t i = 0; i < n; i++) {
            ss_event e = c->events[i];
            if (e.type == SS_EV_KERNEL)
                e.u.gpu.name = e.u.gpu.name <= names->count ? name_ids[e.u.gpu.name] : 0;
            if (e.type == 0)
                continue;
            if (ss_evlog_append(log, &e) < 0) {
                free(name_ids);
                return -1;
            }
        }
    }
    free(name_ids);
    return 0;
}

/* Copies the threads' events (complete calls only) and the activity into 'log'. */
int fin_build_log(const ss_capture_view *v, ss_event_log *log, fin_symbolizer *sym)
{
    uint32_t api_names[SS_API_COUNT];
    size_t api_count;
    const ss_api *apis = ss_api_all(&api_count);
    for (size_t i = 0; i < SS_API_COUNT; i++)
        api_names[i] = ss_evlog_intern(log, apis[i].name);
    if (copy_threads(v, log, sym, api_names) < 0 || copy_activity(v, log, sym) < 0)
        return -1;
    log->dropped = atomic_load(&v->store->budget.dropped_events);
    return 0;
}
