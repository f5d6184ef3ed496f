/* map.c: the hash maps of every part (map.h): a pair of integers to a uint32_t (the detectors'
 * and the Chrome trace writer's lookups), and a string to a size_t built on it (the HTML
 * page's joins and names). Open addressing, at most half full. */
#include "map.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL + (a << 6) + (a >> 2));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* Doubles the table (64 slots at first). Returns 0, or -1 with the map unchanged. */
static int map_grow(ss_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    uint64_t *keys = calloc(ncap * 2, sizeof *keys);
    uint32_t *values = calloc(ncap, sizeof *values);
    if (keys == NULL || values == NULL) {
        free(keys);
        free(values);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->values[i] == 0)
            continue;
        size_t s = (size_t)mix(m->keys[2 * i], m->keys[2 * i + 1]) & (ncap - 1);
        while (values[s] != 0)
            s = (s + 1) & (ncap - 1);
        keys[2 * s] = m->keys[2 * i];
        keys[2 * s + 1] = m->keys[2 * i + 1];
        values[s] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->cap = ncap;
    return 0;
}

/* The value slot of (a, b) (value + 1; 0: empty). When absent: NULL, or with 'insert' a new
 * empty slot for it (NULL when memory is exhausted). */
static uint32_t *map_slot(ss_map *m, uint64_t a, uint64_t b, int insert)
{
    if (insert && (m->count + 1) * 2 > m->cap && map_grow(m) < 0)
        return NULL;
    if (m->cap == 0)
        return NULL;
    size_t s = (size_t)mix(a, b) & (m->cap - 1);
    while (m->values[s] != 0) {
        if (m->keys[2 * s] == a && m->keys[2 * s + 1] == b)
            return &m->values[s];
        s = (s + 1) & (m->cap - 1);
    }
    if (!insert)
        return NULL;
    m->keys[2 * s] = a;
    m->keys[2 * s + 1] = b;
    m->count++;
    return &m->values[s];
}

uint32_t ss_map_get(const ss_map *m, uint64_t a, uint64_t b)
{
    /* Without 'insert', map_slot changes nothing. */
    uint32_t *v = map_slot((ss_map *)m, a, b, 0);
    return v && *v ? *v - 1 : SS_MAP_NONE;
}

int ss_map_put(ss_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    uint32_t *v = map_slot(m, a, b, 1);
    if (v == NULL)
        return -1;
    *v = value + 1;
    return 0;
}

uint32_t ss_map_put_first(ss_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    uint32_t *v = map_slot(m, a, b, 1);
    if (v == NULL)
        return SS_MAP_NONE;
    if (*v == 0)
        *v = value + 1;
    return *v - 1;
}

void ss_map_free(ss_map *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* The entry of 'key' and its hash, or SIZE_MAX; '*probe' is set to the first probe number
 * with no entry (where 'key' would go). Keys of one hash take the probe numbers 0, 1, ... in
 * the order they came, and no entry is ever removed. */
static size_t strmap_find(const ss_strmap *m, const char *key, uint64_t hash, uint64_t *probe)
{
    for (uint64_t k = 0;; k++) {
        uint32_t entry = ss_map_get(&m->index, hash, k);
        if (entry == SS_MAP_NONE) {
            *probe = k;
            return SIZE_MAX;
        }
        if (strcmp(m->keys[entry], key) == 0)
            return entry;
    }
}

size_t ss_strmap_get(const ss_strmap *m, const char *key)
{
    uint64_t probe;
    size_t entry = strmap_find(m, key, ss_fnv1a(SS_FNV1A_SEED, key, strlen(key)), &probe);
    return entry == SIZE_MAX ? SIZE_MAX : m->values[entry];
}

int ss_strmap_put(ss_strmap *m, const char *key, size_t value)
{
    uint64_t hash = ss_fnv1a(SS_FNV1A_SEED, key, strlen(key)), probe;
    size_t entry = strmap_find(m, key, hash, &probe);
    if (entry != SIZE_MAX) {
        m->values[entry] = value;
        return 0;
    }
    if (m->count >= SS_MAP_NONE ||
        ss_grow((void **)&m->keys, &m->key_cap, m->count + 1, sizeof *m->keys) < 0 ||
        ss_grow((void **)&m->values, &m->value_cap, m->count + 1, sizeof *m->values) < 0)
        return -1;
    char *copy = strdup(key);
    if (copy == NULL || ss_map_put(&m->index, hash, probe, (uint32_t)m->count) < 0) {
        free(copy);
        return -1;
    }
    m->keys[m->count] = copy;
    m->values[m->count++] = value;
    return 0;
}

void ss_strmap_free(ss_strmap *m)
{
    for (size_t i = 0; i < m->count; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->values);
    ss_map_free(&m->index);
    memset(m, 0, sizeof *m);
}
