/* store.c: budgeted, allocation-bounded storage for captured events, stacks and names. */
#include "store.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void ss_budget_init(ss_budget *budget, uint64_t cap)
{
    atomic_store(&budget->used, 0);
    budget->cap = cap;
    atomic_store(&budget->dropped_events, 0);
    atomic_store(&budget->dropped_stacks, 0);
    atomic_store(&budget->refused_buffers, 0);
    atomic_store(&budget->events_full, 0);
}

void *ss_budget_alloc(ss_budget *budget, size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t psize = page > 0 ? (size_t)page : 4096;
    size_t rounded = (size + psize - 1) / psize * psize;
    uint64_t before = atomic_fetch_add(&budget->used, rounded);
    if (before + rounded > budget->cap) {
        atomic_fetch_sub(&budget->used, rounded);
        return NULL;
    }
    /* mmap rather than malloc: the program's heap stays as it would be without us, and
     * the pages come zeroed. */
    void *p = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        atomic_fetch_sub(&budget->used, rounded);
        return NULL;
    }
    return p;
}

uint64_t ss_budget_used(const ss_budget *budget)
{
    return atomic_load(&budget->used);
}

void ss_store_init(ss_store *store, uint64_t cap)
{
    ss_budget_init(&store->budget, cap);
    atomic_store(&store->threads, NULL);
    atomic_store(&store->thread_count, 0);
    atomic_store(&store->activity.head, NULL);
    store->activity.tail = NULL;
}

ss_thread_store *ss_store_add_thread(ss_store *store)
{
    ss_thread_store *t = ss_budget_alloc(&store->budget, sizeof *t);
    if (t == NULL)
        return NULL;
    t->index = atomic_fetch_add(&store->thread_count, 1) + 1;
    ss_thread_store *head = atomic_load(&store->threads);
    do {
        t->next = head;
    } while (!atomic_compare_exchange_weak(&store->threads, &head, t));
    return t;
}

ss_event *ss_evbuf_reserve(ss_evbuf *buf, ss_budget *budget)
{
    ss_chunk *c = buf->tail;
    if (c == NULL || atomic_load_explicit(&c->count, memory_order_relaxed) >= c->cap) {
        ss_chunk *n = NULL;
        size_t size = sizeof *n + SS_CHUNK_EVENTS * sizeof(ss_event);
        if (!atomic_load_explicit(&budget->events_full, memory_order_relaxed))
            n = ss_budget_alloc(budget, size);
        if (n == NULL) {
            /* full for good only when no chunk fits even now (not when another thread's
             * request was counted for a moment, nor when mmap failed) */
            if (ss_budget_used(budget) + size > budget->cap)
                atomic_store_explicit(&budget->events_full, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&budget->dropped_events, 1, memory_order_relaxed);
            return NULL;
        }
        n->cap = SS_CHUNK_EVENTS;
        if (c == NULL)
            atomic_store_explicit(&buf->head, n, memory_order_release);
        else
            c->next = n;
        buf->tail = n;
        c = n;
    }
    uint32_t i = atomic_load_explicit(&c->count, memory_order_relaxed);
    ss_event *e = &c->events[i];
    /* Chunks come zeroed and are never reused, so the slot is already clear. */
    atomic_store_explicit(&c->count, i + 1, memory_order_release);
    return e;
}

uint64_t ss_evbuf_count(const ss_evbuf *buf)
{
    uint64_t n = 0;
    for (const ss_chunk *c = atomic_load(&buf->head); c != NULL; c = c->next)
        n += atomic_load(&c->count);
    return n;
}

