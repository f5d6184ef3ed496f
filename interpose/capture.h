/* capture.h: what the capture library hands its exit-time finisher; internal to interpose/. */
#ifndef SS_INTERPOSE_CAPTURE_H
#define SS_INTERPOSE_CAPTURE_H

#include <stdatomic.h>
#include <stdint.h>

#include "interpose.h"
#include "store.h"

#define SS_CAPTURE_VIEW_VERSION 3
/* The finisher's exported functions (libsyncscope_finish.so). */
#define SS_FINISH_SYMBOL "syncscope_finish"
#define SS_INTERVAL_SYMBOL "syncscope_interval"

/* A finished (or interrupted) run as the capture library saw it. Everything stays owned by
 * the capture library; the finisher only reads. */
typedef struct ss_capture_view {
    uint32_t version; /* SS_CAPTURE_VIEW_VERSION */
    uint32_t size;    /* sizeof(ss_capture_view) */
    const ss_interpose_config *config;
    ss_store *store;
    long pid;
    int forked;              /* 1: a child after fork; the parent's events were dropped */
    int signal;              /* the signal that ended the run, 0 at a normal exit */
    uint64_t start_ns;       /* CUPTI clock at start (or at fork in a child) */
    uint64_t end_ns;         /* CUPTI clock at the end */
    int64_t started_unix_ns; /* wall clock at start */
    const char *gpu;         /* GPU names (device records, else the driver's), "" none */
    int driver_version;      /* cuDriverGetVersion (the driver's CUDA), 0 when unknown */
    const char *cupti_path;  /* the libcupti that was loaded */
    const char *python;      /* "3.12": the Python version whose frames were read, or "" */
    const char *driver;      /* the kernel driver's version ("580.65.06"), or "" */
    int runtime_version;     /* cudaRuntimeGetVersion of the program's runtime, 0 unknown */
    const char *mode;        /* "full", "light" or "sampled" (docs/run.md, "Modes") */
    const char *windows;     /* the sampled mode's full windows, "START-END,..." in the CUPTI
                              * clock; "" none */
} ss_capture_view;

/* Type of SS_FINISH_SYMBOL. Returns 0, or -1 when an output could not be written (a
 * message was printed). */
typedef int (*ss_finish_fn)(const ss_capture_view *view);

/* Type of SS_INTERVAL_SYMBOL: appends one line to the interval file (docs/run.md, "Interval
 * lines") from the capture as it is now, while the program runs ('final' 0) or from the end of
 * the run ('final' 1). Returns 0, or -1 when the line could not be written (said once). */
typedef int (*ss_interval_fn)(const ss_capture_view *view, int final);

/* The capture library's exported entry points (libsyncscope.map). InitializeInjection is
 * CUDA's injection hook (CUDA_INJECTION64_PATH); it starts the capture if the constructor
 * has not, and returns 1. */
int InitializeInjection(void);
/* NVTX's tool hook (NVTX_INJECTION64_PATH, which the constructor sets): records the
 * program's NVTX ranges; the argument is NVTX's NvtxGetExportTableFunc_t. Returns 1, or 0
 * when the process is not observed. */
int InitializeInjectionNvtx2(const void *(*get_export_table)(uint32_t table_id));
/* "libsyncscope.so <version>": lets a tool check what is preloaded. */
const char *syncscope_interposer_version(void);
/* The program's own scope marks (syncscope.scope(), docs/run.md "Scopes"): a range for the
 * process from begin (which returns its id, 0 when the process is not observed) to end. */
uint64_t syncscope_scope_begin(const char *name);
void syncscope_scope_end(uint64_t id);
/* A measurement aid (SYNCSCOPE_LIGHT_PROBE=switch, docs/studies/performance.md): 1 makes the
 * API callbacks return at once, 0 makes them work again, 2 makes them work without the device
 * allocations the light mode remembers, 3 disables them in CUPTI (the light mode only), 4 and 5
 * let libsyncscope_cudart.so's wrappers take the runtime's calls instead (the mode's runtime
 * callbacks disabled in CUPTI; at 5 its driver callbacks too); nothing under any other probe. */
void syncscope_light_probe_set(int level);
/* The same aid: the events recorded so far by every thread (0 under any other probe). */
uint64_t syncscope_light_probe_events(void);
/* The same aid: syncscope's own time in its callbacks so far, in ns, every thread's (0 under any
 * other probe or without SYNCSCOPE_TIMING). */
uint64_t syncscope_light_probe_own_ns(void);

/* libsyncscope_cudart.so's side (wrap_cudart.c): set while its wrappers hand the runtime's
 * calls to syncscope_wrap_enter and syncscope_wrap_exit, with the call's CUPTI callback id,
 * a parameter struct of CUPTI's layout and the wrapper's word for the call's event (and at
 * the exit the call's result). */
extern atomic_int syncscope_wrap_on;
void syncscope_wrap_enter(uint32_t cbid, const void *params, uint64_t *slot);
void syncscope_wrap_exit(uint32_t cbid, const void *params, uint64_t *slot, int32_t result);

#endif
