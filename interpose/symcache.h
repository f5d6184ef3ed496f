/* symcache.h: the persistent symbol cache of the finisher (docs/run.md, "Symbol cache"): for
 * each module, keyed by its GNU build-id, what earlier runs learned about its addresses
 * (symbol, inlined calls, source lines), so that a later run of the same program does not ask
 * libdw again. Pure C (no libdw); internal to interpose/. */
#ifndef SS_INTERPOSE_SYMCACHE_H
#define SS_INTERPOSE_SYMCACHE_H

#include <stddef.h>
#include <stdint.h>

/* Frames one address expands to at most (the innermost and its inlined callers). */
#define SS_SYM_INLINE_DEPTH 8

/* Longest build-id kept (GNU build-ids are 20 bytes; the format allows up to this). */
#define SS_SYMCACHE_BUILD_ID_MAX 64

/* Bounds: one module's file, and all files of the folder together (the least recently used
 * files are removed past it). */
#define SS_SYMCACHE_FILE_MAX (4u << 20)
#define SS_SYMCACHE_FOLDER_MAX (64u << 20)

/* One frame of an address: the name of its DWARF scope (raw, as in the file: mangled), the
 * source file and line. NULL and 0 when unknown. */
typedef struct ss_symcache_frame {
    const char *function;
    const char *file;
    uint32_t line;
} ss_symcache_frame;

/* What one address of a module resolved to. */
typedef struct ss_symcache_entry {
    uint64_t offset;    /* the address in the module's file (run-time address less the bias) */
    const char *symbol; /* the symbol table's name (raw), NULL when none */
    uint8_t expanded;   /* 1: the DWARF scopes were read (inlined calls expanded) */
    uint8_t nframes;    /* 1 ... SS_SYM_INLINE_DEPTH */
    ss_symcache_frame frames[SS_SYM_INLINE_DEPTH]; /* [0] innermost: the line table's place */
} ss_symcache_entry;

/* The debug information libdw read for a module, which the entries depend on: a separate
 * debug file (its path, size and modification time), or none ("": the module's own sections,
 * or no debug information at all). */
typedef struct ss_symcache_debug {
    char path[4096];
    uint64_t size;
    int64_t mtime_ns;
} ss_symcache_debug;

/* Flags of an entry of a table: found by ss_symcache_find in this run; added in this run. */
#define SS_SYMCACHE_USED 1u
#define SS_SYMCACHE_ADDED 2u

/* The entries of one module: those read from its file and those added in this run. */
typedef struct ss_symcache_table {
    unsigned char build_id[SS_SYMCACHE_BUILD_ID_MAX];
    size_t build_id_len;
    ss_symcache_debug debug; /* what the entries read from the file were made with */
    ss_symcache_entry *entries;
    uint8_t *flags; /* per entry: SS_SYMCACHE_USED, SS_SYMCACHE_ADDED */
    size_t count, cap;
    uint32_t *slots; /* open addressing on offset: entry index + 1, 0 empty */
    size_t slot_count;
    char *file_data; /* the file's bytes, which the loaded entries' strings point into */
    char **strings;  /* copies made by ss_symcache_add */
    size_t string_count, string_cap;
    size_t added; /* entries added in this run */
} ss_symcache_table;

/* The file name of the module with build-id 'id' ('len' bytes) in folder 'dir': DIR/HEX.sym.
 * Returns 0, or -1 when it does not fit in 'size' bytes. */
int ss_symcache_path(const char *dir, const unsigned char *id, size_t len, char *out, size_t size);

/* Makes 'table' the empty table of the module with build-id 'id' ('len' bytes, 1 to
 * SS_SYMCACHE_BUILD_ID_MAX). Returns 0, or -1 for a build-id out of range. */
int ss_symcache_init(ss_symcache_table *table, const unsigned char *id, size_t len);

/* Reads the module's file from 'dir' into 'table' (made by ss_symcache_init), when there is
 * one that is valid: its own format and version, the same build-id, and the same debug
 * information as now (its separate debug file unchanged; for one made without a debug file,
 * none at /usr/lib/debug/.build-id/ for the build-id: debug information installed since makes
 * it stale). A file that is not valid is left out, as if there were none. Returns the number
 * of entries read (0 when there is no valid file). */
size_t ss_symcache_load(const char *dir, ss_symcache_table *table);

/* The entry of 'offset', or NULL; a found entry counts as used in this run. */
const ss_symcache_entry *ss_symcache_find(ss_symcache_table *table, uint64_t offset);

/* Adds a copy of 'entry' (its strings copied; nframes 1 ... SS_SYM_INLINE_DEPTH), replacing
 * an entry of the same offset. Returns 0, or -1 when out of memory or 'entry' is malformed. */
int ss_symcache_add(ss_symcache_table *table, const ss_symcache_entry *entry);

/* Writes the table to its file in 'dir' (made with its parents when missing) when entries
 * were added in this run, atomically, recording 'debug', the debug information the added
 * entries were made with: the entries used in this run first, then the others, as many as fit
 * in SS_SYMCACHE_FILE_MAX; entries read from a file made with other debug information than
 * 'debug' are left out. With nothing added, a file that served this run is only marked as
 * recently used. Returns 1 when written, 0 when there was nothing to write, -1 when the folder
 * or the file could not be written (errno set). */
int ss_symcache_save(const char *dir, ss_symcache_table *table, const ss_symcache_debug *debug);

/* Removes the least recently modified cache files of 'dir' until the files left take at most
 * three quarters of 'max_bytes', when they take more than 'max_bytes'. Returns the number
 * removed. */
size_t ss_symcache_prune(const char *dir, uint64_t max_bytes);

/* Frees what 'table' holds. */
void ss_symcache_free(ss_symcache_table *table);

#endif
