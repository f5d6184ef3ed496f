/* rules.h: the public face of the rule catalog and the CUDA API table. */
#ifndef SS_RULES_H
#define SS_RULES_H

#include <stddef.h>

typedef enum ss_severity { SS_SEV_NOTE = 0, SS_SEV_WARNING = 1, SS_SEV_ERROR = 2 } ss_severity;

/* Which halves of syncscope detect a rule. */
enum { SS_HALF_STATIC = 1, SS_HALF_RUNTIME = 2, SS_HALF_BOTH = 3 };

/* What a rule's runtime time figure means (rules.def's cost column). Every writer decides
 * from this how to label and total a finding's time, so no writer names rule IDs. */
typedef enum ss_cost {
    SS_COST_NONE = 0,      /* no time figure */
    SS_COST_HOST,          /* the host was blocked by a synchronization it did not ask for */
    SS_COST_HOST_EXPLICIT, /* host time in synchronizations the program asked for */
    SS_COST_GPU_HELD,      /* GPU work on other streams was held back */
    SS_COST_SAVING         /* an estimated saving; nothing was blocked */
} ss_cost;

typedef enum ss_rule_id {
#define SS_RULE(enum_name, id, name, severity, halves, cost, summary, explanation)                 \
    SS_RULE_##enum_name,
#include "rules.def"
    SS_RULE_COUNT
} ss_rule_id;

typedef struct ss_rule {
    ss_rule_id rule;
    const char *id;          /* "SYNC101" */
    const char *name;        /* "default-stream-launch" */
    ss_severity severity;    /* default severity */
    int halves;              /* SS_HALF_* bits */
    ss_cost cost;            /* what its runtime time figure means */
    const char *summary;     /* one line */
    const char *explanation; /* long text with the fix */
} ss_rule;

typedef enum ss_api_domain { SS_DOMAIN_RT, SS_DOMAIN_DRV } ss_api_domain;

typedef enum ss_api_class {
    SS_CLASS_LAUNCH,
    SS_CLASS_COPY,
    SS_CLASS_MEMSET,
    SS_CLASS_ALLOC,
    SS_CLASS_FREE,
    SS_CLASS_HOST_ALLOC,
    SS_CLASS_MANAGED_ALLOC,
    SS_CLASS_HOST_REGISTER,
    SS_CLASS_HOST_UNREGISTER,
    SS_CLASS_HOST_FREE,
    SS_CLASS_EVENT_RECORD,
    SS_CLASS_STREAM_WAIT,
    SS_CLASS_STREAM_CREATE,
    SS_CLASS_STREAM_SYNC,
    SS_CLASS_DEVICE_SYNC,
    SS_CLASS_EVENT_SYNC,
    SS_CLASS_QUERY,
    SS_CLASS_CAPTURE_BEGIN,
    SS_CLASS_CAPTURE_END,
    SS_CLASS_GRAPH_LAUNCH,
    SS_CLASS_HOST_FUNC,
    SS_CLASS_PREFETCH,
    SS_CLASS_ATTACH,
    SS_CLASS_DEVICE_CONFIG,
    SS_CLASS_GRAPH_INSTANTIATE,
    SS_CLASS_GRAPH_UPLOAD
} ss_api_class;

typedef enum ss_sync_class {
    SS_SYNC_NEVER,    /* stream-ordered, returns at once */
    SS_SYNC_PAGEABLE, /* blocks when the host side is pageable */
    SS_SYNC_ALWAYS,   /* returns when the operation is complete */
    SS_SYNC_DEVICE,   /* may wait for all work on the device */
    SS_SYNC_EXPLICIT  /* a synchronization the program asked for */
} ss_sync_class;

typedef enum ss_copy_dir {
    SS_DIR_NONE,
    SS_DIR_KIND, /* decided by the cudaMemcpyKind argument */
    SS_DIR_H2D,
    SS_DIR_D2H,
    SS_DIR_D2D,
    SS_DIR_PEER
} ss_copy_dir;

typedef enum ss_api_id {
#define SS_API(name, domain, klass, sync, stream_arg, stream_opt, dst_arg, src_arg, size_arg,      \
               kind_arg, flags_arg, dir)                                                           \
    SS_API_##name,
#include "cuda_api.def"
    SS_API_COUNT
} ss_api_id;

typedef struct ss_api {
    ss_api_id api;
    const char *name;
    ss_api_domain domain;
    ss_api_class klass;
    ss_sync_class sync;
    int stream_arg; /* -1 when none */
    int stream_opt; /* 1 when the stream has a C++ default argument */
    int dst_arg, src_arg, size_arg, kind_arg, flags_arg;
    ss_copy_dir dir;
} ss_api;

/* The whole rule catalog, in ID order; 'count' receives the number of rows. */
const ss_rule *ss_rules_all(size_t *count);

/* The row of 'rule' (always valid for rule < SS_RULE_COUNT). */
const ss_rule *ss_rules_get(ss_rule_id rule);

/* Finds a rule by ID ("SYNC101") or by name ("default-stream-launch"), both in any case.
 * Returns the row, or NULL when 'key' names no rule. */
const ss_rule *ss_rules_find(const char *key);

/* Every way a rule may be written, for "did you mean": each rule's ID, then its name, in ID
 * order; 'count' receives the number of strings (twice the number of rules). */
const char *const *ss_rules_keys(size_t *count);

/* "note", "warning", "error". */
const char *ss_severity_name(ss_severity severity);

/* The cost column's name as JSON and the HTML page spell it: "none", "host",
 * "host-explicit", "gpu-held", "saving". */
