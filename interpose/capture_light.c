/* capture_light.c: the light mode's questions to the program's driver (docs/run.md, "Modes"):
 * which streams had work pending at the entry of a call that may wait and which finished by
 * its exit (cuStreamQuery over the streams that live), and the host memory kinds of a copy
 * (cuPointerGetAttributes). Lock-free and allocation-free: they run inside the calls. */
#include <sched.h>
#include <string.h>

#include "capture_int.h"
#include "pointers.h"

/* Remembers a created stream, in the slot of a destroyed one when its probe sequence has
 * one: the table holds the streams that live, however many were made over the run. When
 * LIVE_STREAM_SLOTS streams live at once, device-wide calls are no longer probed (a stream
 * the table lacks may hold work): they are judged by their time. */
static void live_stream_add(uint64_t handle)
{
    int added = capture_handle_add_reusing(proc.probe.live_streams, LIVE_STREAM_SLOTS, handle);
    if (added < 0)
        atomic_store_explicit(&proc.probe.live_streams_off, 1, memory_order_relaxed);
    else if (added > 0)
        atomic_fetch_add(&proc.probe.live_count, 1);
}

/* Forgets a stream at the start of its destruction, before the driver frees it. */
static void live_stream_remove(uint64_t handle)
{
    if (capture_handle_forget(proc.probe.live_streams, LIVE_STREAM_SLOTS, handle))
        atomic_fetch_sub(&proc.probe.live_count, 1);
}

/* The driver's answer about 'stream' (cuStreamQuery), counted for SYNCSCOPE_TIMING. */
static CUresult ask_stream(thread_state *t, stream_query_fn query, CUstream stream)
{
    t->store->timed_questions++;
    return query(stream);
}

/* Asks the driver about the stream in slot 'slot' of the live streams, if it still holds
 * 'handle': the slot is pinned meanwhile, and a destruction that forgot the stream waits for
 * the pin to go (capture_stream_destroying), so the handle is never freed under the question.
 * Sequentially consistent pin and load against the destruction's forget and pin count: one
 * sees the other. Returns the driver's answer, or CUDA_ERROR_INVALID_HANDLE for a stream that
 * is being destroyed. */
static CUresult query_listed(thread_state *t, stream_query_fn query, size_t slot, uint64_t handle)
{
    CUresult answer = CUDA_ERROR_INVALID_HANDLE;
    atomic_fetch_add(&proc.probe.live_pins[slot], 1);
    if (atomic_load(&proc.probe.live_streams[slot]) == handle)
        answer = ask_stream(t, query, (CUstream)(uintptr_t)handle);
    atomic_fetch_sub(&proc.probe.live_pins[slot], 1);
    return answer;
}

/* Forgets every stream: a context is being destroyed, and its streams with it (another
 * context's streams are forgotten too, so device-wide calls no longer ask about them). */
static void live_streams_clear(void)
{
    for (size_t i = 0; i < LIVE_STREAM_SLOTS; i++) {
        if (atomic_exchange(&proc.probe.live_streams[i], 0) > SS_STREAM_PER_THREAD)
            atomic_fetch_sub(&proc.probe.live_count, 1);
    }
}

/* The stream a call's handle names, for cuStreamQuery: the legacy or the per-thread default
 * stream for the special handles, as the call's variant reads 0. */
static CUstream query_handle(uint64_t handle, int per_thread)
{
    if (handle == SS_STREAM_LEGACY_NULL)
        return per_thread ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
    if (handle == SS_STREAM_LEGACY)
        return CU_STREAM_LEGACY;
    if (handle == SS_STREAM_PER_THREAD)
        return CU_STREAM_PER_THREAD;
    return (CUstream)(uintptr_t)handle;
}

/* Asks the driver about every live stream after the 'n' streams already in t->probed (the
 * default streams) and sets t->probed_count; none, the call not probed, when more than
 * PROBE_STREAMS_MAX streams are found (streams made since they were counted). */
static void probe_live_streams(thread_state *t, stream_query_fn query, uint32_t n)
{
    for (size_t i = 0; i < LIVE_STREAM_SLOTS; i++) {
        uint64_t h = atomic_load_explicit(&proc.probe.live_streams[i], memory_order_acquire);
        if (h <= SS_STREAM_PER_THREAD)
            continue;
        if (n == PROBE_STREAMS_MAX) {
            t->probed_pending = 0;
            return;
        }
        t->probed_listed |= 1u << n;
        t->probed_slot[n] = (uint16_t)i;
        t->probed[n] = (CUstream)(uintptr_t)h;
        if (query_listed(t, query, i, h) == CUDA_ERROR_NOT_READY)
            t->probed_pending |= 1u << n;
        n++;
    }
    t->probed_count = n;
}

