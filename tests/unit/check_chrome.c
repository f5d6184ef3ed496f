/* check_chrome.c: the Chrome trace of a trace recorded on a GPU (tests/data), with its
 * findings: valid JSON, the recorded pid, one named track per host thread and stream, a flow
 * from every API call to each GPU operation it enqueued, an instant per finding; two logs in
 * one file stay apart; NVTX and scope marks as ranges. */
#include "check_main.h"
#include "detect.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* tests/gpu/sync101_legacy_launch.cu recorded on an H200 (pid 8384): one host thread, streams
 * 7 (legacy), 13 and 14 of GPU 0, 4 CUPTI synchronization records, 35 timed events, 8 GPU
 * operations, each enqueued by a recorded call. */
#define TRACE SS_SOURCE_DIR "/tests/data/gpu_sync101_legacy_launch.sstrace"
enum { TIMED_EVENTS = 35, GPU_OPS = 8, TRACKS = 5 };

static void load(ss_event_log *log, ss_result *result)
{
    char err[512];
    ck_assert_msg(ss_trace_read(TRACE, log, err, sizeof err) == 0, "%s", err);
    ss_result_init(result, SS_RESULT_RUN);
    ck_assert_int_eq(ss_detect_run(log, NULL, result), 0);
    ck_assert_uint_gt(result->count, 0);
}

static cJSON *chrome_json(const ss_event_log *const *logs, const ss_result *const *results,
                          size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_int_eq(ss_chrome_trace_write_runs(out, logs, results, n), 0);
    ck_assert_int_eq(fclose(out), 0);
    cJSON *root = cJSON_Parse(buf);
    free(buf);
    ck_assert_ptr_nonnull(root);
    return root;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "no number '%s'", key);
    return v->valuedouble;
}

/* What one file holds, counted by phase and name. */
typedef struct counts {
    int complete, flow_start, flow_end, instants, thread_names, process_names;
    int matched;            /* instants placed on the call they were observed at */
    double pids[4];         /* of the process_name events */
    double thread_tids[16]; /* of the thread_name events */
} counts;

static counts count(const cJSON *root)
{
    counts c;
    memset(&c, 0, sizeof c);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
    {
        const char *ph = str(e, "ph"), *name = str(e, "name");
        if (strcmp(ph, "X") == 0) {
            c.complete++;
        } else if (strcmp(ph, "s") == 0) {
            c.flow_start++;
        } else if (strcmp(ph, "f") == 0) {
            ck_assert_str_eq(str(e, "bp"), "e");
            c.flow_end++;
        } else if (strcmp(ph, "i") == 0) {
            ck_assert_str_eq(str(e, "s"), "t");
            c.matched += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(e, "args"), "matched"));
            c.instants++;
        } else if (strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0) {
            ck_assert_int_lt(c.thread_names, 16);
            c.thread_tids[c.thread_names++] = num(e, "tid");
        } else if (strcmp(ph, "M") == 0 && strcmp(name, "process_name") == 0) {
            ck_assert_int_lt(c.process_names, 4);
            c.pids[c.process_names++] = num(e, "pid");
        }
    }
    return c;
}

/* Every (pid, tid) that has an event has exactly one thread_name, and no tid is used by two
 * processes (Perfetto reads tids as system-wide). */
static void check_tracks(const cJSON *root)
{
    const cJSON *e, *m;
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    cJSON_ArrayForEach(e, events)
    {
        if (strcmp(str(e, "ph"), "M") == 0)
            continue;
        int names = 0;
        cJSON_ArrayForEach(m, events)
        {
            if (strcmp(str(m, "ph"), "M") == 0 && strcmp(str(m, "name"), "thread_name") == 0 &&
                num(m, "tid") == num(e, "tid")) {
                ck_assert_double_eq(num(m, "pid"), num(e, "pid"));
                names++;
            }
        }
        ck_assert_msg(names == 1, "tid %.0f: %d thread names", num(e, "tid"), names);
    }
}

