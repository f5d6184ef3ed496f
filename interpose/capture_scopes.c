/* capture_scopes.c: scope marks (docs/run.md, "Scopes"): the ranges of NVTX (capture_nvtx.c),
 * of the CUDA profiler API (cudaProfilerStart/Stop) and of the program's own syncscope.scope(),
 * recorded as events of the calling thread, with their names in the range-name table. */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <errno.h>
#include <string.h>

#include "capture_int.h"

/* Appends a scope mark to the thread's buffer: bounded and allocation-free, as every event. */
static void record_mark(thread_state *t, uint8_t kind, uint8_t source, uint64_t id, uint32_t name)
{
    uint64_t when = capture_now_ns();
    ss_event *e = ss_evbuf_reserve(&t->store->events, &proc.store.budget);
    if (e == NULL)
        return;
    ss_ev_scope *m = &e->u.scope;
    m->time_ns = when;
    m->id = id;
    m->thread = t->store->index;
    m->name = name;
    m->kind = kind;
    m->source = source;
    e->type = SS_EV_SCOPE;
}

/* Keys of the range-name table: a text's FNV-1a hash with the top bit set. An NVTX string
 * registered with syncscope gets its text's key as its handle (nvtx_register_a). */
#define NAME_KEY_TEXT (1ull << 63)

uint64_t capture_text_key(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; text[i] != '\0' && i < SS_NAME_TEXT_MAX; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    return h | NAME_KEY_TEXT;
}

/* The range-name table's id of a range name at 'key' ('text' copied the first time; NULL:
 * only look it up), 0 when unknown or the table is full. A thread's recent names are found
 * without the lock; a new one takes it once, to be copied. The lock is the table's own, apart
 * from the activity records' (a callback never waits for a buffer being converted). */
static uint32_t range_name(thread_state *t, uint64_t key, const char *text)
{
    size_t slot = (size_t)(key ^ key >> 29 ^ key >> 47) & (NAME_CACHE_SLOTS - 1);
    if (t->name_keys[slot] == key && t->name_ids[slot] != 0)
        return t->name_ids[slot];
    pthread_mutex_lock(&proc.scopes.ranges_lock);
    uint32_t id = ss_name_intern(&proc.store.ranges, &proc.store.budget, key, text);
    pthread_mutex_unlock(&proc.scopes.ranges_lock);
    if (id != 0) {
        t->name_keys[slot] = key;
        t->name_ids[slot] = id;
    }
    return id;
}

static uint32_t text_name(thread_state *t, const char *text)
{
    return text != NULL ? range_name(t, capture_text_key(text), text) : 0;
}

/* A wide-character NVTX message, its ASCII characters kept and the others as '?'. */
static uint32_t wide_name(thread_state *t, const wchar_t *text)
{
    char narrow[256];
    size_t n = 0;
    if (text == NULL)
        return 0;
    for (; text[n] != 0 && n < sizeof narrow - 1; n++)
        narrow[n] = text[n] > 0 && text[n] < 0x7f ? (char)text[n] : '?';
    narrow[n] = '\0';
    return text_name(t, narrow);
}

/* The name of an NVTX event's attributes: its ASCII, wide or registered message. */
static uint32_t attribute_name(thread_state *t, const nvtxEventAttributes_t *attributes)
{
    if (attributes == NULL ||
        attributes->size < offsetof(nvtxEventAttributes_t, message) + sizeof attributes->message)
        return 0;
    switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return text_name(t, attributes->message.ascii);
    case NVTX_MESSAGE_TYPE_UNICODE:
        return wide_name(t, attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED: {
        uint64_t key = (uint64_t)(uintptr_t)attributes->message.registered;
        return (key & NAME_KEY_TEXT) != 0 ? range_name(t, key, NULL) : 0;
    }
    default:
        return 0;
    }
}

/* Records a scope mark of 'kind' from 'source' (NVTX or the program's syncscope.scope()) on
 * the calling thread, or, MARK_REGISTER, only copies the text: allocation-free and lock-free
 * once the name was seen on this thread. Keeps errno. Returns 1 when the thread could record
 * it, 0 when the process is not observed or the thread is inside syncscope. */
