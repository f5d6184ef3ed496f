/* cache.c: the per-translation-unit result cache: an unchanged unit (same arguments, same
 * content of every file it read) is not parsed again. */
#include "cache.h"
#include "checks/project_facts.h"
#include "files.h"
#include "flags.h"
#include "log.h"
#include "tu.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bumped whenever the entry layout or the meaning of a cached finding changes. */
#define SS_CACHE_FORMAT 4

/* Hash of a file as read from disk now, remembered for the run. */
typedef struct content_hash {
    char *path;
    uint64_t hash;
    int readable;
    struct content_hash *next;
} content_hash;

enum { MEMO_BUCKETS = 4096 };

struct ss_cache {
    char *dir;
    pthread_mutex_t lock;
    content_hash *memo[MEMO_BUCKETS];
};

static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t fmix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t ss_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (0x9e3779b97f4a7c15ULL * (len + 1));
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        word *= 0x87c37b91114253d5ULL;
        word = rotl64(word, 31);
        word *= 0x4cf5ad432745937fULL;
        h ^= word;
        h = rotl64(h, 27) * 5 + 0x52dce729;
    }
    uint64_t tail = 0;
    for (size_t k = 0; i + k < len; k++)
        tail |= (uint64_t)p[i + k] << (8 * k);
    h ^= fmix64(tail ^ (uint64_t)(len - i));
    return fmix64(h);
}

ss_cache *ss_cache_open(const char *dir)
{
    /* mkdir -p. */
    char *path = ss_xstrdup(dir);
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    }
    struct stat st;
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        ss_log_warning("cannot create the cache folder '%s': %s; going on without a cache", dir,
                       strerror(errno));
        free(path);
        return NULL;
    }
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || access(path, W_OK) != 0) {
        ss_log_warning("the cache folder '%s' is not a writable folder; going on without a "
                       "cache",
                       dir);
        free(path);
        return NULL;
    }
    ss_cache *cache = ss_xcalloc(1, sizeof *cache);
    cache->dir = path;
    pthread_mutex_init(&cache->lock, NULL);
    return cache;
}

void ss_cache_close(ss_cache *cache)
{
    if (cache == NULL)
        return;
    for (size_t b = 0; b < MEMO_BUCKETS; b++) {
        for (content_hash *e = cache->memo[b], *next; e; e = next) {
            next = e->next;
            free(e->path);
            free(e);
        }
    }
    pthread_mutex_destroy(&cache->lock);
    free(cache->dir);
    free(cache);
}

/* The identity of the running analyzer: its executable's size, modification time and inode.
 * A rebuilt syncscope (a changed check or rule table) never trusts an older build's entries,
 * even when the version string did not change. */
static uint64_t binary_identity;
static pthread_once_t binary_identity_once = PTHREAD_ONCE_INIT;

static void read_binary_identity(void)
{
    struct stat st;
    uint64_t h = 0;
    if (stat("/proc/self/exe", &st) == 0) {
        uint64_t parts[4] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
                             (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ino};
        h = ss_hash_bytes(parts, sizeof parts, 0);
    }
    binary_identity = h;
}

void ss_cache_key(const ss_tu_input *in, char key[17])
{
    static const char format[] = "syncscope-cache " SS_VERSION;
    uint64_t h = ss_hash_bytes(format, sizeof format, SS_CACHE_FORMAT);
    pthread_once(&binary_identity_once, read_binary_identity);
    h = ss_hash_bytes(&binary_identity, sizeof binary_identity, h);
    CXString clang_version = clang_getClangVersion();
    const char *cv = clang_getCString(clang_version);
    h = ss_hash_bytes(cv, strlen(cv) + 1, h);
    clang_disposeString(clang_version);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL)
        cwd[0] = '\0';
    h = ss_hash_bytes(cwd, strlen(cwd) + 1, h);
    h = ss_hash_bytes(in->file, strlen(in->file) + 1, h);
    for (size_t i = 0; i < in->args->count; i++)
        h = ss_hash_bytes(in->args->v[i], strlen(in->args->v[i]) + 1, h);
    /* The build folders decide whether a missing header is said to be the build's (tu.c). */
    h = ss_hash_bytes(in->directory ? in->directory : "",
                      in->directory ? strlen(in->directory) + 1 : 0, h);
    h = ss_hash_bytes(in->build_dir ? in->build_dir : "",
                      in->build_dir ? strlen(in->build_dir) + 1 : 0, h);
    unsigned settings[2] = {in->readback_bytes, (unsigned)in->info->per_thread};
    h = ss_hash_bytes(settings, sizeof settings, h);
    for (size_t i = 0; i < in->hot_count; i++)
        h = ss_hash_bytes(in->hot_functions[i], strlen(in->hot_functions[i]) + 1, h);
    /* The bundled declarations and the shim are part of the binary, not of any file. */
    unsigned nvirtual;
    const struct CXUnsavedFile *virtual_files = ss_toolkit_virtual_files(&nvirtual);
    for (unsigned i = 0; i < nvirtual; i++) {
        h = ss_hash_bytes(virtual_files[i].Filename, strlen(virtual_files[i].Filename) + 1, h);
        h = ss_hash_bytes(virtual_files[i].Contents, virtual_files[i].Length, h);
    }
    snprintf(key, 17, "%016llx", (unsigned long long)h);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int ss_cache_folder_hash(const char *dir, uint64_t *hash)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    char **names = NULL;
    size_t count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            names = ss_xreallocarray(names, cap, sizeof *names);
        }
        names[count++] = ss_xstrdup(e->d_name);
    }
    closedir(d);
    if (count > 1)
        qsort(names, count, sizeof *names, by_name);
    uint64_t h = ss_hash_bytes("folder", 6, 0);
    for (size_t i = 0; i < count; i++) {
        h = ss_hash_bytes(names[i], strlen(names[i]) + 1, h);
        free(names[i]);
    }
    free(names);
    *hash = h;
    return 0;
}

