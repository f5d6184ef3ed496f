/* map.h: the hash maps of every part: from a pair of integers to a uint32_t (ss_map), and from
 * a string to a size_t (ss_strmap), which is an ss_map from the string's hash. Out of memory,
 * the put functions return -1 and leave the map as it was: the detectors run inside the
 * observed program and never abort; the tool's writers abort themselves. */
#ifndef SS_MAP_H
#define SS_MAP_H

#include <stddef.h>
#include <stdint.h>

/* A zeroed ss_map is empty. */
typedef struct ss_map {
    uint64_t *keys;   /* 2 per slot */
    uint32_t *values; /* value + 1; 0 = empty */
    size_t cap, count;
} ss_map;

/* What ss_map_get returns for a pair that is not in the map. */
#define SS_MAP_NONE UINT32_MAX

/* The value of (a, b), or SS_MAP_NONE. */
uint32_t ss_map_get(const ss_map *map, uint64_t a, uint64_t b);
/* Sets (a, b) to 'value'. Returns 0 or -1. */
int ss_map_put(ss_map *map, uint64_t a, uint64_t b, uint32_t value);
/* Sets (a, b) to 'value' unless it is set already. Returns the value (a, b) has now, or
 * SS_MAP_NONE when memory is exhausted. */
uint32_t ss_map_put_first(ss_map *map, uint64_t a, uint64_t b, uint32_t value);
void ss_map_free(ss_map *map);

/* A zeroed ss_strmap is empty. Keys are copied. */
typedef struct ss_strmap {
    ss_map index; /* (FNV-1a of the key, probe number) -> entry */
    char **keys;  /* the entries, in the order they came */
    size_t *values;
    size_t count, key_cap, value_cap;
} ss_strmap;

/* The value of 'key', or SIZE_MAX. */
size_t ss_strmap_get(const ss_strmap *map, const char *key);
/* Sets 'key' to 'value'. Returns 0, or -1 when memory is exhausted. */
int ss_strmap_put(ss_strmap *map, const char *key, size_t value);
void ss_strmap_free(ss_strmap *map);

#endif
