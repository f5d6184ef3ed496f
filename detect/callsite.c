/* callsite.c: a call's site as its findings name it: the frame of its stack that site.c
 * chooses (cached per stack), the stack a kernel launch without one borrows, the key that
 * occurrences at one site aggregate by, and the location a finding is written with. */
#include "detect_int.h"
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int det_sites_init(det_ctx *ctx)
{
    const ss_event_log *log = ctx->log;
    ctx->site_frame = malloc(log->stack_count * sizeof *ctx->site_frame);
    ctx->via_frame = malloc(log->stack_count * sizeof *ctx->via_frame);
    ctx->compile_stack = malloc(log->stack_count * sizeof *ctx->compile_stack);
    if (!ctx->site_frame || !ctx->via_frame || !ctx->compile_stack)
        return -1;
    for (size_t i = 0; i < log->stack_count; i++) {
        ctx->site_frame[i] = -2;
        ctx->via_frame[i] = -1;
        ctx->compile_stack[i] = -1;
    }
    ctx->thread_count = 1;
    for (size_t i = 0; i < ctx->call_count; i++) {
        if (ctx->calls[i].ev->thread >= ctx->thread_count)
            ctx->thread_count = ctx->calls[i].ev->thread + 1;
    }
    ctx->started = malloc(ctx->thread_count * sizeof *ctx->started);
    if (ctx->started == NULL)
        return -1;
    for (uint32_t i = 0; i < ctx->thread_count; i++)
        ctx->started[i] = UINT32_MAX;
    return 0;
}

void det_sites_free(det_ctx *ctx)
{
    free(ctx->site_frame);
    free(ctx->via_frame);
    free(ctx->compile_stack);
    free(ctx->started);
    ss_map_free(&ctx->pairs);
    ss_map_free(&ctx->sited);
}

/* The kernel a launch call ran (its name's string id), 0 for any other call. */
static uint32_t launched_kernel(const det_ctx *ctx, const det_call *c)
{
    if (c->row != NULL && c->row->klass == SS_CLASS_LAUNCH && c->first_op != DET_NONE &&
        ctx->ops[c->first_op].ev->type == SS_EV_KERNEL)
        return ctx->ops[c->first_op].ev->u.gpu.name;
    return 0;
}

/* Indexes the first launch of each kernel by each thread that has a stack (det_ctx.sited).
 * Returns 0 or -1. */
static int index_sited_launches(det_ctx *ctx)
{
    for (size_t i = 0; i < ctx->call_count; i++) {
        const det_call *s = &ctx->calls[i];
        uint32_t k = launched_kernel(ctx, s);
        if (s->enclosed || s->ev->stack == 0 || k == 0)
            continue;
        if (ss_map_put_first(&ctx->sited, s->ev->thread, k, (uint32_t)i) == DET_NONE)
            return -1;
    }
    ctx->sited_built = 1;
    return 0;
}

uint32_t det_site_call(det_ctx *ctx, uint32_t call)
{
    const det_call *c = &ctx->calls[call];
    uint32_t kernel = launched_kernel(ctx, c);
    if (c->ev->stack != 0 || kernel == 0)
        return call;
    if (!ctx->sited_built && index_sited_launches(ctx) < 0)
        return DET_NONE;
    uint32_t found = ss_map_get(&ctx->sited, c->ev->thread, kernel);
    return found != DET_NONE ? found : call;
}

/* The call-site frame index of 'stack', -1 when none (chosen once, then cached). */
static int32_t site_frame(det_ctx *ctx, uint32_t stack)
{
    if (stack >= ctx->log->stack_count)
        return -1;
    if (ctx->site_frame[stack] == -2)
        ctx->site_frame[stack] =
            det_choose_site(ctx, &ctx->log->stacks[stack], &ctx->via_frame[stack]);
    return ctx->site_frame[stack];
}

/* The via frame index of 'stack' (site_frame computes it), -1 when none. */
static int32_t via_frame(det_ctx *ctx, uint32_t stack)
{
    if (site_frame(ctx, stack) < 0)
        return -1;
    return ctx->via_frame[stack];
}