START_TEST(test_recorded_trace)
{
    ss_event_log log;
    ss_result result;
    load(&log, &result);
    const ss_event_log *logs[] = {&log};
    const ss_result *results[] = {&result};
    cJSON *root = chrome_json(logs, results, 1);
    counts c = count(root);
    ck_assert_int_eq(c.complete, TIMED_EVENTS);
    ck_assert_int_eq(c.flow_start, GPU_OPS);
    ck_assert_int_eq(c.flow_end, GPU_OPS);
    ck_assert_int_eq(c.instants, (int)result.count);
    ck_assert_int_eq(c.matched, (int)result.count);
    ck_assert_int_eq(c.thread_names, TRACKS);
    ck_assert_int_eq(c.process_names, 1);
    ck_assert_double_eq(c.pids[0], 8384);
    check_tracks(root);

    /* The tracks, by name; thread 1 is tid 1, streams 5000000 + stream id on GPU 0. */
    static const char *const names[TRACKS] = {"thread 1", "CUPTI synchronization",
                                              "GPU 0 stream 7 (legacy default)", "GPU 0 stream 13",
                                              "GPU 0 stream 14"};
    static const double tids[TRACKS] = {1, 4000000, 5000007, 5000013, 5000014};
    const cJSON *e;
    int seen = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
    {
        if (strcmp(str(e, "name"), "thread_name") != 0)
            continue;
        const char *name = str(cJSON_GetObjectItemCaseSensitive(e, "args"), "name");
        int found = 0;
        for (int i = 0; i < TRACKS; i++) {
            if (strcmp(name, names[i]) == 0) {
                ck_assert_double_eq(num(e, "tid"), tids[i]);
                found = 1;
            }
        }
        ck_assert_msg(found, "unexpected track '%s'", name);
        seen++;
    }
    ck_assert_int_eq(seen, TRACKS);

    /* Each flow starts on the host thread and ends on a stream, with an id from the
     * correlation id that starts and ends exactly once. */
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
    {
        if (strcmp(str(s, "ph"), "s") != 0)
            continue;
        ck_assert_double_eq(num(s, "tid"), 1);
        int ends = 0;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
        {
            if (strcmp(str(e, "ph"), "f") == 0 && strcmp(str(e, "id"), str(s, "id")) == 0) {
                ck_assert_double_ge(num(e, "tid"), 5000000);
                ck_assert_double_ge(num(e, "ts"), num(s, "ts"));
                ends++;
            }
        }
        ck_assert_int_eq(ends, 1);
    }

    /* The instants are named by rule and message, on thread 1, in the result's order. */
    size_t k = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
    {
        if (strcmp(str(e, "ph"), "i") != 0)
            continue;
        const ss_finding *f = &result.findings[k++];
        const char *id = ss_rules_get(f->rule)->id;
        ck_assert_int_eq(strncmp(str(e, "name"), id, strlen(id)), 0);
        ck_assert_int_eq(strncmp(str(e, "name") + strlen(id), ": ", 2), 0);
        ck_assert_str_eq(str(cJSON_GetObjectItemCaseSensitive(e, "args"), "rule"), id);
        ck_assert_str_eq(str(cJSON_GetObjectItemCaseSensitive(e, "args"), "cost"),
                         ss_cost_name(ss_rules_get(f->rule)->cost));
        ck_assert_double_eq(num(e, "tid"), 1);
    }
    ck_assert_uint_eq(k, result.count);
    cJSON_Delete(root);
    ss_result_free(&result);
    ss_evlog_free(&log);
}
END_TEST

/* The same recording twice (two ranks that happen to share a pid): two processes, the first
 * under the recorded pid, the second under another; no tid in both; every flow id once. */
START_TEST(test_two_logs)
{
    ss_event_log a, b;
    ss_result ra, rb;
    load(&a, &ra);
    load(&b, &rb);
    ss_evlog_set_meta(&b, "rank", "1");
    const ss_event_log *logs[] = {&a, &b};
    const ss_result *results[] = {&ra, NULL};
    cJSON *root = chrome_json(logs, results, 2);
    counts c = count(root);
    ck_assert_int_eq(c.complete, 2 * TIMED_EVENTS);
    ck_assert_int_eq(c.flow_start, 2 * GPU_OPS);
    ck_assert_int_eq(c.flow_end, 2 * GPU_OPS);
    ck_assert_int_eq(c.instants, (int)ra.count); /* the second has no result */
    ck_assert_int_eq(c.thread_names, 2 * TRACKS);
    ck_assert_int_eq(c.process_names, 2);
    ck_assert_double_eq(c.pids[0], 8384);
    ck_assert_double_eq(c.pids[1], 1);
    check_tracks(root);
    const cJSON *e, *g;
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    cJSON_ArrayForEach(e, events)
    {
        if (strcmp(str(e, "ph"), "s") != 0)
            continue;
        int same = 0;
        cJSON_ArrayForEach(g, events) same +=
            strcmp(str(g, "ph"), "s") == 0 && strcmp(str(g, "id"), str(e, "id")) == 0;
        ck_assert_int_eq(same, 1);
    }
    cJSON_ArrayForEach(e, events)
    {
        if (strcmp(str(e, "name"), "process_name") != 0)
            continue;
        const char *name = str(cJSON_GetObjectItemCaseSensitive(e, "args"), "name");
        if (num(e, "pid") == 1)
            ck_assert_str_eq(name, "rank 1: build/device/tests/gpu/"
                                   "sync101_legacy_launch_static (pid 8384)");
        else
            ck_assert_str_eq(name, "build/device/tests/gpu/"
                                   "sync101_legacy_launch_static (pid 8384)");
    }
    cJSON_Delete(root);
    ss_result_free(&ra);
    ss_result_free(&rb);
    ss_evlog_free(&a);
    ss_evlog_free(&b);
}
END_TEST

