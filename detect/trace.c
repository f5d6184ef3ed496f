/* trace.c: the syncscope trace format (docs/trace-format.md): a strict, streaming text codec. */
#include "detect.h"
#include "files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How one field of a record is stored and checked. */
typedef enum field_type {
    F_U64,
    F_U32,
    F_U8,
    F_I32,
    F_STR,  /* a string id (uint32_t) that must be defined earlier */
    F_STACK /* a stack id (uint32_t) that must be defined earlier */
} field_type;

typedef struct field {
    const char *name;
    field_type type;
    size_t offset;
} field;

#define FIELD(s, member, type)                                                                     \
    {                                                                                              \
#member, type, offsetof(s, member)                                                         \
    }

static const field api_fields[] = {
    FIELD(ss_ev_api, enter_ns, F_U64),  FIELD(ss_ev_api, exit_ns, F_U64),
    FIELD(ss_ev_api, thread, F_U32),    FIELD(ss_ev_api, correlation, F_U32),
    FIELD(ss_ev_api, name, F_STR),      FIELD(ss_ev_api, stream, F_U64),
    FIELD(ss_ev_api, stream_id, F_U32), FIELD(ss_ev_api, per_thread, F_U8),
    FIELD(ss_ev_api, bytes, F_U64),     FIELD(ss_ev_api, copy_kind, F_I32),
    FIELD(ss_ev_api, flags, F_U32),     FIELD(ss_ev_api, result, F_I32),
    FIELD(ss_ev_api, device, F_I32),    FIELD(ss_ev_api, domain, F_U8),
    FIELD(ss_ev_api, nested, F_U8),     FIELD(ss_ev_api, stack, F_STACK),
};

static const field gpu_fields[] = {
    FIELD(ss_ev_gpu, start_ns, F_U64),    FIELD(ss_ev_gpu, end_ns, F_U64),
    FIELD(ss_ev_gpu, correlation, F_U32), FIELD(ss_ev_gpu, stream_id, F_U32),
    FIELD(ss_ev_gpu, context, F_U32),     FIELD(ss_ev_gpu, device, F_I32),
    FIELD(ss_ev_gpu, name, F_STR),        FIELD(ss_ev_gpu, bytes, F_U64),
    FIELD(ss_ev_gpu, copy_kind, F_U8),    FIELD(ss_ev_gpu, src_kind, F_U8),
    FIELD(ss_ev_gpu, dst_kind, F_U8),     FIELD(ss_ev_gpu, graph, F_U8),
};

static const field sync_fields[] = {
    FIELD(ss_ev_sync, start_ns, F_U64),    FIELD(ss_ev_sync, end_ns, F_U64),
    FIELD(ss_ev_sync, correlation, F_U32), FIELD(ss_ev_sync, stream_id, F_U32),
    FIELD(ss_ev_sync, context, F_U32),     FIELD(ss_ev_sync, type, F_U32),
};

static const field stream_fields[] = {
    FIELD(ss_ev_stream, handle, F_U64),   FIELD(ss_ev_stream, stream_id, F_U32),
    FIELD(ss_ev_stream, flags, F_U32),    FIELD(ss_ev_stream, device, F_I32),
    FIELD(ss_ev_stream, priority, F_I32), FIELD(ss_ev_stream, context, F_U32),
};

static const field scope_fields[] = {
    FIELD(ss_ev_scope, time_ns, F_U64), FIELD(ss_ev_scope, thread, F_U32),
    FIELD(ss_ev_scope, kind, F_U8),     FIELD(ss_ev_scope, source, F_U8),
    FIELD(ss_ev_scope, id, F_U64),      FIELD(ss_ev_scope, name, F_STR),
};

static const field args_fields[] = {
    FIELD(ss_ev_args, time_ns, F_U64),   FIELD(ss_ev_args, correlation, F_U32),
    FIELD(ss_ev_args, kind, F_U8),       FIELD(ss_ev_args, complete, F_U8),
    FIELD(ss_ev_args, count, F_U8),      FIELD(ss_ev_args, values[0], F_U64),
    FIELD(ss_ev_args, values[1], F_U64), FIELD(ss_ev_args, values[2], F_U64),
    FIELD(ss_ev_args, values[3], F_U64), FIELD(ss_ev_args, values[4], F_U64),
    FIELD(ss_ev_args, values[5], F_U64), FIELD(ss_ev_args, values[6], F_U64),
    FIELD(ss_ev_args, values[7], F_U64),
};
_Static_assert(SS_ARGS_MAX == 8, "args_fields lists SS_ARGS_MAX values");

/* A tally (ss_tally): the fields of its call, as an "api" record's, then its own. */
#define TALLY_CALL(member, type)                                                                   \
    {                                                                                              \
#member, type, offsetof(ss_tally, call) + offsetof(ss_ev_api, member)                      \
    }
