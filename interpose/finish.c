/* finish.c: libsyncscope_finish.so, loaded only when the observed program ends: turns the
 * captured buffers into an event log, symbolizes stacks with elfutils libdw, runs the
 * detectors and writes the outputs and the summary on stderr. */
#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "detect.h"
#include "evlog.h"
#include "files.h"
#include "interpose.h"
#include "log.h"
#include "path.h"
#include "report.h"
#include "rules.h"
#include "store.h"
#include "symbolize.h"
#include "util.h"

#define SS_EXPORT __attribute__((visibility("default")))

/* Findings listed on stderr; the rest are in the result file. */
#define SUMMARY_LINES 20

/* ---- symbolization ---- */

/* Functions inlined at one pc that are shown as frames of their own (innermost first). */
#define SS_INLINE_DEPTH SS_SYM_INLINE_DEPTH

typedef struct pc_entry {
    uint64_t pc;
    ss_stack_frame frames[SS_INLINE_DEPTH]; /* pc and string ids; [0] is the innermost */
    uint32_t nframes;                       /* 1 + the inlined calls expanded */
    int keep;                               /* 0: a frame of syncscope, CUPTI or the driver */
    int interpreter;                        /* 1: in the Python interpreter's own code */
    int resolved; /* 1: function and lines looked up (0: only the module is known) */
} pc_entry;

/* A module that a frame names, and the bias to subtract from its addresses to get the
 * addresses of its file (what `addr2line -e MODULE` takes). */
typedef struct module_entry {
    uint32_t module; /* string id */
    uint64_t bias;
} module_entry;

/* Whether a module is the Python interpreter's, remembered per module (string id). */
typedef struct interpreter_entry {
    uint32_t module;
    int interpreter;
} interpreter_entry;

typedef struct symbolizer {
    ss_symbolizer *sym; /* NULL without libdw or when the process's modules cannot be read */
    pc_entry *entries;  /* open addressing on pc, 'cap' a power of two */
    size_t count, cap;
    module_entry *modules; /* the modules of the frames, in order of first use */
    size_t module_count, module_cap;
    interpreter_entry *interpreters;
    size_t interpreter_count, interpreter_cap;
    uint64_t resolve_ns; /* time spent symbolizing (SYNCSCOPE_TIMING) */
    uint64_t intern_ns;  /* of which demangling and interning the names */
    char *(*demangle)(const char *, char *, size_t *, int *);
    void *cxx_runtime;            /* libstdc++ opened for its demangler, or NULL */
    char python_module[PATH_MAX]; /* the file of the Python interpreter's code, "" if none */
} symbolizer;

static uint64_t monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The file that holds the Python interpreter (libpython, or the python executable that has
 * it linked in), resolved, into 'out'; "" when the program is not a Python interpreter. */
static void find_python_module(char *out, size_t size)
{
    out[0] = '\0';
    void *symbol = dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    Dl_info info;
    if (symbol == NULL || dladdr(symbol, &info) == 0)
        return;
    const char *file = info.dli_fname;
    char exe[PATH_MAX];
    if (file == NULL || strchr(file, '/') == NULL) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return;
        exe[n] = '\0';
        file = exe;
    }
    char real[PATH_MAX];
    if (realpath(file, real) == NULL)
        snprintf(real, sizeof real, "%s", file);
    snprintf(out, size, "%s", real);
}

/* 'cache_dir': the persistent symbol cache's folder, "" for none. */
static void symbolizer_init(symbolizer *s, const char *cache_dir)
{
    memset(s, 0, sizeof *s);
    find_python_module(s->python_module, sizeof s->python_module);
    ss_sym_options options = {cache_dir, 0};
    s->sym = ss_sym_open_process(getpid(), &options);
    /* C++ names (functions and kernels) are demangled with the C++ runtime's demangler: the
     * program's own when it has one, else libstdc++ loaded privately (RTLD_LOCAL) now, at
     * exit, where it can no longer collide with anything the program does. */
    s->demangle =
        (char *(*)(const char *, char *, size_t *, int *))dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (s->demangle == NULL) {
        s->cxx_runtime = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (s->cxx_runtime != NULL)
            s->demangle = (char *(*)(const char *, char *, size_t *, int *))dlsym(s->cxx_runtime,
                                                                                  "__cxa_demangle");
    }
}

static void symbolizer_free(symbolizer *s)
{
    ss_sym_close(s->sym);
    free(s->entries);
    free(s->modules);
    free(s->interpreters);
    /* libstdc++ stays loaded: its demangled strings are already copied, and unloading a C++
     * runtime at exit can run its destructors twice. */
}

/* Frames that belong to the observation, not to the program. */
static int is_tool_module(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    return strncmp(base, "libsyncscope", 12) == 0 || strncmp(base, "libcupti", 8) == 0 ||
           strncmp(base, "libcuda.so", 10) == 0;
}