/* Whether the site frame of 'stack' is the program's own code. */
static int site_is_user(det_ctx *ctx, uint32_t stack)
{
    int32_t frame = site_frame(ctx, stack);
    return frame >= 0 && det_frame_is_user(ctx, &ctx->log->stacks[stack].frames[frame]);
}

/* Hops from a thread to the thread that started it, to the one that started that, ... */
#define STARTER_HOPS 8

/* The stack of the line of the program's own code that started host thread 'thread': the stack
 * its starter had in pthread_create (metadata thread_start:N, "STARTER STACK"), else, when that
 * has no frame of the program's code, its starter's, and so on; 0 when none. */
static uint32_t started_stack(det_ctx *ctx, uint32_t thread)
{
    if (thread >= ctx->thread_count)
        return 0;
    if (ctx->started[thread] != UINT32_MAX)
        return ctx->started[thread];
    uint32_t found = 0, at = thread;
    for (int hops = 0; hops < STARTER_HOPS && found == 0; hops++) {
        char key[32];
        snprintf(key, sizeof key, "thread_start:%u", (unsigned)at);
        const char *value = ss_evlog_get_meta(ctx->log, key);
        unsigned by, stack;
        if (value == NULL || sscanf(value, "%u %u", &by, &stack) != 2)
            break;
        if (stack != 0 && stack < ctx->log->stack_count && site_is_user(ctx, stack))
            found = stack;
        at = by;
    }
    ctx->started[thread] = found;
    return found;
}

/* Where a finding about a call is: the site frame of the call's own stack, or, when that is no
 * frame of the program's own code (a framework's helper thread) and the thread was started
 * from a line of the program, that line; the call's own site is then the library line it went
 * through (its via). */
typedef struct call_site {
    uint32_t stack;     /* the stack of the site frame */
    int32_t frame;      /* the site frame, -1 none */
    uint32_t via_stack; /* the stack of the via frame */
    int32_t via;        /* the via frame, -1 none */
    int started;        /* 1: the site is the line that started the call's thread */
} call_site;

static call_site resolve_site(det_ctx *ctx, uint32_t call)
{
    uint32_t stack = ctx->calls[call].ev->stack;
    call_site r = {stack, site_frame(ctx, stack), stack, via_frame(ctx, stack), 0};
    if (site_is_user(ctx, stack))
        return r;
    uint32_t started = started_stack(ctx, ctx->calls[call].ev->thread);
    if (started == 0)
        return r;
    r.via = r.frame;
    r.stack = started;
    r.frame = site_frame(ctx, started);
    r.started = 1;
    return r;
}

const ss_stack_frame *det_call_site(det_ctx *ctx, uint32_t call)
{
    call_site r = resolve_site(ctx, call);
    return r.frame >= 0 ? &ctx->log->stacks[r.stack].frames[r.frame] : NULL;
}

const ss_stack_frame *det_call_via(det_ctx *ctx, uint32_t call)
{
    call_site r = resolve_site(ctx, call);
    return r.via >= 0 ? &ctx->log->stacks[r.via_stack].frames[r.via] : NULL;
}

/* The aggregation key of a frame: file and line when it has them, else its pc (one call site
 * of a binary without -g, however it was reached), else its function. 'kind' says which. */
static uint64_t frame_key(const ss_stack_frame *f, uint64_t *kind)
{
    if (f->file != 0 && f->line != 0) {
        *kind = 0;
        return (uint64_t)f->file << 32 | f->line;
    }
    if (f->pc != 0) {
        *kind = 1;
        return f->pc;
    }
    *kind = 3;
    return f->function;
}

