/* symbolize.h: native addresses to modules, symbols, inlined calls and source lines with
 * elfutils libdw, for the finisher (and its unit tests and bench/exit). Each module's symbol
 * table is indexed once (libdw's own lookup scans the whole table for every address), and what
 * an address resolved to can be kept in the persistent cache of symcache.h. Internal to
 * interpose/. */
#ifndef SS_INTERPOSE_SYMBOLIZE_H
#define SS_INTERPOSE_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "symcache.h"

typedef struct ss_symbolizer ss_symbolizer;

typedef struct ss_sym_options {
    const char *cache_dir; /* the persistent cache's folder; NULL or "": none */
    /* 1: libdw's own symbol lookup (dwfl_module_addrname: the whole symbol table is scanned
     * for every address), the reference the index must agree with (tests, bench/exit) */
    int linear;
} ss_sym_options;

/* Where the time went (SYNCSCOPE_TIMING, bench/exit) and how much work there was. */
typedef struct ss_sym_stats {
    size_t modules;       /* modules the resolved addresses fell in */
    size_t resolved;      /* addresses resolved with libdw */
    size_t cache_hits;    /* addresses served by the persistent cache */
    size_t cache_read;    /* cache files read (valid) */
    size_t cache_written; /* cache files written */
    size_t symbols;       /* symbols indexed */
    uint64_t report_ns;   /* reporting the process's modules to libdw */
    uint64_t open_ns;     /* finding an address's module, opening its file, its build-id */
    uint64_t index_ns;    /* reading and sorting symbol tables */
    uint64_t symbol_ns;   /* symbol lookups */
    uint64_t line_ns;     /* line table lookups (dwfl_module_getsrc; loads DWARF) */
    uint64_t inline_ns;   /* DWARF scopes: inlined calls (dwarf_getscopes) */
    uint64_t cache_ns;    /* reading and writing cache files */
} ss_sym_stats;

/* A symbolizer of the running process 'pid' (its modules as /proc/PID/maps lists them), or
 * NULL when libdw is missing or cannot read them. 'options' may be NULL. */
ss_symbolizer *ss_sym_open_process(int pid, const ss_sym_options *options);

/* A symbolizer of the ELF files 'paths' ('count' of them), each as if loaded with load bias
 * 'biases[i]' (addresses of the file plus the bias), or NULL when one cannot be read. */
ss_symbolizer *ss_sym_open_files(const char *const *paths, const uint64_t *biases, size_t count,
                                 const ss_sym_options *options);

/* The module of return address 'pc' (the call is the instruction before it): its file into
 * '*path' (owned by the symbolizer) and, when its ELF file could be read, its load bias into
 * '*bias'. Returns 1 with the bias, 0 without it, -1 when 'pc' is in no module. Cheap: no
 * symbol or debug information is read. */
int ss_sym_module(ss_symbolizer *s, uint64_t pc, const char **path, uint64_t *bias);

/* Resolves return address 'pc' into 'out': the symbol table's name of the instruction before
 * it, the source line of the line table in frames[0], and with 'inlines' the functions
 * inlined there as frames of their own (frames[k].function: the name of the k-th DWARF scope,
 * innermost first; frames[k + 1].file/line: where scope k was inlined). Strings are raw
 * (mangled) and owned by the symbolizer until ss_sym_close. Returns 0, or -1 when 'pc' is in
 * no module ('out' then has one empty frame). */
int ss_sym_resolve(ss_symbolizer *s, uint64_t pc, int inlines, ss_symcache_entry *out);

/* Writes what this run added to the persistent cache and prunes its folder
 * (SS_SYMCACHE_FOLDER_MAX). Returns the number of files written, or -1 when one could not be
 * (the cache is an optimization: the caller may go on). */
int ss_sym_save(ss_symbolizer *s);

/* The counts and times so far. */
const ss_sym_stats *ss_sym_stats_get(const ss_symbolizer *s);

/* Frees the symbolizer and every string it gave out. NULL is ignored. */
void ss_sym_close(ss_symbolizer *s);

#endif