/* The entry of a device-wide call (or a synchronization of the legacy stream): the default
 * stream and every live stream, or none: a call asked about some streams only would look as
 * if it waited for nothing. With more streams than PROBE_STREAMS_MAX, none is asked (counted
 * first, proc.probe.live_count: nothing is asked in vain); with none, the slots are not
 * looked at. A synchronization of the legacy stream or of the device
 * whose legacy stream has work pending asks no other stream: the legacy stream's answer at the
 * exit decides, as it would first among all (capture_probe_exit). */
static void probe_device_wide(thread_state *t, const ss_api *row, stream_query_fn query,
                              int per_thread)
{
    if (atomic_load_explicit(&proc.probe.live_streams_off, memory_order_relaxed))
        return;
    uint32_t n = 0;
    t->probed[n++] = CU_STREAM_LEGACY;
    if (per_thread)
        t->probed[n++] = CU_STREAM_PER_THREAD;
    uint32_t live = atomic_load(&proc.probe.live_count);
    if (n + live > PROBE_STREAMS_MAX)
        return;
    for (uint32_t i = 0; i < n; i++) {
        if (ask_stream(t, query, t->probed[i]) == CUDA_ERROR_NOT_READY)
            t->probed_pending |= 1u << i;
    }
    if ((t->probed_pending & 1u) &&
        (row->klass == SS_CLASS_STREAM_SYNC || row->klass == SS_CLASS_DEVICE_SYNC)) {
        t->probed_count = n;
        t->probed_deferred = 1;
        return;
    }
    if (live == 0) {
        t->probed_count = n; /* a stream made meanwhile is as one made after the call */
        return;
    }
    probe_live_streams(t, query, n);
}

/* Whether a call on stream handle 'stream' (its variant 'per_thread') names a per-thread
 * default stream, whose handle means another stream on another device. */
static int per_thread_default(uint64_t stream, int per_thread)
{
    return stream == SS_STREAM_PER_THREAD || (stream == SS_STREAM_LEGACY_NULL && per_thread);
}

/* Whether call 'a' of 'spec' (row 'row'), made right after a readback of its thread that found
 * its stream idle (t->idle_readback), synchronizes that stream: the same handle, of the same
 * variant, not a per-thread default stream. The detectors take such a synchronization as the
 * readback's (det_join_sync, det_latent_sync: the copy's own transfer alone was left to wait
 * for), and what the probe would say of it changes no finding: waited or not, it is claimed as
 * the readback's latent synchronization, never a SYNC401 of its own (docs/run.md, "Modes"). */
static int readback_own_sync(const thread_state *t, const ss_args_spec *spec, const ss_api *row,
                             const ss_ev_api *a)
{
    return row->klass == SS_CLASS_STREAM_SYNC && row->sync == SS_SYNC_EXPLICIT &&
           a->stream == t->idle_readback_stream &&
           spec->per_thread == t->idle_readback_per_thread &&
           !atomic_load_explicit(&proc.sampling.window_calls, memory_order_relaxed);
}

void capture_light_note_readback(thread_state *t, const ss_args_spec *spec, const ss_ev_api *a)
{
    const ss_api *row = &proc.api_rows[spec->api];
    /* det_is_readback: a device-to-host copy (by its API, or a runtime call's cudaMemcpyKind 2)
     * of at most readback_max_bytes; det_latent_sync: an asynchronous one that succeeded. */
    int to_host = row->dir == SS_DIR_D2H ||
                  (row->dir == SS_DIR_KIND && a->domain == SS_DOMAIN_RUNTIME && a->copy_kind == 2);
    /* The copy is its thread's last call: no recorded call entered during it, whose exit
     * would come first (the detectors' next call is by entry). */
    t->idle_readback = t->last_entered == a && row->klass == SS_CLASS_COPY &&
                       row->sync == SS_SYNC_PAGEABLE && to_host && a->bytes != 0 &&
                       a->bytes <= proc.probe.readback_max_bytes && a->result == 0 &&
                       (a->flags & SS_API_PROBED) && !(a->flags & SS_API_PENDING) &&
                       !per_thread_default(a->stream, spec->per_thread) &&
                       !atomic_load_explicit(&proc.sampling.window_calls, memory_order_relaxed);
    t->idle_readback_stream = a->stream;
    t->idle_readback_per_thread = spec->per_thread;
}

/* At the entry of a call that may wait, in the light mode: asks the driver which streams the
 * call may wait for have work pending (cuStreamQuery, no allocation, no lock): the stream a
 * stream synchronization or an asynchronous copy names, else (a device-wide call, a
 * synchronous copy, a synchronization of the legacy stream) the default stream and every live
 * stream (probe_device_wide). Sets t->probed_count to 0 when the call is not probed: an event
 * synchronization (its event is not taken), a synchronization of the stream of
 * a readback its thread made right before that found it idle (readback_own_sync), or a
 * device-wide call while more than PROBE_STREAMS_MAX streams live or some may not be known
 * (live_streams_off). */