static const field tally_fields[] = {
    TALLY_CALL(enter_ns, F_U64),       TALLY_CALL(exit_ns, F_U64),
    TALLY_CALL(thread, F_U32),         TALLY_CALL(correlation, F_U32),
    TALLY_CALL(name, F_STR),           TALLY_CALL(stream, F_U64),
    TALLY_CALL(stream_id, F_U32),      TALLY_CALL(per_thread, F_U8),
    TALLY_CALL(bytes, F_U64),          TALLY_CALL(copy_kind, F_I32),
    TALLY_CALL(flags, F_U32),          TALLY_CALL(result, F_I32),
    TALLY_CALL(device, F_I32),         TALLY_CALL(domain, F_U8),
    TALLY_CALL(nested, F_U8),          TALLY_CALL(stack, F_STACK),
    FIELD(ss_tally, count, F_U64),     FIELD(ss_tally, total_ns, F_U64),
    FIELD(ss_tally, max_ns, F_U64),    FIELD(ss_tally, bytes, F_U64),
    FIELD(ss_tally, prev, F_U64),      FIELD(ss_tally, next, F_U64),
    FIELD(ss_tally, long_calls, F_U8),
};
/* The minor version that introduced the tally record. */
#define TALLY_SINCE_MINOR 5u

static const field frame_fields[] = {
    FIELD(ss_stack_frame, pc, F_U64),   FIELD(ss_stack_frame, function, F_STR),
    FIELD(ss_stack_frame, file, F_STR), FIELD(ss_stack_frame, module, F_STR),
    FIELD(ss_stack_frame, line, F_U32), FIELD(ss_stack_frame, python, F_U8),
};

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

/* The event records: keyword, event type, fields, and the minor version that introduced the
 * record (a file of an older minor version may not hold it). */
static const struct event_record {
    const char *keyword;
    ss_event_type type;
    const field *fields;
    size_t count;
    unsigned since_minor;
} event_records[] = {
    {"stream", SS_EV_STREAM, stream_fields, NFIELDS(stream_fields), 0},
    {"api", SS_EV_API, api_fields, NFIELDS(api_fields), 0},
    {"kernel", SS_EV_KERNEL, gpu_fields, NFIELDS(gpu_fields), 0},
    {"memcpy", SS_EV_MEMCPY, gpu_fields, NFIELDS(gpu_fields), 0},
    {"memset", SS_EV_MEMSET, gpu_fields, NFIELDS(gpu_fields), 0},
    {"sync", SS_EV_SYNC, sync_fields, NFIELDS(sync_fields), 0},
    {"scope", SS_EV_SCOPE, scope_fields, NFIELDS(scope_fields), 1},
    {"args", SS_EV_ARGS, args_fields, NFIELDS(args_fields), 2},
};

/* ---- writing ---- */

/* Writes 'text' escaped: '-' for "", %XX for bytes outside 0x21..0x7e and for '%', and for
 * a lone "-" so that it is not read back as the empty string. */
static void put_text(FILE *out, const char *text)
{
    if (text == NULL || text[0] == '\0') {
        fputc('-', out);
        return;
    }
    if (strcmp(text, "-") == 0) {
        fputs("%2D", out);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x21 || *p > 0x7e || *p == '%')
            fprintf(out, "%%%02X", *p);
        else
            fputc(*p, out);
    }
}

static void put_fields(FILE *out, const void *base, const field *fields, size_t count)
{
    const char *b = base;
    for (size_t i = 0; i < count; i++) {
        const void *p = b + fields[i].offset;
        switch (fields[i].type) {
        case F_U64:
            fprintf(out, " %" PRIu64, *(const uint64_t *)p);
            break;
        case F_U32:
        case F_STR:
        case F_STACK:
            fprintf(out, " %" PRIu32, *(const uint32_t *)p);
            break;
        case F_U8:
            fprintf(out, " %u", (unsigned)*(const uint8_t *)p);
            break;
        case F_I32:
            fprintf(out, " %" PRId32, *(const int32_t *)p);
            break;
        }
    }
    fputc('\n', out);
}

static const void *event_body(const ss_event *e)
{
    switch (e->type) {
    case SS_EV_API:
        return &e->u.api;
    case SS_EV_SYNC:
        return &e->u.sync;
    case SS_EV_STREAM:
        return &e->u.stream;
    case SS_EV_SCOPE:
        return &e->u.scope;
    case SS_EV_ARGS:
        return &e->u.args;
    default:
        return &e->u.gpu;
    }
}

/* The oldest minor version that holds every record of 'log': a log without a call marked
 * SS_API_BETWEEN (1.4) is written as 1.3, one without event arguments (kind SS_ARGS_EVENT,
 * 1.3) as 1.2, one without argument records as 1.1, and one without scope marks either as
 * 1.0, which older readers still read. */