uint32_t det_site_pair(det_ctx *ctx, uint32_t call)
{
    const det_call *c = &ctx->calls[call];
    call_site r = resolve_site(ctx, call);
    uint64_t kind, site;
    if (r.frame >= 0) {
        site = frame_key(&ctx->log->stacks[r.stack].frames[r.frame], &kind);
    } else if (r.stack != 0) {
        kind = 2;
        site = r.stack;
    } else {
        kind = 4;
        site = c->ev->name;
    }
    /* Occurrences at one call site that came through different library lines stay apart: each
     * names its own "via" frame (the line PyTorch's sync debug mode names). */
    uint64_t via_kind = 0, via_site = 0;
    if (r.via >= 0)
        via_site = frame_key(&ctx->log->stacks[r.via_stack].frames[r.via], &via_kind) ^
                   (via_kind + 1) << 60;
    uint32_t pair =
        ss_map_put_first(&ctx->pairs, site ^ kind << 61, via_site, (uint32_t)ctx->pair_count);
    if (pair != DET_NONE && pair == ctx->pair_count)
        ctx->pair_count++;
    return pair;
}

static char *string_or_null(const ss_event_log *log, uint32_t id)
{
    return id != 0 && id < log->string_count ? ss_xstrdup(log->strings[id]) : NULL;
}

/* The load address of native module 'module' in the observed process, from the trace's
 * metadata ("base:" + the module's path, written by the finisher). Returns 0 with '*base' set,
 * or -1 when the log does not say. */
static int module_base(const ss_event_log *log, const char *module, uint64_t *base)
{
    char key[4096];
    if (snprintf(key, sizeof key, "base:%s", module) >= (int)sizeof key)
        return -1;
    const char *value = ss_evlog_get_meta(log, key);
    if (value == NULL || strncmp(value, "0x", 2) != 0)
        return -1;
    char *end;
    unsigned long long v = strtoull(value + 2, &end, 16);
    if (*end != '\0' || end == value + 2)
        return -1;
    *base = (uint64_t)v;
    return 0;
}

/* Names the site frame 'sf' as the finding's file, line and function, or (a binary built
 * without -g) as a function at an offset in a module. */
static void locate_site(const ss_event_log *log, const ss_stack_frame *sf, ss_finding *f)
{
    f->file = string_or_null(log, sf->file);
    f->line = sf->line;
    f->function = string_or_null(log, sf->function);
    uint64_t base;
    if (f->file == NULL && !sf->python && sf->module != 0 && sf->pc != 0 &&
        module_base(log, log->strings[sf->module], &base) == 0 && sf->pc >= base) {
        f->module = string_or_null(log, sf->module);
        f->module_offset = sf->pc - base;
    }
}

/* Copies the frames of 's' into the finding, at most python_depth of its Python frames. */
static void copy_frames(const det_ctx *ctx, const ss_stack *s, ss_finding *f)
{
    const ss_event_log *log = ctx->log;
    f->frames = ss_xcalloc(s->depth, sizeof *f->frames);
    unsigned python = 0;
    for (uint32_t i = 0; i < s->depth; i++) {
        const ss_stack_frame *sf = &s->frames[i];
        if (sf->python && python++ >= ctx->opt->python_depth)
            continue;
        ss_frame *out = &f->frames[f->frame_count++];
        out->pc = sf->pc;
        out->function = string_or_null(log, sf->function);
        out->file = string_or_null(log, sf->file);
        out->line = sf->line;
        out->module = string_or_null(log, sf->module);
        out->is_python = sf->python != 0;
    }
}

/* The length of the C++ name at 'p' (up to "::", '(' or '<'). */
static size_t name_length(const char *p)
{
    size_t n = 0;
    while (p[n] != '\0' && p[n] != ':' && p[n] != '(' && p[n] != '<' && p[n] != ' ')
        n++;
    return n;
}

/* The PyTorch operation that the native frames of 's' name, as "the backward of aten::index ->
 * aten::nonzero" (an autograd node, torch::autograd::generated::IndexBackward0, and the
 * innermost operator, at::_ops::nonzero) or "aten::nonzero", written into 'out' ('size'
 * bytes); "" when they name none. */