void capture_probe_enter(thread_state *t, const ss_args_spec *spec, const ss_ev_api *a)
{
    t->probed_count = 0;
    t->probed_pending = 0;
    t->probed_listed = 0;
    t->probed_idle = 0;
    t->probed_deferred = 0;
    int after_idle_readback = t->idle_readback;
    t->idle_readback = 0;
    t->last_entered = a;
    t->readback_sync = 0;
    stream_query_fn query = atomic_load_explicit(&proc.probe.stream_query, memory_order_acquire);
    const ss_api *row = &proc.api_rows[spec->api];
    if (row->klass == SS_CLASS_EVENT_SYNC || row->klass == SS_CLASS_QUERY ||
        (row->sync == SS_SYNC_NEVER && row->klass != SS_CLASS_COPY &&
         row->klass != SS_CLASS_MEMSET))
        return;
    if (after_idle_readback && readback_own_sync(t, spec, row, a)) {
        t->readback_sync = 1;
        return;
    }
    /* The process's first CUDA call creates its context inside the call: no work of its own
     * can be pending at its entry (the driver cannot be asked yet). */
    if (query == NULL) {
        t->probed_idle = !atomic_load_explicit(&proc.probe.context_seen, memory_order_acquire);
        return;
    }
    int one_stream =
        spec->stream.size != 0 && !(row->klass == SS_CLASS_STREAM_SYNC &&
                                    (a->stream == SS_STREAM_LEGACY ||
                                     (a->stream == SS_STREAM_LEGACY_NULL && !spec->per_thread)));
    if (!one_stream) {
        probe_device_wide(t, row, query, spec->per_thread);
        return;
    }
    t->probed[0] = query_handle(a->stream, spec->per_thread);
    if (ask_stream(t, query, t->probed[0]) == CUDA_ERROR_NOT_READY)
        t->probed_pending = 1;
    t->probed_count = 1;
}

/* Forgets the probe of the thread's call. */
static void probe_reset(thread_state *t)
{
    t->probed_count = 0;
    t->probed_deferred = 0;
}

/* At the exit of a probed call that was held 'held_ns' (from its recorded entry to its exit):
 * SS_API_PROBED, with SS_API_WAITED when work that was pending at its entry is complete now
 * (what the call waited for, as the full mode's GPU records show it) and SS_API_PENDING when
 * some was pending at its entry; 0 when the call was not probed. A call held less than the
 * run's min_blocked_ns (proc.probe.exit_min_ns) is not asked at its exit: no light rule judges
 * whether so short a call waited (the detectors judge it by its time: trace metadata
 * probe_exit_min_ns), and a readback's cuStreamQuery at its exit is most of what its probe
 * costs. A stream of the live streams' table that another thread destroyed during the call (no
 * longer in the table) is not asked again: its handle may be freed (query_listed). A
 * synchronization whose live streams were not asked (probe_device_wide) and whose legacy
 * stream is still busy (work another thread queued meanwhile) is as one not probed: what the
 * others had pending at its entry is not known. */
uint32_t capture_probe_exit(thread_state *t, uint64_t held_ns)
{
    stream_query_fn query = atomic_load_explicit(&proc.probe.stream_query, memory_order_acquire);
    if (t->probed_idle) {
        t->probed_idle = 0;
        return SS_API_PROBED;
    }
    if (t->probed_count == 0 || query == NULL)
        return 0;
    uint32_t word = SS_API_PROBED;
    int short_call = held_ns < proc.probe.exit_min_ns;
    for (uint32_t i = 0; i < t->probed_count && !short_call; i++) {
        if (!(t->probed_pending & 1u << i))
            continue;
        CUresult answer =
            (t->probed_listed & 1u << i)
                ? query_listed(t, query, t->probed_slot[i], (uint64_t)(uintptr_t)t->probed[i])
                : ask_stream(t, query, t->probed[i]);
        if (answer == CUDA_SUCCESS) {
            word |= SS_API_WAITED;
            break;
        }
    }
    if (t->probed_deferred && !(word & SS_API_WAITED))
        word = 0;
    probe_reset(t);
    /* Whether work was pending at the entry: a copy that found its stream idle leaves the
     * synchronization after it its own transfer alone to wait for (det_join_sync). */
    if (word != 0 && t->probed_pending != 0)
        word |= SS_API_PENDING;
    return word;
}

/* The light mode's resource callbacks: a stream created (any, also a library's own), a stream
 * about to be destroyed, a context about to be destroyed (its streams with it). */
