/* evlog.c: the in-memory event log: append, intern strings, stacks, metadata, sort. */
#include "evlog.h"

#include "rules.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

uint64_t ss_event_start_ns(const ss_event *e)
{
    switch (e->type) {
    case SS_EV_API:
        return e->u.api.enter_ns;
    case SS_EV_KERNEL:
    case SS_EV_MEMCPY:
    case SS_EV_MEMSET:
        return e->u.gpu.start_ns;
    case SS_EV_SYNC:
        return e->u.sync.start_ns;
    case SS_EV_SCOPE:
        return e->u.scope.time_ns;
    case SS_EV_ARGS:
        return e->u.args.time_ns;
    default:
        return 0;
    }
}

uint64_t ss_event_end_ns(const ss_event *e)
{
    switch (e->type) {
    case SS_EV_API:
        return e->u.api.exit_ns;
    case SS_EV_KERNEL:
    case SS_EV_MEMCPY:
    case SS_EV_MEMSET:
        return e->u.gpu.end_ns;
    case SS_EV_SYNC:
        return e->u.sync.end_ns;
    case SS_EV_SCOPE:
        return e->u.scope.time_ns;
    case SS_EV_ARGS:
        return e->u.args.time_ns;
    default:
        return 0;
    }
}

int ss_evlog_init(ss_event_log *log)
{
    memset(log, 0, sizeof *log);
    if (ss_evlog_intern(log, "") != 0)
        return -1;
    if (ss_evlog_add_stack(log, NULL, 0) != 0)
        return -1;
    return 0;
}

void ss_evlog_free(ss_event_log *log)
{
    free(log->events);
    free(log->tallies);
    for (size_t i = 0; i < log->string_count; i++)
        free(log->strings[i]);
    free(log->strings);
    for (size_t i = 0; i < log->stack_count; i++)
        free(log->stacks[i].frames);
    free(log->stacks);
    for (size_t i = 0; i < log->meta_count; i++) {
        free(log->meta[i].key);
        free(log->meta[i].value);
    }
    free(log->meta);
    free(log->string_index);
    free(log->string_api);
    memset(log, 0, sizeof *log);
}

int ss_evlog_append(ss_event_log *log, const ss_event *event)
{
    if (ss_grow((void **)&log->events, &log->cap, log->count + 1, sizeof *log->events) < 0)
        return -1;
    log->events[log->count++] = *event;
    return 0;
}

int ss_evlog_add_tally(ss_event_log *log, const ss_tally *tally)
{
    if (ss_grow((void **)&log->tallies, &log->tally_cap, log->tally_count + 1,
                sizeof *log->tallies) < 0)
        return -1;
    log->tallies[log->tally_count++] = *tally;
    return 0;
}

/* FNV-1a over a NUL-terminated string. */
static uint64_t hash_text(const char *text)
{
    return ss_fnv1a(SS_FNV1A_SEED, text, strlen(text));
}

/* Rebuilds the string hash with 'cap' slots (a power of two). Returns 0 or -1. */
static int rehash_strings(ss_event_log *log, size_t cap)
{
    uint32_t *index = calloc(cap, sizeof *index);
    if (index == NULL)
        return -1;
    for (size_t i = 0; i < log->string_count; i++) {
        size_t slot = (size_t)hash_text(log->strings[i]) & (cap - 1);
        while (index[slot] != 0)
            slot = (slot + 1) & (cap - 1);
        index[slot] = (uint32_t)i + 1;
    }
    free(log->string_index);
    log->string_index = index;
    log->string_index_cap = cap;
    return 0;
}

uint32_t ss_evlog_intern(ss_event_log *log, const char *text)
{
    /* Open addressing with linear probing, kept at most half full: a trace can hold
     * hundreds of thousands of distinct kernel names and source files. */
    if ((log->string_count + 1) * 2 > log->string_index_cap) {
        size_t cap = log->string_index_cap ? log->string_index_cap * 2 : 256;
        while ((log->string_count + 1) * 2 > cap)
            cap *= 2;
        if (rehash_strings(log, cap) < 0)
            return 0;
    }
    size_t mask = log->string_index_cap - 1;
    size_t slot = (size_t)hash_text(text) & mask;
    while (log->string_index[slot] != 0) {
        uint32_t id = log->string_index[slot] - 1;
        if (strcmp(log->strings[id], text) == 0)
            return id;
        slot = (slot + 1) & mask;
    }
    if (ss_grow((void **)&log->strings, &log->string_cap, log->string_count + 1,
                sizeof *log->strings) < 0 ||
        ss_grow((void **)&log->string_api, &log->string_api_cap, log->string_count + 1,
                sizeof *log->string_api) < 0)
        return 0;
    char *copy = strdup(text);
    if (copy == NULL)
        return 0;
    log->strings[log->string_count] = copy;
    log->string_api[log->string_count] = ss_api_find(text);
    log->string_index[slot] = (uint32_t)log->string_count + 1;
    return (uint32_t)log->string_count++;
}

uint32_t ss_evlog_add_stack(ss_event_log *log, const ss_stack_frame *frames, uint32_t depth)
{
    if (ss_grow((void **)&log->stacks, &log->stack_cap, log->stack_count + 1, sizeof *log->stacks) <
        0)
        return 0;
    ss_stack *s = &log->stacks[log->stack_count];
    s->frames = NULL;
    s->depth = 0;
    if (depth > 0) {
        s->frames = malloc(depth * sizeof *frames);
        if (s->frames == NULL)
            return 0;
        memcpy(s->frames, frames, depth * sizeof *frames);
        s->depth = depth;
    }
    return (uint32_t)log->stack_count++;
}

int ss_evlog_set_meta(ss_event_log *log, const char *key, const char *value)
{
    for (size_t i = 0; i < log->meta_count; i++) {
        if (strcmp(log->meta[i].key, key) == 0) {
            char *v = strdup(value);
            if (v == NULL)
                return -1;
            free(log->meta[i].value);
            log->meta[i].value = v;
            return 0;
        }
    }
    if (ss_grow((void **)&log->meta, &log->meta_cap, log->meta_count + 1, sizeof *log->meta) < 0)
        return -1;
    log->meta[log->meta_count].key = strdup(key);
    log->meta[log->meta_count].value = strdup(value);
    if (!log->meta[log->meta_count].key || !log->meta[log->meta_count].value)
        return -1;
    log->meta_count++;
    return 0;
}

const char *ss_evlog_get_meta(const ss_event_log *log, const char *key)
{
    for (size_t i = 0; i < log->meta_count; i++) {
        if (strcmp(log->meta[i].key, key) == 0)
            return log->meta[i].value;
    }
    return NULL;
}

/* Merge sort: stable, and the log can be large (no recursion depth issue at n log n). */
void ss_evlog_sort(ss_event_log *log)
{
    size_t n = log->count;
    if (n < 2)
        return;
    ss_event *tmp = malloc(n * sizeof *tmp);
    if (tmp == NULL)
        return;
    ss_event *src = log->events, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] =
                    ss_event_start_ns(&src[j]) < ss_event_start_ns(&src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        ss_event *t = src;
        src = dst;
        dst = t;
    }
    if (src != log->events)
        memcpy(log->events, src, n * sizeof *src);
    free(tmp);
}