static const char *operation_text(const det_ctx *ctx, const ss_stack *s, char *out, size_t size)
{
    static const char ops[] = "at::_ops::", node[] = "torch::autograd::generated::";
    const char *op = NULL, *backward = NULL;
    size_t op_len = 0, backward_len = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < s->depth; i++) {
        const ss_stack_frame *f = &s->frames[i];
        if (f->python || f->function == 0 || f->function >= ctx->log->string_count)
            continue;
        const char *fn = ctx->log->strings[f->function];
        const char *p = strstr(fn, ops);
        if (op == NULL && p != NULL && (op_len = name_length(p + sizeof ops - 1)) > 0)
            op = p + sizeof ops - 1;
        p = strstr(fn, node);
        if (backward == NULL && p != NULL) {
            p += sizeof node - 1;
            size_t n = name_length(p);
            while (n > 0 && p[n - 1] >= '0' && p[n - 1] <= '9')
                n--;
            if (n > 8 && strncmp(p + n - 8, "Backward", 8) == 0) {
                backward = p;
                backward_len = n - 8;
            }
        }
    }
    size_t at = 0;
    if (backward != NULL) {
        /* IndexBackward0 -> index, MaxPool2DWithIndicesBackward0 -> max_pool2d_with_indices. */
        at = (size_t)snprintf(out, size, "the backward of aten::");
        for (size_t i = 0; i < backward_len && at + 3 < size; i++) {
            char c = backward[i];
            if (c >= 'A' && c <= 'Z') {
                if (i > 0 && backward[i - 1] >= 'a' && backward[i - 1] <= 'z')
                    out[at++] = '_';
                c = (char)(c - 'A' + 'a');
            }
            out[at++] = c;
        }
        out[at] = '\0';
    }
    if (op != NULL && at + 1 < size)
        snprintf(out + at, size - at, "%saten::%.*s", at > 0 ? " -> " : "", (int)op_len, op);
    return out;
}

/* The Python function a thread runs: the outermost of the Python frames of 's' outside the
 * threading module (the DataLoader's pin-memory thread runs _pin_memory_loop), NULL when none. */
static const ss_stack_frame *runs_frame(const det_ctx *ctx, const ss_stack *s)
{
    const ss_stack_frame *runs = NULL;
    for (uint32_t i = 0; i < s->depth; i++) {
        const ss_stack_frame *fr = &s->frames[i];
        if (!fr->python || fr->file == 0 || fr->file >= ctx->log->string_count)
            continue;
        const char *file = ctx->log->strings[fr->file];
        const char *base = strrchr(file, '/');
        if (strcmp(base != NULL ? base + 1 : file, "threading.py") != 0)
            runs = fr;
    }
    return runs != NULL && runs->function != 0 && runs->function < ctx->log->string_count ? runs
                                                                                          : NULL;
}

/* How thread_role names a thread. */
enum thread_naming {
    ROLE_NAME,     /* "2 (pt_data_pin)": its number and name */
    ROLE_RUNS,     /* "2 (pt_data_pin, running _pin_memory_loop)" */
    ROLE_RUNS_FILE /* "2 (pt_data_pin), running _pin_memory_loop in FILE" */
};

/* The thread of 'call' as a finding names it ('how': enum thread_naming), the one place that
 * label is made: its number, its name (trace metadata thread_name:N) and with ROLE_RUNS and
 * ROLE_RUNS_FILE the Python function it runs. Malloc'ed. */
static char *thread_role(det_ctx *ctx, uint32_t call, enum thread_naming how)
{
    char key[32];
    uint32_t thread = ctx->calls[call].ev->thread;
    snprintf(key, sizeof key, "thread_name:%u", (unsigned)thread);
    const char *name = ss_evlog_get_meta(ctx->log, key);
    uint32_t stack = ctx->calls[call].ev->stack;
    const ss_stack_frame *runs = how != ROLE_NAME && stack < ctx->log->stack_count
                                     ? runs_frame(ctx, &ctx->log->stacks[stack])
                                     : NULL;
    const char *function = runs != NULL ? ctx->log->strings[runs->function] : NULL;
    if (how == ROLE_RUNS_FILE)
        return ss_xasprintf("%u%s%s%s%s%s%s%s", (unsigned)thread, name != NULL ? " (" : "",
                            name != NULL ? name : "", name != NULL ? ")" : "",
                            function != NULL ? ", running " : "", function != NULL ? function : "",
                            function != NULL ? " in " : "",
                            function != NULL ? ctx->log->strings[runs->file] : "");
    int paren = name != NULL || function != NULL;
    return ss_xasprintf("%u%s%s%s%s%s%s", (unsigned)thread, paren ? " (" : "",
                        name != NULL ? name : "", name != NULL && function != NULL ? ", " : "",
                        function != NULL ? "running " : "", function != NULL ? function : "",
                        paren ? ")" : "");
}