/* The hash of the current content of 'path' (of the names in it, for a folder named with a
 * trailing '/'), computed once per run. Returns 0, or -1 when it cannot be read. */
static int current_hash(ss_cache *cache, const char *path, uint64_t *hash)
{
    size_t bucket = ss_hash_bytes(path, strlen(path), 0) % MEMO_BUCKETS;
    pthread_mutex_lock(&cache->lock);
    for (content_hash *e = cache->memo[bucket]; e; e = e->next) {
        if (strcmp(e->path, path) == 0) {
            int readable = e->readable;
            *hash = e->hash;
            pthread_mutex_unlock(&cache->lock);
            return readable ? 0 : -1;
        }
    }
    pthread_mutex_unlock(&cache->lock);
    /* Hashed outside the lock; two workers may both hash a file, with the same answer. */
    content_hash *e = ss_xcalloc(1, sizeof *e);
    e->path = ss_xstrdup(path);
    size_t path_len = strlen(path);
    if (path_len > 1 && path[path_len - 1] == '/') {
        e->readable = ss_cache_folder_hash(path, &e->hash) == 0;
    } else {
        size_t len = 0;
        char *text = ss_read_file(path, &len);
        e->readable = text != NULL;
        e->hash = text ? ss_hash_bytes(text, len, 0) : 0;
        free(text);
    }
    pthread_mutex_lock(&cache->lock);
    e->next = cache->memo[bucket];
    cache->memo[bucket] = e;
    pthread_mutex_unlock(&cache->lock);
    *hash = e->hash;
    return e->readable ? 0 : -1;
}

/* Writes the text of a cache entry. */
static int put_entry(FILE *out, void *text)
{
    return fputs(text, out) < 0 ? -1 : 0;
}

static char *entry_path(const ss_cache *cache, const char *key)
{
    return ss_xasprintf("%s/%s.json", cache->dir, key);
}

void ss_cache_add_string(cJSON *o, const char *name, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, name, value);
}

cJSON *ss_cache_encode_finding(const ss_finding *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "rule", ss_rules_get(f->rule)->id);
    cJSON_AddNumberToObject(o, "severity", f->severity);
    ss_cache_add_string(o, "file", f->file);
    cJSON_AddNumberToObject(o, "line", f->line);
    cJSON_AddNumberToObject(o, "column", f->column);
    ss_cache_add_string(o, "function", f->function);
    ss_cache_add_string(o, "message", f->message);
    ss_cache_add_string(o, "hint", f->hint);
    ss_cache_add_string(o, "lineText", f->line_text);
    if (f->macro) {
        ss_cache_add_string(o, "macro", f->macro);
        cJSON_AddNumberToObject(o, "macroLine", f->macro_line);
        cJSON_AddNumberToObject(o, "macroColumn", f->macro_column);
    }
    ss_cache_add_string(o, "unshown", f->unshown);
    if (f->fixit_count) {
        cJSON *fixits = cJSON_AddArrayToObject(o, "fixits");
        for (size_t k = 0; k < f->fixit_count; k++) {
            const ss_fixit *x = &f->fixits[k];
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "line", x->line);
            cJSON_AddNumberToObject(e, "column", x->column);
            cJSON_AddNumberToObject(e, "endColumn", x->end_column);
            ss_cache_add_string(e, "text", x->text);
            cJSON_AddItemToArray(fixits, e);
        }
    }
    return o;
}

