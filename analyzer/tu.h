/* tu.h: one translation unit: what it is analyzed with, the files it read, and its
 * analysis (tu.c); paths as shown and libclang's error codes in words. Private to the
 * analyzer. */
#ifndef SS_ANALYZER_TU_H
#define SS_ANALYZER_TU_H

#include <clang-c/Index.h>
#include <stddef.h>
#include <stdint.h>

#include "checks.h"
#include "compdb.h"
#include "flags.h"
#include "report.h"

/* A libclang error code in words. */
const char *ss_cx_error_words(enum CXErrorCode code);

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
    const char *const *hot_functions; /* the file's hot-functions globs */
    size_t hot_count;
    /* The main file's text when it is not read from 'file' (standard input), or NULL. */
    const char *text;
    size_t text_len;
    /* The folder of its compile command, and the folder of the compile database (-p, absolute);
     * NULL without them. Include folders under either are the build's. */
    const char *directory;
    const char *build_dir;
    int verbose; /* --verbose: say when the unit was parsed again (launches rewritten) */
} ss_tu_input;

/* Analyzes one translation unit (tu.c): parses 'in'->file in 'index' and appends findings
 * and parse diagnostics to 'out'; when 'files' is not NULL, appends the files it read
 * (clang_getInclusions) with their content hashes; when 'streams' is not NULL, fills it with
 * what the other units need to know of its streams (SYNC103 across units). Returns 0, 1 when
 * the parse had an error (the file was analyzed as far as clang recovered), or -1 when
 * libclang produced no translation unit at all. */
int ss_tu_analyze(CXIndex index, const ss_tu_input *in, ss_result *out, ss_tu_files *files,
                  ss_tu_streams *streams);

#endif
