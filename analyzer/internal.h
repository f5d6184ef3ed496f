/* internal.h: declarations shared by the analyzer's own files and its unit tests. */
#ifndef SS_ANALYZER_INTERNAL_H
#define SS_ANALYZER_INTERNAL_H

#include <clang-c/Index.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer.h"
#include "report.h"
#include "rules.h"

/* A growable argument vector; every string is owned by it. */
typedef struct ss_args {
    char **v;
    size_t count, cap;
} ss_args;

/* Appends a copy of 'arg'. */
void ss_args_push(ss_args *args, const char *arg);
/* Frees every string and the vector; leaves 'args' empty and reusable. */
void ss_args_free(ss_args *args);

/* One compile_commands.json entry. 'file' is absolute (joined with 'directory'). */
typedef struct ss_compile_command {
    char *directory;
    char *file;
    ss_args argv; /* the compiler command line, argv[0] is the compiler */
} ss_compile_command;

typedef struct ss_compdb {
    ss_compile_command *commands;
    size_t count;
} ss_compdb;

/* Reads BUILD_DIR/compile_commands.json into 'db' (zeroed here). Returns 0, or -1 with a
 * description in 'err'. */
int ss_compdb_load(const char *build_dir, ss_compdb *db, char *err, size_t err_size);
/* Parses a compile database held in memory ('text', 'len' bytes; 'origin' names it in
 * messages). Accepts both the "command" and the "arguments" form. Returns 0, or -1 with a
 * description in 'err'. */
int ss_compdb_parse(const char *text, size_t len, const char *origin, ss_compdb *db, char *err,
                    size_t err_size);
/* The entry for the absolute path 'file', or NULL. */
const ss_compile_command *ss_compdb_find(const ss_compdb *db, const char *file);
void ss_compdb_free(ss_compdb *db);
/* Splits a shell command line into words the way a POSIX shell would (quotes, backslashes;
 * no expansion). Returns 0, or -1 on an unterminated quote. */
int ss_compdb_split(const char *command, ss_args *out);

/* Bounds of response-file expansion: nesting depth, the size of one file, the bytes of all
 * files of one command, and the arguments of one command. */
#define SS_COMPDB_RESPONSE_DEPTH 8
#define SS_COMPDB_RESPONSE_MAX_BYTES (1ull << 20)
#define SS_COMPDB_RESPONSE_BUDGET (8ull << 20)
#define SS_COMPDB_RESPONSE_MAX_ARGS 65536

/* Copies the command line 'argv' to 'out' with its response files expanded: "@FILE", and
 * nvcc's "--options-file FILE" / "-optf FILE" (also "=FILE", and a comma-separated list),
 * are replaced by the words of FILE, split like a shell command line, and expanded in turn.
 * Relative file names are taken from 'directory' (the entry's "directory"; nested ones too,
 * as the compiler, run there, would). Each file must be a regular file of at most
 * SS_COMPDB_RESPONSE_MAX_BYTES, nested at most SS_COMPDB_RESPONSE_DEPTH deep, within the
 * bounds above. Returns 0, or -1 with the first failure described in 'err' (the file that
 * failed is left out; the rest is expanded). */
int ss_compdb_expand(const ss_args *argv, const char *directory, ss_args *out, char *err,
                     size_t err_size);

typedef enum ss_lang { SS_LANG_C, SS_LANG_CXX, SS_LANG_CUDA } ss_lang;

/* What flag translation learned about a translation unit. */
typedef struct ss_flags_info {
    ss_lang lang;   /* from -x, else from the file name */
    int per_thread; /* --default-stream per-thread or -DCUDA_API_PER_THREAD_DEFAULT_STREAM */
    int nvcc;       /* the command was an nvcc command line */
} ss_flags_info;

/* The language of a source path by its extension. Returns 0, or -1 when the path is not a
 * C, C++ or CUDA source or header. */
int ss_flags_lang_of(const char *path, ss_lang *out);

/* Translates a compiler command line ('argv'[0] is the compiler; nvcc, gcc, g++, clang...)
 * for 'file' into clang arguments appended to 'out': the compiler, the source file, and
 * every argument a syntax-only parse does not need are removed, nvcc options are translated
 * or dropped (the tables in flags.c), and relative include paths are joined to 'directory'
 * (the entry's "directory"; NULL leaves them). 'file' may be NULL. Fills 'info'. */