void capture_on_stream_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
    if (rd == NULL)
        return;
    uint64_t stream = (uint64_t)(uintptr_t)rd->resourceHandle.stream;
    if (cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED && stream > SS_STREAM_PER_THREAD)
        live_stream_add(stream);
    else if (cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING)
        live_stream_remove(stream);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        live_streams_clear();
}

/* The API callbacks of a stream's destruction, taken in the light mode: at their entry, before
 * the driver acts on it, the handle is still valid. */
static const struct {
    CUpti_CallbackDomain domain;
    CUpti_CallbackId cbid;
    const char *name;
} destroy_callbacks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020,
     "cudaStreamDestroy_v3020"},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050,
     "cudaStreamDestroy_v5050"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy, "cuStreamDestroy"},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2, "cuStreamDestroy_v2"},
};

int capture_stream_destroying(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const CUpti_CallbackData *cb)
{
    size_t i = 0, count = sizeof destroy_callbacks / sizeof destroy_callbacks[0];
    while (i < count &&
           !(destroy_callbacks[i].cbid == cbid && destroy_callbacks[i].domain == domain))
        i++;
    if (i == count)
        return 0;
    if (cb == NULL || cb->callbackSite != CUPTI_API_ENTER || cb->functionParams == NULL)
        return 1;
    /* Every variant's parameters are the stream alone (cudaStream_t or CUstream). */
    uint64_t handle;
    memcpy(&handle, cb->functionParams, sizeof handle);
    long slot = capture_handle_find(proc.probe.live_streams, LIVE_STREAM_SLOTS, handle);
    if (handle <= SS_STREAM_PER_THREAD || slot < 0)
        return 1;
    uint64_t seen = handle;
    if (atomic_compare_exchange_strong(&proc.probe.live_streams[slot], &seen, (uint64_t)1))
        atomic_fetch_sub(&proc.probe.live_count, 1);
    /* The probes that pinned the slot before the forget finish one cuStreamQuery each. */
    for (unsigned spins = 0; atomic_load(&proc.probe.live_pins[slot]) != 0; spins++) {
        if (spins > 64)
            sched_yield();
    }
    return 1;
}

/* The memory kind (ss_mem_kind) of 'pointer' as the driver knows it: pinned (page-locked or
 * registered host memory), device, array or managed memory, and pageable for an address the
 * driver does not know; unknown for NULL or when the driver cannot be asked. One driver call,
 * allocation-free (cuPointerGetAttributes answers for any address, without an error). */
static uint8_t memory_kind_of(uint64_t pointer)
{
    pointer_attributes_fn ask =
        atomic_load_explicit(&proc.probe.pointer_attributes, memory_order_acquire);
    if (pointer == 0 || ask == NULL)
        return SS_MEM_UNKNOWN;
    CUpointer_attribute attributes[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                         CU_POINTER_ATTRIBUTE_IS_MANAGED};
    uint64_t type = 0, managed = 0; /* wider than either answer, which is written at the start */
    void *data[2] = {&type, &managed};
    if (ask(2, attributes, data, (CUdeviceptr)pointer) != CUDA_SUCCESS)
        return SS_MEM_UNKNOWN;
    if ((uint32_t)managed != 0)
        return SS_MEM_MANAGED;
    switch ((uint32_t)type) {
    case 0:
        return SS_MEM_PAGEABLE;
    case CU_MEMORYTYPE_HOST:
        return SS_MEM_PINNED;
    case CU_MEMORYTYPE_DEVICE:
        return SS_MEM_DEVICE;
    case CU_MEMORYTYPE_ARRAY:
        return SS_MEM_ARRAY;
    default:
        return SS_MEM_UNKNOWN;
    }
}

/* Remembers the allocation [base, base + bytes) in a free slot of 'table' (one being written
 * holds 1, so that no reader pairs its base with another's end); when every slot is taken it
 * is not remembered, and the driver is asked about it. */
static void range_add(capture_ranges *table, uint64_t base, uint64_t bytes)
{
    if (base <= 1 || bytes == 0 || base + bytes < base)
        return;
    for (uint32_t i = 0; i < DEVICE_RANGE_SLOTS; i++) {
        uint64_t empty = 0;
        if (!atomic_compare_exchange_strong(&table->base[i], &empty, (uint64_t)1))
            continue;
        atomic_store(&table->end[i], base + bytes);
        atomic_store(&table->base[i], base);
        uint32_t used = atomic_load(&table->used);
        while (used < i + 1 && !atomic_compare_exchange_weak(&table->used, &used, i + 1)) {
        }
        return;
    }
}