/* A parse diagnostic as the cache stores it. */
static cJSON *encode_diag(const ss_diag *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "severity", d->severity);
    ss_cache_add_string(o, "file", d->file);
    cJSON_AddNumberToObject(o, "line", d->line);
    cJSON_AddNumberToObject(o, "column", d->column);
    ss_cache_add_string(o, "message", d->message);
    return o;
}

/* The unit's shared streams as the cache stores them (ss_tu_streams). */
static cJSON *encode_streams(const ss_tu_streams *streams)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *created = cJSON_AddArrayToObject(o, "created");
    for (size_t i = 0; i < streams->created_count; i++) {
        const ss_shared_stream *s = &streams->created[i];
        cJSON *e = cJSON_CreateObject();
        ss_cache_add_string(e, "key", s->key);
        ss_cache_add_string(e, "name", s->name);
        ss_cache_add_string(e, "file", s->file);
        cJSON_AddNumberToObject(e, "line", s->line);
        cJSON_AddNumberToObject(e, "column", s->column);
        cJSON_AddItemToArray(created, e);
    }
    cJSON *used = cJSON_AddArrayToObject(o, "used");
    for (size_t i = 0; i < streams->used_count; i++)
        cJSON_AddItemToArray(used, cJSON_CreateString(streams->used[i]));
    ss_cache_add_string(o, "legacy", streams->legacy);
    cJSON_AddItemToObject(o, "facts", ss_project_facts_encode(streams->facts));
    return o;
}

int ss_cache_store(ss_cache *cache, const char *key, const ss_tu_files *files,
                   const ss_result *result, int status, const ss_tu_streams *streams)
{
    if (files->incomplete)
        return -1;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "format", SS_CACHE_FORMAT);
    cJSON_AddStringToObject(root, "key", key);
    cJSON_AddNumberToObject(root, "status", status);
    cJSON *list = cJSON_AddArrayToObject(root, "files");
    for (size_t i = 0; i < files->count; i++) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)files->v[i].hash);
        cJSON *pair = cJSON_CreateArray();
        cJSON_AddItemToArray(pair, cJSON_CreateString(files->v[i].path));
        cJSON_AddItemToArray(pair, cJSON_CreateString(hex));
        cJSON_AddItemToArray(list, pair);
    }
    cJSON *findings = cJSON_AddArrayToObject(root, "findings");
    for (size_t i = 0; i < result->count; i++)
        cJSON_AddItemToArray(findings, ss_cache_encode_finding(&result->findings[i]));
    cJSON *diags = cJSON_AddArrayToObject(root, "diags");
    for (size_t i = 0; i < result->diag_count; i++)
        cJSON_AddItemToArray(diags, encode_diag(&result->diags[i]));
    cJSON_AddItemToObject(root, "streams", encode_streams(streams));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (text == NULL)
        return -1;
    /* Through a temporary file made with O_EXCL beside the entry, renamed over its name: a
     * link planted in the cache folder is replaced, never followed, and a folder, FIFO or
     * device of that name is left alone (the entry is then not stored). */
    char *final_path = entry_path(cache, key);
    int rc = ss_write_file(final_path, SS_FILE_NOFOLLOW, put_entry, text) == SS_WRITE_OK ? 0 : -1;
    cJSON_free(text);
    free(final_path);
    return rc;
}

const char *ss_cache_get_string(const cJSON *o, const char *name, int *bad)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, name);
    if (item == NULL)
        return NULL;
    if (!cJSON_IsString(item)) {
        *bad = 1;
        return NULL;
    }
    return item->valuestring;
}

unsigned ss_cache_get_unsigned(const cJSON *o, const char *name, unsigned max, int *bad)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(item) || item->valuedouble < 0 || item->valuedouble > max ||
        item->valuedouble != (double)(unsigned)item->valuedouble) {
        *bad = 1;
        return 0;
    }
    return (unsigned)item->valuedouble;
}

/* Whether every file of the entry still has the content it was parsed with. */
static int files_unchanged(ss_cache *cache, const cJSON *list)
{
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return 0;
    const cJSON *pair;
    cJSON_ArrayForEach(pair, list)
    {
        const cJSON *path = cJSON_GetArrayItem(pair, 0);
        const cJSON *hex = cJSON_GetArrayItem(pair, 1);
        if (!cJSON_IsArray(pair) || !cJSON_IsString(path) || !cJSON_IsString(hex))
            return 0;
        char *end = NULL;
        unsigned long long want = strtoull(hex->valuestring, &end, 16);
        uint64_t have;
        if (end == hex->valuestring || *end != '\0' ||
            current_hash(cache, path->valuestring, &have) != 0 || have != want)
            return 0;
    }
    return 1;
}