/* Names, in the extra figures of 'f', the thread a call was made on when its site is a frame of
 * another thread (a Python thread that waited while a thread without Python frames worked:
 * docs/run.md, "Work of other threads"), and the operation the call's native frames name. */
static void name_other_thread(det_ctx *ctx, uint32_t call, const ss_stack *s, ss_finding *f)
{
    char operation[512];
    char *role = thread_role(ctx, call, ROLE_NAME);
    char *text = ss_xasprintf("%s, which runs no Python code: the line is where the program's "
                              "Python thread waited meanwhile",
                              role);
    free(role);
    ss_finding_add_extra(f, "thread", text);
    free(text);
    if (operation_text(ctx, s, operation, sizeof operation)[0] != '\0')
        ss_finding_add_extra(f, "operation", operation);
}

/* The function through which the stack of 'call' ends the process (the interpreter's
 * finalization, the C library's exit handlers, a module's destructors at exit), innermost
 * first; NULL when it goes through none. */
static const char *exit_path(const det_ctx *ctx, uint32_t call)
{
    static const char *const exits[] = {"Py_FinalizeEx",       "Py_Finalize",    "Py_Exit",
                                        "__run_exit_handlers", "exit",           "_dl_fini",
                                        "__cxa_finalize",      "__libc_csu_fini"};
    uint32_t stack = ctx->calls[call].ev->stack;
    if (stack == 0 || stack >= ctx->log->stack_count)
        return NULL;
    const ss_stack *s = &ctx->log->stacks[stack];
    for (uint32_t i = 0; i < s->depth; i++) {
        const ss_stack_frame *fr = &s->frames[i];
        if (fr->python || fr->function == 0 || fr->function >= ctx->log->string_count)
            continue;
        const char *function = ctx->log->strings[fr->function];
        size_t len = strcspn(function, "(");
        for (size_t k = 0; k < sizeof exits / sizeof exits[0]; k++) {
            if (strlen(exits[k]) == len && strncmp(function, exits[k], len) == 0)
                return exits[k];
        }
    }
    return NULL;
}

/* Whether the finding of 'call' is at a line of the program's own code. */
static int at_user_line(det_ctx *ctx, const call_site *r)
{
    return r->frame >= 0 && det_frame_is_user(ctx, &ctx->log->stacks[r->stack].frames[r->frame]);
}

/* A site note: "made on thread 2 (pt_autograd_0)", then 'what', then ", in " 'operation'
 * unless that is "". Malloc'ed. */
static char *made_on(det_ctx *ctx, uint32_t call, enum thread_naming how, const char *what,
                     const char *operation)
{
    char *role = thread_role(ctx, call, how);
    char *note = ss_xasprintf("made on thread %s%s%s%s", role, what,
                              operation[0] != '\0' ? ", in " : "", operation);
    free(role);
    return note;
}

char *det_site_note(det_ctx *ctx, uint32_t call)
{
    const ss_event_log *log = ctx->log;
    call_site r = resolve_site(ctx, call);
    if (r.started)
        return made_on(ctx, call, ROLE_RUNS, ", which this line started", "");
    if (!at_user_line(ctx, &r)) {
        const char *exit = exit_path(ctx, call);
        return exit != NULL ? ss_xasprintf("in the context teardown at exit (%s), after the "
                                           "program's last line",
                                           exit)
                            : NULL;
    }
    if (log->stacks[r.stack].frames[r.frame].python != SS_FRAME_OTHER_THREAD)
        return NULL;
    char operation[512];
    return made_on(ctx, call, ROLE_NAME, " while this line waited",
                   operation_text(ctx, &log->stacks[r.stack], operation, sizeof operation));
}

