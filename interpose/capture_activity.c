/* capture_activity.c: CUPTI's activity records (GPU-side kernels, copies with their host
 * memory kinds, memsets, synchronizations), in buffers taken from the capture's budget and
 * converted into events; enabled when the program creates its first context. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capture_int.h"

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    int saved_errno = errno;
    uint8_t *b = NULL;
    pthread_mutex_lock(&proc.activity.lock);
    if (proc.activity.free_count > 0) {
        b = proc.activity.free_buffers[--proc.activity.free_count];
    } else if (proc.activity.buffer_count < ACTIVITY_BUFFER_MAX) {
        b = ss_budget_alloc(&proc.store.budget, ACTIVITY_BUFFER_SIZE);
        if (b != NULL)
            proc.activity.buffer_count++;
    }
    pthread_mutex_unlock(&proc.activity.lock);
    /* NULL: CUPTI drops the records it has no room for; the result says so. */
    if (b == NULL)
        atomic_fetch_add_explicit(&proc.store.budget.refused_buffers, 1, memory_order_relaxed);
    *buffer = b;
    *size = b != NULL ? ACTIVITY_BUFFER_SIZE : 0;
    *max_records = 0;
    errno = saved_errno;
}

static uint8_t copy_kind(uint8_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return SS_COPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return SS_COPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return SS_COPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return SS_COPY_HTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return SS_COPY_PTOP;
    default:
        return SS_COPY_UNKNOWN;
    }
}

static uint8_t mem_kind(uint32_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return SS_MEM_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return SS_MEM_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return SS_MEM_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return SS_MEM_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return SS_MEM_MANAGED;
    default:
        return SS_MEM_UNKNOWN;
    }
}

static void note_gpu(const char *name)
{
    if (name == NULL || strstr(proc.activity.gpu, name) != NULL)
        return;
    size_t used = strlen(proc.activity.gpu);
    snprintf(proc.activity.gpu + used, sizeof proc.activity.gpu - used, "%s%s", used ? ", " : "",
             name);
}

/* Converts one activity record; called under activity_lock. */
/* The fields that CUPTI's kernel, memcpy and memset records share, under the same names in
 * their different record types. */
#define GPU_RECORD_FIELDS(dst, rec)                                                                \
    do {                                                                                           \
        (dst)->start_ns = (rec)->start;                                                            \
        (dst)->end_ns = (rec)->end;                                                                \
        (dst)->correlation = (rec)->correlationId;                                                 \
        (dst)->stream_id = (rec)->streamId;                                                        \
        (dst)->context = (rec)->contextId;                                                         \
        (dst)->device = (int32_t)(rec)->deviceId;                                                  \
        (dst)->graph = (rec)->graphId != 0;                                                        \
    } while (0)

static void convert_record(const CUpti_Activity *record)
{
    ss_event ev;
    memset(&ev, 0, sizeof ev);
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)record;
        ev.type = SS_EV_KERNEL;
        GPU_RECORD_FIELDS(&ev.u.gpu, k);
        ev.u.gpu.name = ss_name_intern(&proc.store.names, &proc.store.budget,
                                       (uint64_t)(uintptr_t)k->name, k->name);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)record;
        ev.type = SS_EV_MEMCPY;
        GPU_RECORD_FIELDS(&ev.u.gpu, m);
        ev.u.gpu.bytes = m->bytes;
        ev.u.gpu.copy_kind = copy_kind(m->copyKind);
        ev.u.gpu.src_kind = mem_kind(m->srcKind);
        ev.u.gpu.dst_kind = mem_kind(m->dstKind);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)record;
        ev.type = SS_EV_MEMSET;
        GPU_RECORD_FIELDS(&ev.u.gpu, m);
        ev.u.gpu.bytes = m->bytes;
        ev.u.gpu.dst_kind = mem_kind(m->memoryKind);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const CUpti_ActivitySynchronization2 *s = (const CUpti_ActivitySynchronization2 *)record;
        ev.type = SS_EV_SYNC;
        ev.u.sync.start_ns = s->start;
        ev.u.sync.end_ns = s->end;
        ev.u.sync.correlation = s->correlationId;
        ev.u.sync.stream_id = s->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : s->streamId;
        ev.u.sync.context = s->contextId;
        ev.u.sync.type = (uint32_t)s->type <= SS_SYNCREC_CONTEXT_SYNCHRONIZE ? (uint32_t)s->type
                                                                             : SS_SYNCREC_UNKNOWN;
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE:
        note_gpu(((const CUpti_ActivityDevice5 *)record)->name);
        return;
    default:
        return;
    }
    ss_event *slot = ss_evbuf_reserve(&proc.store.activity, &proc.store.budget);
    if (slot != NULL)
        *slot = ev;
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
                                      size_t size, size_t valid_size)
{
    (void)context;
    (void)stream_id;
    (void)size;
    int saved_errno = errno;
    if (buffer == NULL)
        return;
    pthread_mutex_lock(&proc.activity.lock);
    uint64_t began = capture_timing_now();
    CUpti_Activity *record = NULL;
    while (valid_size > 0 &&
           proc.cupti.fn.cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
        convert_record(record);
        proc.sampling.records++;
    }
    proc.sampling.records_ns += capture_timing_since(began);
    if (proc.activity.free_count < ACTIVITY_BUFFER_MAX)
        proc.activity.free_buffers[proc.activity.free_count++] = buffer;
    pthread_mutex_unlock(&proc.activity.lock);
    errno = saved_errno;
}