static unsigned needed_minor(const ss_event_log *log)
{
    if (log->tally_count > 0)
        return TALLY_SINCE_MINOR;
    unsigned minor = 0;
    for (size_t i = 0; i < log->count; i++) {
        if (log->events[i].type == SS_EV_API && (log->events[i].u.api.flags & SS_API_BETWEEN))
            return 4;
        if (log->events[i].type == SS_EV_ARGS && log->events[i].u.args.kind == SS_ARGS_EVENT)
            minor = 3;
        for (size_t r = 0; r < NFIELDS(event_records); r++) {
            if (event_records[r].type == (ss_event_type)log->events[i].type &&
                event_records[r].since_minor > minor)
                minor = event_records[r].since_minor;
        }
    }
    return minor;
}

/* The calls the log's tallies count. */
static uint64_t tallied_calls(const ss_event_log *log)
{
    uint64_t calls = 0;
    for (size_t i = 0; i < log->tally_count; i++)
        calls += log->tallies[i].count;
    return calls;
}

int ss_trace_write(FILE *out, const ss_event_log *log)
{
    fprintf(out, "SSTRACE %d %u\n", SS_TRACE_MAJOR, needed_minor(log));
    for (size_t i = 0; i < log->meta_count; i++) {
        fputs("meta ", out);
        put_text(out, log->meta[i].key);
        fputc(' ', out);
        put_text(out, log->meta[i].value);
        fputc('\n', out);
    }
    for (size_t i = 1; i < log->string_count; i++) {
        fprintf(out, "str %zu ", i);
        put_text(out, log->strings[i]);
        fputc('\n', out);
    }
    for (size_t i = 1; i < log->stack_count; i++) {
        fprintf(out, "stack %zu %" PRIu32 "\n", i, log->stacks[i].depth);
        for (uint32_t j = 0; j < log->stacks[i].depth; j++) {
            fputs("frame", out);
            put_fields(out, &log->stacks[i].frames[j], frame_fields, NFIELDS(frame_fields));
        }
    }
    for (size_t i = 0; i < log->count; i++) {
        const ss_event *e = &log->events[i];
        const struct event_record *rec = NULL;
        for (size_t r = 0; r < NFIELDS(event_records); r++) {
            if (event_records[r].type == (ss_event_type)e->type)
                rec = &event_records[r];
        }
        if (rec == NULL)
            continue; /* not a recordable event: the log's own invariant was broken */
        fputs(rec->keyword, out);
        put_fields(out, event_body(e), rec->fields, rec->count);
    }
    for (size_t i = 0; i < log->tally_count; i++) {
        fputs("tally", out);
        put_fields(out, &log->tallies[i], tally_fields, NFIELDS(tally_fields));
    }
    /* A reader from before the tally records skips them: it reads their calls as dropped. */
    fprintf(out, "dropped %" PRIu64 "\n", log->dropped + tallied_calls(log));
    fprintf(out, "end %zu %zu %zu\n", log->count, log->string_count, log->stack_count);
    fflush(out);
    return ferror(out) ? -1 : 0;
}

/* ---- reading ---- */

#define MAX_FIELDS 32
#define MAX_STACK_DEPTH 65536
/* The longest line read (docs/trace-format.md, "Limits"): far above any record the tool
 * writes (a string of 64 KiB, escaped), so that a file without newlines is refused before it
 * fills memory. */
#define MAX_LINE_BYTES (1u << 20)
/* How far outside the run's metadata times (start_ns, end_ns, wall_ns) a record may lie:
 * the times come from one clock, so this only absorbs rounding in converted GPU times. */
#define CLOCK_SLACK_NS UINT64_C(1000000000)

typedef struct reader {
    const char *path;
    size_t line;
    char *err;
    size_t err_size;
    ss_event_log *log;
    unsigned minor;           /* the file's minor version */
    char *fields[MAX_FIELDS]; /* the current line, split at spaces */
    size_t field_count;
    int too_many_fields;
    ss_stack_frame *frames; /* frames of the stack being read */
    uint32_t stack_depth;   /* frames it declared */
    uint32_t frames_read;
    int in_stack;
    int saw_dropped, saw_end;
    uint64_t bytes; /* read so far, at most SS_READ_MAX_TRACE_BYTES */
    /* The run's times from the metadata read so far, for the plausibility checks. */
    uint64_t start_ns, end_ns, wall_ns;
    int have_start, have_end, have_wall;
} reader;

static int fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(reader *r, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->err_size, "%s:%zu: %s", r->path, r->line, what);
    return -1;
}

/* Splits 'text' (no newline) at single spaces. Returns 0, or -1 on an empty field or a byte
 * that must have been escaped. */
