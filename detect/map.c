/* map.c: the hash map from a pair of integers to an index (det_map) that the detectors and the
 * Chrome trace writer key their lookups with: open addressing, at most half full. */
#include "detect_int.h"

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
static int map_grow(det_map *m)
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
static uint32_t *map_slot(det_map *m, uint64_t a, uint64_t b, int insert)
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

uint32_t det_map_get(det_map *m, uint64_t a, uint64_t b)
{
    uint32_t *v = map_slot(m, a, b, 0);
    return v && *v ? *v - 1 : DET_NONE;
}

int det_map_put(det_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    uint32_t *v = map_slot(m, a, b, 1);
    if (v == NULL)
        return -1;
    *v = value + 1;
    return 0;
}

uint32_t det_map_put_first(det_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    uint32_t *v = map_slot(m, a, b, 1);
    if (v == NULL)
        return DET_NONE;
    if (*v == 0)
        *v = value + 1;
    return *v - 1;
}

void det_map_free(det_map *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}