/* Forgets the allocation at 'base' of 'table', at the entry of its free. */
static void range_remove(capture_ranges *table, uint64_t base)
{
    uint32_t used = atomic_load(&table->used);
    for (uint32_t i = 0; i < used && base > 1; i++) {
        uint64_t seen = base;
        if (atomic_compare_exchange_strong(&table->base[i], &seen, (uint64_t)1)) {
            atomic_store(&table->end[i], 0);
            atomic_store(&table->base[i], 0);
            return;
        }
    }
}

/* Whether 'pointer' lies in the allocation of slot 'i' of 'table'. */
static int slot_has(capture_ranges *table, uint32_t i, uint64_t pointer)
{
    uint64_t base = atomic_load_explicit(&table->base[i], memory_order_acquire);
    if (base <= 1 || pointer < base)
        return 0;
    uint64_t end = atomic_load_explicit(&table->end[i], memory_order_acquire);
    return pointer < end && atomic_load_explicit(&table->base[i], memory_order_acquire) == base;
}

/* Whether 'pointer' lies in the allocation of 'table' at slot '*hint', where the thread found
 * one last time. */
static int hinted(capture_ranges *table, uint64_t pointer, const uint32_t *hint)
{
    return *hint < DEVICE_RANGE_SLOTS && slot_has(table, *hint, pointer);
}

/* Whether 'pointer' lies in an allocation of 'table'. '*hint' is the slot where the thread
 * found one last time, looked at first (a loop's copies use a few allocations again and
 * again), and set to the slot found. */
static int range_has(capture_ranges *table, uint64_t pointer, uint32_t *hint)
{
    if (hinted(table, pointer, hint))
        return 1;
    uint32_t used = atomic_load_explicit(&table->used, memory_order_acquire);
    for (uint32_t i = 0; i < used; i++) {
        if (slot_has(table, i, pointer)) {
            *hint = i;
            return 1;
        }
    }
    return 0;
}

static int device_range_has(uint64_t pointer, uint32_t *hint)
{
    return range_has(&proc.probe.device, pointer, hint);
}

/* Whether the light mode looks at the device allocations it remembers before asking the
 * driver (not under SYNCSCOPE_LIGHT_PROBE=switch's level 2, a measurement aid). */
static int ranges_looked_at(void)
{
    return !(proc.bench_probe == PROBE_SWITCH &&
             atomic_load_explicit(&proc.probe_level, memory_order_relaxed) == LEVEL_NO_RANGES);
}

void capture_light_track(const ss_args_spec *spec, const void *params, int at_exit, int32_t result,
                         uint64_t bytes)
{
    int present;
    uint64_t pointer = ss_args_read(params, &spec->dst, &present);
    if (!at_exit && spec->pointers == SS_ARGS_FREE) {
        range_remove(&proc.probe.device, pointer);
        return;
    }
    if (!at_exit || result != 0 || spec->pointers != SS_ARGS_ALLOC)
        return;
    if (proc.api_rows[spec->api].klass == SS_CLASS_ALLOC && spec->stream.size == 0)
        range_add(&proc.probe.device, pointer, bytes);
}

void capture_light_track_host(const ss_args_spec *spec, const void *params, int at_exit,
                              int32_t result, uint64_t bytes)
{
    ss_api_class klass = proc.api_rows[spec->api].klass;
    int adds = klass == SS_CLASS_HOST_ALLOC || klass == SS_CLASS_HOST_REGISTER;
    /* an allocation is remembered at its exit, a free forgotten at its entry: nothing else */
    if (at_exit != adds || (adds && result != 0))
        return;
    int present;
    uint64_t pointer = ss_args_read(params, &spec->host, &present);
    if (!present)
        return;
    if (adds)
        range_add(&proc.probe.pinned, pointer, bytes);
    else
        range_remove(&proc.probe.pinned, pointer);
}

void capture_light_kinds_changed(const ss_args_spec *spec)
{
    ss_api_class klass = proc.api_rows[spec->api].klass;
    if (spec->pointers == SS_ARGS_ALLOC || klass == SS_CLASS_HOST_ALLOC ||
        klass == SS_CLASS_HOST_REGISTER)
        atomic_fetch_add(&proc.probe.kinds_generation, 1);
}

/* Whether the light mode leaves out the call of 'spec' with 'params' at its entry: an
 * asynchronous memset (cudaMemsetAsync, cuMemsetD8Async, ...) whose destination is device (or
 * array) memory, which cannot block the host (CUDA's API synchronization behavior: an
 * asynchronous memset waits only when it sets pinned host or managed memory): in a device
 * allocation the mode remembers (device_range_has), else as the driver answers one
 * cuPointerGetAttributes. Synchronous memsets are all taken (their rows say
 * they synchronize: the detectors judge them, and a device synchronization right after one
 * finds its work done), as are memsets without a destination argument (2D and 3D ones), of
 * memory the driver cannot tell, and every memset while a full window of the sampled mode is
 * open (its rules see every call). */
