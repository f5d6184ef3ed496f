/* check_trace.c: the trace format (exact bytes, round trip, strict errors) and the Chrome
 * trace export (valid JSON with the expected events). */
#include "check_main.h"
#include "detect.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static void teardown(void)
{
    if (path[0])
        unlink(path);
    path[0] = '\0';
}

static void write_file(const char *text, size_t len)
{
    snprintf(path, sizeof path, "/tmp/check_trace_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* Writes 'log' with ss_trace_write into a malloc'ed string. */
static char *to_text(const ss_event_log *log)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(ss_trace_write(out, log), 0);
    fclose(out);
    return buf;
}

/* A small log with every record type. */
static void build(ss_event_log *log)
{
    ck_assert_int_eq(ss_evlog_init(log), 0);
    ss_evlog_set_meta(log, "program", "./my app");
    ss_evlog_set_meta(log, "hostname", "");
    uint32_t fn = ss_evlog_intern(log, "main");
    uint32_t file = ss_evlog_intern(log, "src/100% <script>.cu");
    uint32_t mod = ss_evlog_intern(log, "-");
    ss_stack_frame frames[2] = {{4198400, fn, file, mod, 12, 0}, {0, fn, file, 0, 3, 1}};
    uint32_t stack = ss_evlog_add_stack(log, frames, 2);
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_STREAM;
    e.u.stream = (ss_ev_stream){4096, 13, 1, 0, -1, 1};
    ss_evlog_append(log, &e);
    memset(&e, 0, sizeof e);
    e.type = SS_EV_API;
    e.u.api.enter_ns = 1000;
    e.u.api.exit_ns = 2500;
    e.u.api.thread = 1;
    e.u.api.correlation = 7;
    e.u.api.name = ss_evlog_intern(log, "cudaMemcpyAsync_v3020");
    e.u.api.stream = 4096;
    e.u.api.stream_id = 13;
    e.u.api.bytes = 4;
    e.u.api.copy_kind = 2;
    e.u.api.result = 0;
    e.u.api.device = 0;
    e.u.api.stack = stack;
    e.u.api.api = (uint16_t)ss_api_find("cudaMemcpyAsync")->api;
    ss_evlog_append(log, &e);
    memset(&e, 0, sizeof e);
    e.type = SS_EV_KERNEL;
    e.u.gpu = (ss_ev_gpu){1100, 2000, 0, 6, 13, 1, ss_evlog_intern(log, "scale(float*, int)"),
                          0,    0,    0, 0, 0};
    ss_evlog_append(log, &e);
    e.type = SS_EV_MEMCPY;
    e.u.gpu =
        (ss_ev_gpu){2100, 2200, 4, 7, 13, 1, 0, 0, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE, 0};
    ss_evlog_append(log, &e);
    e.type = SS_EV_MEMSET;
    e.u.gpu = (ss_ev_gpu){2300, 2310, 256, 8, 13, 1, 0, 0, 0, 0, 0, 1};
    ss_evlog_append(log, &e);
    memset(&e, 0, sizeof e);
    e.type = SS_EV_SYNC;
    e.u.sync = (ss_ev_sync){2400, 2450, 9, 13, 1, SS_SYNCREC_STREAM_SYNCHRONIZE};
    ss_evlog_append(log, &e);
    log->dropped = 3;
}

static const char expected[] = "SSTRACE 1 0\n"
                               "meta program ./my%20app\n"
                               "meta hostname -\n"
                               "str 1 main\n"
                               "str 2 src/100%25%20<script>.cu\n"
                               "str 3 %2D\n"
                               "str 4 cudaMemcpyAsync_v3020\n"
                               "str 5 scale(float*,%20int)\n"
                               "stack 1 2\n"
                               "frame 4198400 1 2 3 12 0\n"
                               "frame 0 1 2 0 3 1\n"
                               "stream 4096 13 1 0 -1 1\n"
                               "api 1000 2500 1 7 4 4096 13 0 4 2 0 0 0 0 0 1\n"
                               "kernel 1100 2000 6 13 1 0 5 0 0 0 0 0\n"
                               "memcpy 2100 2200 7 13 1 0 0 4 2 3 1 0\n"
                               "memset 2300 2310 8 13 1 0 0 256 0 0 0 1\n"
                               "sync 2400 2450 9 13 1 3\n"
                               "dropped 3\n"
                               "end 6 6 2\n";

START_TEST(test_exact_bytes)
{
    ss_event_log log;
    build(&log);
    char *text = to_text(&log);
    ck_assert_str_eq(text, expected);
    free(text);
    ss_evlog_free(&log);
}
END_TEST

START_TEST(test_round_trip)
{
    ss_event_log log, back;
    char err[256];
    build(&log);
    char *first = to_text(&log);
    write_file(first, strlen(first));
    ck_assert_int_eq(ss_trace_read(path, &back, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    char *second = to_text(&back);
    ck_assert_str_eq(second, first);
    /* What the detectors use survives: the API id is derived from the name. */
    ck_assert_uint_eq(back.count, 6);
    ck_assert_uint_eq(back.events[1].u.api.api, ss_api_find("cudaMemcpyAsync")->api);
    ck_assert_str_eq(ss_evlog_get_meta(&back, "program"), "./my app");
    ck_assert_str_eq(ss_evlog_get_meta(&back, "hostname"), "");
    ck_assert_str_eq(back.strings[2], "src/100% <script>.cu");
    ck_assert_str_eq(back.strings[3], "-");
    ck_assert_uint_eq(back.stacks[1].frames[1].python, 1);
    ck_assert_int_eq(back.events[0].u.stream.priority, -1);
    ck_assert_uint_eq(back.dropped, 3);
    free(first);
    free(second);
    ss_evlog_free(&log);
    ss_evlog_free(&back);
}
END_TEST

START_TEST(test_escaping)
{
    ss_event_log log, back;
    char err[256];
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    const char *odd[] = {"a b",
                         "100%",
                         "line\nbreak",
                         "\xc3\xbc"
                         "n\xc3\xaf"
                         "code",
                         "<script>",
                         "tab\there",
                         "%41"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        ss_evlog_intern(&log, odd[i]);
    char *text = to_text(&log);
    ck_assert_str_eq(text, "SSTRACE 1 0\n"
                           "str 1 a%20b\n"
                           "str 2 100%25\n"
                           "str 3 line%0Abreak\n"
                           "str 4 %C3%BCn%C3%AFcode\n"
                           "str 5 <script>\n"
                           "str 6 tab%09here\n"
                           "str 7 %2541\n"
                           "dropped 0\n"
                           "end 0 8 1\n");
    write_file(text, strlen(text));
    ck_assert_int_eq(ss_trace_read(path, &back, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        ck_assert_str_eq(back.strings[i + 1], odd[i]);
    free(text);
    ss_evlog_free(&log);
    ss_evlog_free(&back);
}
END_TEST

/* Reads 'text' and checks that it fails with "PATH:" + 'what'. */
static void expect_error(const char *text, size_t len, const char *what)
{
    ss_event_log log;
    char err[512], want[512];
    write_file(text, len);
    ck_assert_int_eq(ss_trace_read(path, &log, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:%s", path, what);
    ck_assert_str_eq(err, want);
    /* The log was released: freeing it again is harmless. */
    ss_evlog_free(&log);
    unlink(path);
}

#define EXPECT_ERROR(text, what) expect_error(text, sizeof(text) - 1, what)

START_TEST(test_errors)
{
    EXPECT_ERROR("", "1: empty file (a syncscope trace starts with 'SSTRACE 1 0')");
    EXPECT_ERROR("SSTRACE\n", "1: not a syncscope trace (the first line must be 'SSTRACE 1 0')");
    EXPECT_ERROR("{\"traceEvents\": []}\n",
                 "1: not a syncscope trace (the first line must be 'SSTRACE 1 0')");
    EXPECT_ERROR("SSTRACE 2 0\nend 0 1 1\n",
                 "1: trace format 2.0 is not supported (this syncscope reads 1.x)");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 main\n", "3: truncated trace: the 'end' record is missing");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 main\nkernel 1 2",
                 "3: truncated line (no newline at the end of the file)");
    EXPECT_ERROR("SSTRACE 1 0\napi x 2 1 7 0 0 0 0 0 -1 0 0 0 0 0 0\nend 1 1 1\n",
                 "2: api: enter_ns: 'x' is not a valid unsigned integer");
    EXPECT_ERROR("SSTRACE 1 0\napi 1 2 1 7 0 0 0 0 0 -1 0 0 0 0 0\nend 1 1 1\n",
                 "2: api: expected 16 fields, got 15");
    EXPECT_ERROR("SSTRACE 1 0\napi 1 2 1 7 0 0 0 0 0 1x 0 0 0 0 0 0\nend 1 1 1\n",
                 "2: api: copy_kind: '1x' is not a valid integer");
    EXPECT_ERROR("SSTRACE 1 0\nkernel 1 2 3\n", "2: kernel: expected 12 fields, got 3");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 scale\nkernel 1 2 3 4 5 0 5 0 0 0 0 0\n",
                 "3: kernel: name: string 5 is not defined");
    EXPECT_ERROR("SSTRACE 1 0\napi 1 2 1 7 0 0 0 0 0 -1 0 0 0 0 0 4\n",
                 "2: api: stack: stack 4 is not defined");
    EXPECT_ERROR("SSTRACE 1 0\nmemset 1 2 3 4 5 0 0 0 0 0 0 256\n",
                 "2: memset: graph: '256' is not a valid unsigned integer");
    EXPECT_ERROR("SSTRACE 1 0\nbogus 1 2\n", "2: unknown record type 'bogus'");
    EXPECT_ERROR("SSTRACE 1 0\nstr 2 main\n", "2: str: expected id 1, got 2");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 main\nstr 2 main\n", "3: str: string 2 repeats string 1");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 50%zz\n",
                 "2: str: bad escape in '50%zz' (expected % and two upper-case hex digits)");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 a%00b\n", "2: str: %00 is not allowed");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 a\tb\n", "2: byte 0x09 must be written as %09");
    EXPECT_ERROR("SSTRACE 1 0\nstr  1 main\n", "2: empty field");
    EXPECT_ERROR("SSTRACE 1 0\n\n", "2: empty line");
    EXPECT_ERROR("SSTRACE 1 0\nstack 1 2\nframe 0 0 0 0 1 0\nend 0 1 1\n",
                 "4: stack 1 declares 2 frames, but only 1 follow");
    EXPECT_ERROR("SSTRACE 1 0\nframe 0 0 0 0 1 0\n",
                 "2: frame: not inside a stack (no 'stack' record declares it)");
    EXPECT_ERROR("SSTRACE 1 0\nend 2 1 1\n", "2: end: the trace declares 2 events, but holds 0");
    EXPECT_ERROR("SSTRACE 1 0\nend 0 1 1\nstr 1 late\n", "3: data after the 'end' record");
    EXPECT_ERROR("SSTRACE 1 0\nmeta pid 1\nmeta pid 2\n", "3: meta: duplicate key 'pid'");
    EXPECT_ERROR("SSTRACE 1 0\ndropped 01\n", "2: dropped: '01' is not a valid unsigned integer");
    EXPECT_ERROR("SSTRACE 1 0\nstream 1 2 0 0 0 0 9\n", "2: stream: expected 6 fields, got 7");
    EXPECT_ERROR("SSTRACE 1 0\nstream 1 2 0 2147483648 0 0\n",
                 "2: stream: device: '2147483648' is not a valid integer");
    EXPECT_ERROR("SSTRACE 1 0\nstr 1 a\0b\n", "2: NUL byte in line");
}
END_TEST

/* The run's times as syncscope run writes them, before the events (start 10 s into the
 * clock, 2 s long). */
#define RUN_TIMES                                                                                  \
    "SSTRACE 1 0\n"                                                                                \
    "meta start_ns 10000000000\n"                                                                  \
    "meta end_ns 12000000000\n"                                                                    \
    "meta wall_ns 2000000000\n"

START_TEST(test_implausible_times)
{
    /* Each record's line and what is wrong with its times. */
    EXPECT_ERROR("SSTRACE 1 0\napi 5000 4000 1 7 0 0 0 0 0 -1 0 0 0 0 0 0\nend 1 1 1\n",
                 "2: api: exit 4000 is before enter 5000");
    EXPECT_ERROR("SSTRACE 1 0\nkernel 300 200 1 7 1 0 0 0 0 0 0 0\nend 1 1 1\n",
                 "2: kernel: end 200 is before start 300");
    EXPECT_ERROR("SSTRACE 1 0\nsync 10 9 1 7 1 3\nend 1 1 1\n",
                 "2: sync: end 9 is before start 10");
    EXPECT_ERROR("SSTRACE 1 0\nmeta start_ns 20\nmeta end_ns 10\n",
                 "3: meta: end_ns 10 is before start_ns 20");
    EXPECT_ERROR("SSTRACE 1 0\nmeta end_ns 1e9\n",
                 "2: meta: end_ns: '1e9' is not a valid unsigned integer");
    /* 16 billion ms blocked: the exit is far after the run ended. */
    EXPECT_ERROR(RUN_TIMES "api 10500000000 16000010500000000 1 7 0 0 0 0 0 -1 0 0 0 0 0 0\n",
                 "5: api: exit 16000010500000000 is 15999998.500 s after the run ended (meta "
                 "end_ns 12000000000)");
    EXPECT_ERROR(RUN_TIMES "memcpy 8999000000 9000000000 1 7 1 0 0 4 2 3 1 0\n",
                 "5: memcpy: start 8999000000 is 1.001 s before the run started (meta start_ns "
                 "10000000000)");
    EXPECT_ERROR(RUN_TIMES "str 1 k\nkernel 10500000000 13000000001 1 7 1 0 1 0 0 0 0 0\n",
                 "6: kernel: end 13000000001 is 1.000 s after the run ended (meta end_ns "
                 "12000000000)");
    /* Without start and end, wall_ns bounds how long one record lasts. */
    EXPECT_ERROR("SSTRACE 1 0\nmeta wall_ns 7000000\nsync 100 1007000101 1 7 1 3\n",
                 "3: sync: lasts 1.007 s, longer than the run (meta wall_ns 7000000)");

    /* Within a second of the run's times, and a GPU record CUPTI could not time (0 0), are
     * accepted. */
    ss_event_log log;
    char err[512];
    static const char near[] =
        RUN_TIMES "str 1 k\n"
                  "kernel 0 0 1 7 1 0 1 0 0 0 0 0\n"
                  "kernel 9000000000 10000000000 1 7 1 0 1 0 0 0 0 0\n"
                  "api 11000000000 13000000000 1 7 0 0 0 0 0 -1 0 0 0 0 0 0\n"
                  "end 3 2 1\n";
    write_file(near, sizeof near - 1);
    ck_assert_int_eq(ss_trace_read(path, &log, err, sizeof err), 0);
    ck_assert_uint_eq(log.count, 3);
    ss_evlog_free(&log);
    unlink(path);
    /* A line without end is refused at 1 MiB, before it fills memory. */
    size_t long_len = (1u << 20) + 64;
    char *long_line = malloc(long_len);
    memcpy(long_line, "SSTRACE 1 0\nstr 1 ", 18);
    memset(long_line + 18, 'a', long_len - 18);
    expect_error(long_line, long_len, "2: line longer than 1 MiB");
    free(long_line);
}
END_TEST

START_TEST(test_missing_file)
{
    ss_event_log log;
    char err[256];
    ck_assert_int_eq(ss_trace_read("/nonexistent/t.sstrace", &log, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent/t.sstrace: No such file or directory");
}
END_TEST

START_TEST(test_newer_minor_version)
{
    /* A newer 1.x may add record types and trailing fields: both are skipped. */
    static const char text[] = "SSTRACE 1 9\n"
                               "future 1 2 3\n"
                               "stream 1 2 0 0 0 0 77\n"
                               "dropped 0\n"
                               "end 1 1 1\n";
    ss_event_log log;
    char err[256];
    write_file(text, sizeof text - 1);
    ck_assert_int_eq(ss_trace_read(path, &log, err, sizeof err), 0);
    ck_assert_uint_eq(log.count, 1);
    ck_assert_uint_eq(log.events[0].u.stream.stream_id, 2);
    ss_evlog_free(&log);
}
END_TEST

/* ---- Chrome trace ---- */

static cJSON *chrome_json(const ss_event_log *log)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_int_eq(ss_chrome_trace_write(out, log), 0);
    fclose(out);
    cJSON *root = cJSON_Parse(buf);
    free(buf);
    ck_assert_ptr_nonnull(root);
    return root;
}

static const cJSON *find_event(const cJSON *events, const char *ph, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "ph");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0 &&
            strcmp(p->valuestring, ph) == 0)
            return e;
    }
    return NULL;
}

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    ck_assert_msg(cJSON_IsNumber(v), "no number '%s'", key);
    return v->valuedouble;
}

START_TEST(test_chrome_trace)
{
    ss_event_log log;
    build(&log);
    /* A kernel name with every character JSON must escape, and invalid UTF-8. */
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_KERNEL;
    e.u.gpu = (ss_ev_gpu){3000, 3500, 0, 10, 14, 1, ss_evlog_intern(&log, "k<\"\\\n\x01\xff>"),
                          1,    0,    0, 0,  0};
    ss_evlog_append(&log, &e);
    cJSON *root = chrome_json(&log);
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    ck_assert(cJSON_IsArray(events));
    /* 6 complete events; a flow (start and end) from the copy call to its copy, the only GPU
     * operation whose correlation is a call's; the process's name and order; four tracks
     * (thread 1, stream 13 of GPU 0, the synchronization records, stream 14 of GPU 1), each
     * with a name and an order. */
    ck_assert_int_eq(cJSON_GetArraySize(events), 6 + 2 + 2 + 4 * 2);

    /* No pid recorded: the process is shown as pid 1; its thread 1 is tid 1. */
    const cJSON *api = find_event(events, "X", "cudaMemcpyAsync_v3020");
    ck_assert_ptr_nonnull(api);
    ck_assert_double_eq(num(api, "ts"), 0.0);
    ck_assert_double_eq_tol(num(api, "dur"), 1.5, 1e-9);
    ck_assert_double_eq(num(api, "pid"), 1);
    ck_assert_double_eq(num(api, "tid"), 1);
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(api, "args");
    ck_assert_double_eq(num(args, "correlation"), 7);
    ck_assert_double_eq(num(args, "bytes"), 4);

    /* Streams are tracks of the same process: 5000000 + device * 100000 + stream id. */
    const cJSON *k = find_event(events, "X", "scale(float*, int)");
    ck_assert_ptr_nonnull(k);
    ck_assert_double_eq_tol(num(k, "ts"), 0.1, 1e-9);
    ck_assert_double_eq_tol(num(k, "dur"), 0.9, 1e-9);
    ck_assert_double_eq(num(k, "pid"), 1);
    ck_assert_double_eq(num(k, "tid"), 5000013);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(k, "cat")->valuestring, "kernel");

    const cJSON *copy = find_event(events, "X", "DtoH");
    ck_assert_ptr_nonnull(copy);
    ck_assert_double_eq(num(copy, "tid"), 5000013);
    args = cJSON_GetObjectItemCaseSensitive(copy, "args");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(args, "dst")->valuestring, "pageable");

    /* The flow: id from correlation 7, one nanosecond into each slice. */
    const cJSON *s = find_event(events, "s", "launch"), *f = find_event(events, "f", "launch");
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(s, "id")->valuestring, "0x7");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(f, "id")->valuestring, "0x7");
    ck_assert_double_eq(num(s, "tid"), 1);
    ck_assert_double_eq_tol(num(s, "ts"), 0.001, 1e-9);
    ck_assert_double_eq(num(f, "tid"), 5000013);
    ck_assert_double_eq_tol(num(f, "ts"), 1.101, 1e-9);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(f, "bp")->valuestring, "e");

    ck_assert_ptr_nonnull(find_event(events, "X", "k<\"\\\n\x01\xef\xbf\xbd>"));
    ck_assert_ptr_nonnull(find_event(events, "X", "cudaStreamSynchronize"));
    ck_assert_ptr_nonnull(find_event(events, "X", "memset"));
    const char *names[4] = {NULL};
    double tids[4] = {0};
    int n = 0;
    const cJSON *e2;
    cJSON_ArrayForEach(e2, events)
    {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e2, "name");
        if (strcmp(nm->valuestring, "thread_name") != 0)
            continue;
        ck_assert_int_lt(n, 4);
        names[n] =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e2, "args"), "name")
                ->valuestring;
        tids[n++] = num(e2, "tid");
    }
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(names[0], "thread 1");
    ck_assert_double_eq(tids[0], 1);
    ck_assert_str_eq(names[1], "GPU 0 stream 13 (non-blocking)");
    ck_assert_double_eq(tids[1], 5000013);
    ck_assert_str_eq(names[2], "CUPTI synchronization");
    ck_assert_double_eq(tids[2], 4000000);
    ck_assert_str_eq(names[3], "GPU 1 stream 14");
    ck_assert_double_eq(tids[3], 5100014);
    const cJSON *proc = find_event(events, "M", "process_name");
    ck_assert_str_eq(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(proc, "args"), "name")
            ->valuestring,
        "./my app (pid unknown)");
    cJSON_Delete(root);
    ss_evlog_free(&log);
}
END_TEST

START_TEST(test_chrome_trace_empty_log)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    cJSON *root = chrome_json(&log);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "traceEvents")), 0);
    cJSON_Delete(root);
    ss_evlog_free(&log);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *format = tcase_create("format");
    tcase_add_checked_fixture(format, NULL, teardown);
    tcase_add_test(format, test_exact_bytes);
    tcase_add_test(format, test_round_trip);
    tcase_add_test(format, test_escaping);
    tcase_add_test(format, test_errors);
    tcase_add_test(format, test_implausible_times);
    tcase_add_test(format, test_missing_file);
    tcase_add_test(format, test_newer_minor_version);
    suite_add_tcase(s, format);
    TCase *chrome = tcase_create("chrome");
    tcase_add_test(chrome, test_chrome_trace);
    tcase_add_test(chrome, test_chrome_trace_empty_log);
    suite_add_tcase(s, chrome);
    return s;
}

SS_CHECK_MAIN(trace_suite)