static uint32_t intern_function(symbolizer *s, ss_event_log *log, const char *name)
{
    if (name == NULL)
        return 0;
    /* nvcc's launch stubs carry the kernel's mangled name after their prefix
     * ("__device_stub__Z5scalePfi"): demangled too, the prefix kept. */
    static const char stub[] = "__device_stub_";
    const char *mangled = name, *prefix = "";
    if (strncmp(name, stub, sizeof stub - 1) == 0 && name[sizeof stub - 1] == '_' &&
        name[sizeof stub] == 'Z') {
        mangled = name + sizeof stub - 1;
        prefix = "__device_stub__";
    }
    int status = -1;
    char *plain = NULL;
    if (s->demangle != NULL && mangled[0] == '_' && mangled[1] == 'Z')
        plain = s->demangle(mangled, NULL, NULL, &status);
    uint32_t id;
    if (status == 0 && plain != NULL && prefix[0] != '\0') {
        size_t len = strlen(prefix) + strlen(plain) + 1;
        char *joined = malloc(len);
        if (joined != NULL)
            snprintf(joined, len, "%s%s", prefix, plain);
        id = ss_evlog_intern(log, joined != NULL ? joined : name);
        free(joined);
    } else {
        id = ss_evlog_intern(log, status == 0 && plain != NULL ? plain : name);
    }
    free(plain);
    return id;
}

/* Remembers the bias of the module named by string 'module' the first time it is seen. */
static void note_module(symbolizer *s, uint32_t module, uint64_t bias)
{
    for (size_t i = 0; i < s->module_count; i++) {
        if (s->modules[i].module == module)
            return;
    }
    if (s->module_count == s->module_cap) {
        size_t cap = s->module_cap ? s->module_cap * 2 : 64;
        module_entry *grown = realloc(s->modules, cap * sizeof *grown);
        if (grown == NULL)
            return;
        s->modules = grown;
        s->module_cap = cap;
    }
    s->modules[s->module_count++] = (module_entry){module, bias};
}

/* Writes the bias of every module a frame names into the log's metadata ("base:" + path),
 * which gives the detectors a site's offset in its module when it has no source line. */
static void add_module_bases(const symbolizer *s, ss_event_log *log)
{
    for (size_t i = 0; i < s->module_count; i++) {
        char key[PATH_MAX + 8], value[32];
        snprintf(key, sizeof key, "base:%s", log->strings[s->modules[i].module]);
        snprintf(value, sizeof value, "0x%llx", (unsigned long long)s->modules[i].bias);
        ss_evlog_set_meta(log, key, value);
    }
}

/* Whether module 'path' (string id 'module') is the Python interpreter's file; realpath is
 * called once per module. */
static int is_interpreter(symbolizer *s, uint32_t module, const char *path)
{
    if (s->python_module[0] == '\0')
        return 0;
    for (size_t i = 0; i < s->interpreter_count; i++) {
        if (s->interpreters[i].module == module)
            return s->interpreters[i].interpreter;
    }
    char real[PATH_MAX];
    int interpreter = strcmp(path, s->python_module) == 0 ||
                      (realpath(path, real) != NULL && strcmp(real, s->python_module) == 0);
    if (s->interpreter_count == s->interpreter_cap) {
        size_t cap = s->interpreter_cap ? s->interpreter_cap * 2 : 64;
        interpreter_entry *grown = realloc(s->interpreters, cap * sizeof *grown);
        if (grown == NULL)
            return interpreter;
        s->interpreters = grown;
        s->interpreter_cap = cap;
    }
    s->interpreters[s->interpreter_count++] = (interpreter_entry){module, interpreter};
    return interpreter;
}

/* The module of 'pc' into 'e': frames[0].module, whether the frame is the program's
 * ('keep') and the interpreter's; the module's bias is noted for the metadata. */
static void identify_pc(symbolizer *s, ss_event_log *log, uint64_t pc, pc_entry *e)
{
    e->pc = pc;
    memset(e->frames, 0, sizeof e->frames);
    e->frames[0].pc = pc;
    e->nframes = 1;
    e->keep = 1;
    e->resolved = 0;
    const char *module = NULL;
    uint64_t bias = 0;
    int found = ss_sym_module(s->sym, pc, &module, &bias);
    if (found < 0)
        return;
    e->frames[0].module = ss_evlog_intern(log, module);
    if (found > 0)
        note_module(s, e->frames[0].module, bias);
    e->keep = !is_tool_module(module);
    e->interpreter = is_interpreter(s, e->frames[0].module, module);
}

/* Symbolizes 'e' (identified): its function, source line and, in the program's own modules,
 * the functions inlined there as frames of their own. Strings are interned in the order the
 * lookups made them: the symbol table's name, the line table's file, then each scope's name
 * and the file it was inlined from. */
static void resolve_pc(symbolizer *s, ss_event_log *log, pc_entry *e)
{
    e->resolved = 1;
    if (e->frames[0].module == 0)
        return;
    ss_symcache_entry r;
    if (ss_sym_resolve(s->sym, e->pc, e->keep, &r) < 0)
        return;
    uint64_t start = monotonic_ns();
    uint32_t symbol = intern_function(s, log, r.symbol);
    e->frames[0].function = symbol;
    if (r.frames[0].file != NULL) {
        e->frames[0].file = ss_evlog_intern(log, r.frames[0].file);
        e->frames[0].line = r.frames[0].line;
    }
    /* The outer frames of inlined calls share the pc and the module. */
    for (uint32_t k = 0; r.expanded && k < r.nframes; k++) {
        if (r.frames[k].function != NULL)
            e->frames[k].function = intern_function(s, log, r.frames[k].function);
        if (k + 1 < r.nframes) {
            ss_stack_frame *outer = &e->frames[k + 1];
            *outer = e->frames[k];
            outer->function = 0;
            outer->file =
                r.frames[k + 1].file != NULL ? ss_evlog_intern(log, r.frames[k + 1].file) : 0;
            outer->line = r.frames[k + 1].line;
        }
    }
    e->nframes = r.expanded ? r.nframes : 1;
    /* The outermost frame keeps the symbol table's name when DWARF had none. */
    if (e->frames[e->nframes - 1].function == 0)
        e->frames[e->nframes - 1].function = symbol;
    s->intern_ns += monotonic_ns() - start;
}