void ss_flags_translate(const ss_args *argv, const char *file, const char *directory, ss_args *out,
                        ss_flags_info *info);
/* What flag translation removes besides what its allow-list drops, and where it says so. */
typedef struct ss_flags_filter {
    const char *const *remove; /* --remove-arg patterns: an argument, an option (with its
                                * value), or a prefix ending in '*' */
    size_t remove_count;
    ss_args *dropped; /* when not NULL, receives one line per dropped argument (an option with
                       * its value is one): "'-MF dep.d' (it writes a file)" */
} ss_flags_filter;

/* ss_flags_translate, where only the argument kinds a syntax-only parse needs pass (include
 * paths and files, macros, the language standard, the target, warnings, chosen -f and -m
 * options, GPU architectures clang knows; the list is in flags.c): every other argument is
 * dropped, as are those 'filter'->remove names (as written, or as translated), and each
 * dropped one is described in 'filter'->dropped. Arguments are passed on with their values
 * joined (-I/build/inc), so that none takes the next one as its value. 'filter' may be
 * NULL. */
void ss_flags_translate_filtered(const ss_args *argv, const char *file, const char *directory,
                                 const ss_flags_filter *filter, ss_args *out, ss_flags_info *info);
/* The arguments 'argv' joined by spaces as a shell would read them back (quoted where they
 * hold other than plain characters), control characters written \xNN. Malloc'ed. */
char *ss_flags_shown(const char *const *argv, size_t count);
/* Whether 'arg' is an option that takes its value as the next argument (-isystem, -Xclang,
 * -MF, nvcc's -Xptxas...). Returns 1 or 0. */
int ss_flags_takes_value(const char *arg);
/* How many arguments, from argv['i'], make one option with its value: 2 for an option that
 * takes the next argument as its value, else 1. */
size_t ss_flags_group_len(const char *const *argv, size_t count, size_t i);
/* Updates info->per_thread and info->lang from clang arguments such as --extra-arg values. */
void ss_flags_scan(const char *const *argv, size_t count, ss_flags_info *info);

/* Virtual folder that holds the texture_fetch_functions.h shim and the bundled CUDA
 * declarations; the files are handed to libclang as unsaved files. */
#define SS_VIRTUAL_INCLUDE "/__syncscope__/include"

typedef struct ss_toolkit {
    char *root; /* CUDA toolkit root, NULL when parsing with the bundled declarations */
} ss_toolkit;

/* Finds the toolkit: 'requested' (--cuda-path), else $CUDA_PATH, else nvcc on PATH, else
 * /usr/local/cuda; SS_CUDA_PATH_NONE or SYNCSCOPE_NO_CUDA=1 select the bundled
 * declarations, as does finding nothing. Returns 0, or -1 (message printed) when
 * 'requested' names a folder without include/cuda_runtime.h. */
int ss_toolkit_find(const char *requested, ss_toolkit *out);
void ss_toolkit_free(ss_toolkit *toolkit);
/* Appends the arguments that parse 'lang' sources against 'toolkit' to 'out'. */
void ss_toolkit_args(const ss_toolkit *toolkit, ss_lang lang, ss_args *out);
/* The unsaved files under SS_VIRTUAL_INCLUDE; 'count' receives their number. */
const struct CXUnsavedFile *ss_toolkit_virtual_files(unsigned *count);

/* A libclang error code in words. */
const char *ss_cx_error_words(enum CXErrorCode code);

/* Small cursor helpers (ast.c). */
/* The cursor with casts, parentheses and implicit conversions peeled off. */
CXCursor ss_ast_strip(CXCursor expr);
/* The 'index'-th child of 'parent', or a null cursor. */
CXCursor ss_ast_child(CXCursor parent, unsigned index);
unsigned ss_ast_child_count(CXCursor parent);
/* Whether 'c' is a null or invalid cursor. */
int ss_ast_is_null(CXCursor c);
/* Start offset of a cursor's extent, at its expansion location. */
unsigned ss_ast_offset(CXCursor c);
/* Start and end offsets (expansion locations) of a cursor's extent. */
void ss_ast_range(CXCursor c, unsigned *begin, unsigned *end);
/* Whether two cursors are the same node: cursors reached by different walks may differ in
 * the parent they carry, so kind and extent decide. */
