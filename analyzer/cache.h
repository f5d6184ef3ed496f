/* cache.h: the per-translation-unit result cache (cache.c) and the content hash it
 * keys and validates entries with. Private to the analyzer. */
#ifndef SS_ANALYZER_CACHE_H
#define SS_ANALYZER_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "report.h"
#include "tu.h"

/* A 64-bit hash of 'len' bytes at 'data', continuing from 'seed' (0 to start). Not
 * cryptographic: it tells changed file contents and command lines apart. */
uint64_t ss_hash_bytes(const void *data, size_t len, uint64_t seed);

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
 * with a trailing '/', the same names), with the unit's shared streams in 'streams'; 0
 * otherwise (a missing, stale or corrupt entry: the caller parses). */
int ss_cache_lookup(ss_cache *cache, const char *key, ss_result *out, int *status,
                    ss_tu_streams *streams);
/* The hash of the names in the folder 'dir' (sorted), for an entry that lists a folder (its
 * path with a trailing '/') as a file it depends on: a header that was not found appears
 * there. Returns 0, or -1 when the folder cannot be read. */
int ss_cache_folder_hash(const char *dir, uint64_t *hash);
/* Stores the unit's 'result', 'status', 'files' and 'streams' under 'key' atomically (a
 * temporary file, then rename). Returns 0, or -1 when it could not be written (the run goes
 * on). */
int ss_cache_store(ss_cache *cache, const char *key, const ss_tu_files *files,
                   const ss_result *result, int status, const ss_tu_streams *streams);

/* The members of a cache entry's JSON, shared with the other units' facts
 * (checks/project_facts.c) that an entry carries. ss_cache_add_string adds 'value' as the
 * member 'name' unless it is NULL; ss_cache_get_string returns a string member (borrowed), or
 * NULL when it is missing, and sets *bad when it exists and is not a string;
 * ss_cache_get_unsigned returns a non-negative integer member up to 'max' and sets *bad when
 * it is missing or not one. */
void ss_cache_add_string(cJSON *o, const char *name, const char *value);
/* A finding as an entry stores it (its rule by ID, its fix-its when it has any), and back:
 * ss_cache_decode_finding fills the zeroed finding 'f' and sets *bad when 'o' is malformed. */
cJSON *ss_cache_encode_finding(const ss_finding *f);
void ss_cache_decode_finding(const cJSON *o, ss_finding *f, int *bad);
const char *ss_cache_get_string(const cJSON *o, const char *name, int *bad);
unsigned ss_cache_get_unsigned(const cJSON *o, const char *name, unsigned max, int *bad);

#endif