static int split(reader *r, char *text)
{
    r->field_count = 0;
    r->too_many_fields = 0;
    char *start = text;
    for (char *p = text;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == ' ' || c == '\0') {
            if (p == start)
                return fail(r, c == '\0' && r->field_count == 0 ? "empty line" : "empty field");
            if (r->field_count < MAX_FIELDS)
                r->fields[r->field_count++] = start;
            else
                r->too_many_fields = 1;
            if (c == '\0')
                return 0;
            *p = '\0';
            start = p + 1;
        } else if (c < 0x21 || c > 0x7e) {
            return fail(r, "byte 0x%02X must be written as %%%02X", c, c);
        }
    }
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\0'))
        return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_i32(const char *s, int32_t *out)
{
    uint64_t v;
    if (s[0] == '-') {
        if (strcmp(s, "-0") == 0 || parse_u64(s + 1, (uint64_t)INT32_MAX + 1, &v) < 0)
            return -1;
        *out = (int32_t)(-(int64_t)v);
        return 0;
    }
    if (parse_u64(s, INT32_MAX, &v) < 0)
        return -1;
    *out = (int32_t)v;
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes an escaped field in place. Returns 0, or -1 with the error set. */
static int unescape(reader *r, char *s, const char *what)
{
    if (strcmp(s, "-") == 0) {
        s[0] = '\0';
        return 0;
    }
    char *w = s;
    for (const char *p = s; *p; p++) {
        if (*p != '%') {
            *w++ = *p;
            continue;
        }
        int hi = hexval(p[1]), lo = hi < 0 ? -1 : hexval(p[2]);
        if (hi < 0 || lo < 0)
            return fail(r, "%s: bad escape in '%s' (expected %% and two upper-case hex digits)",
                        what, s);
        if (hi == 0 && lo == 0)
            return fail(r, "%s: %%00 is not allowed", what);
        *w++ = (char)(hi * 16 + lo);
        p += 2;
    }
    *w = '\0';
    return 0;
}

/* Checks the number of fields of a record (keyword included in 'count'). A newer minor
 * version may append fields, which are then ignored. */
static int expect_fields(reader *r, size_t count)
{
    if (r->field_count == count && !r->too_many_fields)
        return 0;
    if (r->field_count > count && r->minor > SS_TRACE_MINOR)
        return 0;
    if (r->too_many_fields)
        return fail(r, "%s: expected %zu fields, got more than %d", r->fields[0], count - 1,
                    MAX_FIELDS - 1);
    return fail(r, "%s: expected %zu fields, got %zu", r->fields[0], count - 1, r->field_count - 1);
}

/* Parses fields 1.. of the current line into the struct at 'base'. */
static int parse_fields(reader *r, void *base, const field *fields, size_t count)
{
    if (expect_fields(r, count + 1) < 0)
        return -1;
    char *b = base;
    for (size_t i = 0; i < count; i++) {
        const char *text = r->fields[i + 1];
        void *p = b + fields[i].offset;
        uint64_t v;
        int32_t sv;
        switch (fields[i].type) {
        case F_U64:
            if (parse_u64(text, UINT64_MAX, &v) < 0)
                goto bad;
            *(uint64_t *)p = v;
            break;
        case F_U32:
            if (parse_u64(text, UINT32_MAX, &v) < 0)
                goto bad;
            *(uint32_t *)p = (uint32_t)v;
            break;
        case F_U8:
            if (parse_u64(text, UINT8_MAX, &v) < 0)
                goto bad;
            *(uint8_t *)p = (uint8_t)v;
            break;
        case F_I32:
            if (parse_i32(text, &sv) < 0)
                goto bad;
            *(int32_t *)p = sv;
            break;
        case F_STR:
            if (parse_u64(text, UINT32_MAX, &v) < 0)
                goto bad;
            if (v >= r->log->string_count)
                return fail(r, "%s: %s: string %" PRIu64 " is not defined", r->fields[0],
                            fields[i].name, v);
            *(uint32_t *)p = (uint32_t)v;
            break;
        case F_STACK:
            if (parse_u64(text, UINT32_MAX, &v) < 0)
                goto bad;
            if (v >= r->log->stack_count)
                return fail(r, "%s: %s: stack %" PRIu64 " is not defined", r->fields[0],
                            fields[i].name, v);
            *(uint32_t *)p = (uint32_t)v;
            break;
        }
        continue;
    bad:
        return fail(r, "%s: %s: '%s' is not a valid %s", r->fields[0], fields[i].name, text,
                    fields[i].type == F_I32 ? "integer" : "unsigned integer");
    }
    return 0;
}

/* Takes the run's start_ns, end_ns and wall_ns from the meta record being read (other keys
 * are left alone). Returns 0, or -1 when the value is not an integer or the end precedes the
 * start. */
static int read_run_time(reader *r)
{
    static const char *const keys[3] = {"start_ns", "end_ns", "wall_ns"};
    uint64_t *values[3] = {&r->start_ns, &r->end_ns, &r->wall_ns};
    int *have[3] = {&r->have_start, &r->have_end, &r->have_wall};
    for (int i = 0; i < 3; i++) {
        if (strcmp(r->fields[1], keys[i]) != 0)
            continue;
        if (parse_u64(r->fields[2], UINT64_MAX, values[i]) < 0)
            return fail(r, "meta: %s: '%s' is not a valid unsigned integer", keys[i], r->fields[2]);
        *have[i] = 1;
    }
    if (r->have_start && r->have_end && r->end_ns < r->start_ns)
        return fail(r, "meta: end_ns %" PRIu64 " is before start_ns %" PRIu64, r->end_ns,
                    r->start_ns);
    return 0;
}

static int read_meta(reader *r)
{
    if (expect_fields(r, 3) < 0 || unescape(r, r->fields[1], "meta") < 0 ||
        unescape(r, r->fields[2], "meta") < 0)
        return -1;
    if (ss_evlog_get_meta(r->log, r->fields[1]) != NULL)
        return fail(r, "meta: duplicate key '%s'", r->fields[1]);
    if (read_run_time(r) < 0)
        return -1;
    if (ss_evlog_set_meta(r->log, r->fields[1], r->fields[2]) < 0)
        return fail(r, "out of memory");
    return 0;
}

static int read_str(reader *r)
{
    uint64_t id;
    if (expect_fields(r, 3) < 0)
        return -1;
    if (parse_u64(r->fields[1], UINT32_MAX, &id) < 0)
        return fail(r, "str: id: '%s' is not a valid unsigned integer", r->fields[1]);
    if (id != r->log->string_count)
        return fail(r, "str: expected id %zu, got %" PRIu64, r->log->string_count, id);
    if (unescape(r, r->fields[2], "str") < 0)
        return -1;
    size_t before = r->log->string_count;
    uint32_t got = ss_evlog_intern(r->log, r->fields[2]);
    if (r->log->string_count == before) {
        if (got == 0 && r->fields[2][0] != '\0')
            return fail(r, "out of memory");
        return fail(r, "str: string %" PRIu64 " repeats string %" PRIu32, id, got);
    }
    return 0;
}

static int finish_stack(reader *r)
{
    size_t before = r->log->stack_count;
    ss_evlog_add_stack(r->log, r->frames, r->stack_depth);
    r->in_stack = 0;
    if (r->log->stack_count == before)
        return fail(r, "out of memory");
    return 0;
}

static int read_stack(reader *r)
{
    uint64_t id, depth;
    if (expect_fields(r, 3) < 0)
        return -1;
    if (parse_u64(r->fields[1], UINT32_MAX, &id) < 0)
        return fail(r, "stack: id: '%s' is not a valid unsigned integer", r->fields[1]);
    if (id != r->log->stack_count)
        return fail(r, "stack: expected id %zu, got %" PRIu64, r->log->stack_count, id);
    if (parse_u64(r->fields[2], MAX_STACK_DEPTH, &depth) < 0)
        return fail(r, "stack: depth: '%s' is not an integer from 0 to %d", r->fields[2],
                    MAX_STACK_DEPTH);
    r->stack_depth = (uint32_t)depth;
    r->frames_read = 0;
    free(r->frames);
    r->frames = NULL;
    if (depth > 0) {
        r->frames = calloc(depth, sizeof *r->frames);
        if (r->frames == NULL)
            return fail(r, "out of memory");
    }
    r->in_stack = 1;
    return depth == 0 ? finish_stack(r) : 0;
}

static int read_frame(reader *r)
{
    if (!r->in_stack)
        return fail(r, "frame: not inside a stack (no 'stack' record declares it)");
    if (parse_fields(r, &r->frames[r->frames_read], frame_fields, NFIELDS(frame_fields)) < 0)
        return -1;
    if (++r->frames_read == r->stack_depth)
        return finish_stack(r);
    return 0;
}

static int read_dropped(reader *r)
{
    uint64_t n;
    if (expect_fields(r, 2) < 0)
        return -1;
    if (r->saw_dropped)
        return fail(r, "dropped: repeated");
    if (parse_u64(r->fields[1], UINT64_MAX, &n) < 0)
        return fail(r, "dropped: '%s' is not a valid unsigned integer", r->fields[1]);
    /* the calls of the tallies before it are counted in it, for readers that skip them */
    uint64_t tallied = tallied_calls(r->log);
    if (n < tallied)
        return fail(r,
                    "dropped: %" PRIu64 " is less than the %" PRIu64 " calls of the tally records",
                    n, tallied);
    r->log->dropped = n - tallied;
    r->saw_dropped = 1;
    return 0;
}

static int read_end(reader *r)
{
    uint64_t n[3];
    static const char *const what[3] = {"events", "strings", "stacks"};
    size_t have[3] = {r->log->count, r->log->string_count, r->log->stack_count};
    if (expect_fields(r, 4) < 0)
        return -1;
    for (int i = 0; i < 3; i++) {
        if (parse_u64(r->fields[i + 1], UINT64_MAX, &n[i]) < 0)
            return fail(r, "end: %s: '%s' is not a valid unsigned integer", what[i],
                        r->fields[i + 1]);
        if (n[i] != have[i])
            return fail(r, "end: the trace declares %" PRIu64 " %s, but holds %zu", n[i], what[i],
                        have[i]);
    }
    r->saw_end = 1;
    return 0;
}

/* 'ns' in words for a message: "12.345 ms", "3.000 s". Writes into 'out' ('size' bytes). */
static const char *span_words(uint64_t ns, char *out, size_t size)
{
    if (ns >= UINT64_C(1000000000))
        snprintf(out, size, "%" PRIu64 ".%03" PRIu64 " s", ns / UINT64_C(1000000000),
                 ns / UINT64_C(1000000) % 1000);
    else if (ns >= UINT64_C(1000000))
        snprintf(out, size, "%" PRIu64 ".%03" PRIu64 " ms", ns / UINT64_C(1000000),
                 ns / UINT64_C(1000) % 1000);
    else
        snprintf(out, size, "%" PRIu64 " ns", ns);
    return out;
}

/* Checks that the times of event 'e' are plausible (docs/trace-format.md, "Plausibility"):
 * its end is not before its start; with the run's start_ns and end_ns known, it lies between
 * them; with wall_ns known, it lasts no longer than the run. A GPU or synchronization record
 * whose start and end are both 0 (CUPTI could not time it) is let through. Returns 0, or -1
 * with the error set. */
static int check_times(reader *r, const ss_event *e)
{
    const char *kw = r->fields[0], *start_name = "start", *end_name = "end";
    uint64_t start, end;
    char words[48];
    if (e->type == SS_EV_STREAM)
        return 0;
    if (e->type == SS_EV_SCOPE || e->type == SS_EV_ARGS) {
        start_name = end_name = "time";
        start = end = ss_event_start_ns(e);
    } else if (e->type == SS_EV_API) {
        start_name = "enter";
        end_name = "exit";
        start = e->u.api.enter_ns;
        end = e->u.api.exit_ns;
    } else if (e->type == SS_EV_SYNC) {
        start = e->u.sync.start_ns;
        end = e->u.sync.end_ns;
    } else {
        start = e->u.gpu.start_ns;
        end = e->u.gpu.end_ns;
    }
    if (e->type != SS_EV_API && start == 0 && end == 0)
        return 0;
    if (end < start)
        return fail(r, "%s: %s %" PRIu64 " is before %s %" PRIu64, kw, end_name, end, start_name,
                    start);
    if (r->have_start && r->have_end) {
        if (start < r->start_ns && r->start_ns - start > CLOCK_SLACK_NS)
            return fail(
                r, "%s: %s %" PRIu64 " is %s before the run started (meta start_ns %" PRIu64 ")",
                kw, start_name, start, span_words(r->start_ns - start, words, sizeof words),
                r->start_ns);
        if (end > r->end_ns && end - r->end_ns > CLOCK_SLACK_NS)
            return fail(r, "%s: %s %" PRIu64 " is %s after the run ended (meta end_ns %" PRIu64 ")",
                        kw, end_name, end, span_words(end - r->end_ns, words, sizeof words),
                        r->end_ns);
    }
    if (r->have_wall && end - start > r->wall_ns && end - start - r->wall_ns > CLOCK_SLACK_NS)
        return fail(r, "%s: lasts %s, longer than the run (meta wall_ns %" PRIu64 ")", kw,
                    span_words(end - start, words, sizeof words), r->wall_ns);
    return 0;
}

static int read_event(reader *r, const struct event_record *rec)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = rec->type;
    void *body = (void *)event_body(&e);
    if (r->minor < rec->since_minor)
        return fail(r, "%s: record of trace format %d.%u, in a file of format %d.%u", rec->keyword,
                    SS_TRACE_MAJOR, rec->since_minor, SS_TRACE_MAJOR, r->minor);
    if (parse_fields(r, body, rec->fields, rec->count) < 0 || check_times(r, &e) < 0)
        return -1;
    if (rec->type == SS_EV_SCOPE && r->minor <= SS_TRACE_MINOR) {
        /* A newer minor version may add kinds and sources: such a mark is kept, and the
         * detectors, which do not know it, pass over it. */
        const ss_ev_scope *m = &e.u.scope;
        if (m->kind < SS_SCOPE_PROFILER_START || m->kind > SS_SCOPE_KIND_MAX)
            return fail(r, "scope: kind: %u is not a scope kind (1 to %d)", (unsigned)m->kind,
                        SS_SCOPE_KIND_MAX);
        if (m->source > SS_SCOPE_FROM_PROGRAM)
            return fail(r, "scope: source: %u is not 0 (NVTX) or 1 (the program)",
                        (unsigned)m->source);
    }
    if (rec->type == SS_EV_ARGS && r->minor <= SS_TRACE_MINOR) {
        const ss_ev_args *a = &e.u.args;
        if (a->kind < SS_ARGS_LAUNCH || a->kind > SS_ARGS_KIND_MAX)
            return fail(r, "args: kind: %u is not an argument kind (1 to %d)", (unsigned)a->kind,
                        SS_ARGS_KIND_MAX);
        if (a->kind == SS_ARGS_EVENT && r->minor < 3)
            return fail(r,
                        "args: kind 5 (an event) is of trace format %d.3, in a file of format "
                        "%d.%u",
                        SS_TRACE_MAJOR, SS_TRACE_MAJOR, r->minor);
        if (a->count > SS_ARGS_MAX || a->complete > 1)
            return fail(r, "args: count %u (at most %d) or complete %u (0 or 1) out of range",
                        (unsigned)a->count, SS_ARGS_MAX, (unsigned)a->complete);
        for (unsigned i = a->count; i < SS_ARGS_MAX; i++) {
            if (a->values[i] != 0)
                return fail(r, "args: value %u is set, but count is %u", i + 1, (unsigned)a->count);
        }
    }
    if (rec->type == SS_EV_API) {
        /* The API id is not stored: it is derived from the name, so a trace stays valid when
         * the API table gains rows. */
        const ss_api *row = ss_evlog_api(r->log, e.u.api.name);
        e.u.api.api = (uint16_t)(row ? row->api : SS_API_COUNT);
    }
    if (ss_evlog_append(r->log, &e) < 0)
        return fail(r, "out of memory");
    return 0;
}

