/* args.h: where each observed CUDA call's arguments sit in CUPTI's parameter structs, keyed
 * by the rows of rules/cuda_api.def; internal to interpose/ (no CUDA types here). */
#ifndef SS_INTERPOSE_ARGS_H
#define SS_INTERPOSE_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* One argument: 'size' bytes at 'offset' in the parameter struct; when 'deref' >= 0 the
 * field is a pointer and the value is 'size' bytes at 'deref' in the struct it points to.
 * size 0: the argument is not taken. */
typedef struct ss_arg_ref {
    int16_t offset;
    int16_t deref;
    uint8_t size;
} ss_arg_ref;

/* One CUPTI callback (one version/per-thread variant of an API) and its arguments. */
typedef struct ss_args_spec {
    const char *cupti_name; /* the callback's name as CUPTI gives it: "cudaMemcpyAsync_v3020" */
    uint32_t cbid;          /* from CUPTI's cbid headers; checked against the name at start */
    uint16_t api;           /* ss_api_id of the cuda_api.def row */
    uint8_t domain;         /* SS_DOMAIN_RUNTIME or SS_DOMAIN_DRIVER (event.h) */
    uint8_t per_thread;     /* a _ptsz/_ptds variant */
    ss_arg_ref stream;      /* the stream argument as passed */
    ss_arg_ref bytes;       /* byte count (first factor) */
    ss_arg_ref bytes2;      /* second factor of the byte count (2D width x height) */
    ss_arg_ref kind;        /* cudaMemcpyKind */
    ss_arg_ref flags;       /* stream flags, capture mode, event/host flags */
    ss_arg_ref out_stream;  /* stream creation: the cudaStream_t* / CUstream* argument */
    ss_arg_ref priority;    /* stream creation with a priority */
    /* The device pointers the call is handed (an SS_EV_ARGS event, docs/trace-format.md). */
    uint8_t pointers;         /* ss_args_kind of the call, 0: none taken */
    ss_arg_ref dst;           /* copies and memsets: the destination; frees: the pointer;
                               * allocations: where the allocation's address is written */
    ss_arg_ref src;           /* copies: the source */
    ss_arg_ref function;      /* driver launches: the CUfunction */
    ss_arg_ref kernel_params; /* driver launches: the kernelParams array */
    ss_arg_ref extra;         /* driver launches: the 'extra' array (parameters in one buffer) */
    /* Pinned host memory, for the light mode's kinds (not a pointer set): host allocations,
     * where the allocation's address is written; registrations, frees and unregistrations,
     * the pointer. */
    ss_arg_ref host;
} ss_args_spec;

/* The whole table; 'count' receives the number of rows. */
const ss_args_spec *ss_args_table(size_t *count);

/* cuda_api.def rows that have no CUPTI callback of their own (with the reason); every other
 * row has at least one ss_args_spec. NULL-terminated. */
typedef struct ss_args_absent {
    const char *api;
    const char *reason;
} ss_args_absent;
const ss_args_absent *ss_args_without_callback(void);

/* Reads argument 'ref' from the parameter struct 'params' (zero-extended to 64 bits).
 * Sets '*present' to 1 when the argument is taken and readable, else 0 and returns 0. */
uint64_t ss_args_read(const void *params, const ss_arg_ref *ref, int *present);

#endif
