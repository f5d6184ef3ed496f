/* internal.h: declarations shared by the analyzer's own files and its unit tests. */
#ifndef SS_ANALYZER_INTERNAL_H
#define SS_ANALYZER_INTERNAL_H

#include <clang-c/Index.h>
#include <stddef.h>

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
 * output/dependency options are removed, nvcc options are translated or dropped (the table
 * in flags.c), and relative include paths are joined to 'directory' (the entry's
 * "directory"; NULL leaves them). 'file' may be NULL. Fills 'info'. */
void ss_flags_translate(const ss_args *argv, const char *file, const char *directory, ss_args *out,
                        ss_flags_info *info);
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
/* The integer value of a constant expression 'expr'. Returns 0, or -1 when not constant. */
int ss_ast_eval_int(CXCursor expr, long long *value);
/* The name of the function a call calls (the referenced declaration's name), malloc'ed, or
 * NULL. */
char *ss_ast_callee_name(CXCursor call);
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
    int per_thread;      /* the default stream is per-thread in this TU */
    int torch;           /* the TU includes ATen/torch headers */
    CXCursor function;   /* innermost function-like cursor around the call, or null */
    char *function_name; /* the named function around the call, or NULL */
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

/* A path as shown to the user (malloc'ed): relative to the working directory when the file
 * lies under it, else absolute. */
char *ss_display_path(const char *path);

/* Analyzes one translation unit (tu.c): parses 'file' with 'args' (clang arguments without
 * the file) in 'index' and appends findings and parse diagnostics to 'out'. Returns 0, 1
 * when the parse had a fatal error (the file was analyzed as far as clang recovered), or -1
 * when libclang produced no translation unit at all. */
int ss_tu_analyze(CXIndex index, const char *file, const ss_args *args, const ss_flags_info *info,
                  ss_result *out);

#endif