/* A tally record (ss_tally): the fields of an "api" record, its API derived from its name as
 * there, then at least one call counted, its longest time within their sum, 'long_calls' 0 or
 * 1. */
static int read_tally(reader *r)
{
    ss_tally tally;
    memset(&tally, 0, sizeof tally);
    if (r->minor < TALLY_SINCE_MINOR)
        return fail(r, "tally: record of trace format %d.%u, in a file of format %d.%u",
                    SS_TRACE_MAJOR, TALLY_SINCE_MINOR, SS_TRACE_MAJOR, r->minor);
    if (parse_fields(r, &tally, tally_fields, NFIELDS(tally_fields)) < 0)
        return -1;
    if (tally.count == 0)
        return fail(r, "tally: count: 0, at least 1 call");
    if (tally.max_ns > tally.total_ns)
        return fail(r, "tally: max %" PRIu64 " is more than total %" PRIu64, tally.max_ns,
                    tally.total_ns);
    if (tally.long_calls > 1)
        return fail(r, "tally: long: %u is not 0 or 1", (unsigned)tally.long_calls);
    if (tally.call.exit_ns < tally.call.enter_ns)
        return fail(r, "tally: exit %" PRIu64 " is before enter %" PRIu64, tally.call.exit_ns,
                    tally.call.enter_ns);
    const ss_api *row = ss_evlog_api(r->log, tally.call.name);
    tally.call.api = (uint16_t)(row ? row->api : SS_API_COUNT);
    if (ss_evlog_add_tally(r->log, &tally) < 0)
        return fail(r, "out of memory");
    return 0;
}

