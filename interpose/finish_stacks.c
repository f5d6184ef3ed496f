/* finish_stacks.c: the finisher's symbolization: each address of the captured stacks
 * identified (its module) and resolved (function, source line, inlined calls) once, with
 * elfutils libdw through symbolize.c, and the stacks added to the event log as frames. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "finish_int.h"

/* Functions inlined at one pc that are shown as frames of their own (innermost first). */
#define SS_INLINE_DEPTH SS_SYM_INLINE_DEPTH

struct fin_pc_entry {
    uint64_t pc;
    ss_stack_frame frames[SS_INLINE_DEPTH]; /* pc and string ids; [0] is the innermost */
    uint32_t nframes;                       /* 1 + the inlined calls expanded */
    int keep;                               /* 0: a frame of syncscope, CUPTI or the driver */
    int interpreter;                        /* 1: in the Python interpreter's own code */
    int resolved; /* 1: function and lines looked up (0: only the module is known) */
};

/* A module that a frame names, and the bias to subtract from its addresses to get the
 * addresses of its file (what `addr2line -e MODULE` takes). */
struct fin_module_entry {
    uint32_t module; /* string id */
    uint64_t bias;
};

/* Whether a module is the Python interpreter's, remembered per module (string id). */
struct fin_interpreter_entry {
    uint32_t module;
    int interpreter;
};

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
void fin_symbolizer_init(fin_symbolizer *s, const char *cache_dir)
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

void fin_symbolizer_free(fin_symbolizer *s)
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

uint32_t fin_intern_function(fin_symbolizer *s, ss_event_log *log, const char *name)
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
static void note_module(fin_symbolizer *s, uint32_t module, uint64_t bias)
{
    for (size_t i = 0; i < s->module_count; i++) {
        if (s->modules[i].module == module)
            return;
    }
    if (s->module_count == s->module_cap) {
        size_t cap = s->module_cap ? s->module_cap * 2 : 64;
        fin_module_entry *grown = realloc(s->modules, cap * sizeof *grown);
        if (grown == NULL)
            return;
        s->modules = grown;
        s->module_cap = cap;
    }
    s->modules[s->module_count++] = (fin_module_entry){module, bias};
}

/* Writes the bias of every module a frame names into the log's metadata ("base:" + path),
 * which gives the detectors a site's offset in its module when it has no source line. */
void fin_add_module_bases(const fin_symbolizer *s, ss_event_log *log)
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
static int is_interpreter(fin_symbolizer *s, uint32_t module, const char *path)
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
        fin_interpreter_entry *grown = realloc(s->interpreters, cap * sizeof *grown);
        if (grown == NULL)
            return interpreter;
        s->interpreters = grown;
        s->interpreter_cap = cap;
    }
    s->interpreters[s->interpreter_count++] = (fin_interpreter_entry){module, interpreter};
    return interpreter;
}

/* The module of 'pc' into 'e': frames[0].module, whether the frame is the program's
 * ('keep') and the interpreter's; the module's bias is noted for the metadata. */
static void identify_pc(fin_symbolizer *s, ss_event_log *log, uint64_t pc, fin_pc_entry *e)
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
static void resolve_pc(fin_symbolizer *s, ss_event_log *log, fin_pc_entry *e)
{
    e->resolved = 1;
    if (e->frames[0].module == 0)
        return;
    ss_symcache_entry r;
    if (ss_sym_resolve(s->sym, e->pc, e->keep, &r) < 0)
        return;
    uint64_t start = fin_monotonic_ns();
    uint32_t symbol = fin_intern_function(s, log, r.symbol);
    e->frames[0].function = symbol;
    if (r.frames[0].file != NULL) {
        e->frames[0].file = ss_evlog_intern(log, r.frames[0].file);
        e->frames[0].line = r.frames[0].line;
    }
    /* The outer frames of inlined calls share the pc and the module. */
    for (uint32_t k = 0; r.expanded && k < r.nframes; k++) {
        if (r.frames[k].function != NULL)
            e->frames[k].function = fin_intern_function(s, log, r.frames[k].function);
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
    s->intern_ns += fin_monotonic_ns() - start;
}

/* The entry of 'pc', identified (its module known) and, with 'names', resolved. NULL when out
 * of memory. */
static const fin_pc_entry *lookup_pc(fin_symbolizer *s, ss_event_log *log, uint64_t pc, int names)
{
    if ((s->count + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        fin_pc_entry *entries = calloc(cap, sizeof *entries);
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
    fin_pc_entry *e = &s->entries[slot];
    if (e->pc == pc && (e->resolved || !names))
        return e;
    uint64_t start = fin_monotonic_ns();
    if (e->pc != pc) {
        identify_pc(s, log, pc, e);
        s->count++;
    }
    if (names)
        resolve_pc(s, log, e);
    s->resolve_ns += fin_monotonic_ns() - start;
    return e;
}

/* What the symbolization did, for SYNCSCOPE_TIMING: "N addresses, M modules: ..." with the time
 * of each step (docs/run.md). */
void fin_symbolize_text(const fin_symbolizer *s, char *out, size_t size)
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

/* The Python frames of 'entry' ('python' is the thread's table) into 'py', their strings
 * interned in 'log'; returns how many. */
static uint32_t python_frames(ss_event_log *log, const ss_stack_entry *entry,
                              const ss_py_table *python, ss_stack_frame *py)
{
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
    return py_depth;
}

/* Adds the symbolized stack 'entry' to 'log' without the observation's own leading frames;
 * returns its id. Those leading frames are only identified (their module), never resolved:
 * nothing shows them. Its Python frames ('python' is the thread's table) go where the program
 * called from the interpreter into native code: before the first frame of the interpreter's
 * own code, or after the native frames when none is known. */
uint32_t fin_add_stack(fin_symbolizer *s, ss_event_log *log, const ss_stack_entry *entry,
                       const ss_py_table *python)
{
    ss_stack_frame frames[SS_STACK_DEPTH + SS_PY_DEPTH_MAX];
    uint32_t depth = 0;
    int32_t python_at = -1;
    for (uint32_t i = 0; i < entry->depth && entry->pcs[i] != 0; i++) {
        const fin_pc_entry *e = lookup_pc(s, log, entry->pcs[i], 0);
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
    uint32_t py_depth = python_frames(log, entry, python, py);
    if (py_depth > 0) {
        /* Another thread's frames (2 in the trace) follow this thread's own. */
        uint32_t at = python_at >= 0 && !entry->py_other ? (uint32_t)python_at : depth;
        memmove(&frames[at + py_depth], &frames[at], (depth - at) * sizeof *frames);
        memcpy(&frames[at], py, py_depth * sizeof *py);
        depth += py_depth;
    }
    return depth > 0 ? ss_evlog_add_stack(log, frames, depth) : 0;
}