static uint64_t hash_stack(const uint64_t *pcs, uint32_t depth, const uint32_t *py,
                           uint32_t py_depth)
{
    uint64_t h = 0xcbf29ce484222325ull ^ depth ^ (uint64_t)py_depth << 32;
    for (uint32_t i = 0; i < depth; i++) {
        h ^= pcs[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (uint32_t i = 0; i < py_depth; i++) {
        h ^= py[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

static ss_stack_entry *entry_at(const ss_stack_table *table, uint32_t id)
{
    uint32_t i = id - 1;
    return &table->blocks[i / SS_STACK_BLOCK][i % SS_STACK_BLOCK];
}

uint32_t ss_stack_intern(ss_stack_table *table, ss_budget *budget, const uint64_t *pcs,
                         uint32_t depth)
{
    return ss_stack_intern_py(table, budget, pcs, depth, NULL, 0, 0);
}

uint32_t ss_stack_intern_py(ss_stack_table *table, ss_budget *budget, const uint64_t *pcs,
                            uint32_t depth, const uint32_t *py, uint32_t py_depth,
                            uint32_t py_other)
{
    if (depth > SS_STACK_DEPTH)
        depth = SS_STACK_DEPTH;
    if (py == NULL || py_depth > SS_PY_DEPTH_MAX)
        py_depth = py == NULL ? 0 : SS_PY_DEPTH_MAX;
    py_other = py_depth > 0 && py_other;
    uint64_t h = hash_stack(pcs, depth, py, py_depth) ^ py_other;
    uint32_t slot = (uint32_t)h & (SS_STACK_SLOTS - 1);
    while (table->slots[slot] != 0) {
        const ss_stack_entry *e = entry_at(table, table->slots[slot]);
        if (e->hash == h && e->depth == depth && e->py_depth == py_depth &&
            e->py_other == py_other && memcmp(e->pcs, pcs, depth * sizeof *pcs) == 0 &&
            (py_depth == 0 || memcmp(e->py, py, py_depth * sizeof *py) == 0))
            return table->slots[slot];
        slot = (slot + 1) & (SS_STACK_SLOTS - 1);
    }
    uint32_t count = atomic_load_explicit(&table->count, memory_order_relaxed);
    if (count >= SS_STACK_MAX) {
        atomic_fetch_add_explicit(&budget->dropped_stacks, 1, memory_order_relaxed);
        return 0;
    }
    if (table->blocks[count / SS_STACK_BLOCK] == NULL) {
        ss_stack_entry *block = ss_budget_alloc(budget, SS_STACK_BLOCK * sizeof *block);
        if (block == NULL) {
            atomic_fetch_add_explicit(&budget->dropped_stacks, 1, memory_order_relaxed);
            return 0;
        }
        table->blocks[count / SS_STACK_BLOCK] = block;
    }
    uint32_t id = count + 1;
    ss_stack_entry *e = entry_at(table, id);
    e->depth = depth;
    e->py_depth = py_depth;
    e->py_other = py_other;
    e->hash = h;
    memcpy(e->pcs, pcs, depth * sizeof *pcs);
    if (py_depth > 0)
        memcpy(e->py, py, py_depth * sizeof *py);
    table->slots[slot] = id;
    atomic_store_explicit(&table->count, id, memory_order_release);
    return id;
}

const ss_stack_entry *ss_stack_get(const ss_stack_table *table, uint32_t id)
{
    if (id == 0 || id > atomic_load(&table->count))
        return NULL;
    return entry_at(table, id);
}

uint32_t ss_name_intern(ss_name_table *table, ss_budget *budget, uint64_t key, const char *text)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    uint32_t slot = (uint32_t)(h >> 40) & (SS_NAME_SLOTS - 1);
    while (table->ids[slot] != 0) {
        if (table->keys[slot] == key)
            return table->ids[slot];
        slot = (slot + 1) & (SS_NAME_SLOTS - 1);
    }
    if (table->count >= SS_NAME_MAX || text == NULL)
        return 0;
    size_t len = strnlen(text, SS_NAME_TEXT_MAX - 1);
    if (table->arena == NULL || table->arena_used + len + 1 > table->arena_size) {
        size_t size = 64 * 1024;
        char *arena = ss_budget_alloc(budget, size);
        if (arena == NULL)
            return 0;
        table->arena = arena;
        table->arena_size = size;
        table->arena_used = 0;
    }
    char *copy = table->arena + table->arena_used;
    memcpy(copy, text, len);
    copy[len] = '\0';
    table->arena_used += len + 1;
    uint32_t id = ++table->count;
    table->texts[id] = copy;
    table->keys[slot] = key;
    table->ids[slot] = id;
    return id;
}

const char *ss_name_get(const ss_name_table *table, uint32_t id)
{
    if (id == 0 || id > table->count)
        return NULL;
    return table->texts[id];
}

/* ---- Python frames ---- */

ss_py_table *ss_py_table_of(ss_thread_store *thread, ss_budget *budget)
{
    if (thread->python != NULL)
        return thread->python;
    ss_py_table *table = ss_budget_alloc(budget, sizeof *table);
    if (table == NULL)
        return NULL;
    table->text = ss_budget_alloc(budget, SS_PY_TEXT_SIZE);
    if (table->text == NULL)
        return NULL;      /* the table's pages stay counted; a later call retries */
    table->text_used = 1; /* offset 0 is "" */
    thread->python = table;
    return table;
}

static uint32_t py_slot_of(uint64_t code, int32_t offset)
{
    uint64_t h =
        (code ^ (uint64_t)(uint32_t)offset * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;
    return (uint32_t)(h >> 40) & (SS_PY_SLOTS - 1);
}

uint32_t ss_py_find(const ss_py_table *table, uint64_t code, int32_t offset, uint64_t check)
{
    uint32_t slot = py_slot_of(code, offset);
    for (uint32_t probes = 0; probes < SS_PY_SLOTS && table->slots[slot] != 0; probes++) {
        const ss_py_frame *f = &table->frames[table->slots[slot]];
        if (f->code == code && f->offset == offset && f->check == check)
            return table->slots[slot];
        slot = (slot + 1) & (SS_PY_SLOTS - 1);
    }
    return 0;
}

/* The offset of a copy of 'text' in the table's text space (shared with an equal text
 * already there), or 0 when there is no room. */
static uint32_t py_text_intern(ss_py_table *table, const char *text)
{
    if (text == NULL || text[0] == '\0')
        return 0;
    size_t len = strnlen(text, 4096);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    uint32_t slot = (uint32_t)(h >> 32) & (SS_PY_SLOTS - 1);
    for (uint32_t probes = 0; probes < SS_PY_SLOTS; probes++) {
        uint32_t at = table->text_slots[slot];
        if (at == 0)
            break;
        if (strncmp(table->text + at, text, len) == 0 && table->text[at + len] == '\0')
            return at;
        slot = (slot + 1) & (SS_PY_SLOTS - 1);
    }
    if (table->text_slots[slot] != 0 || table->text_used + len + 1 > SS_PY_TEXT_SIZE)
        return 0;
    uint32_t at = table->text_used;
    memcpy(table->text + at, text, len);
    table->text[at + len] = '\0';
    table->text_used += (uint32_t)len + 1;
    table->text_slots[slot] = at;
    return at;
}

uint32_t ss_py_add(ss_py_table *table, uint64_t code, int32_t offset, uint64_t check,
                   const char *file, const char *function, uint32_t line)
{
    if (table->count >= SS_PY_FRAMES)
        return 0;
    uint32_t slot = py_slot_of(code, offset);
    uint32_t probes = 0;
    while (table->slots[slot] != 0 && probes++ < SS_PY_SLOTS)
        slot = (slot + 1) & (SS_PY_SLOTS - 1);
    if (table->slots[slot] != 0)
        return 0;
    uint32_t id = table->count + 1;
    ss_py_frame *f = &table->frames[id];
    f->code = code;
    f->offset = offset;
    f->check = check;
    f->line = line;
    f->file = py_text_intern(table, file);
    f->function = py_text_intern(table, function);
    table->count = id;
    table->slots[slot] = id;
    return id;
}

const ss_py_frame *ss_py_get(const ss_py_table *table, uint32_t id)
{
    if (table == NULL || id == 0 || id > table->count)
        return NULL;
    return &table->frames[id];
}

const char *ss_py_text(const ss_py_table *table, uint32_t offset)
{
    if (table == NULL || offset == 0 || offset >= table->text_used)
        return "";
    return table->text + offset;
}