int capture_light_skips(const ss_args_spec *spec, const void *params)
{
    const ss_api *row = &proc.api_rows[spec->api];
    if (row->klass != SS_CLASS_MEMSET || row->sync != SS_SYNC_NEVER || spec->dst.size == 0 ||
        atomic_load_explicit(&proc.sampling.window_calls, memory_order_relaxed))
        return 0;
    int present;
    uint64_t dst = ss_args_read(params, &spec->dst, &present);
    thread_state *t = capture_tls;
    uint32_t none = DEVICE_RANGE_SLOTS;
    if (ranges_looked_at() && device_range_has(dst, t != NULL ? &t->range_hint[0][0] : &none))
        return 1;
    uint8_t kind = memory_kind_of(dst);
    return kind == SS_MEM_DEVICE || kind == SS_MEM_ARRAY;
}

/* Whether the driver called 'pointer' pageable at one of this thread's last copies, with no
 * allocation remembered since ('generation', read before any table was searched, is the one
 * the answer was given in): host memory becomes pinned or registered only through a call the
 * light mode follows, which bumps the generation at its exit, before it remembers the
 * memory, whether its event was kept or not (capture_light_kinds_changed). */
static int pageable_known(const thread_state *t, uint64_t pointer, uint64_t generation)
{
    if (t->pageable_generation != generation)
        return 0;
    for (size_t i = 0; i < PAGEABLE_SLOTS; i++) {
        if (t->pageable[i] == pointer)
            return 1;
    }
    return 0;
}

/* Remembers that the driver called 'pointer' pageable in 'generation' (pageable_known); the
 * addresses of an older generation are forgotten. */
static void pageable_remember(thread_state *t, uint64_t pointer, uint64_t generation)
{
    if (t->pageable_generation != generation) {
        memset(t->pageable, 0, sizeof t->pageable);
        t->pageable_generation = generation;
        t->pageable_next = 0;
    }
    t->pageable[t->pageable_next] = pointer;
    t->pageable_next = (t->pageable_next + 1) % PAGEABLE_SLOTS;
}

/* The memory kind of 'pointer', a copy's destination (side 0) or source (side 1): device
 * memory when it lies in a device allocation the mode remembers (what the driver would answer:
 * a cudaMalloc'ed allocation is device memory, not managed), pinned when it lies in pinned
 * host memory it remembers, else as the driver answers (memory_kind_of). The slots where the
 * thread found this side's pointer last are looked at before either table is searched (a
 * readback's pinned destination then costs no search of the device allocations: the two
 * tables hold disjoint ranges of one address space). */
static uint8_t kind_of(thread_state *t, uint64_t pointer, int side)
{
    if (pointer <= 1 || !ranges_looked_at())
        return memory_kind_of(pointer);
    uint32_t *hint = t->range_hint[side];
    if (hinted(&proc.probe.device, pointer, &hint[0]))
        return SS_MEM_DEVICE;
    if (hinted(&proc.probe.pinned, pointer, &hint[1]))
        return SS_MEM_PINNED;
    uint64_t generation = atomic_load(&proc.probe.kinds_generation);
    if (pageable_known(t, pointer, generation))
        return SS_MEM_PAGEABLE;
    if (device_range_has(pointer, &hint[0]))
        return SS_MEM_DEVICE;
    if (range_has(&proc.probe.pinned, pointer, &hint[1]))
        return SS_MEM_PINNED;
    uint8_t kind = memory_kind_of(pointer);
    if (kind == SS_MEM_PAGEABLE)
        pageable_remember(t, pointer, generation);
    return kind;
}

/* The light mode's word for a copy or memset (ss_ev_api.flags, SS_API_MEM_*): the memory
 * kinds of its destination and source, which CUPTI's copy records give in the full mode. */
uint32_t capture_host_kinds(thread_state *t, const ss_args_spec *spec, const void *params)
{
    int present;
    uint64_t dst = ss_args_read(params, &spec->dst, &present);
    uint64_t src = ss_args_read(params, &spec->src, &present);
    return SS_API_MEM_WORD(kind_of(t, src, 1), kind_of(t, dst, 0));
}

static int device_side(uint8_t kind)
{
    return kind == SS_MEM_DEVICE || kind == SS_MEM_ARRAY;
}

/* Whether the light mode's call 'a' of 'spec' is an asynchronous copy between device memory
 * on both sides (its memory kinds as capture_host_kinds found them), which cannot block the
 * host (CUDA's API synchronization behavior: an asynchronous copy waits only for pageable
 * host memory) and no light rule can name: SYNC201 wants a pageable host side, SYNC301 a
 * device-to-host direction, SYNC202 a synchronous copy, SYNC401/SYNC402 are other calls. Such
 * a copy is left out at its entry (capture_light_passes_copy). A copy whose kind argument says
 * host to device, device to host or host to host is not one (the detectors would take the
 * argument's word for its direction), nor is any copy while a full window of the sampled mode
 * is open (its rules see every call). */
