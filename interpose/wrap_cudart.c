/* wrap_cudart.c: libsyncscope_cudart.so, wrappers of the CUDA runtime's exported calls that the
 * light mode follows (wrap_cudart.def), for a program that uses the shared runtime
 * (libcudart.so.13). Given with LD_PRELOAD before the program's runtime, each wrapper is
 * found for the program's (and its libraries') references to the runtime's call: its version
 * script gives the wrappers the runtime's version node, so a reference to
 * cudaMemcpyAsync@libcudart.so.13 binds here and one to another runtime's version does not.
 * A wrapper forwards to the runtime's own definition (found once, with dlvsym, after this
 * library or in the scope of a mapped object; without one the call returns
 * cudaErrorSharedObjectSymbolNotFound); while syncscope_wrap_on is set (the capture
 * library's measurement levels, capture_callbacks.c) it hands the call to the capture library
 * at its entry and exit, with a parameter struct of CUPTI's layout, so that the same handlers
 * as CUPTI's runtime callbacks record it. A measurement aid for now: docs/studies/
 * performance.md, "The light mode's runtime calls without CUPTI". */
#include <cupti.h> /* the callback ids and the generated parameter structs */
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture.h" /* the capture library's side, which this library is linked against */

#define SS_WRAP_EXPORT __attribute__((visibility("default")))

#define RUNTIME_VERSION "libcudart.so.13"

/* What find_in_object looks for: the runtime's definition of 'name', other than 'self' (this
 * library's wrapper). */
typedef struct wanted {
    const char *name;
    void *self;
    void *found;
} wanted;

/* dl_iterate_phdr's visit: the definition of the wanted name in the scope of the mapped object
 * (the object and what it needs), opened without loading anything. */
static int find_in_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    wanted *w = data;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0')
        return 0; /* the program itself, which RTLD_NEXT's search already passed */
    void *object = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (object == NULL)
        return 0;
    void *found = dlvsym(object, w->name, RUNTIME_VERSION);
    dlclose(object); /* the object stays: the program holds it */
    if (found == NULL || found == w->self)
        return 0;
    w->found = found;
    return 1;
}

/* The runtime's definition of 'name' ('self' is this library's): the next one after this
 * library (a runtime in the global scope), else one in the scope of a mapped object (a runtime
 * mapped with dlopen's local scope, such as a Python extension's, under any file name). NULL
 * when no mapped object has one, which is said once: the wrapper then returns
 * cudaErrorSharedObjectSymbolNotFound, as a call the runtime cannot make. */
static void *runtime_symbol(const char *name, void *self)
{
    void *found = dlvsym(RTLD_NEXT, name, RUNTIME_VERSION);
    if (found == NULL) {
        wanted w = {name, self, NULL};
        dl_iterate_phdr(find_in_object, &w);
        found = w.found;
    }
    static atomic_int said;
    if (found == NULL && !atomic_exchange(&said, 1)) {
        char line[256];
        int n = snprintf(line, sizeof line,
                         "syncscope: the CUDA runtime's %s (%s) was not found: no runtime is "
                         "mapped; the call returns cudaErrorSharedObjectSymbolNotFound\n",
                         name, RUNTIME_VERSION);
        if (n > 0 && write(STDERR_FILENO, line, (size_t)n) < 0)
            n = 0;
    }
    return found;
}

/* The runtime's 'name', found at its first call and kept in 'slot'; NULL while none is
 * mapped. */
static void *next_of(_Atomic(void *) *slot, const char *name, void *self)
{
    void *found = atomic_load_explicit(slot, memory_order_acquire);
    if (found == NULL) {
        found = runtime_symbol(name, self);
        atomic_store_explicit(slot, found, memory_order_release);
    }
    return found;
}

/* The wrappers define, and name, calls the runtime's header marks deprecated
 * (cudaMemcpyToArray and its kin), which programs still make. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define UNPAREN(...) __VA_ARGS__

/* The body of the wrapper of 'symbol' (CUPTI's callback 'cb'; its parameter struct at
 * 'params', NULL for none; its arguments 'args'): the runtime's definition found, the call
 * forwarded, and handed to the capture around it while syncscope_wrap_on is set. */
#define WRAP_BODY(symbol, cb, params, args)                                                        \
    static _Atomic(void *) next_slot;                                                              \
    __typeof__(&symbol) self = symbol, next;                                                       \
    void *self_address;                                                                            \
    memcpy(&self_address, &self, sizeof self_address);                                             \
    void *found = next_of(&next_slot, #symbol, self_address);                                      \
    if (found == NULL)                                                                             \
        return cudaErrorSharedObjectSymbolNotFound;                                                \
    memcpy(&next, &found, sizeof next);                                                            \
    if (!atomic_load_explicit(&syncscope_wrap_on, memory_order_relaxed))                           \
        return next args;                                                                          \
    uint64_t slot;                                                                                 \
    syncscope_wrap_enter(CUPTI_RUNTIME_TRACE_CBID_##cb, (params), &slot);                          \
    cudaError_t result = next args;                                                                \
    syncscope_wrap_exit(CUPTI_RUNTIME_TRACE_CBID_##cb, (params), &slot, (int32_t)result);          \
    return result;

/* The wrapper of 'symbol' (CUPTI's callback 'cb'), parameters 'decl', arguments 'args'. */
#define WRAP(symbol, cb, decl, args)                                                               \
    cudaError_t symbol decl;                                                                       \
    SS_WRAP_EXPORT cudaError_t symbol decl                                                         \
    {                                                                                              \
        cb##_params params = {UNPAREN args};                                                       \
        WRAP_BODY(symbol, cb, &params, args)                                                       \
    }

/* The same for a call without parameters (CUPTI has no struct for it). */
#define WRAP0(symbol, cb)                                                                          \
    cudaError_t symbol(void);                                                                      \
    SS_WRAP_EXPORT cudaError_t symbol(void)                                                        \
    {                                                                                              \
        WRAP_BODY(symbol, cb, NULL, ())                                                            \
    }

#include "wrap_cudart.def"
