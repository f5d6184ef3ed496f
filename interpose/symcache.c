/* symcache.c: the persistent symbol cache: one file per module build-id, read with the
 * project's bounded reader and written atomically. */
#include "symcache.h"
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/* The file layout (host byte order, checked by 'byte_order'):
 *   magic "SSSYMC01", u32 version, u32 byte_order 0x01020304,
 *   u32 build-id length, the build-id,
 *   u32 debug path length, the path (no NUL), u64 debug file size, i64 its mtime in ns,
 *   u32 string bytes, the strings (each NUL-terminated; byte 0 is a NUL, so that reference 0
 *   means "none"),
 *   u32 entry count, then each entry: u64 offset, u32 symbol, u8 expanded, u8 frames, and per
 *   frame u32 function, u32 file, u32 line (function and file are string references). */
static const char magic[8] = {'S', 'S', 'S', 'Y', 'M', 'C', '0', '1'};
#define FORMAT_VERSION 1u
#define BYTE_ORDER_MARK 0x01020304u
#define ENTRIES_MAX 65536u
/* The header's size at most: the fixed fields, a build-id and a debug path. */
#define HEADER_MAX (64 + SS_SYMCACHE_BUILD_ID_MAX + 4096)

int ss_symcache_path(const char *dir, const unsigned char *id, size_t len, char *out, size_t size)
{
    char hex[2 * SS_SYMCACHE_BUILD_ID_MAX + 1];
    if (len == 0 || len > SS_SYMCACHE_BUILD_ID_MAX)
        return -1;
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", id[i]);
    int n = snprintf(out, size, "%s/%s.sym", dir, hex);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int ss_symcache_init(ss_symcache_table *table, const unsigned char *id, size_t len)
{
    memset(table, 0, sizeof *table);
    if (len == 0 || len > SS_SYMCACHE_BUILD_ID_MAX)
        return -1;
    memcpy(table->build_id, id, len);
    table->build_id_len = len;
    return 0;
}

static uint64_t offset_hash(uint64_t offset)
{
    offset ^= offset >> 33;
    offset *= 0xff51afd7ed558ccdull;
    offset ^= offset >> 33;
    return offset;
}

/* The slot of 'offset': its entry's, or the empty one where it would go. */
static size_t find_slot(const ss_symcache_table *table, uint64_t offset)
{
    size_t mask = table->slot_count - 1;
    size_t slot = (size_t)offset_hash(offset) & mask;
    while (table->slots[slot] != 0 && table->entries[table->slots[slot] - 1].offset != offset)
        slot = (slot + 1) & mask;
    return slot;
}

/* Room for one more entry (entries, used flags and slots grown together). */
static int reserve(ss_symcache_table *table)
{
    if (table->count == table->cap) {
        size_t cap = table->cap ? table->cap * 2 : 256;
        ss_symcache_entry *entries = realloc(table->entries, cap * sizeof *entries);
        if (entries == NULL)
            return -1;
        table->entries = entries;
        uint8_t *flags = realloc(table->flags, cap);
        if (flags == NULL)
            return -1;
        table->flags = flags;
        table->cap = cap;
    }
    if ((table->count + 1) * 2 > table->slot_count) {
        size_t count = table->slot_count ? table->slot_count * 2 : 512;
        uint32_t *slots = calloc(count, sizeof *slots);
        if (slots == NULL)
            return -1;
        free(table->slots);
        table->slots = slots;
        table->slot_count = count;
        for (size_t i = 0; i < table->count; i++)
            table->slots[find_slot(table, table->entries[i].offset)] = (uint32_t)i + 1;
    }
    return 0;
}

/* Puts 'entry' (strings already owned by the table) in its slot with 'flags'. Returns 0 or
 * -1. */
static int put(ss_symcache_table *table, const ss_symcache_entry *entry, uint8_t flags)
{
    if (reserve(table) < 0)
        return -1;
    size_t slot = find_slot(table, entry->offset);
    if (table->slots[slot] != 0) {
        size_t at = table->slots[slot] - 1;
        table->entries[at] = *entry;
        table->flags[at] = flags;
        return 0;
    }
    table->entries[table->count] = *entry;
    table->flags[table->count] = flags;
    table->slots[slot] = (uint32_t)++table->count;
    return 0;
}

/* ---- reading ---- */

typedef struct reader {
    const char *data;
    size_t len, at;
} reader;

static int take(reader *r, void *out, size_t n)
{
    if (n > r->len - r->at)
        return -1;
    memcpy(out, r->data + r->at, n);
    r->at += n;
    return 0;
}

static int take_u32(reader *r, uint32_t *out)
{
    return take(r, out, sizeof *out);
}

/* The string at reference 'ref' of the strings area [strings, strings + len), NULL for 0;
 * -1 in '*bad' when out of range. */
static const char *string_at(const char *strings, uint32_t len, uint32_t ref, int *bad)
{
    if (ref == 0)
        return NULL;
    if (ref >= len) {
        *bad = 1;
        return NULL;
    }
    return strings + ref;
}

/* Whether the debug information recorded as 'debug' is still what libdw would read for the
 * module 'table' describes (see ss_symcache_load). */
static int debug_unchanged(const ss_symcache_table *table, const ss_symcache_debug *debug)
{
    struct stat st;
    if (debug->path[0] != '\0')
        return stat(debug->path, &st) == 0 && (uint64_t)st.st_size == debug->size &&
               (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec == debug->mtime_ns;
    char path[PATH_MAX], hex[2 * SS_SYMCACHE_BUILD_ID_MAX + 1];
    for (size_t i = 0; i < table->build_id_len; i++)
        snprintf(hex + 2 * i, 3, "%02x", table->build_id[i]);
    if (table->build_id_len < 2)
        return 1;
    snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
    return stat(path, &st) != 0;
}

/* Parses the file 'data' ('len' bytes, NUL after them) into 'table'. Returns the number of
 * entries, or -1 when the file is not a valid cache file for the table's module. */
static long parse(ss_symcache_table *table, char *data, size_t len)
{
    reader r = {data, len, 0};
    char head[8];
    uint32_t version, order, id_len, path_len, strings_len, count;
    unsigned char id[SS_SYMCACHE_BUILD_ID_MAX];
    ss_symcache_debug debug;
    memset(&debug, 0, sizeof debug);
    if (take(&r, head, sizeof head) < 0 || memcmp(head, magic, sizeof magic) != 0 ||
        take_u32(&r, &version) < 0 || version != FORMAT_VERSION || take_u32(&r, &order) < 0 ||
        order != BYTE_ORDER_MARK || take_u32(&r, &id_len) < 0 || id_len != table->build_id_len ||
        take(&r, id, id_len) < 0 || memcmp(id, table->build_id, id_len) != 0 ||
        take_u32(&r, &path_len) < 0 || path_len >= sizeof debug.path ||
        take(&r, debug.path, path_len) < 0 || take(&r, &debug.size, sizeof debug.size) < 0 ||
        take(&r, &debug.mtime_ns, sizeof debug.mtime_ns) < 0 || take_u32(&r, &strings_len) < 0 ||
        strings_len == 0 || strings_len > len - r.at)
        return -1;
    debug.path[path_len] = '\0';
    const char *strings = data + r.at;
    if (strings[0] != '\0' || strings[strings_len - 1] != '\0')
        return -1;
    r.at += strings_len;
    if (take_u32(&r, &count) < 0 || count > ENTRIES_MAX || !debug_unchanged(table, &debug))
        return -1;
    for (uint32_t i = 0; i < count; i++) {
        ss_symcache_entry e;
        memset(&e, 0, sizeof e);
        uint32_t symbol;
        int bad = 0;
        if (take(&r, &e.offset, sizeof e.offset) < 0 || take_u32(&r, &symbol) < 0 ||
            take(&r, &e.expanded, 1) < 0 || take(&r, &e.nframes, 1) < 0 || e.expanded > 1 ||
            e.nframes == 0 || e.nframes > SS_SYM_INLINE_DEPTH)
            return -1;
        e.symbol = string_at(strings, strings_len, symbol, &bad);
        for (uint8_t k = 0; k < e.nframes; k++) {
            uint32_t function, file, line;
            if (take_u32(&r, &function) < 0 || take_u32(&r, &file) < 0 || take_u32(&r, &line) < 0)
                return -1;
            e.frames[k].function = string_at(strings, strings_len, function, &bad);
            e.frames[k].file = string_at(strings, strings_len, file, &bad);
            e.frames[k].line = line;
        }
        if (bad || put(table, &e, 0) < 0)
            return -1;
    }
    if (r.at != len)
        return -1;
    table->debug = debug;
    return (long)count;
}

size_t ss_symcache_load(const char *dir, ss_symcache_table *table)
{
    char path[PATH_MAX];
    if (ss_symcache_path(dir, table->build_id, table->build_id_len, path, sizeof path) < 0)
        return 0;
    size_t len = 0;
    char *data = ss_read_file_max(path, SS_SYMCACHE_FILE_MAX, SS_FILE_NOFOLLOW, &len);
    if (data == NULL)
        return 0;
    long count = parse(table, data, len);
    if (count < 0) {
        /* Not valid: as if there were no file (the next save replaces it). */
        table->count = 0;
        if (table->slots != NULL)
            memset(table->slots, 0, table->slot_count * sizeof *table->slots);
        memset(&table->debug, 0, sizeof table->debug);
        free(data);
        return 0;
    }
    free(table->file_data);
    table->file_data = data;
    return (size_t)count;
}

const ss_symcache_entry *ss_symcache_find(ss_symcache_table *table, uint64_t offset)
{
    if (table->count == 0)
        return NULL;
    size_t slot = find_slot(table, offset);
    if (table->slots[slot] == 0)
        return NULL;
    table->flags[table->slots[slot] - 1] |= SS_SYMCACHE_USED;
    return &table->entries[table->slots[slot] - 1];
}

/* A copy of 'text' owned by the table (NULL stays NULL). Returns 0, or -1 out of memory. */
static int own(ss_symcache_table *table, const char **text)
{
    if (*text == NULL)
        return 0;
    if (table->string_count == table->string_cap) {
        size_t cap = table->string_cap ? table->string_cap * 2 : 256;
        char **grown = realloc(table->strings, cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        table->strings = grown;
        table->string_cap = cap;
    }
    char *copy = strdup(*text);
    if (copy == NULL)
        return -1;
    table->strings[table->string_count++] = copy;
    *text = copy;
    return 0;
}

int ss_symcache_add(ss_symcache_table *table, const ss_symcache_entry *entry)
{
    if (entry->nframes == 0 || entry->nframes > SS_SYM_INLINE_DEPTH || entry->expanded > 1)
        return -1;
    ss_symcache_entry e;
    memset(&e, 0, sizeof e);
    e.offset = entry->offset;
    e.symbol = entry->symbol;
    e.expanded = entry->expanded;
    e.nframes = entry->nframes;
    for (uint8_t k = 0; k < e.nframes; k++)
        e.frames[k] = entry->frames[k];
    if (own(table, &e.symbol) < 0)
        return -1;
    for (uint8_t k = 0; k < e.nframes; k++) {
        if (own(table, &e.frames[k].function) < 0 || own(table, &e.frames[k].file) < 0)
            return -1;
    }
    if (put(table, &e, SS_SYMCACHE_USED | SS_SYMCACHE_ADDED) < 0)
        return -1;
    table->added++;
    return 0;
}

/* ---- writing ---- */

/* A growing byte buffer; 'failed' once out of memory. */
typedef struct buffer {
    char *data;
    size_t len, cap;
    int failed;
} buffer;

static void append(buffer *b, const void *bytes, size_t n)
{
    if (b->failed || n == 0) /* nothing to copy: 'bytes' may then be NULL */
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void append_u32(buffer *b, uint32_t value)
{
    append(b, &value, sizeof value);
}

/* The strings of the file being written, each once. */
typedef struct string_set {
    buffer text;       /* the strings area */
    uint32_t *slots;   /* offset into 'text', 0 empty */
    size_t slot_count; /* a power of two */
    size_t count;
} string_set;

static uint64_t text_hash(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The reference of 'text' in 'set' (added when new), 0 for NULL; sets text.failed when out of
 * memory. */
static uint32_t intern(string_set *set, const char *text)
{
    if (text == NULL || set->text.failed)
        return 0;
    if ((set->count + 1) * 2 > set->slot_count) {
        size_t count = set->slot_count ? set->slot_count * 2 : 1024;
        uint32_t *slots = calloc(count, sizeof *slots);
        if (slots == NULL) {
            set->text.failed = 1;
            return 0;
        }
        for (size_t i = 0; i < set->slot_count; i++) {
            uint32_t at = set->slots[i];
            if (at == 0)
                continue;
            size_t slot = (size_t)text_hash(set->text.data + at) & (count - 1);
            while (slots[slot] != 0)
                slot = (slot + 1) & (count - 1);
            slots[slot] = at;
        }
        free(set->slots);
        set->slots = slots;
        set->slot_count = count;
    }
    size_t slot = (size_t)text_hash(text) & (set->slot_count - 1);
    while (set->slots[slot] != 0) {
        if (strcmp(set->text.data + set->slots[slot], text) == 0)
            return set->slots[slot];
        slot = (slot + 1) & (set->slot_count - 1);
    }
    size_t len = strlen(text) + 1;
    uint32_t at = (uint32_t)set->text.len;
    append(&set->text, text, len);
    if (set->text.failed)
        return 0;
    set->slots[slot] = at;
    set->count++;
    return at;
}

/* Appends entry 'e' to 'entries' with its strings in 'set'. Returns 0, or -1 when it might
 * not fit within the file's bound (nothing appended) or memory ran out. */
static int add_entry(buffer *entries, string_set *set, const ss_symcache_entry *e)
{
    /* At most this much more: the entry and each of its strings as if none were there yet. */
    size_t size = 8 + 4 + 2 + (size_t)e->nframes * 12 + (e->symbol ? strlen(e->symbol) + 1 : 0);
    for (uint8_t k = 0; k < e->nframes; k++) {
        size += e->frames[k].function ? strlen(e->frames[k].function) + 1 : 0;
        size += e->frames[k].file ? strlen(e->frames[k].file) + 1 : 0;
    }
    if (set->text.len + entries->len + size + HEADER_MAX > SS_SYMCACHE_FILE_MAX)
        return -1;
    uint32_t refs[1 + 2 * SS_SYM_INLINE_DEPTH];
    refs[0] = intern(set, e->symbol);
    for (uint8_t k = 0; k < e->nframes; k++) {
        refs[1 + 2 * k] = intern(set, e->frames[k].function);
        refs[2 + 2 * k] = intern(set, e->frames[k].file);
    }
    append(entries, &e->offset, sizeof e->offset);
    append_u32(entries, refs[0]);
    append(entries, &e->expanded, 1);
    append(entries, &e->nframes, 1);
    for (uint8_t k = 0; k < e->nframes; k++) {
        append_u32(entries, refs[1 + 2 * k]);
        append_u32(entries, refs[2 + 2 * k]);
        append_u32(entries, e->frames[k].line);
    }
    return entries->failed || set->text.failed ? -1 : 0;
}

static int write_bytes(FILE *out, void *context)
{
    const buffer *b = context;
    return fwrite(b->data, 1, b->len, out) == b->len ? 0 : -1;
}

/* mkdir -p 'dir': parents 0755 (shared with the lint cache), 'dir' itself 0700. Returns 0 or
 * -1 (errno set). */
static int make_folder(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static int same_debug(const ss_symcache_debug *a, const ss_symcache_debug *b)
{
    return strcmp(a->path, b->path) == 0 && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

/* Marks the file 'path' recently used when it served this run (an entry read from it was used):
 * the pruning of the folder removes the least recently used first. */
static void touch_if_used(const ss_symcache_table *table, const char *path)
{
    for (size_t i = 0; i < table->count; i++) {
        if (table->flags[i] & SS_SYMCACHE_USED) {
            utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
            break;
        }
    }
}

/* Appends the entries to write to 'entries', their strings to 'set': those used in this run
 * first, then the others, while they fit; entries read from the file are left out unless
 * 'keep_read'. Returns how many. */
static uint32_t collect_entries(const ss_symcache_table *table, int keep_read, buffer *entries,
                                string_set *set)
{
    uint32_t count = 0;
    for (int pass = 1; pass >= 0; pass--) {
        for (size_t i = 0; i < table->count && count < ENTRIES_MAX; i++) {
            uint8_t flags = table->flags[i];
            if (!(flags & SS_SYMCACHE_ADDED) && !keep_read)
                continue;
            if ((flags & SS_SYMCACHE_USED ? 1 : 0) == pass &&
                add_entry(entries, set, &table->entries[i]) == 0)
                count++;
        }
    }
    return count;
}

/* Lays out the whole file in 'file' (see the layout above): the header, the strings 'set' and
 * the 'count' entries. */
static void assemble_file(buffer *file, const ss_symcache_table *table,
                          const ss_symcache_debug *debug, const string_set *set, uint32_t count,
                          const buffer *entries)
{
    size_t path_len = strlen(debug->path);
    append(file, magic, sizeof magic);
    append_u32(file, FORMAT_VERSION);
    append_u32(file, BYTE_ORDER_MARK);
    append_u32(file, (uint32_t)table->build_id_len);
    append(file, table->build_id, table->build_id_len);
    append_u32(file, (uint32_t)path_len);
    append(file, debug->path, path_len);
    append(file, &debug->size, sizeof debug->size);
    append(file, &debug->mtime_ns, sizeof debug->mtime_ns);
    append_u32(file, (uint32_t)set->text.len);
    append(file, set->text.data, set->text.len);
    append_u32(file, count);
    append(file, entries->data, entries->len);
}

int ss_symcache_save(const char *dir, ss_symcache_table *table, const ss_symcache_debug *debug)
{
    char path[PATH_MAX];
    if (ss_symcache_path(dir, table->build_id, table->build_id_len, path, sizeof path) < 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (table->added == 0) {
        touch_if_used(table, path); /* nothing new */
        return 0;
    }
    if (make_folder(dir) < 0)
        return -1;
    /* Entries read from a file made with other debug information are stale. */
    int keep_read = table->file_data == NULL || same_debug(debug, &table->debug);
    string_set set;
    memset(&set, 0, sizeof set);
    append(&set.text, "", 1); /* reference 0: none */
    buffer entries = {0};
    uint32_t count = collect_entries(table, keep_read, &entries, &set);
    buffer file = {0};
    assemble_file(&file, table, debug, &set, count, &entries);
    int rc = -1;
    if (file.failed || entries.failed || set.text.failed)
        errno = ENOMEM;
    else if (ss_write_file(path, SS_FILE_NOFOLLOW, write_bytes, &file) == SS_WRITE_OK)
        rc = 1;
    free(file.data);
    free(entries.data);
    free(set.text.data);
    free(set.slots);
    return rc;
}

typedef struct cache_file {
    char name[NAME_MAX + 1];
    uint64_t size;
    int64_t mtime_ns;
} cache_file;

static int older_first(const void *a, const void *b)
{
    const cache_file *x = a, *y = b;
    if (x->mtime_ns != y->mtime_ns)
        return x->mtime_ns < y->mtime_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

size_t ss_symcache_prune(const char *dir, uint64_t max_bytes)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    cache_file *files = NULL;
    size_t count = 0, cap = 0;
    uint64_t total = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        struct stat st;
        if (len < 5 || strcmp(e->d_name + len - 4, ".sym") != 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (count == cap) {
            size_t grown_cap = cap ? cap * 2 : 64;
            cache_file *grown = realloc(files, grown_cap * sizeof *grown);
            if (grown == NULL)
                break;
            files = grown;
            cap = grown_cap;
        }
        snprintf(files[count].name, sizeof files[count].name, "%s", e->d_name);
        files[count].size = (uint64_t)st.st_size;
        files[count].mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        total += files[count].size;
        count++;
    }
    size_t removed = 0;
    if (total > max_bytes) {
        qsort(files, count, sizeof *files, older_first);
        for (size_t i = 0; i < count && total > max_bytes / 4 * 3; i++) {
            if (unlinkat(dirfd(d), files[i].name, 0) == 0) {
                total -= files[i].size;
                removed++;
            }
        }
    }
    closedir(d);
    free(files);
    return removed;
}

void ss_symcache_free(ss_symcache_table *table)
{
    for (size_t i = 0; i < table->string_count; i++)
        free(table->strings[i]);
    free(table->strings);
    free(table->entries);
    free(table->flags);
    free(table->slots);
    free(table->file_data);
    memset(table, 0, sizeof *table);
}