static int read_header(reader *r)
{
    uint64_t major, minor;
    if (r->field_count != 3 || strcmp(r->fields[0], "SSTRACE") != 0 ||
        parse_u64(r->fields[1], UINT32_MAX, &major) < 0 ||
        parse_u64(r->fields[2], UINT32_MAX, &minor) < 0)
        return fail(r, "not a syncscope trace (the first line must be 'SSTRACE %d 0')",
                    SS_TRACE_MAJOR);
    if (major != SS_TRACE_MAJOR)
        return fail(r,
                    "trace format %" PRIu64 ".%" PRIu64 " is not supported (this syncscope "
                    "reads %d.x)",
                    major, minor, SS_TRACE_MAJOR);
    r->minor = (unsigned)minor;
    return 0;
}

static int read_record(reader *r)
{
    const char *kw = r->fields[0];
    if (r->saw_end)
        return fail(r, "data after the 'end' record");
    if (r->in_stack && strcmp(kw, "frame") != 0)
        return fail(r, "stack %zu declares %" PRIu32 " frames, but only %" PRIu32 " follow",
                    r->log->stack_count, r->stack_depth, r->frames_read);
    if (strcmp(kw, "frame") == 0)
        return read_frame(r);
    if (strcmp(kw, "meta") == 0)
        return read_meta(r);
    if (strcmp(kw, "str") == 0)
        return read_str(r);
    if (strcmp(kw, "stack") == 0)
        return read_stack(r);
    if (strcmp(kw, "dropped") == 0)
        return read_dropped(r);
    if (strcmp(kw, "tally") == 0)
        return read_tally(r);
    if (strcmp(kw, "end") == 0)
        return read_end(r);
    for (size_t i = 0; i < NFIELDS(event_records); i++) {
        if (strcmp(kw, event_records[i].keyword) == 0)
            return read_event(r, &event_records[i]);
    }
    if (r->minor > SS_TRACE_MINOR)
        return 0; /* a record type from a newer minor version: skipped */
    return fail(r, "unknown record type '%s'", kw);
}