int capture_light_device_copy(const ss_args_spec *spec, const ss_ev_api *a)
{
    const ss_api *row = &proc.api_rows[spec->api];
    if (row->klass != SS_CLASS_COPY || row->sync != SS_SYNC_PAGEABLE ||
        !(a->flags & SS_API_MEM_KNOWN) || !device_side(SS_API_MEM_SRC(a->flags)) ||
        !device_side(SS_API_MEM_DST(a->flags)) ||
        atomic_load_explicit(&proc.sampling.window_calls, memory_order_relaxed))
        return 0;
    if (row->dir == SS_DIR_D2D || row->dir == SS_DIR_PEER)
        return 1;
    /* cudaMemcpyKind: 3 device to device, 4 default (the detectors read no direction). */
    return row->dir == SS_DIR_KIND &&
           (a->domain != SS_DOMAIN_RUNTIME || a->copy_kind < 0 || a->copy_kind >= 3);
}

/* The copy is not recorded, but that it came between is (capture_light_left_out), so that the
 * call a thread makes after a readback or a pageable copy is the synchronization the
 * detectors join to it only when nothing came between, as in the full mode (det_join_sync,
 * det_latent_sync: a call so flagged is no earlier call's next). */
int capture_light_passes_copy(thread_state *t, const ss_args_spec *spec, const void *params,
                              uint32_t kinds)
{
    ss_ev_api a = {.domain = spec->domain, .copy_kind = -1, .flags = kinds};
    int present;
    uint64_t kind = ss_args_read(params, &spec->kind, &present);
    if (present)
        a.copy_kind = (int32_t)kind;
    if (!capture_light_device_copy(spec, &a))
        return 0;
    capture_light_left_out(t);
    return 1;
}

/* A call the light mode leaves out at its entry (a copy between device memory, an asynchronous
 * memset of device memory) came between the thread's last recorded call and its next: the next
 * carries SS_API_BETWEEN (the detectors join no synchronization across it, as when the call
 * was recorded), and it ends what the last recorded call left for its next, as a recorded
 * call's entry does (capture_probe_enter): the synchronization after a readback and this call
 * is asked about, and a readback this call entered inside is no idle one. */
void capture_light_left_out(thread_state *t)
{
    t->came_between = 1;
    t->idle_readback = 0;
    t->last_entered = NULL;
}

/* The light mode follows the streams that live (capture_probe_enter asks about them at device-wide
 * calls) through CUPTI's resource callbacks. Without them, device-wide calls are judged by
 * their time alone. */
void capture_enable_stream_callbacks(void)
{
    static const CUpti_CallbackId resources[] = {CUPTI_CBID_RESOURCE_STREAM_CREATED,
                                                 CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING,
                                                 CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING};
    for (size_t i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        if (proc.cupti.fn.cuptiEnableCallback(1, proc.cupti.subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                              resources[i]) != CUPTI_SUCCESS)
            atomic_store(&proc.probe.live_streams_off, 1);
    }
    /* A stream's destruction, at its entry: the stream is forgotten there, while its handle is
     * valid (nothing says "destroy starting" comes before the handle stops being valid, and a
     * query of a destroyed stream crashed the process on the H200). Without the driver's
     * destroy callback, which the runtime's destroy calls too, no device-wide probe. */
    int taken = 0;
    for (size_t i = 0; i < sizeof destroy_callbacks / sizeof destroy_callbacks[0]; i++) {
        const char *name = NULL;
        if (!capture_probe_skips_domain(destroy_callbacks[i].domain) &&
            proc.cupti.fn.cuptiGetCallbackName(destroy_callbacks[i].domain,
                                               destroy_callbacks[i].cbid, &name) == CUPTI_SUCCESS &&
            name != NULL && strcmp(name, destroy_callbacks[i].name) == 0 &&
            proc.cupti.fn.cuptiEnableCallback(1, proc.cupti.subscriber, destroy_callbacks[i].domain,
                                              destroy_callbacks[i].cbid) == CUPTI_SUCCESS)
            taken |= 1 << i;
    }
    if (!(taken & 0x8)) /* cuStreamDestroy_v2, which the runtime calls too */
        atomic_store(&proc.probe.live_streams_off, 1);
}

/* The light mode asks the program's driver, which has created a context by now, for the memory
 * kinds of copies (memory_kind_of) and for pending work (cuStreamQuery). Loads nothing. */