/* Registers the activity buffers (once per process) and enables ('on' 1) or disables ('on'
 * 0) the activity kinds the settings ask for. Returns 0, or -1 with the failing call in
 * '*what' and its result in '*why'. */
int capture_set_activity(int on, const char **what, CUptiResult *why)
{
    CUptiResult r;
    if (!proc.activity.registered) {
        r = proc.cupti.fn.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
        if (r != CUPTI_SUCCESS) {
            *what = "cuptiActivityRegisterCallbacks";
            *why = r;
            return -1;
        }
        proc.activity.registered = 1;
    }
    CUpti_ActivityKind kinds[5] = {CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_MEMCPY,
                                   CUPTI_ACTIVITY_KIND_MEMSET};
    size_t n = 3;
    if (proc.config.sync_records)
        kinds[n++] = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    if (proc.config.kernel_activity)
        kinds[n++] = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    for (size_t i = 0; i < n; i++) {
        r = on ? proc.cupti.fn.cuptiActivityEnable(kinds[i])
               : proc.cupti.fn.cuptiActivityDisable(kinds[i]);
        if (r != CUPTI_SUCCESS) {
            *what = on ? "cuptiActivityEnable" : "cuptiActivityDisable";
            *why = r;
            return -1;
        }
    }
    return 0;
}

static int enable_activity(const char **what, CUptiResult *why)
{
    return capture_set_activity(1, what, why);
}

/* Activity records are enabled when the program creates its first CUDA context, not at
 * start: enabling them initializes the driver, and a program that forks before it uses CUDA
 * must find the driver untouched in its children. Once per process (a forked child that
 * uses CUDA enables them for itself). */
void capture_enable_activity_once(void)
{
    atomic_store_explicit(&proc.probe.context_seen, 1, memory_order_release);
    /* The light mode's driver queries, also in a forked child that uses CUDA first (they
     * load nothing and enable nothing). */
    if (proc.light)
        capture_find_driver_queries();
    /* Not in a forked child: with CUPTI set up by the parent, a child that enabled and
     * flushed activity records was seen to hang (docs/studies/validation.md). The child's API
     * calls are still recorded. */
    if (proc.forked || atomic_load(&proc.activity.pid) == proc.pid)
        return;
    pthread_mutex_lock(&proc.activity.enable_lock);
    if (atomic_load(&proc.activity.pid) != proc.pid) {
        const char *what = NULL;
        CUptiResult r = CUPTI_SUCCESS;
        thread_state *t = capture_tls;
        int was_busy = t != NULL ? t->busy : 0;
        if (t != NULL)
            t->busy = 1;
        if (!proc.light && enable_activity(&what, &r) < 0)
            capture_say("%s failed (%s): no GPU activity records; API calls are still recorded",
                        what, capture_cupti_error(r));
        if (!proc.activity.devices_read) {
            capture_read_devices(&proc.activity.devices, 1);
            proc.activity.devices_read = 1;
        }
        if (t != NULL)
            t->busy = was_busy;
        atomic_store(&proc.activity.pid, proc.pid);
    }
    pthread_mutex_unlock(&proc.activity.enable_lock);
}
