/* pointers.c: the device pointers a call is handed (docs/trace-format.md, "args"): the address
 * range of the device allocations seen so far, and each kernel's parameter layout, asked of
 * the driver (cuFuncGetParamInfo or cuKernelGetParamInfo, CUDA 12.4 on) once per function and
 * kept in a fixed table.
 * Lock-free and allocation-free: it runs inside every kernel launch. */
#include "pointers.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

/* cuFuncGetParamInfo's type (cuda.h is not included: types only, as a CUresult is an int). */
typedef int (*param_info_fn)(void *function, size_t index, size_t *offset, size_t *size);

/* Functions whose layout is kept (a power of two), and parameters kept per function. */
#define FUNCTION_SLOTS 2048u
#define FUNCTION_PARAMS 32u
/* Probes of the function table before a launch is left unknown. */
#define FUNCTION_PROBES 16u
/* 8-byte words read per launch at most: a kernel with more is left unknown. */
#define WORDS_MAX 512u
/* The 'extra' launch array's keys (CU_LAUNCH_PARAM_END, _BUFFER_POINTER, _BUFFER_SIZE) and
 * the pairs read at most. */
#define EXTRA_END 0u
#define EXTRA_BUFFER 1u
#define EXTRA_PAIRS 8u

typedef struct function_layout {
    /* 0: empty; the function with bit 0 set: being filled; the function: ready (release). */
    _Atomic uint64_t key;
    uint16_t count; /* parameters */
    uint8_t known;  /* 1: the layout of every parameter is below */
    uint16_t offset[FUNCTION_PARAMS];
    uint16_t size[FUNCTION_PARAMS];
} function_layout;

static function_layout layouts[FUNCTION_SLOTS];
static _Atomic uint64_t range_low = UINT64_MAX, range_high;
static _Atomic(param_info_fn) param_info;
static atomic_int param_info_looked;