const char *ss_cost_name(ss_cost cost);

/* Parses "note"/"warning"/"error" (case-insensitive) into 'out'. Returns 0, or -1 when
 * 'text' is not a severity. */
int ss_severity_parse(const char *text, ss_severity *out);

/* The whole CUDA API table; 'count' receives the number of rows. */
const ss_api *ss_api_all(size_t *count);

/* Finds an API row by its exact C name. CUPTI-style version and per-thread suffixes
 * ("cudaMemcpyAsync_v3020", "cudaMemcpyAsync_ptsz", "cuMemcpyHtoD_v2") are stripped first.
 * Returns the row, or NULL when the API is not in the table. */
const ss_api *ss_api_find(const char *name);

/* Whether 'name' is 'api' or 'api' with such a suffix: the C name a header gives the API by
 * macro (CUDA 13's cuda.h turns cuEventElapsedTime into cuEventElapsedTime_v2, cuMemAlloc into
 * cuMemAlloc_v2). For names outside the table as well. */
int ss_api_name_is(const char *name, const char *api);

/* Whether calling 'api' puts work on a stream (launches, async copies, memsets, event
 * records, host functions, graph launches, prefetches). */
int ss_api_enqueues(const ss_api *api);

/* Whether the light mode (docs/run.md, "Modes") observes 'api': a call that can block the host
 * or synchronize (any sync class but NEVER), a copy or memset of any kind (the host side
 * decides whether it blocks), an allocation or free of any family, a stream creation (which
 * streams the legacy one waits for) and a query. Never a launch, an event record, a stream
 * wait, a host function, a graph launch, a prefetch or an attach: the calls a launch-bound
 * program makes by the million. */
int ss_api_light(const ss_api *api);

/* Short words for the enums, for messages and the trace format. */
const char *ss_api_class_name(ss_api_class klass);
const char *ss_sync_class_name(ss_sync_class sync);

/* Host buffer sources (host_memory.def) and library readbacks (readback.def). */
typedef enum ss_host_memory_kind {
    SS_HOSTMEM_PAGEABLE_ALLOC,
    SS_HOSTMEM_PAGEABLE_OUT_ALLOC,
    SS_HOSTMEM_PAGEABLE_NEW,
    SS_HOSTMEM_PAGEABLE_CONTAINER,
    SS_HOSTMEM_DEFAULT_HELPER,
    SS_HOSTMEM_STORAGE_POINTER,
    SS_HOSTMEM_STORAGE_ELEMENT,
    SS_HOSTMEM_PITCHED_PTR_MAKER
} ss_host_memory_kind;

typedef struct ss_host_memory {
    const char *name; /* "malloc", "std::vector", "new[]", "data" */
    ss_host_memory_kind kind;
    int arg; /* argument index for PAGEABLE_OUT_ALLOC and PITCHED_PTR_MAKER, else -1 */
} ss_host_memory;

/* The whole host_memory.def table; 'count' receives the number of rows. */
const ss_host_memory *ss_host_memory_all(size_t *count);
/* The row whose name is exactly 'name' and whose kind is 'kind', or NULL. */
const ss_host_memory *ss_host_memory_find(const char *name, ss_host_memory_kind kind);

typedef enum ss_readback_kind {
    SS_READBACK_THRUST_VALUE_ALGO,
    SS_READBACK_THRUST_ITER_ALGO,
    SS_READBACK_THRUST_COUNT_ALGO,
    SS_READBACK_THRUST_DEVICE_CONTAINER,
    SS_READBACK_THRUST_ELEMENT_METHOD,
    SS_READBACK_THRUST_DEVICE_MARK,
    SS_READBACK_THRUST_HOST_MARK,
    SS_READBACK_THRUST_REFERENCE,
    SS_READBACK_THRUST_SYNC_ALGO,
    SS_READBACK_TORCH_TENSOR_CLASS,
    SS_READBACK_TORCH_READBACK_METHOD,
    SS_READBACK_TORCH_READBACK_FUNCTION,
    SS_READBACK_TORCH_TO_METHOD,
    SS_READBACK_TORCH_CPU_DEVICE,
    SS_READBACK_TORCH_CUDA_MARK,
    SS_READBACK_TORCH_FACTORY,
    SS_READBACK_CUBLAS_HOST_RESULT,
    SS_READBACK_CUBLAS_POINTER_MODE,
    SS_READBACK_CUBLAS_HOST_MODE,
    SS_READBACK_CUBLAS_SET_STREAM,
    SS_READBACK_CUBLAS_CREATE
} ss_readback_kind;

typedef struct ss_readback {
    const char *name; /* "thrust::reduce", "item", "device_ptr<" */
    ss_readback_kind kind;
} ss_readback;

/* The whole readback.def table; 'count' receives the number of rows. */
const ss_readback *ss_readback_all(size_t *count);
/* The row whose name is exactly 'name' and whose kind is 'kind', or NULL. */
const ss_readback *ss_readback_find(const char *name, ss_readback_kind kind);
/* The first row of kind 'kind' whose name occurs in 'text' (type-spelling fragments), or
 * NULL. */
const ss_readback *ss_readback_match(const char *text, ss_readback_kind kind);

/* Whether a frame says a framework is compiling or autotuning (compile_frames.def): a native
 * frame whose function starts with a FUNCTION row, or, when 'python', a frame whose file
 * contains a FILE row. NULL names match nothing. */
int ss_compile_frame(const char *function, const char *file, int python);

#endif