/* Reads the next line of 'in' (locked by the caller), its newline included, into *text
 * (grown as needed, NUL-terminated). Returns its length, 0 at the end of the input, or -1
 * with the error set: a read error, a line over MAX_LINE_BYTES, or more than
 * SS_READ_MAX_TRACE_BYTES in all (a file that grows, or standard input). */
static ssize_t read_line(reader *r, FILE *in, char **text, size_t *text_cap)
{
    size_t used = 0;
    int c;
    while ((c = getc_unlocked(in)) != EOF) {
        if (used + 2 > *text_cap) {
            size_t cap = *text_cap ? *text_cap * 2 : 256;
            char *grown = realloc(*text, cap);
            if (grown == NULL)
                return fail(r, "out of memory");
            *text = grown;
            *text_cap = cap;
        }
        (*text)[used++] = (char)c;
        if (c == '\n')
            break;
        if (used > MAX_LINE_BYTES)
            return fail(r, "line longer than %u MiB", MAX_LINE_BYTES >> 20);
    }
    if (ferror(in)) {
        snprintf(r->err, r->err_size, "%s: %s", r->path, strerror(errno));
        return -1;
    }
    r->bytes += used;
    if (r->bytes > SS_READ_MAX_TRACE_BYTES) {
        snprintf(r->err, r->err_size, "%s: larger than %llu GiB", r->path,
                 (unsigned long long)(SS_READ_MAX_TRACE_BYTES >> 30));
        return -1;
    }
    if (used > 0)
        (*text)[used] = '\0';
    return (ssize_t)used;
}