static void add_scope(ss_event_log *log, ss_scope_kind kind, uint64_t t, uint64_t id,
                      const char *name, ss_scope_source source)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_SCOPE;
    e.u.scope.time_ns = t;
    e.u.scope.id = id;
    e.u.scope.thread = 1;
    e.u.scope.name = name ? ss_evlog_intern(log, name) : 0;
    e.u.scope.kind = (uint8_t)kind;
    e.u.scope.source = (uint8_t)source;
    ck_assert_int_eq(ss_evlog_append(log, &e), 0);
}

/* NVTX and scope marks: a thread's ranges as B/E on its own track, a process-wide range as an
 * async b/e named by its start, profiler start/stop as instants; an end without a start is
 * left out. */
START_TEST(test_scope_marks)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    ss_evlog_set_meta(&log, "pid", "4242");
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_API;
    e.u.api.enter_ns = 1000;
    e.u.api.exit_ns = 2000;
    e.u.api.thread = 1;
    e.u.api.name = ss_evlog_intern(&log, "cudaDeviceSynchronize");
    ck_assert_int_eq(ss_evlog_append(&log, &e), 0);
    add_scope(&log, SS_SCOPE_START, 800, 5, "epoch", SS_SCOPE_FROM_NVTX);
    add_scope(&log, SS_SCOPE_PROFILER_START, 850, 0, NULL, SS_SCOPE_FROM_NVTX);
    add_scope(&log, SS_SCOPE_PUSH, 900, 0, "step <1>", SS_SCOPE_FROM_NVTX);
    add_scope(&log, SS_SCOPE_PUSH, 950, 0, "mine", SS_SCOPE_FROM_PROGRAM);
    add_scope(&log, SS_SCOPE_POP, 1950, 0, NULL, SS_SCOPE_FROM_PROGRAM);
    add_scope(&log, SS_SCOPE_POP, 2100, 0, NULL, SS_SCOPE_FROM_NVTX);
    add_scope(&log, SS_SCOPE_END, 2200, 5, NULL, SS_SCOPE_FROM_NVTX);
    add_scope(&log, SS_SCOPE_PROFILER_STOP, 2250, 0, NULL, SS_SCOPE_FROM_NVTX);
    add_scope(&log, SS_SCOPE_END, 2300, 9, NULL, SS_SCOPE_FROM_NVTX);
    const ss_event_log *logs[] = {&log};
    cJSON *root = chrome_json(logs, NULL, 1);
    /* Phase, category, name, tid and ts of each event but the metadata, in order. */
    char got[2048] = "";
    size_t used = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(root, "traceEvents"))
    {
        if (strcmp(str(ev, "ph"), "M") == 0)
            continue;
        const cJSON *id2 = cJSON_GetObjectItemCaseSensitive(ev, "id2");
        used += (size_t)snprintf(got + used, sizeof got - used, "%s %s %s %.0f %.3f%s%s\n",
                                 str(ev, "ph"), str(ev, "cat"), str(ev, "name"), num(ev, "tid"),
                                 num(ev, "ts"), id2 ? " " : "", id2 ? str(id2, "local") : "");
        ck_assert_uint_lt(used, sizeof got);
    }
    ck_assert_str_eq(got, "X runtime cudaDeviceSynchronize 1 0.200\n"
                          "b nvtx epoch 1 0.000 0x5\n"
                          "i nvtx cudaProfilerStart 1 0.050\n"
                          "B nvtx step <1> 2000001 0.100\n"
                          "B scope mine 2000001 0.150\n"
                          "E scope  2000001 1.150\n"
                          "E nvtx  2000001 1.300\n"
                          "e nvtx epoch 1 1.400 0x5\n"
                          "i nvtx cudaProfilerStop 1 1.450\n");
    counts c = count(root);
    ck_assert_int_eq(c.thread_names, 2);
    ck_assert_double_eq(c.pids[0], 4242);
    check_tracks(root);
    cJSON_Delete(root);
    ss_evlog_free(&log);
}
END_TEST

static Suite *chrome_suite(void)
{
    Suite *s = suite_create("chrome");
    TCase *recorded = tcase_create("recorded");
    tcase_add_test(recorded, test_recorded_trace);
    tcase_add_test(recorded, test_two_logs);
    suite_add_tcase(s, recorded);
    TCase *scopes = tcase_create("scopes");
    tcase_add_test(scopes, test_scope_marks);
    suite_add_tcase(s, scopes);
    return s;
}

SS_CHECK_MAIN(chrome_suite)