void capture_find_driver_queries(void)
{
    if (atomic_load(&proc.probe.pointer_attributes) != NULL)
        return;
    void *found = ss_capture_driver_symbol("cuPointerGetAttributes");
    pointer_attributes_fn ask;
    memcpy(&ask, &found, sizeof ask);
    atomic_store_explicit(&proc.probe.pointer_attributes, ask, memory_order_release);
    found = ss_capture_driver_symbol("cuStreamQuery");
    stream_query_fn query;
    memcpy(&query, &found, sizeof query);
    atomic_store_explicit(&proc.probe.stream_query, query, memory_order_release);
    found = ss_capture_driver_symbol("cuCtxGetCurrent");
    ctx_current_fn current;
    memcpy(&current, &found, sizeof current);
    atomic_store_explicit(&proc.probe.ctx_current, current, memory_order_release);
}

ss_event *capture_spill_take(thread_state *t)
{
    if (t->spill_depth >= SPILL_DEPTH ||
        atomic_load_explicit(&proc.sampling.window_calls, memory_order_relaxed))
        return NULL;
    ss_event *e = &t->spill[t->spill_depth++];
    memset(e, 0, sizeof *e);
    return e;
}

int capture_is_spill(const thread_state *t, const ss_event *e)
{
    return e >= &t->spill[0] && e < &t->spill[SPILL_DEPTH];
}

/* Counts call 'a' (complete) in the tally of its kind in thread store 's', a new one filled in
 * from it when none counts that kind yet (published by raising tally_used); when every slot is
 * taken the call is dropped and counted. */
static void tally_add(ss_thread_store *s, const ss_ev_api *a, uint64_t prev, uint64_t next)
{
    uint64_t ns = a->exit_ns > a->enter_ns ? a->exit_ns - a->enter_ns : 0;
    int long_call = ns >= proc.probe.exit_min_ns;
    uint64_t key =
        ss_tally_kind_hash(a, long_call, prev, next) ^ ((uint64_t)a->thread << 32 | a->stack);
    uint32_t used = atomic_load_explicit(&s->tally_used, memory_order_relaxed);
    ss_tally *slot = NULL;
    for (uint32_t i = 0; i < used && slot == NULL; i++) {
        ss_tally *t = &s->tallies[i];
        if (s->tally_keys[i] == key && t->long_calls == long_call && t->prev == prev &&
            t->next == next && ss_tally_same_kind(&t->call, a))
            slot = t;
    }
    if (slot == NULL && used < SS_TALLY_SLOTS) {
        slot = &s->tallies[used];
        memset(slot, 0, sizeof *slot);
        slot->call = *a;
        slot->long_calls = (uint8_t)long_call;
        slot->prev = prev;
        slot->next = next;
        s->tally_keys[used] = key;
        atomic_store_explicit(&s->tally_used, used + 1, memory_order_release);
    }
    if (slot == NULL) {
        atomic_fetch_add_explicit(&proc.store.budget.dropped_events, 1, memory_order_relaxed);
        return;
    }
    slot->count++;
    slot->total_ns += ns;
    slot->bytes += a->bytes;
    if (ns > slot->max_ns)
        slot->max_ns = ns;
    slot->call.exit_ns = a->exit_ns;
}

/* The word of call 'a' as a neighbour (ss_tally_neighbor), long or not by its time. */
static uint64_t neighbor_word(const ss_ev_api *a)
{
    uint64_t ns = a->exit_ns > a->enter_ns ? a->exit_ns - a->enter_ns : 0;
    return ss_tally_neighbor(a, ns >= proc.probe.exit_min_ns);
}

void capture_tally(thread_state *t, ss_event *e)
{
    ss_thread_store *s = t->store;
    const ss_ev_api *a = &e->u.api;
    int spilled = capture_is_spill(t, e);
    /* Before the cap, the call is only remembered: a kept event stays where it is. */
    if (!spilled && !s->tally_holding) {
        s->tally_last = a;
        return;
    }
    /* a call the light mode left out came between: no neighbour of the call before */
    int linked = !(a->flags & SS_API_BETWEEN);
    if (s->tally_holding) {
        tally_add(s, &s->tally_held, s->tally_held_prev, linked ? neighbor_word(a) : 0);
        s->tally_holding = 0;
    }
    if (spilled) {
        /* the word of the call before, read before the held copy is overwritten (it may be
         * that copy) */
        s->tally_held_prev = linked && s->tally_last != NULL ? neighbor_word(s->tally_last) : 0;
        s->tally_held = *a;
        uint64_t ns = a->exit_ns > a->enter_ns ? a->exit_ns - a->enter_ns : 0;
        s->tally_held_long = ns >= proc.probe.exit_min_ns;
        s->tally_holding = 1;
        a = &s->tally_held;
        /* the slot is the thread's innermost call's: calls end in the reverse order they began */
        if (t->spill_depth > 0)
            t->spill_depth--;
    }
    s->tally_last = a;
}