int ss_ast_same_node(CXCursor a, CXCursor b);
/* The integer value of a constant expression 'expr'. Returns 0, or -1 when not constant. */
int ss_ast_eval_int(CXCursor expr, long long *value);
/* The name of the function a call calls (the referenced declaration's name), malloc'ed, or
 * NULL. */
char *ss_ast_callee_name(CXCursor call);
/* The text of 'file' between offsets 'begin' and 'end' with every run of whitespace folded
 * to one space, malloc'ed, or NULL when it is unreadable, out of the file or longer than
 * 'max' bytes. */
char *ss_ast_file_text(CXTranslationUnit tu, CXFile file, unsigned begin, unsigned end, size_t max);
/* Whether 'c' lies in a system header (or has no location). */
int ss_ast_in_system_header(CXCursor c);
/* The text of the operator token of a binary operator cursor, written to 'out'. Returns 0,
 * or -1 when it cannot be read (inside a macro expansion). */
int ss_ast_binary_op(CXCursor op, char *out, size_t out_size);
/* Whether 'c' is a function-like cursor (function, method, constructor, lambda...). */
int ss_ast_is_function(CXCursor c);

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

/* What one translation unit knows while its checks run (tu.c). */
typedef struct ss_check_ctx {
    CXTranslationUnit tu;
    ss_result *result;
    int per_thread;          /* the default stream is per-thread in this TU */
    int torch;               /* the TU includes ATen/torch headers */
    CXCursor function;       /* innermost function-like cursor around the call, or null */
    char *function_name;     /* the named function around the call, or NULL */
    unsigned readback_bytes; /* SYNC301: the largest device-to-host copy that is a readback
                              * (the file's effective readback-bytes setting) */
    int stream_use;          /* SYNC101: 0 not looked at yet, 1 the unit uses another stream or
                              * an asynchronous copy, 2 it does not */
} ss_check_ctx;

/* Adds a finding of 'rule' at 'at' (its expansion location) to the context's result, unless
 * it lies in a system header. 'message' and 'hint' are copied; 'hint' may be NULL. */
void ss_check_report(ss_check_ctx *ctx, ss_rule_id rule, CXCursor at, const char *message,
                     const char *hint);

/* Checks, dispatched from tu.c by API class and by kernel-launch syntax. */
/* An API call ('api' is its row) with a stream argument: SYNC101 for launches, graph launches
 * and host functions, SYNC102 for the asynchronous classes. */