int capture_scope_mark(uint8_t kind, uint8_t source, uint64_t id, enum mark_name_form form,
                       const void *what)
{
    if (!atomic_load_explicit(&proc.active, memory_order_relaxed))
        return 0;
    int saved_errno = errno;
    int recorded = 0;
    thread_state *t = capture_thread_get();
    if (t != NULL && !t->busy) {
        t->busy = 1;
        uint32_t name = 0;
        switch (form) {
        case MARK_ASCII:
            name = text_name(t, what);
            break;
        case MARK_WIDE:
            name = wide_name(t, what);
            break;
        case MARK_ATTRIBUTES:
            name = attribute_name(t, what);
            break;
        case MARK_REGISTER:
            text_name(t, what);
            break;
        case MARK_UNNAMED:
            break;
        }
        if (form != MARK_REGISTER)
            record_mark(t, kind, source, id, name);
        t->busy = 0;
        recorded = 1;
    }
    errno = saved_errno;
    return recorded;
}

/* cudaProfilerStart/Stop and cuProfilerStart/Stop (the CUDA profiler API, which
 * --profile-from-start off scopes by): a start counts from its return, a stop from its call;
 * the driver call that a runtime call makes is not a second mark. */
void capture_on_profiler(CUpti_CallbackDomain domain, int start, const CUpti_CallbackData *cb)
{
    if (!atomic_load_explicit(&proc.active, memory_order_relaxed))
        return;
    thread_state *t = capture_thread_get();
    if (t == NULL || t->busy)
        return;
    int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    if (!runtime && t->in_profiler_call)
        return;
    if (runtime)
        t->in_profiler_call = enter;
    if (enter == start)
        return; /* a start is marked at its exit, a stop at its entry */
    t->busy = 1;
    record_mark(t, start ? SS_SCOPE_PROFILER_START : SS_SCOPE_PROFILER_STOP, SS_SCOPE_FROM_NVTX, 0,
                0);
    t->busy = 0;
}

/* The profiler API callbacks, checked by name like the argument table's. */
static const struct profiler_callback {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    const char *name;
} profiler_callbacks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
     "cudaProfilerStart_v4000"},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
     "cudaProfilerStop_v4000"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, "cuProfilerStart"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, "cuProfilerStop"},
};

/* Subscribes to the profiler API's scope marks (NVTX's come through
 * InitializeInjectionNvtx2), or 'on' 0 unsubscribes. A callback CUPTI refuses only loses its
 * marks. */
void capture_set_scope_callbacks(int on)
{
    for (size_t i = 0; i < sizeof profiler_callbacks / sizeof profiler_callbacks[0]; i++) {
        const struct profiler_callback *c = &profiler_callbacks[i];
        const char *name = NULL;
        if (!capture_probe_skips_domain(c->domain) &&
            proc.cupti.fn.cuptiGetCallbackName(c->domain, c->cbid, &name) == CUPTI_SUCCESS &&
            name != NULL && strcmp(name, c->name) == 0)
            proc.cupti.fn.cuptiEnableCallback(on != 0, proc.cupti.subscriber, c->domain, c->cbid);
    }
}

/* syncscope.scope() (python/syncscope): opens a range named 'name' (NULL: "syncscope") for the
 * whole process. While a program has such ranges, only what it does inside them is reported
 * (docs/run.md, "Scopes"). Returns the range's id for syncscope_scope_end, or 0 when the
 * process is not observed. */
SS_EXPORT uint64_t syncscope_scope_begin(const char *name)
{
    if (!atomic_load_explicit(&proc.active, memory_order_relaxed))
        return 0;
    uint64_t id = atomic_fetch_add_explicit(&proc.scopes.scope_ids, 1, memory_order_relaxed) + 1;
    return capture_scope_mark(SS_SCOPE_START, SS_SCOPE_FROM_PROGRAM, id, MARK_ASCII,
                              name != NULL && name[0] != '\0' ? name : "syncscope")
               ? id
               : 0;
}

/* Closes the range 'id' that syncscope_scope_begin opened (0: nothing). */
SS_EXPORT void syncscope_scope_end(uint64_t id)
{
    if (id != 0)
        capture_scope_mark(SS_SCOPE_END, SS_SCOPE_FROM_PROGRAM, id, MARK_UNNAMED, NULL);
}