/* Opens trace 'path' for reading ("-": standard input). A file must be a regular one within
 * the limit; standard input may be a pipe, and the limit holds for what is read from it.
 * Returns the stream, or NULL with the reason in 'err'. */
static FILE *open_trace(const char *path, char *err, size_t err_size)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    int fd = ss_file_open_read(path, SS_READ_MAX_TRACE_BYTES, 0);
    FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (in == NULL) {
        snprintf(err, err_size, "%s: %s", path, fd < 0 ? ss_file_error() : strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    return in;
}

/* Reads every line of 'in' (locked by the caller) into the log: the header, then the records
 * up to and including 'end'. Returns 0, or -1 with the reason in r->err. */
static int read_lines(reader *r, FILE *in)
{
    char *text = NULL;
    size_t text_cap = 0;
    int rc = 0;
    while (rc == 0) {
        r->line++;
        ssize_t len = read_line(r, in, &text, &text_cap);
        if (len <= 0) {
            rc = (int)len;
            r->line--;
            break;
        }
        if (text[len - 1] != '\n') {
            rc = fail(r, "truncated line (no newline at the end of the file)");
            break;
        }
        text[len - 1] = '\0';
        if ((size_t)(len - 1) != strlen(text)) {
            rc = fail(r, "NUL byte in line");
            break;
        }
        rc = split(r, text);
        if (rc == 0)
            rc = r->line == 1 ? read_header(r) : read_record(r);
    }
    free(text);
    if (rc == 0 && r->line == 0) {
        r->line = 1;
        rc = fail(r, "empty file (a syncscope trace starts with 'SSTRACE %d 0')", SS_TRACE_MAJOR);
    } else if (rc == 0 && !r->saw_end) {
        r->line++;
        rc = fail(r, "truncated trace: the 'end' record is missing");
    }
    return rc;
}

int ss_trace_read(const char *path, ss_event_log *log, char *err, size_t err_size)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.err = err;
    r.err_size = err_size;
    r.log = log;
    if (err_size > 0)
        err[0] = '\0';
    if (ss_evlog_init(log) < 0) {
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    FILE *in = open_trace(path, err, err_size);
    if (in == NULL) {
        ss_evlog_free(log);
        return -1;
    }
    flockfile(in);
    int rc = read_lines(&r, in);
    funlockfile(in);
    free(r.frames);
    if (in != stdin)
        fclose(in);
    if (rc < 0)
        ss_evlog_free(log);
    return rc;
}