void ss_check_default_stream_call(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* A k<<<grid, block, shmem, stream>>>(...) launch; 'config' is its configuration call. */
void ss_check_default_stream_launch(ss_check_ctx *ctx, CXCursor launch, CXCursor config);
/* cudaStreamCreate and friends: SYNC103. */
void ss_check_stream_create(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* Stream, device and event synchronization inside a loop that enqueues device work:
 * SYNC401 (loops.c). */
void ss_check_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* A call of the device-wide synchronizing class (cudaMalloc, cudaFree, cudaHostRegister,
 * cudaDeviceSetLimit...) inside a loop that enqueues device work: SYNC402 (loops.c). */
void ss_check_device_sync_in_loop(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* cudaStreamBeginCapture: capture-unsafe calls before the matching EndCapture in the same
 * function, SYNC501 (capture.c). */
void ss_check_capture(ss_check_ctx *ctx, CXCursor call, const ss_api *api);

/* A path as shown to the user (malloc'ed): relative to the working directory when the file
 * lies under it, else absolute. */
char *ss_display_path(const char *path);

/* A 64-bit hash of 'len' bytes at 'data', continuing from 'seed' (0 to start). Not
 * cryptographic: it tells changed file contents and command lines apart. */
uint64_t ss_hash_bytes(const void *data, size_t len, uint64_t seed);

/* The files a translation unit read while it was parsed, with the hash of the content clang
 * saw; the main file first. Files served from memory (SS_VIRTUAL_INCLUDE) are not listed. */
typedef struct ss_tu_file {
    char *path; /* as libclang names it (absolute for everything the analyzer parses) */
    uint64_t hash;
} ss_tu_file;

typedef struct ss_tu_files {
    ss_tu_file *v;
    size_t count, cap;
    int incomplete; /* a file's content could not be had: the list cannot validate a cache */
} ss_tu_files;

void ss_tu_files_free(ss_tu_files *files);

/* What one translation unit is analyzed with. */
typedef struct ss_tu_input {
    const char *file;          /* absolute path of the main file */
    const ss_args *args;       /* clang arguments without the file */
    const ss_flags_info *info; /* what flag translation learned */
    unsigned readback_bytes;   /* the file's effective readback-bytes */
    /* Where the arguments come from, to say which one clang rejected: args[user_begin,
     * extra_begin) from the compile command, [extra_begin, extra_end) from --extra-arg, the
     * rest the analyzer's own. All zero: none is the user's. */
    size_t user_begin, extra_begin, extra_end;
} ss_tu_input;

/* Analyzes one translation unit (tu.c): parses 'in'->file in 'index' and appends findings
 * and parse diagnostics to 'out'; when 'files' is not NULL, appends the files it read
 * (clang_getInclusions) with their content hashes. Returns 0, 1 when the parse had an error
 * (the file was analyzed as far as clang recovered), or -1 when libclang produced no
 * translation unit at all. */
int ss_tu_analyze(CXIndex index, const ss_tu_input *in, ss_result *out, ss_tu_files *files);

/* The per-translation-unit result cache (cache.c): entries under one folder, keyed by the
 * main file, its arguments and the settings that change findings, and valid while every
 * file the unit read still has the content it had. Thread-safe. */
typedef struct ss_cache ss_cache;

/* Opens (creating it and its parents) the cache folder 'dir'. Returns NULL, with a warning
 * printed, when the folder cannot be created; the run then goes on without a cache. */
ss_cache *ss_cache_open(const char *dir);
void ss_cache_close(ss_cache *cache);
/* The key of a translation unit: 'in' (file, arguments, readback-bytes), the working
 * directory (paths in findings are shown relative to it) and the analyzer's own version and
 * bundled files. Writes 16 hex digits and a NUL to 'key'. */
void ss_cache_key(const ss_tu_input *in, char key[17]);
/* Looks 'key' up. Returns 1 and appends the cached findings and diagnostics to 'out' (with
 * the unit's status, as ss_tu_analyze returns it, -1 included, in 'status') when the entry
 * exists, reads back whole and every file it lists still hashes the same (a folder, listed
 * with a trailing '/', the same names); 0 otherwise (a missing, stale or corrupt entry: the
 * caller parses). */
int ss_cache_lookup(ss_cache *cache, const char *key, ss_result *out, int *status);
/* The hash of the names in the folder 'dir' (sorted), for an entry that lists a folder (its
 * path with a trailing '/') as a file it depends on: a header that was not found appears
 * there. Returns 0, or -1 when the folder cannot be read. */
int ss_cache_folder_hash(const char *dir, uint64_t *hash);
/* Stores the unit's 'result', 'status' and 'files' under 'key' atomically (a temporary file,
 * then rename). Returns 0, or -1 when it could not be written (the run goes on). */
int ss_cache_store(ss_cache *cache, const char *key, const ss_tu_files *files,
                   const ss_result *result, int status);

/* Where a call sits (scope.c): loops around it within its function, also through local
 * lambdas, and whether a loop launches kernels or enqueues device work. */
typedef enum ss_scope_work {
    SS_SCOPE_LAUNCHES, /* kernel launches: k<<<...>>>, API classes LAUNCH and GRAPH_LAUNCH */
    SS_SCOPE_ENQUEUES  /* a launch or any call for which ss_api_enqueues() is true, except
                        * event records and stream waits (ordering, not work) */
} ss_scope_work;

/* Whether 'c' is a for, while, do or range-for statement. */
int ss_scope_is_loop(CXCursor c);
/* The name of the function 'call' calls, malloc'ed, or NULL: ss_ast_callee_name, and for a
 * call left unresolved in a template (type-dependent arguments) the overload set's name. */
char *ss_scope_callee_name(CXCursor call);
/* Whether 'c' is the configuration call of a <<<...>>> launch (__cudaPushCallConfiguration,
 * or cudaConfigureCall before CUDA 9.2). */
int ss_scope_is_launch_config(CXCursor c);
/* Whether 'call' is a k<<<...>>>(...) launch (its second child is the configuration call). */
int ss_scope_is_launch(CXCursor call);
/* The name of the kernel a k<<<...>>>(...) launch calls, as spelled ('k' for k<T><<<...>>> in
 * a template too), malloc'ed, or NULL when the callee is not named (a function pointer). */
char *ss_scope_kernel_name(CXCursor launch);
/* The named function a lambda 'function' sits in (through nested lambdas); any other
 * cursor is returned as it is. */
CXCursor ss_scope_outer_function(CXCursor function);
/* Writes to 'out' (at most 'max') the loops around 'c', innermost first, looking in the
 * whole named function around 'function' (the check context's function; it may be a
 * lambda). When 'c' is inside a lambda bound to a local variable ('auto step = [&]{...}'),
 * the loops around each call of that variable follow, innermost first. Returns the number
 * written. */
size_t ss_scope_enclosing_loops(CXCursor function, CXCursor c, CXCursor *out, size_t max);
/* The innermost loop around 'c' as above, or a null cursor. */
CXCursor ss_scope_enclosing_loop(CXCursor function, CXCursor c);
/* Whether 'body' (a loop, or any statement) does 'what', directly or in the body of a local
 * lambda it calls through a variable. '*first' (may be NULL) receives the first such call,
 * or a null cursor. Returns 1 or 0. */
int ss_scope_has_work(CXCursor body, ss_scope_work what, CXCursor *first);
/* ss_scope_has_work(loop, SS_SCOPE_LAUNCHES, first). */
int ss_scope_loop_launches(CXCursor loop, CXCursor *first);
/* ss_scope_has_work(loop, SS_SCOPE_ENQUEUES, first). */
int ss_scope_loop_enqueues(CXCursor loop, CXCursor *first);
/* The line of 'c' (its expansion location), for messages. */
unsigned ss_scope_line(CXCursor c);

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
/* The text of 'expr' as written (a macro argument as in the invocation; whitespace runs
 * folded), malloc'ed, or NULL when it is long or unreadable. */
char *ss_expr_text(CXCursor expr);
/* "ns::Class::name" for a declaration, skipping inline namespaces (std::__1, std::__cxx11),
 * malloc'ed. */
char *ss_qualified_name(CXCursor decl);
/* The qualified name of the class template a type (or the type a reference or pointer
 * refers to) specializes, or of the class itself, malloc'ed; NULL when it is not a class. */
char *ss_type_template_name(CXType type);

/* cudaMemcpyKind values (driver_types.h), and SS_COPY_KIND_UNKNOWN. */
enum {
    SS_COPY_KIND_H2H = 0,
    SS_COPY_KIND_H2D = 1,
    SS_COPY_KIND_D2H = 2,
    SS_COPY_KIND_D2D = 3,
    SS_COPY_KIND_DEFAULT = 4,
    SS_COPY_KIND_UNKNOWN = -1
};

/* The direction of the runtime copy 'call' ('api' is its row; checks/pageable_copy.c): the
 * API's fixed direction, else its cudaMemcpyKind argument (a variable followed through its
 * reaching definitions in 'function' while they agree), else the 'kind' field of the local
 * cudaMemcpy3DParms it is given. Sets 'dst' and 'src' to the pointer arguments (null cursors
 * where not visible). Returns an SS_COPY_KIND_ value. */
int ss_copy_kind(CXCursor function, CXCursor call, const ss_api *api, CXCursor *dst, CXCursor *src);

/* Checks of the copy rules (checks/pageable_copy.c, checks/sync_copy.c, checks/readback.c),
 * dispatched from tu.c. */
/* SYNC201: an asynchronous copy whose host side is provably pageable (class COPY). */
void ss_check_pageable_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* SYNC202: a synchronous runtime copy or memset in a function that uses a non-default stream
 * or inside a loop that launches kernels (classes COPY and MEMSET). */
void ss_check_sync_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* SYNC301: a device-to-host copy of a scalar that the host waits for (class COPY). */
void ss_check_readback_copy(ss_check_ctx *ctx, CXCursor call, const ss_api *api);
/* SYNC301: Thrust and libtorch readbacks; called for every call, whatever its callee. */
void ss_check_readback_call(ss_check_ctx *ctx, CXCursor call);

#endif