/* Reads the fix-its of the cached finding 'o' into 'f'; sets '*bad' when they are
 * malformed. */
static void decode_fixits(const cJSON *o, ss_finding *f, int *bad)
{
    const cJSON *fixits = cJSON_GetObjectItemCaseSensitive(o, "fixits");
    if (fixits != NULL && !cJSON_IsArray(fixits))
        *bad = 1;
    const cJSON *fixit_list = *bad ? NULL : fixits;
    const cJSON *e;
    cJSON_ArrayForEach(e, fixit_list)
    {
        unsigned line = ss_cache_get_unsigned(e, "line", UINT_MAX, bad);
        unsigned column = ss_cache_get_unsigned(e, "column", UINT_MAX, bad);
        unsigned end_column = ss_cache_get_unsigned(e, "endColumn", UINT_MAX, bad);
        const char *text = ss_cache_get_string(e, "text", bad);
        if (*bad || text == NULL) {
            *bad = 1;
            return;
        }
        ss_finding_add_fixit(f, line, column, end_column, text);
    }
}

void ss_cache_decode_finding(const cJSON *o, ss_finding *f, int *bad)
{
    const char *id = ss_cache_get_string(o, "rule", bad);
    const ss_rule *rule = id ? ss_rules_find(id) : NULL;
    unsigned severity = ss_cache_get_unsigned(o, "severity", SS_SEV_ERROR, bad);
    if (rule == NULL || *bad) {
        *bad = 1;
        return;
    }
    f->rule = rule->rule;
    f->severity = (ss_severity)severity;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup(ss_cache_get_string(o, "file", bad));
    f->line = ss_cache_get_unsigned(o, "line", UINT_MAX, bad);
    f->column = ss_cache_get_unsigned(o, "column", UINT_MAX, bad);
    f->function = ss_xstrdup(ss_cache_get_string(o, "function", bad));
    f->message = ss_xstrdup(ss_cache_get_string(o, "message", bad));
    f->hint = ss_xstrdup(ss_cache_get_string(o, "hint", bad));
    f->line_text = ss_xstrdup(ss_cache_get_string(o, "lineText", bad));
    f->macro = ss_xstrdup(ss_cache_get_string(o, "macro", bad));
    if (f->macro) {
        f->macro_line = ss_cache_get_unsigned(o, "macroLine", UINT_MAX, bad);
        f->macro_column = ss_cache_get_unsigned(o, "macroColumn", UINT_MAX, bad);
    }
    f->unshown = ss_xstrdup(ss_cache_get_string(o, "unshown", bad));
    if (f->message == NULL)
        *bad = 1;
    decode_fixits(o, f, bad);
}

/* Adds the cached finding 'o' to 'decoded'; sets '*bad' when it is malformed. */
static void decode_finding(const cJSON *o, ss_result *decoded, int *bad)
{
    const char *id = ss_cache_get_string(o, "rule", bad);
    if (id == NULL || ss_rules_find(id) == NULL) {
        *bad = 1;
        return;
    }
    ss_cache_decode_finding(o, ss_result_add(decoded), bad);
}

/* Adds the cached diagnostic 'o' to 'decoded'; sets '*bad' when it is malformed. */
static void decode_diag(const cJSON *o, ss_result *decoded, int *bad)
{
    unsigned severity = ss_cache_get_unsigned(o, "severity", SS_SEV_ERROR, bad);
    const char *file = ss_cache_get_string(o, "file", bad);
    unsigned line = ss_cache_get_unsigned(o, "line", UINT_MAX, bad);
    unsigned column = ss_cache_get_unsigned(o, "column", UINT_MAX, bad);
    const char *message = ss_cache_get_string(o, "message", bad);
    if (*bad || message == NULL) {
        *bad = 1;
        return;
    }
    ss_result_add_diag(decoded, (ss_severity)severity, file, line, column, message);
}

/* Turns the entry's findings and diagnostics into 'out'. Returns 0, or -1 when malformed
 * ('out' then holds nothing of it). */
