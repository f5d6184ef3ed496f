/* chrome.c: the event log as Chrome trace event JSON (Perfetto, chrome://tracing). */
#include "detect_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Process ids: the host is one process, each device another (device + 1). */
#define HOST_PID 0
#define SYNC_TID 0 /* the host lane of CUPTI synchronization records */

/* Length of the valid UTF-8 sequence at 's', or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s)
{
    size_t n;
    uint32_t cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0) {
        n = 2;
        cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        n = 3;
        cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        n = 4;
        cp = s[0] & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Writes 'text' as a JSON string: quotes, backslashes and control bytes escaped, '<' and '>'
 * escaped so the file can be embedded in HTML, invalid UTF-8 replaced by U+FFFD. */
static void put_json_string(FILE *out, const char *text)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    while (*p) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p++, out);
        } else if (*p == '\n') {
            fputs("\\n", out);
            p++;
        } else if (*p < 0x20 || *p == '<' || *p == '>' || *p == 0x7f) {
            fprintf(out, "\\u%04x", *p++);
        } else {
            size_t n = utf8_length(p);
            if (n == 0) {
                fputs("\\ufffd", out);
                p++;
            } else {
                fwrite(p, 1, n, out);
                p += n;
            }
        }
    }
    fputc('"', out);
}

static const char *copy_kind_name(unsigned kind)
{
    static const char *const names[] = {"copy", "HtoD", "DtoH", "DtoD", "HtoH", "PtoP"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "copy";
}

static const char *mem_kind_name(unsigned kind)
{
    static const char *const names[] = {"unknown", "pageable", "pinned",
                                        "device",  "array",    "managed"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

static const char *sync_type_name(unsigned type)
{
    static const char *const names[] = {"synchronization", "cudaEventSynchronize",
                                        "cudaStreamWaitEvent", "cudaStreamSynchronize",
                                        "cudaCtxSynchronize"};
    return type < sizeof names / sizeof names[0] ? names[type] : "synchronization";
}

/* A (pid, tid) lane seen so far, for the metadata events that name it. */
typedef struct lane {
    int64_t pid;
    uint64_t tid;
} lane;

typedef struct lanes {
    lane *items;
    size_t count, cap;
} lanes;

static int lanes_add(lanes *l, int64_t pid, uint64_t tid)
{
    /* Few lanes (threads, streams): a linear search, with the last hit checked first. */
    for (size_t i = l->count; i > 0; i--) {
        if (l->items[i - 1].pid == pid && l->items[i - 1].tid == tid)
            return 0;
    }
    if (det_grow((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items) < 0)
        return -1;
    l->items[l->count].pid = pid;
    l->items[l->count].tid = tid;
    l->count++;
    return 0;
}

static void put_time(FILE *out, const char *key, uint64_t ns)
{
    /* Microseconds with nanosecond precision, written exactly (no floating rounding). */
    fprintf(out, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

int ss_chrome_trace_write(FILE *out, const ss_event_log *log)
{
    uint64_t origin = UINT64_MAX;
    for (size_t i = 0; i < log->count; i++) {
        if (log->events[i].type == SS_EV_STREAM)
            continue; /* no time */
        uint64_t t = ss_event_start_ns(&log->events[i]);
        if (t < origin)
            origin = t;
    }
    if (origin == UINT64_MAX)
        origin = 0;

    lanes seen = {NULL, 0, 0};
    int rc = 0;
    const char *sep = "\n";
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
    for (size_t i = 0; i < log->count && rc == 0; i++) {
        const ss_event *e = &log->events[i];
        if (e->type == SS_EV_STREAM)
            continue;
        uint64_t start = ss_event_start_ns(e), end = ss_event_end_ns(e);
        uint64_t dur = end > start ? end - start : 0;
        int64_t pid;
        uint64_t tid;
        const char *name, *cat;
        if (e->type == SS_EV_API) {
            pid = HOST_PID;
            tid = e->u.api.thread;
            name = log->strings[e->u.api.name];
            cat = e->u.api.domain == SS_DOMAIN_DRIVER ? "driver" : "runtime";
        } else if (e->type == SS_EV_SYNC) {
            pid = HOST_PID;
            tid = SYNC_TID;
            name = sync_type_name(e->u.sync.type);
            cat = "sync";
        } else {
            pid = (int64_t)e->u.gpu.device + 1;
            tid = e->u.gpu.stream_id;
            if (e->type == SS_EV_KERNEL) {
                name = log->strings[e->u.gpu.name];
                cat = "kernel";
            } else if (e->type == SS_EV_MEMCPY) {
                name = copy_kind_name(e->u.gpu.copy_kind);
                cat = "memcpy";
            } else {
                name = "memset";
                cat = "memset";
            }
        }
        if (lanes_add(&seen, pid, tid) < 0) {
            rc = -1;
            break;
        }
        fprintf(out, "%s{\"ph\":\"X\",\"name\":", sep);
        sep = ",\n";
        put_json_string(out, name);
        fprintf(out, ",\"cat\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%" PRIu64, cat, pid, tid);
        put_time(out, "ts", start >= origin ? start - origin : 0);
        put_time(out, "dur", dur);
        fputs(",\"args\":{", out);
        if (e->type == SS_EV_API) {
            const ss_ev_api *a = &e->u.api;
            fprintf(out,
                    "\"correlation\":%" PRIu32 ",\"stream\":%" PRIu32 ",\"bytes\":%" PRIu64
                    ",\"result\":%" PRId32 ",\"stack\":%" PRIu32,
                    a->correlation, a->stream_id, a->bytes, a->result, a->stack);
        } else if (e->type == SS_EV_SYNC) {
            fprintf(out, "\"correlation\":%" PRIu32 ",\"stream\":%" PRIu32, e->u.sync.correlation,
                    e->u.sync.stream_id);
        } else {
            const ss_ev_gpu *g = &e->u.gpu;
            fprintf(out, "\"correlation\":%" PRIu32 ",\"bytes\":%" PRIu64, g->correlation,
                    g->bytes);
            if (e->type == SS_EV_MEMCPY)
                fprintf(out, ",\"src\":\"%s\",\"dst\":\"%s\"", mem_kind_name(g->src_kind),
                        mem_kind_name(g->dst_kind));
        }
        fputs("}}", out);
    }
    /* Name the processes and lanes. */
    for (size_t i = 0; i < seen.count && rc == 0; i++) {
        const lane *l = &seen.items[i];
        int first_of_pid = 1;
        for (size_t j = 0; j < i; j++)
            first_of_pid &= seen.items[j].pid != l->pid;
        if (first_of_pid) {
            fprintf(out,
                    "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
                    ",\"tid\":0,\"args\":{\"name\":",
                    sep, l->pid);
            sep = ",\n";
            if (l->pid == HOST_PID) {
                const char *program = ss_log_get_meta(log, "program");
                char *label = ss_asprintf("host: %s", program ? program : "program");
                put_json_string(out, label);
                free(label);
            } else {
                fprintf(out, "\"GPU %" PRId64 "\"", l->pid - 1);
            }
            fputs("}}", out);
        }
        fprintf(out,
                "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64 ",\"tid\":%" PRIu64
                ",\"args\":{\"name\":\"",
                sep, l->pid, l->tid);
        if (l->pid != HOST_PID)
            fprintf(out, "stream %" PRIu64, l->tid);
        else if (l->tid == SYNC_TID)
            fputs("synchronization", out);
        else
            fprintf(out, "thread %" PRIu64, l->tid);
        fputs("\"}}", out);
    }
    fputs("\n]}\n", out);
    free(seen.items);
    fflush(out);
    return rc == 0 && !ferror(out) ? 0 : -1;
}