/* Names, in the extra figures of 'f', the thread of a call whose Python frames are all a
 * library's (a framework's helper thread: the DataLoader's pin-memory thread runs
 * torch/utils/data/_utils/pin_memory.py): its number, its name and the function it runs, the
 * outermost of its Python frames outside the threading module; and, when the line that started
 * it is the finding's, which thread started it. */
static void name_helper_thread(det_ctx *ctx, uint32_t call, const call_site *r, ss_finding *f)
{
    char *role = thread_role(ctx, call, ROLE_RUNS_FILE);
    char *text;
    if (r->started) {
        char key[32];
        snprintf(key, sizeof key, "thread_start:%u", (unsigned)ctx->calls[call].ev->thread);
        const char *value = ss_evlog_get_meta(ctx->log, key);
        unsigned by = 0;
        if (value == NULL || sscanf(value, "%u", &by) != 1)
            by = 0;
        text = ss_xasprintf("%s: started at this line (by thread %u)", role, by);
    } else {
        text = ss_xasprintf("%s: no frame of the program's own code", role);
    }
    ss_finding_add_extra(f, "thread", text);
    free(text);
    free(role);
}

/* The phase of the run a call without any frame was made in, which its finding names in place
 * of a place: before the program's first repeated GPU work, after the last GPU operation ended
 * (context teardown at exit), or in between. */
static const char *phase_of(const det_ctx *ctx, uint32_t call)
{
    uint64_t at = ctx->calls[call].ev->enter_ns;
    if (ctx->steady_ns != 0 && at < ctx->steady_ns)
        return "startup, before the first repeated GPU work (no call stack was recorded)";
    uint64_t last_end = 0;
    if (ctx->op_count > 0)
        last_end = ss_event_end_ns(ctx->ops[ctx->ops_by_end[ctx->op_count - 1]].ev);
    if (last_end != 0 && at > last_end)
        return "teardown at exit, after the last GPU operation ended (no call stack was recorded)";
    return "during the run (no call stack was recorded)";
}

void det_site_locate(det_ctx *ctx, uint32_t call, ss_finding *f)
{
    const ss_event_log *log = ctx->log;
    call_site r = resolve_site(ctx, call);
    const ss_stack_frame *site = r.frame >= 0 ? &log->stacks[r.stack].frames[r.frame] : NULL;
    if (site != NULL)
        locate_site(log, site, f);
    uint32_t stack = ctx->calls[call].ev->stack;
    int32_t own = site_frame(ctx, stack);
    const ss_stack_frame *own_site = own >= 0 ? &log->stacks[stack].frames[own] : NULL;
    if (site != NULL && site->python == SS_FRAME_OTHER_THREAD)
        name_other_thread(ctx, call, &log->stacks[stack], f);
    else if (own_site != NULL && own_site->python && !det_frame_is_user(ctx, own_site))
        name_helper_thread(ctx, call, &r, f);
    else if (r.started) {
        char *role = thread_role(ctx, call, ROLE_RUNS_FILE);
        char *text =
            ss_xasprintf("%s: no frame of the program's own code; started at this line", role);
        ss_finding_add_extra(f, "thread", text);
        free(text);
        free(role);
    }
    const char *exit = !at_user_line(ctx, &r) ? exit_path(ctx, call) : NULL;
    if (exit != NULL) {
        char *text = ss_xasprintf("context teardown at exit: made in %s, after the program's last "
                                  "line, with no frame of the program's own code",
                                  exit);
        ss_finding_add_extra(f, "phase", text);
        free(text);
    } else if (site == NULL) {
        ss_finding_add_extra(f, "phase", phase_of(ctx, call));
    }
    if (r.via >= 0) {
        const ss_stack_frame *vf = &log->stacks[r.via_stack].frames[r.via];
        f->via_file = string_or_null(log, vf->file);
        f->via_line = vf->file != 0 ? vf->line : 0;
        f->via_function = string_or_null(log, vf->function);
    }
    const ss_stack *s = stack < log->stack_count ? &log->stacks[stack] : &log->stacks[0];
    if (s->depth > 0)
        copy_frames(ctx, s, f);
}