/* The entry of 'pc', identified (its module known) and, with 'names', resolved. NULL when out
 * of memory. */
static const pc_entry *lookup_pc(symbolizer *s, ss_event_log *log, uint64_t pc, int names)
{
    if ((s->count + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        pc_entry *entries = calloc(cap, sizeof *entries);
        if (entries == NULL)
            return NULL;
        for (size_t i = 0; i < s->cap; i++) {
            if (s->entries[i].pc == 0)
                continue;
            size_t slot = (size_t)(s->entries[i].pc * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
            while (entries[slot].pc != 0)
                slot = (slot + 1) & (cap - 1);
            entries[slot] = s->entries[i];
        }
        free(s->entries);
        s->entries = entries;
        s->cap = cap;
    }
    size_t slot = (size_t)(pc * 0x9e3779b97f4a7c15ull >> 20) & (s->cap - 1);
    while (s->entries[slot].pc != 0 && s->entries[slot].pc != pc)
        slot = (slot + 1) & (s->cap - 1);
    pc_entry *e = &s->entries[slot];
    if (e->pc == pc && (e->resolved || !names))
        return e;
    uint64_t start = monotonic_ns();
    if (e->pc != pc) {
        identify_pc(s, log, pc, e);
        s->count++;
    }
    if (names)
        resolve_pc(s, log, e);
    s->resolve_ns += monotonic_ns() - start;
    return e;
}

/* What the symbolization did, for SYNCSCOPE_TIMING: "N addresses, M modules: ..." with the time
 * of each step (docs/run.md). */
static void symbolize_text(const symbolizer *s, char *out, size_t size)
{
    const ss_sym_stats *st = ss_sym_stats_get(s->sym);
    snprintf(out, size,
             "%zu addresses, %zu modules; %zu resolved, %zu from the symbol cache: report %.1f, "
             "open %.1f, symbol tables %.1f (%zu symbols), symbols %.1f, lines %.1f, inlined "
             "%.1f, names %.1f, cache %.1f ms",
             s->count, s->module_count, st->resolved, st->cache_hits, (double)st->report_ns / 1e6,
             (double)st->open_ns / 1e6, (double)st->index_ns / 1e6, st->symbols,
             (double)st->symbol_ns / 1e6, (double)st->line_ns / 1e6, (double)st->inline_ns / 1e6,
             (double)s->intern_ns / 1e6, (double)st->cache_ns / 1e6);
}

/* Adds the symbolized stack 'entry' to 'log' without the observation's own leading frames;
 * returns its id. Those leading frames are only identified (their module), never resolved:
 * nothing shows them. Its Python frames ('python' is the thread's table) go where the program
 * called from the interpreter into native code: before the first frame of the interpreter's
 * own code, or after the native frames when none is known. */
static uint32_t add_stack(symbolizer *s, ss_event_log *log, const ss_stack_entry *entry,
                          const ss_py_table *python)
{
    ss_stack_frame frames[SS_STACK_DEPTH + SS_PY_DEPTH_MAX];
    uint32_t depth = 0;
    int32_t python_at = -1;
    for (uint32_t i = 0; i < entry->depth && entry->pcs[i] != 0; i++) {
        const pc_entry *e = lookup_pc(s, log, entry->pcs[i], 0);
        if (e == NULL)
            break;
        if (depth == 0 && !e->keep)
            continue;
        e = lookup_pc(s, log, entry->pcs[i], 1);
        if (e == NULL)
            break;
        if (e->interpreter && python_at < 0)
            python_at = (int32_t)depth;
        for (uint32_t k = 0; k < e->nframes && depth < SS_STACK_DEPTH; k++)
            frames[depth++] = e->frames[k];
    }
    ss_stack_frame py[SS_PY_DEPTH_MAX];
    uint32_t py_depth = 0;
    for (uint32_t i = 0; i < entry->py_depth && i < SS_PY_DEPTH_MAX; i++) {
        const ss_py_frame *f = ss_py_get(python, entry->py[i]);
        if (f == NULL)
            continue;
        ss_stack_frame *out = &py[py_depth++];
        memset(out, 0, sizeof *out);
        out->function = ss_evlog_intern(log, ss_py_text(python, f->function));
        out->file = ss_evlog_intern(log, ss_py_text(python, f->file));
        out->line = f->line;
        out->python = entry->py_other ? SS_FRAME_OTHER_THREAD : 1;
    }
    if (py_depth > 0) {
        /* Another thread's frames (2 in the trace) follow this thread's own. */
        uint32_t at = python_at >= 0 && !entry->py_other ? (uint32_t)python_at : depth;
        memmove(&frames[at + py_depth], &frames[at], (depth - at) * sizeof *frames);
        memcpy(&frames[at], py, py_depth * sizeof *py);
        depth += py_depth;
    }
    return depth > 0 ? ss_evlog_add_stack(log, frames, depth) : 0;
}

/* ---- building the event log ---- */

static void set_meta_u64(ss_event_log *log, const char *key, uint64_t value)
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

static void add_metadata(ss_event_log *log, const ss_capture_view *v, const char *host)
{
    set_meta_u64(log, "pid", (uint64_t)v->pid);
    read_command_line(log);
    ss_evlog_set_meta(log, "hostname", host);
    int rank = ss_interpose_rank();
    if (rank >= 0)
        set_meta_u64(log, "rank", (uint64_t)rank);
    if (v->gpu != NULL && v->gpu[0] != '\0')
        ss_evlog_set_meta(log, "gpu", v->gpu);
    if (v->driver != NULL && v->driver[0] != '\0')
        ss_evlog_set_meta(log, "driver", v->driver);
    set_meta_version(log, "cuda", v->driver_version);
    set_meta_version(log, "cuda_runtime", v->runtime_version);
    set_meta_u64(log, "wall_ns", v->end_ns > v->start_ns ? v->end_ns - v->start_ns : 0);
    set_meta_u64(log, "start_ns", v->start_ns);
    set_meta_u64(log, "end_ns", v->end_ns);
    time_t secs = (time_t)(v->started_unix_ns / 1000000000);
    struct tm tm;
    char when[64];
    if (gmtime_r(&secs, &tm) != NULL && strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm))
        ss_evlog_set_meta(log, "started_at", when);
    ss_evlog_set_meta(log, "cupti", v->cupti_path != NULL ? v->cupti_path : "");
    if (v->python != NULL && v->python[0] != '\0')
        ss_evlog_set_meta(log, "python", v->python);
    ss_evlog_set_meta(log, "kernel_activity", v->config->kernel_activity ? "1" : "0");
    ss_evlog_set_meta(log, "sync_records", v->config->sync_records ? "1" : "0");
    set_meta_u64(log, "max_memory", v->config->max_memory);
    set_meta_u64(log, "memory_used", ss_budget_used(&v->store->budget));
    set_meta_u64(log, "dropped_stacks", atomic_load(&v->store->budget.dropped_stacks));
    uint64_t self_ns = 0, launches = 0, slow = 0;
    for (ss_thread_store *t = atomic_load(&v->store->threads); t != NULL; t = t->next) {
        self_ns += t->self_launch_ns;
        launches += t->self_launches;
        slow += t->self_slow_launches;
    }
    if (launches > 0) {
        set_meta_u64(log, "self_launch_ns", self_ns);
        set_meta_u64(log, "self_launches", launches);
    }
    if (slow > 0)
        set_meta_u64(log, "self_slow_launches", slow);
    if (atomic_load(&v->store->budget.refused_buffers) > 0)
        set_meta_u64(log, "refused_activity_buffers",
                     atomic_load(&v->store->budget.refused_buffers));
    if (v->forked)
        ss_evlog_set_meta(log, "forked", "1");
    if (v->signal != 0)
        set_meta_u64(log, "signal", (uint64_t)v->signal);
    /* A full run's log says nothing of its mode, as before the modes. */
    if (v->mode != NULL && strcmp(v->mode, "full") != 0)
        ss_evlog_set_meta(log, "mode", v->mode);
    if (v->windows != NULL && v->windows[0] != '\0')
        ss_evlog_set_meta(log, "sample_windows", v->windows);
    ss_evlog_set_meta(log, "syncscope", SS_VERSION);
}

/* One thread's events on their way into the log, with the log's ids of its stacks so far. */
typedef struct thread_copy {
    const ss_capture_view *v;
    ss_thread_store *thread;
    ss_event_log *log;
    symbolizer *sym;
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
                entry != NULL ? add_stack(c->sym, c->log, entry, c->thread->python) : 0;
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

/* Copies the events of thread 't' that the log takes (thread_event) into 'log'. Returns 0, or
 * -1 out of memory. */
static int copy_thread(const ss_capture_view *v, ss_thread_store *t, ss_event_log *log,
                       symbolizer *sym, const uint32_t *api_names)
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
    free(stack_ids);
    return 0;
}

/* Copies every thread's events into 'log', the threads in registration order, so that the log
 * does not depend on list order. Returns 0, or -1 out of memory. */
static int copy_threads(const ss_capture_view *v, ss_event_log *log, symbolizer *sym,
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
    /* The thread that started each thread and its stack then: "THREAD STACK" (the stack 0
     * when none was recorded). */
    for (uint32_t ti = 1; ti <= nthreads; ti++) {
        const ss_thread_store *t = threads[ti];
        if (t == NULL || t->started_by == 0 || t->started_by > nthreads ||
            threads[t->started_by] == NULL)
            continue;
        const ss_thread_store *by = threads[t->started_by];
        const ss_stack_entry *entry = ss_stack_get(&by->stacks, t->start_stack);
        uint32_t stack = entry != NULL ? add_stack(sym, log, entry, by->python) : 0;
        char key[32], value[32];
        snprintf(key, sizeof key, "thread_start:%u", (unsigned)ti);
        snprintf(value, sizeof value, "%u %u", (unsigned)t->started_by, (unsigned)stack);
        ss_evlog_set_meta(log, key, value);
    }
    free(threads);
    return 0;
}

/* Copies the activity (GPU-side records) into 'log', kernel names demangled. Returns 0, or -1
 * out of memory. */
static int copy_activity(const ss_capture_view *v, ss_event_log *log, symbolizer *sym)
{
    const ss_name_table *names = &v->store->names;
    uint32_t *name_ids = calloc(names->count + 1, sizeof *name_ids);
    if (name_ids == NULL)
        return -1;
    for (uint32_t i = 1; i <= names->count; i++)
        name_ids[i] = intern_function(sym, log, ss_name_get(names, i)); /* kernel names */
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
static int build_log(const ss_capture_view *v, ss_event_log *log, symbolizer *sym)
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

/* ---- outputs ---- */

/* The expanded output path for 'pattern' (relative names are taken from the folder the
 * program started in). Returns 0, or -1 with a message printed. */
static int output_path(const ss_capture_view *v, const char *pattern, const char *host, char *out,
                       size_t size)
{
    char name[PATH_MAX];
    if (ss_interpose_expand(pattern, v->pid, host, ss_interpose_rank(), name, sizeof name) < 0) {
        ss_log_error("output name '%s' is too long", pattern);
        return -1;
    }
    int n;
    if (name[0] == '/' || v->config->cwd[0] == '\0' || strcmp(name, "-") == 0)
        n = snprintf(out, size, "%s", name);
    else
        n = snprintf(out, size, "%s/%s", v->config->cwd, name);
    if (n <= 0 || (size_t)n >= size) {
        ss_log_error("output name '%s' is too long", name);
        return -1;
    }
    return 0;
}

/* One output of the run: the trace, the Chrome trace, or the result in a format (an HTML page
 * also draws the log as its timeline). */
typedef enum output_kind { OUTPUT_TRACE, OUTPUT_CHROME_TRACE, OUTPUT_RESULT } output_kind;

typedef struct output {
    output_kind kind;
    ss_format format; /* OUTPUT_RESULT */
    const ss_result *result;
    const ss_event_log *log;
    const ss_interpose_config *config; /* the text format's settings */
    int color;                         /* text in colour (write_to decides) */
} output;

static int write_output(FILE *out, void *context)
{
    const output *o = context;
    if (o->kind == OUTPUT_TRACE)
        return ss_trace_write(out, o->log);
    if (o->kind == OUTPUT_CHROME_TRACE)
        return ss_chrome_trace_write_runs(out, &o->log, &o->result, 1);
    /* Colour as --color says (color_output), with source lines, as much of each finding as
     * --frames and --full-names say; an HTML page draws the run's timeline. */
    const ss_interpose_config *cfg = o->config;
    ss_text_options text = {.color = o->color,
                            .show_source = 1,
                            .frames = cfg->frames,
                            .evidence = cfg->frames > 0,
                            .full_names = cfg->full_names};
    ss_format_options options = {&text, o->log};
    return ss_report_write_format(out, o->format, o->result, &options);
}

/* Writes 'o' to 'path' atomically (ss_write_atomic), or to stderr for "-": stdout is the
 * program's. Returns 0, or -1 with a message printed. */
static int write_to(const char *path, output *o)
{
    /* SYNCSCOPE_COLOR (run --color): always colours any text; auto only stderr when it is a
     * terminal and NO_COLOR is unset or empty; never none. */
    const char *when = o->config->color;
    const char *no_color = getenv("NO_COLOR");
    int to_stderr = strcmp(path, "-") == 0;
    o->color = strcmp(when, "always") == 0 ||
               (strcmp(when, "never") != 0 && to_stderr && isatty(STDERR_FILENO) &&
                (no_color == NULL || no_color[0] == '\0'));
    if (to_stderr)
        return write_output(stderr, o) == 0 && fflush(stderr) == 0 ? 0 : -1;
    if (ss_write_atomic(path, write_output, o) != SS_WRITE_OK) {
        ss_log_error("cannot write '%s': %s", path, ss_file_error());
        return -1;
    }
    return 0;
}

/* Where a summary line puts a finding: "file:line", else "function (module+0xOFFSET)", else
 * the function; then " via LIBRARY-LINE" when the call went through a library. */
static void summary_where(const ss_finding *f, char *out, size_t size)
{
    char via[PATH_MAX];
    ss_finding_via_text(f, via, sizeof via);
    int n;
    if (f->file != NULL && f->line > 0)
        n = snprintf(out, size, "%s:%u", f->file, f->line);
    else if (f->module != NULL)
        n = (int)strlen(ss_finding_module_text(f, out, size));
    else
        n = snprintf(out, size, "%s", f->function != NULL ? f->function : "?");
    if (via[0] != '\0' && n >= 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, " via %s", via);
}

/* What the summary says about the findings besides listing them. */
typedef struct summary_counts {
    size_t startup;      /* findings only in the startup phase */
    uint64_t startup_ns; /* what those blocked (latent ones not counted) */
    size_t latent;       /* synchronized, blocked under the threshold */
    size_t unlined;      /* a function and its offset in a module, no source line */
} summary_counts;

/* Counts what the summary says of the findings of 'r' into 'c'. */
static void count_findings(const ss_result *r, summary_counts *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < r->count; i++) {
        const ss_finding *f = &r->findings[i];
        c->latent += f->latent;
        c->unlined += f->file == NULL && f->module != NULL;
        if (f->startup) {
            c->startup++;
            c->startup_ns += f->latent ? 0 : f->evidence.total_ns;
        }
    }
}

/* One line per finding outside the startup phase, in the result's order (costliest first), at
 * most SUMMARY_LINES, kernel names shortened unless 'full_names'. Returns how many it
 * printed. */
static size_t list_findings(const ss_result *r, int full_names)
{
    size_t shown = 0;
    for (size_t i = 0; i < r->count && shown < SUMMARY_LINES; i++) {
        const ss_finding *f = &r->findings[i];
        if (f->startup)
            continue;
        const ss_rule *rule = ss_rules_get(f->rule);
        char cost[32];
        ss_format_duration(f->evidence.total_ns, cost, sizeof cost);
        char where[PATH_MAX * 2 + 64];
        summary_where(f, where, sizeof where);
        char *message = f->message == NULL ? NULL
                        : full_names       ? ss_xstrdup(f->message)
                                           : ss_report_short_kernels(f->message);
        ss_log_note("  %s %-9s %s x%llu  %s  %s", rule->id, cost,
                    f->evidence.api ? f->evidence.api : "", (unsigned long long)f->evidence.count,
                    where, message != NULL ? message : rule->summary);
        free(message);
        shown++;
    }
    return shown;
}

/* The summary's closing lines: what the startup phase did, the missing source lines, the
 * dropped events and where the results are ('written', or NULL). */
static void print_summary_notes(const ss_result *r, const summary_counts *c, const char *written)
{
    if (c->startup > 0) {
        char cost[32];
        ss_format_duration(c->startup_ns, cost, sizeof cost);
        ss_log_note("  %zu finding%s only in the startup phase (before the first repeated GPU "
                    "work: loading, compiling, autotuning), %s blocked: see the result file",
                    c->startup, c->startup == 1 ? "" : "s", cost);
    }
    if (c->unlined > 0)
        ss_log_note("build with -g (or -lineinfo for device code) for source lines: %zu "
                    "finding%s only a function and its offset in a module",
                    c->unlined, c->unlined == 1 ? " has" : "s have");
    /* What the light or sampled mode cannot report (detect.c, report_mode), said once. */
    for (size_t i = 0; i < r->diag_count; i++) {
        const char *m = r->diags[i].message;
        if (m != NULL &&
            (strncmp(m, "light mode: ", 12) == 0 || strncmp(m, "sampled mode: ", 14) == 0))
            ss_log_note("%s", m);
    }
    if (r->dropped > 0)
        ss_log_warning("%llu events were dropped past the memory cap (%s); findings may be "
                       "incomplete",
                       (unsigned long long)r->dropped, SS_ENV_MAX_MEMORY);
    if (written != NULL)
        ss_log_note("results: %s", written);
}

/* The summary on stderr: the time blocked, the findings of the loop the program spends its
 * time in, then what only its startup did (loading, compiling, autotuning, moving data in) in
 * one line after them; 'written' is the result file, or NULL; 'full_names': kernel names as
 * recorded (--full-names), else shortened as the text report shows them. */
static void print_summary(const ss_result *r, const char *written, int full_names)
{
    char blocked[32], wall[32];
    ss_format_duration(r->blocked_ns, blocked, sizeof blocked);
    ss_format_duration(r->wall_ns, wall, sizeof wall);
    summary_counts c;
    count_findings(r, &c);
    size_t listed = r->count - c.startup;
    double share = r->wall_ns > 0 ? 100.0 * (double)r->blocked_ns / (double)r->wall_ns : 0.0;
    char notes[96] = "";
    if (c.latent > 0)
        snprintf(notes, sizeof notes, " (%zu latent: synchronized, blocked under the threshold)",
                 c.latent);
    ss_log_note("%s of %s (%.1f%%) host time blocked in implicit synchronization; %zu "
                "finding%s%s%s",
                blocked, wall, share, r->count, r->count == 1 ? "" : "s", notes,
                listed > 0 ? ", costliest first:" : "");
    size_t shown = list_findings(r, full_names);
    if (listed > shown)
        ss_log_note("  ... and %zu more", listed - shown);
    print_summary_notes(r, &c, written);
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

/* --baseline and --write-baseline (docs/run.md, "Gates"), as lint does them: the baseline is
 * read first (so that one file may be both), the findings are recorded, then those the baseline
 * holds are left out of the outputs. Returns 0, or -1 with a message printed. */
static int apply_baselines(const ss_capture_view *v, const char *host, ss_result *result)
{
    const ss_interpose_config *cfg = v->config;
    char path[PATH_MAX], err[1024];
    int rc = 0, loaded = 0;
    ss_baseline baseline;
    if (cfg->baseline[0] != '\0') {
        char *file = ss_path_normalize(cfg->cwd[0] != '\0' ? cfg->cwd : NULL, cfg->baseline);
        loaded = ss_baseline_load(file, &baseline, err, sizeof err) == 0;
        free(file);
        if (!loaded) {
            ss_log_error("%s; no finding is left out", err);
            rc = -1;
        }
    }
    if (cfg->write_baseline[0] != '\0') {
        if (output_path(v, cfg->write_baseline, host, path, sizeof path) < 0) {
            rc = -1;
        } else if (ss_baseline_write(path, result, err, sizeof err) < 0) {
            ss_log_error("%s", err);
            rc = -1;
        }
    }
    if (loaded) {
        ss_baseline_filter(&baseline, result);
        ss_baseline_free(&baseline);
    }
    return rc;
}

/* The gate (docs/run.md, "Gates"): its verdict on stderr and, for `syncscope run`, which turns
 * it into the exit status, in the gate file. A gate that cannot be judged fails. */
static void judge_gate(const ss_capture_view *v, const ss_result *result)
{
    const ss_interpose_config *cfg = v->config;
    ss_gate gate;
    ss_gate_init(&gate);
    char why[512];
    int failed;
    if ((cfg->fail_on[0] != '\0' && ss_gate_parse_fail_on(cfg->fail_on, &gate) < 0) ||
        (cfg->fail_over[0] != '\0' && ss_gate_parse_budget(cfg->fail_over, &gate) < 0)) {
        snprintf(why, sizeof why, "%s='%s' is not a budget such as 2%% or 50ms", SS_ENV_FAIL_OVER,
                 cfg->fail_over);
        failed = -1;
    } else {
        failed = ss_gate_check(&gate, result, why, sizeof why);
    }
    if (failed < 0)
        ss_log_error("gate: %s", why);
    else if (!cfg->quiet)
        ss_log_note("gate: %s: %s", failed ? "failed" : "passed", why);
    if (cfg->gate_file[0] == '\0')
        ss_log_warning("%s is applied by 'syncscope run' alone: the exit status stays the "
                       "program's own",
                       SS_ENV_ERROR_EXITCODE);
    else if (ss_gate_record(cfg->gate_file, v->pid, failed != 0, why) < 0)
        ss_log_error("cannot write the gate's verdict to '%s': %s", cfg->gate_file,
                     strerror(errno));
}

/* ---- the end of the run, step by step ---- */

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
    t->start = monotonic_ns();
    if (ss_evlog_init(log) < 0)
        return -1;
    symbolizer sym;
    symbolizer_init(&sym, v->config->symbol_cache);
    uint64_t t_init = monotonic_ns();
    add_metadata(log, v, host);
    if (build_log(v, log, &sym) < 0) {
        ss_log_error("out of memory while collecting the events; no report written");
        symbolizer_free(&sym);
        ss_evlog_free(log);
        return -1;
    }
    add_module_bases(&sym, log);
    /* What this run learned goes into the symbol cache for the next run of the program. */
    uint64_t t_save = monotonic_ns();
    ss_sym_save(sym.sym);
    t->symbolize_ns = (t_init - t->start) + sym.resolve_ns + (monotonic_ns() - t_save);
    symbolize_text(&sym, t->symbolize_detail, sizeof t->symbolize_detail);
    symbolizer_free(&sym);
    t->log = monotonic_ns();
    return 0;
}

/* The detectors' options from the settings into 'options', also recorded in the log's
 * metadata; the SYNCSCOPE_ATTRIBUTE_TO paths go into 'user_paths' (at most 'max', malloc'ed:
 * the caller frees the options.user_path_count of them). */
static void detect_options(const ss_interpose_config *cfg, ss_event_log *log,
                           ss_detect_options *options, char **user_paths, size_t max)
{
    ss_detect_options_default(options);
    /* A setting left unset (0) keeps the detector's default; either is recorded below. */
#define SS_DETECT_RECORDED(field, unit, fallback, setting, option)                                 \
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
    if (cfg->nvtx_range[0] != '\0')
        ss_evlog_set_meta(log, SS_META_NVTX_RANGE, cfg->nvtx_range);
#define SS_DETECT_RECORDED(field, unit, fallback, setting, option)                                 \
    set_meta_u64(log, #field, options->field);
#include "detect_options.def"
    if (cfg->attribute_to[0] != '\0')
        ss_evlog_set_meta(log, "attribute_to", cfg->attribute_to);
    if (!cfg->latent)
        ss_evlog_set_meta(log, "latent", "0");
}

/* Writes 'o' to the file that setting 'pattern' names, when it names one. Returns 0, or -1
 * with a message printed. */
static int write_setting(const ss_capture_view *v, const char *host, const char *pattern, output *o)
{
    char path[PATH_MAX];
    if (pattern[0] == '\0')
        return 0;
    return output_path(v, pattern, host, path, sizeof path) < 0 || write_to(path, o) < 0 ? -1 : 0;
}

/* Writes 'o', the result, to the file SYNCSCOPE_OUTPUT names, and that file's path into
 * 'written'. Returns 0, or -1 with a message printed ('written' left as it was). */
static int write_result_file(const ss_capture_view *v, const char *host, output *o, char *written,
                             size_t size)
{
    char path[PATH_MAX];
    if (output_path(v, v->config->output, host, path, sizeof path) < 0 || write_to(path, o) < 0)
        return -1;
    snprintf(written, size, "%s", path);
    return 0;
}

/* Writes the outputs made from the findings: the Chrome trace, the result file (its path into
 * 'written', left "" when it was not written) and the SARIF file. Returns 0, or -1 when any of
 * them failed (with a message printed). */
static int write_results(const ss_capture_view *v, const char *host, const ss_event_log *log,
                         const ss_result *result, char *written, size_t size)
{
    const ss_interpose_config *cfg = v->config;
    int rc = 0;
    /* The Chrome trace marks the findings, so it is written once they are known. */
    output chrome = {OUTPUT_CHROME_TRACE, SS_FORMAT_JSON, result, log, cfg, 0};
    if (write_setting(v, host, cfg->chrome_trace, &chrome) < 0)
        rc = -1;

    ss_format format = SS_FORMAT_JSON;
    ss_format_parse(cfg->format, &format);
    output main_output = {OUTPUT_RESULT, format, result, log, cfg, 0};
    if (write_result_file(v, host, &main_output, written, size) < 0)
        rc = -1;
    output sarif = {OUTPUT_RESULT, SS_FORMAT_SARIF, result, log, cfg, 0};
    if (write_setting(v, host, cfg->sarif, &sarif) < 0)
        rc = -1;
    return rc;
}

/* What follows the detectors: the result completed and sorted, the baselines applied, the
 * outputs written, the summary and the gate's verdict on stderr. Returns 0, or -1 when a step
 * failed (with a message printed). */
static int report_result(const ss_capture_view *v, const char *host, const ss_event_log *log,
                         ss_result *result)
{
    const ss_interpose_config *cfg = v->config;
    int rc = 0;
    if (result->dropped < log->dropped)
        result->dropped = log->dropped;
    if (result->pid == 0)
        result->pid = v->pid;
    ss_result_sort(result);
    if (apply_baselines(v, host, result) < 0)
        rc = -1;
    char written[PATH_MAX] = "";
    if (write_results(v, host, log, result, written, sizeof written) < 0)
        rc = -1;
    if (!cfg->quiet)
        print_summary(result, written[0] != '\0' && strcmp(written, "-") != 0 ? written : NULL,
                      cfg->full_names);
    if (cfg->gate_file[0] != '\0' || cfg->error_exitcode > 0)
        judge_gate(v, result);
    return rc;
}

/* The SYNCSCOPE_TIMING line: the time of each step, up to now ('events' in the log). */
static void print_timing(const exit_timing *t, size_t events)
{
    uint64_t t_end = monotonic_ns();
    ss_log_note("exit timing: symbolize %.1f ms (%s), collect %.1f "
                "ms (%zu events), trace %.1f ms, detect %.1f ms, write %.1f ms, total %.1f ms",
                (double)t->symbolize_ns / 1e6, t->symbolize_detail,
                (double)(t->log - t->start - t->symbolize_ns) / 1e6, events,
                (double)(t->trace - t->log) / 1e6, (double)(t->detect - t->trace) / 1e6,
                (double)(t_end - t->detect) / 1e6, (double)(t_end - t->start) / 1e6);
}

/* ---- interval lines (docs/run.md, "Interval lines") ---- */

/* Adds 'value' to 'o' as a JSON integer, exact (cJSON's numbers are doubles: a nanosecond
 * time since 1970 would lose its last digits). */
static void add_integer(cJSON *o, const char *key, uint64_t value)
{
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    cJSON_AddRawToObject(o, key, text);
}

/* The interval line of 'result': one JSON object, no newline inside; malloc'ed, NULL when out
 * of memory. */
static char *interval_line(const ss_capture_view *v, const char *host, const ss_result *result,
                           int final)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL)
        return NULL;
    int rank = ss_interpose_rank();
    cJSON_AddStringToObject(o, "syncscope", "interval");
    add_integer(o, "pid", (uint64_t)v->pid);
    if (rank >= 0)
        add_integer(o, "rank", (uint64_t)rank);
    else
        cJSON_AddNullToObject(o, "rank");
    cJSON_AddStringToObject(o, "host", host);
    cJSON_AddStringToObject(o, "mode", v->mode != NULL ? v->mode : "full");
    cJSON_AddBoolToObject(o, "final", final);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    add_integer(o, "time_ns", (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
    add_integer(o, "elapsed_ns", v->end_ns > v->start_ns ? v->end_ns - v->start_ns : 0);
    add_integer(o, "blocked_ns", result->blocked_ns);
    add_integer(o, "dropped", result->dropped);
    cJSON *list = cJSON_AddArrayToObject(o, "findings");
    for (size_t i = 0; list != NULL && i < result->count; i++) {
        const ss_finding *f = &result->findings[i];
        cJSON *item = cJSON_CreateObject();
        if (item == NULL)
            break;
        cJSON_AddStringToObject(item, "rule", ss_rules_get(f->rule)->id);
        if (f->file != NULL)
            cJSON_AddStringToObject(item, "file", f->file);
        else
            cJSON_AddNullToObject(item, "file");
        add_integer(item, "line", f->line);
        if (f->function != NULL)
            cJSON_AddStringToObject(item, "function", f->function);
        if (f->evidence.api != NULL)
            cJSON_AddStringToObject(item, "api", f->evidence.api);
        add_integer(item, "count", f->evidence.count);
        add_integer(item, "blocked_ns", f->evidence.total_ns);
        cJSON_AddBoolToObject(item, "latent", f->latent);
        cJSON_AddItemToArray(list, item);
    }
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

/* Appends 'result' as one line to the interval file, with one write(2) on an O_APPEND file,
 * so that readers (and other processes appending to a shared file) never see half a line.
 * Returns 0, or -1 with a message printed once per process. */
static int append_interval(const ss_capture_view *v, const char *host, const ss_result *result,
                           int final)
{
    static int said;
    char path[PATH_MAX];
    if (output_path(v, v->config->interval_file, host, path, sizeof path) < 0)
        return -1;
    char *text = interval_line(v, host, result, final);
    int fd = text != NULL ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    int rc = -1;
    if (fd >= 0) {
        size_t len = strlen(text);
        text[len] = '\n'; /* the line's end replaces the NUL, written with it */
        rc = write(fd, text, len + 1) == (ssize_t)(len + 1) ? 0 : -1;
        text[len] = '\0';
        close(fd);
    }
    if (rc < 0 && !said) {
        said = 1;
        ss_log_error("cannot append to the interval file %s: %s", path,
                     text == NULL ? "out of memory" : strerror(errno));
    }
    cJSON_free(text);
    return rc;
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
    output trace_output = {OUTPUT_TRACE, SS_FORMAT_JSON, NULL, log, cfg, 0};
    if (trace && write_setting(v, host, cfg->trace, &trace_output) < 0)
        *trace_failed = 1;
    timing->trace = monotonic_ns();
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
    timing->detect = monotonic_ns();
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
    int rc = append_interval(v, host, &result, final);
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
    if (report_result(v, host, &log, &result) < 0)
        rc = -1;
    /* The run's last interval line: the findings of the whole run, as the result has them. */
    if (cfg->interval > 0 && append_interval(v, host, &result, 1) < 0)
        rc = -1;
    if (cfg->timing)
        print_timing(&timing, log.count);
    ss_result_free(&result);
    ss_evlog_free(&log);
    return rc;
}
