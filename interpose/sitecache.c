/* sitecache.c: a thread's cache of call sites (sitecache.h): set-associative, least recently
 * used out, keyed by two independent 64-bit hashes with the stack pointer and the call. */
#include "sitecache.h"

#include <stddef.h>

ss_site_key ss_site_key_start(uint64_t sp, uint64_t call)
{
    return (ss_site_key){0xcbf29ce484222325ull, 0x9e3779b97f4a7c15ull, sp, call};
}

static ss_site_slot *set_of(ss_site_cache *cache, const ss_site_key *key)
{
    uint64_t h = key->hash ^ key->sp ^ key->call;
    h ^= h >> 29;
    h ^= h >> 17;
    return &cache->slots[(h & (SS_SITE_SETS - 1)) * SS_SITE_WAYS];
}

static int same_key(const ss_site_key *a, const ss_site_key *b)
{
    return a->hash == b->hash && a->check == b->check && a->sp == b->sp && a->call == b->call;
}

uint32_t ss_site_find(ss_site_cache *cache, const ss_site_key *key)
{
    ss_site_slot *set = set_of(cache, key);
    for (int w = 0; w < SS_SITE_WAYS; w++) {
        if (set[w].stack != 0 && same_key(&set[w].key, key)) {
            set[w].used = ++cache->tick;
            return set[w].stack;
        }
    }
    return 0;
}

void ss_site_remember(ss_site_cache *cache, const ss_site_key *key, uint32_t stack)
{
    if (stack == 0)
        return;
    ss_site_slot *set = set_of(cache, key), *slot = NULL;
    for (int w = 0; w < SS_SITE_WAYS && slot == NULL; w++) {
        if (set[w].stack != 0 && same_key(&set[w].key, key))
            slot = &set[w];
    }
    for (int w = 0; w < SS_SITE_WAYS && slot == NULL; w++) {
        if (set[w].stack == 0)
            slot = &set[w];
    }
    if (slot == NULL) {
        slot = &set[0];
        /* Ticks wrap after 2^32 finds: the distance from now orders them all the same. */
        for (int w = 1; w < SS_SITE_WAYS; w++) {
            if (cache->tick - set[w].used > cache->tick - slot->used)
                slot = &set[w];
        }
    }
    slot->key = *key;
    slot->stack = stack;
    slot->used = ++cache->tick;
}
