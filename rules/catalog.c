/* catalog.c: the rule catalog and CUDA API table, expanded from rules.def and cuda_api.def. */
#include "rules.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define SEV_NOTE SS_SEV_NOTE
#define SEV_WARNING SS_SEV_WARNING
#define SEV_ERROR SS_SEV_ERROR
#define HALF_STATIC SS_HALF_STATIC
#define HALF_RUNTIME SS_HALF_RUNTIME
#define HALF_BOTH SS_HALF_BOTH

static const ss_rule rule_table[] = {
#define SS_RULE(enum_name, id, name, severity, halves, cost, summary, explanation)                 \
    {SS_RULE_##enum_name, id,      name,       SEV_##severity, HALF_##halves,                      \
     SS_COST_##cost,      summary, explanation},
#include "rules.def"
};

static const ss_api api_table[] = {
#define SS_API(name, domain, klass, sync, stream_arg, stream_opt, dst_arg, src_arg, size_arg,      \
               kind_arg, flags_arg, dir)                                                           \
    {SS_API_##name,  #name,      SS_DOMAIN_##domain, SS_CLASS_##klass,                             \
     SS_SYNC_##sync, stream_arg, stream_opt,         dst_arg,                                      \
     src_arg,        size_arg,   kind_arg,           flags_arg,                                    \
     SS_DIR_##dir},
#include "cuda_api.def"
};

const ss_rule *ss_rules_all(size_t *count)
{
    *count = sizeof rule_table / sizeof rule_table[0];
    return rule_table;
}

const ss_rule *ss_rules_get(ss_rule_id rule)
{
    return &rule_table[rule];
}

const char *const *ss_rules_keys(size_t *count)
{
    static const char *const keys[] = {
#define SS_RULE(enum_name, id, name, severity, halves, cost, summary, explanation) id, name,
#include "rules.def"
    };
    *count = sizeof keys / sizeof keys[0];
    return keys;
}

const ss_rule *ss_rules_find(const char *key)
{
    if (key == NULL)
        return NULL;
    for (size_t i = 0; i < SS_RULE_COUNT; i++) {
        if (strcasecmp(rule_table[i].id, key) == 0 || strcasecmp(rule_table[i].name, key) == 0)
            return &rule_table[i];
    }
    return NULL;
}

const char *ss_severity_name(ss_severity severity)
{
    switch (severity) {
    case SS_SEV_NOTE:
        return "note";
    case SS_SEV_WARNING:
        return "warning";
    case SS_SEV_ERROR:
        return "error";
    }
    return "warning";
}

const char *ss_cost_name(ss_cost cost)
{
    switch (cost) {
    case SS_COST_NONE:
        return "none";
    case SS_COST_HOST:
        return "host";
    case SS_COST_HOST_EXPLICIT:
        return "host-explicit";
    case SS_COST_GPU_HELD:
        return "gpu-held";
    case SS_COST_SAVING:
        return "saving";
    }
    return "none";
}

int ss_severity_parse(const char *text, ss_severity *out)
{
    static const ss_severity all[] = {SS_SEV_NOTE, SS_SEV_WARNING, SS_SEV_ERROR};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (text && strcasecmp(text, ss_severity_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    }
    return -1;
}

const ss_api *ss_api_all(size_t *count)
{
    *count = sizeof api_table / sizeof api_table[0];
    return api_table;
}

/* Length of 'name' without a CUPTI version suffix (_v3020, _v2) or a per-thread suffix
 * (_ptsz, _ptds, _spt), which name the same API. */
static size_t base_name_length(const char *name)
{
    size_t len = strlen(name);
    for (;;) {
        const char *us = NULL;
        for (size_t i = len; i > 0; i--) {
            if (name[i - 1] == '_') {
                us = name + i - 1;
                break;
            }
        }
        if (us == NULL)
            return len;
        size_t tail = len - (size_t)(us - name) - 1;
        const char *t = us + 1;
        int versioned = tail >= 2 && t[0] == 'v' && isdigit((unsigned char)t[1]);
        for (size_t i = 1; versioned && i < tail; i++)
            versioned = isdigit((unsigned char)t[i]);
        int per_thread =
            (tail == 4 && (strncmp(t, "ptsz", 4) == 0 || strncmp(t, "ptds", 4) == 0)) ||
            (tail == 3 && strncmp(t, "spt", 3) == 0);
        if (!versioned && !per_thread)
            return len;
        len = (size_t)(us - name);
    }
}

int ss_api_name_is(const char *name, const char *api)
{
    size_t len = base_name_length(name);
    return strlen(api) == len && strncmp(api, name, len) == 0;
}

/* The length of each row's name, in table order: ss_api_find compares lengths before bytes
 * (the analyzer asks for every call of a unit, most of them outside the table). */
static const unsigned char api_name_length[] = {
#define SS_API(name, domain, klass, sync, stream_arg, stream_opt, dst_arg, src_arg, size_arg,      \
               kind_arg, flags_arg, dir)                                                           \
    sizeof #name - 1,
#include "cuda_api.def"
};

_Static_assert(sizeof api_name_length == SS_API_COUNT, "one name length per API row");

const ss_api *ss_api_find(const char *name)
{
    if (name == NULL)
        return NULL;
    /* ss_api_name_is for each row, with the suffixes stripped from 'name' once. */
    size_t len = base_name_length(name);
    for (size_t i = 0; i < SS_API_COUNT; i++) {
        if (api_name_length[i] == len && memcmp(api_table[i].name, name, len) == 0)
            return &api_table[i];
    }
    return NULL;
}

int ss_api_light(const ss_api *api)
{
    if (api->sync != SS_SYNC_NEVER)
        return 1;
    switch (api->klass) {
    case SS_CLASS_COPY:
    case SS_CLASS_MEMSET:
    case SS_CLASS_ALLOC:
    case SS_CLASS_FREE:
    case SS_CLASS_HOST_ALLOC:
    case SS_CLASS_MANAGED_ALLOC:
    case SS_CLASS_HOST_REGISTER:
    case SS_CLASS_HOST_UNREGISTER:
    case SS_CLASS_HOST_FREE:
    case SS_CLASS_STREAM_CREATE:
    case SS_CLASS_QUERY:
    case SS_CLASS_STREAM_SYNC:
    case SS_CLASS_DEVICE_SYNC:
    case SS_CLASS_EVENT_SYNC:
    case SS_CLASS_GRAPH_INSTANTIATE:
    case SS_CLASS_GRAPH_UPLOAD:
        return 1;
    default:
        return 0;
    }
}

int ss_api_enqueues(const ss_api *api)
{
    switch (api->klass) {
    case SS_CLASS_LAUNCH:
    case SS_CLASS_EVENT_RECORD:
    case SS_CLASS_STREAM_WAIT:
    case SS_CLASS_GRAPH_LAUNCH:
    case SS_CLASS_HOST_FUNC:
    case SS_CLASS_PREFETCH:
    case SS_CLASS_ATTACH:
        return 1;
    case SS_CLASS_COPY:
    case SS_CLASS_MEMSET:
    case SS_CLASS_ALLOC:
    case SS_CLASS_FREE:
        return api->sync == SS_SYNC_NEVER || api->sync == SS_SYNC_PAGEABLE;
    default:
        return 0;
    }
}

const char *ss_api_class_name(ss_api_class klass)
{
    static const char *const names[] = {
        "launch",       "copy",          "memset",        "alloc",           "free",
        "host-alloc",   "managed-alloc", "host-register", "host-unregister", "host-free",
        "event-record", "stream-wait",   "stream-create", "stream-sync",     "device-sync",
        "event-sync",   "query",         "capture-begin", "capture-end",     "graph-launch",
        "host-func",    "prefetch",      "attach",        "device-config",   "graph-instantiate",
        "graph-upload",
    };
    return (size_t)klass < sizeof names / sizeof names[0] ? names[klass] : "unknown";
}

const char *ss_sync_class_name(ss_sync_class sync)
{
    static const char *const names[] = {"never", "pageable", "always", "device", "explicit"};
    return (size_t)sync < sizeof names / sizeof names[0] ? names[sync] : "unknown";
}

static const ss_host_memory host_memory_table[] = {
#define SS_HOST_MEMORY(name, kind, arg) {name, SS_HOSTMEM_##kind, arg},
#include "host_memory.def"
};

const ss_host_memory *ss_host_memory_all(size_t *count)
{
    *count = sizeof host_memory_table / sizeof host_memory_table[0];
    return host_memory_table;
}

const ss_host_memory *ss_host_memory_find(const char *name, ss_host_memory_kind kind)
{
    for (size_t i = 0; name && i < sizeof host_memory_table / sizeof host_memory_table[0]; i++) {
        if (host_memory_table[i].kind == kind && strcmp(host_memory_table[i].name, name) == 0)
            return &host_memory_table[i];
    }
    return NULL;
}

static const ss_readback readback_table[] = {
#define SS_READBACK(name, kind) {name, SS_READBACK_##kind},
#include "readback.def"
};

const ss_readback *ss_readback_all(size_t *count)
{
    *count = sizeof readback_table / sizeof readback_table[0];
    return readback_table;
}

const ss_readback *ss_readback_find(const char *name, ss_readback_kind kind)
{
    for (size_t i = 0; name && i < sizeof readback_table / sizeof readback_table[0]; i++) {
        if (readback_table[i].kind == kind && strcmp(readback_table[i].name, name) == 0)
            return &readback_table[i];
    }
    return NULL;
}

const ss_readback *ss_readback_match(const char *text, ss_readback_kind kind)
{
    for (size_t i = 0; text && i < sizeof readback_table / sizeof readback_table[0]; i++) {
        if (readback_table[i].kind == kind && strstr(text, readback_table[i].name) != NULL)
            return &readback_table[i];
    }
    return NULL;
}

typedef struct compile_frame {
    int file; /* 1: a Python file fragment, 0: a native function prefix */
    const char *text;
} compile_frame;

static const compile_frame compile_frames[] = {
#define SS_COMPILE_FRAME(kind, text) {SS_COMPILE_##kind, text},
#define SS_COMPILE_FUNCTION 0
#define SS_COMPILE_FILE 1
#include "compile_frames.def"
#undef SS_COMPILE_FUNCTION
#undef SS_COMPILE_FILE
};

int ss_compile_frame(const char *function, const char *file, int python)
{
    for (size_t i = 0; i < sizeof compile_frames / sizeof compile_frames[0]; i++) {
        const compile_frame *c = &compile_frames[i];
        if (c->file) {
            if (python && file != NULL && strstr(file, c->text) != NULL)
                return 1;
        } else if (!python && function != NULL &&
                   strncmp(function, c->text, strlen(c->text)) == 0) {
            return 1;
        }
    }
    return 0;
}