static int decode(const cJSON *root, ss_result *out)
{
    ss_result decoded;
    ss_result_init(&decoded, SS_RESULT_LINT);
    int bad = 0;
    const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings");
    const cJSON *diags = cJSON_GetObjectItemCaseSensitive(root, "diags");
    if (!cJSON_IsArray(findings) || !cJSON_IsArray(diags))
        bad = 1;
    const cJSON *o;
    const cJSON *finding_list = bad ? NULL : findings;
    cJSON_ArrayForEach(o, finding_list)
    {
        decode_finding(o, &decoded, &bad);
        if (bad)
            break;
    }
    const cJSON *diag_list = bad ? NULL : diags;
    cJSON_ArrayForEach(o, diag_list)
    {
        decode_diag(o, &decoded, &bad);
        if (bad)
            break;
    }
    if (bad) {
        ss_result_free(&decoded);
        return -1;
    }
    /* Move the decoded findings and diagnostics over. */
    for (size_t i = 0; i < decoded.count; i++) {
        *ss_result_add(out) = decoded.findings[i];
        memset(&decoded.findings[i], 0, sizeof decoded.findings[i]);
    }
    for (size_t i = 0; i < decoded.diag_count; i++) {
        const ss_diag *d = &decoded.diags[i];
        ss_result_add_diag(out, d->severity, d->file, d->line, d->column, d->message);
    }
    decoded.count = 0;
    ss_result_free(&decoded);
    return 0;
}

/* Reads the entry's shared streams into 'streams'. Returns 0, or -1 when malformed ('streams'
 * then holds nothing). */
static int decode_streams(const cJSON *o, ss_tu_streams *streams)
{
    int bad = !cJSON_IsObject(o);
    const cJSON *created = bad ? NULL : cJSON_GetObjectItemCaseSensitive(o, "created");
    const cJSON *used = bad ? NULL : cJSON_GetObjectItemCaseSensitive(o, "used");
    bad |= !cJSON_IsArray(created) || !cJSON_IsArray(used);
    const cJSON *e;
    const cJSON *created_list = bad ? NULL : created;
    cJSON_ArrayForEach(e, created_list)
    {
        const char *k = ss_cache_get_string(e, "key", &bad),
                   *name = ss_cache_get_string(e, "name", &bad),
                   *file = ss_cache_get_string(e, "file", &bad);
        unsigned line = ss_cache_get_unsigned(e, "line", UINT_MAX, &bad);
        unsigned column = ss_cache_get_unsigned(e, "column", UINT_MAX, &bad);
        if (bad || !k || !name || !file) {
            bad = 1;
            break;
        }
        ss_tu_streams_create(streams, k, name, file, line, column);
    }
    const cJSON *used_list = bad ? NULL : used;
    cJSON_ArrayForEach(e, used_list)
    {
        if (!cJSON_IsString(e)) {
            bad = 1;
            break;
        }
        ss_tu_streams_use(streams, e->valuestring);
    }
    const char *legacy = bad ? NULL : ss_cache_get_string(o, "legacy", &bad);
    if (legacy)
        streams->legacy = ss_xstrdup(legacy);
    const cJSON *facts = bad ? NULL : cJSON_GetObjectItemCaseSensitive(o, "facts");
    if (facts == NULL || ss_project_facts_decode(facts, &streams->facts) != 0)
        bad = 1;
    if (bad)
        ss_tu_streams_free(streams);
    return bad ? -1 : 0;
}

int ss_cache_lookup(ss_cache *cache, const char *key, ss_result *out, int *status,
                    ss_tu_streams *streams)
{
    /* An entry is a regular file of the cache folder: a link there is not followed. */
    char *path = entry_path(cache, key);
    size_t len = 0;
    char *text = ss_read_file_max(path, SS_READ_MAX_BYTES, SS_FILE_NOFOLLOW, &len);
    free(path);
    if (text == NULL)
        return 0;
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    int hit = 0;
    int bad = 0;
    const char *stored_key = root ? ss_cache_get_string(root, "key", &bad) : NULL;
    if (root && stored_key && strcmp(stored_key, key) == 0 &&
        ss_cache_get_unsigned(root, "format", 1000, &bad) == SS_CACHE_FORMAT && !bad) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "status");
        /* -1: libclang made no translation unit (a refused command line). */
        if (cJSON_IsNumber(st) && st->valueint >= -1 && st->valueint <= 1 &&
            st->valuedouble == (double)st->valueint &&
            files_unchanged(cache, cJSON_GetObjectItemCaseSensitive(root, "files")) &&
            decode_streams(cJSON_GetObjectItemCaseSensitive(root, "streams"), streams) == 0) {
            if (decode(root, out) == 0) {
                *status = st->valueint;
                hit = 1;
            } else {
                ss_tu_streams_free(streams);
            }
        }
    }
    cJSON_Delete(root);
    return hit;
}
