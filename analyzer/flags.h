/* flags.h: how a compile command becomes a clang command line: flag translation
 * (flags.c) and the CUDA toolkit or the bundled declarations (toolkit.c). Private to the
 * analyzer. */
#ifndef SS_ANALYZER_FLAGS_H
#define SS_ANALYZER_FLAGS_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "compdb.h"

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
 * or dropped (the tables in flag_table.c), and relative include paths are joined to 'directory'
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
 * options, GPU architectures clang knows; the list is in flag_table.c): every other argument is
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
/* The folder that the include option at argv['i'] (-I, -isystem, -iquote, -idirafter,
 * -isystem-after, -cxx-isystem; its value joined or the next argument) adds to the search, or
 * NULL when argv['i'] is no such option. Points into argv. */
const char *ss_flags_include_dir(const char *const *argv, size_t count, size_t i);
/* Updates info->per_thread and info->lang from clang arguments such as --extra-arg values. */
void ss_flags_scan(const char *const *argv, size_t count, ss_flags_info *info);

/* Virtual folder that holds the texture_fetch_functions.h shim and the bundled CUDA
 * declarations; the files are handed to libclang as unsaved files. */
#define SS_VIRTUAL_INCLUDE "/__syncscope__/include"

typedef struct ss_toolkit {
    char *root;        /* CUDA toolkit root, NULL when parsing with the bundled declarations */
    int version[3];    /* its nvcc's version (13, 0, 88) */
    int version_parts; /* how many of 'version' are known: 0, 2 (cuda.h's) or 3 */
} ss_toolkit;

/* Finds the toolkit: 'requested' (--cuda-path), else $CUDA_PATH, else nvcc on PATH, else
 * /usr/local/cuda; SS_CUDA_PATH_NONE or SYNCSCOPE_NO_CUDA=1 select the bundled
 * declarations, as does finding nothing. Returns 0, or -1 (message printed) when
 * 'requested' names a folder without include/cuda_runtime.h. */
int ss_toolkit_find(const char *requested, ss_toolkit *out);
void ss_toolkit_free(ss_toolkit *toolkit);
/* Appends the macros nvcc defines for every unit it compiles and clang does not, that a
 * project's #if may test (-D__CUDACC_VER_MAJOR__=13, _MINOR__, _BUILD__: 'toolkit''s
 * version), to 'out', for a unit whose command is nvcc's; they go before the command's own
 * arguments, so that its -D and -U win. Nothing when the version is not known. */
void ss_toolkit_nvcc_macros(const ss_toolkit *toolkit, ss_args *out);
/* Appends the arguments that parse 'lang' sources against 'toolkit' to 'out': the language,
 * the CUDA mode and the implicit -include files, which go before the compile command's own
 * arguments (which override them). */
void ss_toolkit_args(const ss_toolkit *toolkit, ss_lang lang, ss_args *out);
/* Appends the toolkit's include folders (TOOLKIT/include for C and C++, TOOLKIT/include/cccl,
 * the shims, or the bundled declarations) to 'out'. They go after the compile command's own
 * arguments and --extra-arg, as nvcc searches them: a project's own CCCL given with
 * -isystem is found before the toolkit's. */
void ss_toolkit_search_args(const ss_toolkit *toolkit, ss_lang lang, ss_args *out);
/* The unsaved files under SS_VIRTUAL_INCLUDE; 'count' receives their number. */
const struct CXUnsavedFile *ss_toolkit_virtual_files(unsigned *count);

#endif
