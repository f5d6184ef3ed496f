/* wrap_cudart.c: libsyncscope_cudart.so, wrappers of the CUDA runtime's exported calls that the
 * light mode follows (wrap_cudart.def), for a program that uses the shared runtime
 * (libcudart.so.13). Given with LD_PRELOAD before the program's runtime, each wrapper is
 * found for the program's (and its libraries') references to the runtime's call: its version
 * script gives the wrappers the runtime's version node, so a reference to
 * cudaMemcpyAsync@libcudart.so.13 binds here and one to another runtime's version does not.
 * A wrapper forwards to the runtime's own definition (found once, with dlvsym, after this
 * library or in the runtime that is mapped); while syncscope_wrap_on is set (the capture
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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h" /* the capture library's side, which this library is linked against */

#define SS_WRAP_EXPORT __attribute__((visibility("default")))

#define RUNTIME_VERSION "libcudart.so.13"

/* dl_iterate_phdr's visit: the path of the first mapped object named libcudart.so.13. */
static int find_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *name = info->dlpi_name;
    const char *base = name != NULL ? strrchr(name, '/') : NULL;
    base = base != NULL ? base + 1 : name;
    if (base == NULL || strcmp(base, RUNTIME_VERSION) != 0)
        return 0;
    *(const char **)data = name;
    return 1;
}

/* The runtime's definition of 'name': the next one after this library (a runtime in the
 * global scope), else the one of the runtime mapped with dlopen's local scope (a Python
 * extension's). A program that calls a wrapper has a libcudart.so.13 mapped: without one
 * found there is nothing to call, which is said before the process stops. */
static void *runtime_symbol(const char *name)
{
    void *found = dlvsym(RTLD_NEXT, name, RUNTIME_VERSION);
    if (found == NULL) {
        const char *path = NULL;
        dl_iterate_phdr(find_runtime, &path);
        void *runtime = path != NULL ? dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
        if (runtime != NULL) {
            found = dlvsym(runtime, name, RUNTIME_VERSION);
            dlclose(runtime); /* the runtime stays: the program holds it */
        }
    }
    if (found == NULL) {
        char line[256];
        int n = snprintf(line, sizeof line,
                         "syncscope: the CUDA runtime's %s (%s) was not found; stopping\n", name,
                         RUNTIME_VERSION);
        if (n > 0 && write(STDERR_FILENO, line, (size_t)n) < 0)
            n = 0;
        abort();
    }
    return found;
}

/* The runtime's 'name', found at the first call and kept in 'slot'. */
static void *next_of(_Atomic(void *) *slot, const char *name)
{
    void *found = atomic_load_explicit(slot, memory_order_acquire);
    if (found == NULL) {
        found = runtime_symbol(name);
        atomic_store_explicit(slot, found, memory_order_release);
    }
    return found;
}

#define UNPAREN(...) __VA_ARGS__

/* The wrapper of 'symbol' (CUPTI's callback 'cb'), parameters 'decl', arguments 'args'. */
#define WRAP(symbol, cb, decl, args)                                                               \
    cudaError_t symbol decl;                                                                       \
    SS_WRAP_EXPORT cudaError_t symbol decl                                                         \
    {                                                                                              \
        static _Atomic(void *) next_slot;                                                          \
        cudaError_t(*next) decl;                                                                   \
        void *found = next_of(&next_slot, #symbol);                                                \
        memcpy(&next, &found, sizeof next);                                                        \
        if (!atomic_load_explicit(&syncscope_wrap_on, memory_order_relaxed))                       \
            return next args;                                                                      \
        cb##_params params = {UNPAREN args};                                                       \
        uint64_t slot;                                                                             \
        syncscope_wrap_enter(CUPTI_RUNTIME_TRACE_CBID_##cb, &params, &slot);                       \
        cudaError_t result = next args;                                                            \
        syncscope_wrap_exit(CUPTI_RUNTIME_TRACE_CBID_##cb, &params, &slot, (int32_t)result);       \
        return result;                                                                             \
    }

/* The same for a call without parameters (CUPTI has no struct for it). */
#define WRAP0(symbol, cb)                                                                          \
    cudaError_t symbol(void);                                                                      \
    SS_WRAP_EXPORT cudaError_t symbol(void)                                                        \
    {                                                                                              \
        static _Atomic(void *) next_slot;                                                          \
        cudaError_t (*next)(void);                                                                 \
        void *found = next_of(&next_slot, #symbol);                                                \
        memcpy(&next, &found, sizeof next);                                                        \
        if (!atomic_load_explicit(&syncscope_wrap_on, memory_order_relaxed))                       \
            return next();                                                                         \
        uint64_t slot;                                                                             \
        syncscope_wrap_enter(CUPTI_RUNTIME_TRACE_CBID_##cb, NULL, &slot);                          \
        cudaError_t result = next();                                                               \
        syncscope_wrap_exit(CUPTI_RUNTIME_TRACE_CBID_##cb, NULL, &slot, (int32_t)result);          \
        return result;                                                                             \
    }

#include "wrap_cudart.def"
