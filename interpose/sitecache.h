/* sitecache.h: a thread's cache of the call sites it took stacks at (capture_stack), so that
 * a call made again at a site gets the stack taken there the first time without unwinding it
 * again; internal to interpose/. No lock, no allocation: each thread owns its cache. */
#ifndef SS_INTERPOSE_SITECACHE_H
#define SS_INTERPOSE_SITECACHE_H

#include <stdint.h>

/* Ways per set and sets (a power of two): a site is remembered in one of the SS_SITE_WAYS
 * slots of the set its key chooses, the least recently used one making room. */
#define SS_SITE_WAYS 4
#define SS_SITE_SETS 64

/* What names a site: two independent hashes of what was read there (Python frames, program
 * counters), the stack pointer of the callback and the call (which API, 0 for none). */
typedef struct ss_site_key {
    uint64_t hash;
    uint64_t check;
    uint64_t sp;
    uint64_t call;
} ss_site_key;

typedef struct ss_site_slot {
    ss_site_key key;
    uint32_t stack; /* the stack id taken at the site, 0: an empty slot */
    uint32_t used;  /* the cache's tick when the slot was last found or filled */
} ss_site_slot;

/* Code objects whose file the site key looked at (ss_python_site_key): whether the file is a
 * library's (ss_python_library_file), which decides how far the frame walk goes. Direct-mapped,
 * a code object and its file object's addresses together naming an entry, as the frame table
 * names a frame by its code object's (ss_py_find). */
#define SS_SITE_CODES 256

typedef struct ss_site_code {
    uint64_t code; /* 0: an empty entry */
    uint64_t file;
    uint32_t library;
} ss_site_code;

typedef struct ss_site_cache {
    ss_site_slot slots[SS_SITE_SETS * SS_SITE_WAYS];
    uint32_t tick;
    ss_site_code codes[SS_SITE_CODES];
} ss_site_cache;

/* A key for 'sp' and 'call' with nothing mixed in yet. */
ss_site_key ss_site_key_start(uint64_t sp, uint64_t call);

/* Mixes 'word' into both hashes of 'key': FNV-1a over the word for one, a multiply-xorshift
 * (splitmix64's) chain for the other; a collision of both is what a wrong hit would take.
 * Inline: it runs for every Python frame of every stack. */
static inline void ss_site_key_mix(ss_site_key *key, uint64_t word)
{
    key->hash = (key->hash ^ word) * 0x100000001b3ull;
    uint64_t z = key->check + word + 0x9e3779b97f4a7c15ull;
    z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ z >> 27) * 0x94d049bb133111ebull;
    key->check = z ^ z >> 31;
}

/* The stack id remembered for 'key' in 'cache' (every field equal), 0 when there is none. */
uint32_t ss_site_find(ss_site_cache *cache, const ss_site_key *key);

/* Remembers 'stack' (not 0) for 'key', in place of the same key's slot, else of an empty slot
 * of its set, else of the set's least recently used one. */
void ss_site_remember(ss_site_cache *cache, const ss_site_key *key, uint32_t stack);

#endif