void ss_pointers_note_alloc(uint64_t base, uint64_t bytes)
{
    if (base == 0 || bytes == 0 || base + bytes < base)
        return;
    uint64_t seen = atomic_load_explicit(&range_low, memory_order_relaxed);
    while (base < seen &&
           !atomic_compare_exchange_weak_explicit(&range_low, &seen, base, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
    seen = atomic_load_explicit(&range_high, memory_order_relaxed);
    while (base + bytes > seen &&
           !atomic_compare_exchange_weak_explicit(&range_high, &seen, base + bytes,
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
}

/* CUDA_SUCCESS and CUDA_ERROR_INVALID_VALUE (what both queries return past the last
 * parameter). */
#define DRIVER_SUCCESS 0
#define DRIVER_PAST_LAST 1

/* The driver's two parameter queries: cuFuncGetParamInfo for a CUfunction, cuKernelGetParamInfo
 * for a CUkernel (what the runtime hands cuLaunchKernel for its kernels since CUDA 12, cast to
 * a CUfunction), looked up once (the driver is loaded by the time a kernel is launched); NULL
 * before CUDA 12.4. */
static _Atomic(param_info_fn) kernel_param_info;

static param_info_fn find_symbol(const char *name)
{
    void *found = ss_capture_driver_symbol(name);
    param_info_fn fn;
    memcpy(&fn, &found, sizeof fn);
    return fn;
}

static void find_param_info(param_info_fn *function_query, param_info_fn *kernel_query)
{
    if (!atomic_load_explicit(&param_info_looked, memory_order_acquire)) {
        atomic_store_explicit(&param_info, find_symbol("cuFuncGetParamInfo"), memory_order_relaxed);
        atomic_store_explicit(&kernel_param_info, find_symbol("cuKernelGetParamInfo"),
                              memory_order_relaxed);
        atomic_store_explicit(&param_info_looked, 1, memory_order_release);
    }
    *function_query = atomic_load_explicit(&param_info, memory_order_relaxed);
    *kernel_query = atomic_load_explicit(&kernel_param_info, memory_order_relaxed);
}

/* Asks the driver for the layout of 'function' into 'slot' (which this thread claimed): with
 * the query that answers for its first parameter, to the first index past the last. A kernel
 * that neither query answers for (no parameter, or a handle neither takes) stays unknown, as
 * does any other error. */
static void fill_layout(function_layout *slot, uint64_t function)
{
    param_info_fn queries[2];
    find_param_info(&queries[0], &queries[1]);
    slot->known = 0;
    slot->count = 0;
    void *handle = (void *)(uintptr_t)function;
    param_info_fn info = NULL;
    size_t offset = 0, size = 0;
    for (int q = 0; q < 2 && info == NULL; q++) {
        if (queries[q] != NULL && queries[q](handle, 0, &offset, &size) == DRIVER_SUCCESS)
            info = queries[q];
    }
    for (size_t i = 0; info != NULL; i++) {
        if (i > 0) {
            int rc = info(handle, i, &offset, &size);
            if (rc == DRIVER_PAST_LAST) {
                slot->known = 1;
                return;
            }
            if (rc != DRIVER_SUCCESS)
                return;
        }
        if (i == FUNCTION_PARAMS || offset > UINT16_MAX || size > UINT16_MAX)
            return; /* more parameters than kept, or a layout out of range: unknown */
        slot->offset[i] = (uint16_t)offset;
        slot->size[i] = (uint16_t)size;
        slot->count = (uint16_t)(i + 1);
    }
}

/* The layout of 'function', filled at its first launch; NULL when it is unknown (the table
 * is full, another thread is filling it, or the driver gives none). */
static const function_layout *layout_of(uint64_t function)
{
    uint64_t h = function >> 4;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    for (uint32_t n = 0; n < FUNCTION_PROBES; n++) {
        function_layout *slot = &layouts[(h + n) & (FUNCTION_SLOTS - 1)];
        uint64_t key = atomic_load_explicit(&slot->key, memory_order_acquire);
        if (key == function)
            return slot->known ? slot : NULL;
        if (key == (function | 1u))
            return NULL;
        if (key != 0)
            continue;
        if (!atomic_compare_exchange_strong_explicit(&slot->key, &key, function | 1u,
                                                     memory_order_acquire, memory_order_acquire)) {
            if (key == function)
                return slot->known ? slot : NULL;
            if (key == (function | 1u))
                return NULL;
            continue;
        }
        fill_layout(slot, function);
        atomic_store_explicit(&slot->key, function, memory_order_release);
        return slot->known ? slot : NULL;
    }
    return NULL;
}

/* Adds the words of the 'size' bytes at 'value' that lie in [low, high) to 'out'. Returns 0,
 * or -1 when they do not fit or 'budget' words were read already. */
static int scan_words(ss_ev_args *out, const unsigned char *value, size_t size, uint64_t low,
                      uint64_t high, unsigned *budget)
{
    for (size_t at = 0; at + sizeof(uint64_t) <= size; at += sizeof(uint64_t)) {
        if (*budget == 0)
            return -1;
        (*budget)--;
        uint64_t word;
        memcpy(&word, value + at, sizeof word);
        if (word < low || word >= high)
            continue;
        if (out->count == SS_ARGS_MAX)
            return -1;
        out->values[out->count++] = word;
    }
    return 0;
}

/* The parameter buffer of a launch's 'extra' array, or NULL. */
static const unsigned char *extra_buffer(uint64_t extra)
{
    void *const *pairs = (void *const *)(uintptr_t)extra;
    for (unsigned i = 0; i < EXTRA_PAIRS; i++) {
        uintptr_t key = (uintptr_t)pairs[2 * i];
        if (key == EXTRA_END)
            return NULL;
        if (key == EXTRA_BUFFER)
            return (const unsigned char *)pairs[2 * i + 1];
    }
    return NULL;
}

void ss_pointers_launch(ss_ev_args *out, uint64_t function, uint64_t kernel_params, uint64_t extra)
{
    out->kind = SS_ARGS_LAUNCH;
    out->complete = 0;
    out->count = 0;
    const function_layout *layout = function != 0 ? layout_of(function) : NULL;
    if (layout == NULL)
        return;
    uint64_t low = atomic_load_explicit(&range_low, memory_order_relaxed);
    uint64_t high = atomic_load_explicit(&range_high, memory_order_relaxed);
    unsigned budget = WORDS_MAX;
    void *const *params = (void *const *)(uintptr_t)kernel_params;
    const unsigned char *buffer = params == NULL && extra != 0 ? extra_buffer(extra) : NULL;
    if (layout->count > 0 && params == NULL && buffer == NULL)
        return;
    for (uint16_t i = 0; i < layout->count; i++) {
        const unsigned char *value =
            params != NULL ? (const unsigned char *)params[i] : buffer + layout->offset[i];
        if (value == NULL || scan_words(out, value, layout->size[i], low, high, &budget) < 0)
            return;
    }
    out->complete = 1;
}
