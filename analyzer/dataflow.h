/* dataflow.h: reaching definitions of a storage location (dataflow.c) and host
 * pointer provenance built on them (provenance.c). Private to the analyzer. */
#ifndef SS_ANALYZER_DATAFLOW_H
#define SS_ANALYZER_DATAFLOW_H

#include <clang-c/Index.h>
#include <stddef.h>

/* Reaching definitions (dataflow.c): for a storage location named by an expression
 * (a local variable, a field of a local struct, any element of a local array), the
 * definitions that may reach one use inside a function. Intraprocedural and conservative. */
typedef enum ss_def_kind {
    SS_DEF_VALUE,   /* the location receives 'value' (an initializer or an assignment) */
    SS_DEF_ZERO,    /* value-initialized to zero (an empty or short initializer list) */
    SS_DEF_OUT_ARG, /* its address is argument 'arg_index' of 'call' (cudaStreamCreate(&s)) */
    SS_DEF_UNKNOWN  /* anything else: a parameter, an escape, ++, +=, an uninitialized local */
} ss_def_kind;

typedef struct ss_def {
    ss_def_kind kind;
    CXCursor value; /* SS_DEF_VALUE */
    CXCursor call;  /* SS_DEF_OUT_ARG */
    unsigned arg_index;
} ss_def;

typedef struct ss_defs {
    ss_def *v;
    size_t count, cap;
} ss_defs;

/* A storage location: a variable, optionally one of its fields or its elements. */
typedef struct ss_location {
    CXCursor var; /* the VarDecl or ParmDecl */
    char *field;  /* field name, or NULL for the whole variable */
    int element;  /* 1: any element of an array variable */
    int values;   /* 1 (pointer provenance): 'p += n', 'p -= n', '++p', 'p--' are
                   * SS_DEF_VALUE definitions whose value is that expression, and a class
                   * assignment through operator= ('s.ptr = make_cudaPitchedPtr(...)') is an
                   * SS_DEF_VALUE of its right-hand side; 0: both as before */
} ss_location;

/* Names the location that 'expr' designates ("s", "cfg.stream", "streams[i]", "&cfg" with
 * 'field' given). Returns 0, or -1 when 'expr' is not a location the dataflow tracks. The
 * location's field is malloc'ed; release with ss_location_free. */
int ss_location_of(CXCursor expr, const char *field, ss_location *out);
void ss_location_free(ss_location *loc);

/* Collects into 'out' (appended) the definitions of 'loc' that may reach 'use' inside
 * 'function'. A use the analysis cannot bound yields one SS_DEF_UNKNOWN. Nodes inside
 * 'use' itself are not definitions. Returns 0, or -1 when 'function' is not one the
 * analysis handles (then 'out' holds an SS_DEF_UNKNOWN). */
int ss_dataflow_reaching(CXCursor function, const ss_location *loc, CXCursor use, ss_defs *out);
void ss_defs_free(ss_defs *defs);

/* Host pointer provenance (provenance.c): where the buffer a host pointer points into comes
 * from, followed through declarations, assignments, casts, pointer arithmetic, '&a[i]',
 * '.data()', '&v[0]', both arms of '?:' and fields of local structs, within one function. */
typedef enum ss_host_kind {
    SS_HOST_UNKNOWN,    /* a parameter, a global pointer, a call result, mixed definitions */
    SS_HOST_PAGEABLE,   /* malloc/new/containers/arrays/addresses of objects */
    SS_HOST_PINNED,     /* cudaMallocHost, cudaHostAlloc */
    SS_HOST_REGISTERED, /* pageable, but passed to cudaHostRegister earlier in the function */
    SS_HOST_MANAGED,    /* cudaMallocManaged */
    SS_HOST_DEVICE      /* cudaMalloc: not host memory at all */
} ss_host_kind;

typedef struct ss_provenance {
    ss_host_kind kind;
    char *source;    /* malloc'ed words naming the source ("malloc()", "new[]", "the storage
                      * of std::vector 'v'", "local array 'buf'"), or NULL when unknown */
    CXCursor origin; /* the allocating expression or the declaration of the storage */
    unsigned line;   /* the line of 'origin' */
} ss_provenance;

/* Classifies the host pointer expression 'expr' as used where it stands, inside 'function'
 * (a check context's function). Fills 'out' (release with ss_provenance_free). Returns 0,
 * or -1 (with 'out' unknown) when there is no function to analyze. */
int ss_provenance_of(CXCursor function, CXCursor expr, ss_provenance *out);
void ss_provenance_free(ss_provenance *p);
/* "pageable", "pinned", ... */
const char *ss_host_kind_name(ss_host_kind kind);

#endif
