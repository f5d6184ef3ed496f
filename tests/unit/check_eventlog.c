/* check_eventlog.c: the in-memory event log: interning, stacks, metadata, stable sorting. */
#include "check_main.h"
#include "evlog.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

START_TEST(test_intern)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    ck_assert_uint_eq(log.string_count, 1);
    ck_assert_str_eq(log.strings[0], "");
    ck_assert_uint_eq(ss_evlog_intern(&log, ""), 0);
    uint32_t a = ss_evlog_intern(&log, "scale");
    uint32_t b = ss_evlog_intern(&log, "bias");
    ck_assert_uint_eq(a, 1);
    ck_assert_uint_eq(b, 2);
    ck_assert_uint_eq(ss_evlog_intern(&log, "scale"), 1);
    ck_assert_uint_eq(ss_evlog_intern(&log, "Scale"), 3);
    ck_assert_uint_eq(log.string_count, 4);
    ss_evlog_free(&log);
}
END_TEST

START_TEST(test_intern_many)
{
    /* Enough strings to rehash several times; ids stay dense and lookups exact. */
    ss_event_log log;
    char name[32];
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    for (unsigned i = 0; i < 100000; i++) {
        snprintf(name, sizeof name, "kernel_%u", i);
        ck_assert_uint_eq(ss_evlog_intern(&log, name), i + 1);
    }
    for (unsigned i = 0; i < 100000; i += 997) {
        snprintf(name, sizeof name, "kernel_%u", i);
        ck_assert_uint_eq(ss_evlog_intern(&log, name), i + 1);
        ck_assert_str_eq(log.strings[i + 1], name);
    }
    ck_assert_uint_eq(log.string_count, 100001);
    ck_assert_uint_eq(ss_evlog_intern(&log, ""), 0);
    ss_evlog_free(&log);
}
END_TEST

/* Each interned string knows the API row it names, suffixes stripped, from the moment it is
 * interned: no reader of API events looks a name up again. */
START_TEST(test_string_api)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    uint32_t copy = ss_evlog_intern(&log, "cudaMemcpyAsync_v3020");
    uint32_t kernel = ss_evlog_intern(&log, "spin_kernel(unsigned int*, int)");
    uint32_t driver = ss_evlog_intern(&log, "cuMemcpyDtoH_v2");
    for (int i = 0; i < 1000; i++) { /* growth keeps the rows with their strings */
        char name[32];
        snprintf(name, sizeof name, "file_%d.cu", i);
        ss_evlog_intern(&log, name);
    }
    ck_assert_ptr_eq(ss_evlog_api(&log, copy), &ss_api_all(&(size_t){0})[SS_API_cudaMemcpyAsync]);
    ck_assert_ptr_eq(ss_evlog_api(&log, driver), &ss_api_all(&(size_t){0})[SS_API_cuMemcpyDtoH]);
    ck_assert_ptr_null(ss_evlog_api(&log, kernel));
    ck_assert_ptr_null(ss_evlog_api(&log, 0));
    ck_assert_ptr_null(ss_evlog_api(&log, (uint32_t)log.string_count));
    ck_assert_ptr_eq(ss_evlog_api(&log, ss_evlog_intern(&log, "cudaMemcpyAsync_v3020")),
                     ss_evlog_api(&log, copy));
    ss_evlog_free(&log);
}
END_TEST

START_TEST(test_stacks)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    ck_assert_uint_eq(log.stack_count, 1);
    ck_assert_uint_eq(log.stacks[0].depth, 0);
    ss_stack_frame frames[3] = {{1, 0, 0, 0, 10, 0}, {2, 0, 0, 0, 20, 0}, {0, 0, 0, 0, 30, 1}};
    uint32_t id = ss_evlog_add_stack(&log, frames, 3);
    ck_assert_uint_eq(id, 1);
    frames[0].pc = 99; /* the log holds a copy */
    ck_assert_uint_eq(log.stacks[1].depth, 3);
    ck_assert_uint_eq(log.stacks[1].frames[0].pc, 1);
    ck_assert_uint_eq(log.stacks[1].frames[2].python, 1);
    ck_assert_uint_eq(ss_evlog_add_stack(&log, NULL, 0), 2);
    ck_assert_ptr_null(log.stacks[2].frames);
    ss_evlog_free(&log);
}
END_TEST

START_TEST(test_meta)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    ck_assert_ptr_null(ss_evlog_get_meta(&log, "pid"));
    ck_assert_int_eq(ss_evlog_set_meta(&log, "pid", "12"), 0);
    ck_assert_int_eq(ss_evlog_set_meta(&log, "program", "./app"), 0);
    ck_assert_int_eq(ss_evlog_set_meta(&log, "pid", "13"), 0);
    ck_assert_str_eq(ss_evlog_get_meta(&log, "pid"), "13");
    ck_assert_str_eq(ss_evlog_get_meta(&log, "program"), "./app");
    ck_assert_uint_eq(log.meta_count, 2);
    ck_assert_str_eq(log.meta[0].key, "pid");
    ss_evlog_free(&log);
}
END_TEST

static void append_api(ss_event_log *log, uint64_t enter, uint32_t correlation)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_API;
    e.u.api.enter_ns = enter;
    e.u.api.exit_ns = enter + 1;
    e.u.api.correlation = correlation;
    ck_assert_int_eq(ss_evlog_append(log, &e), 0);
}

static void append_gpu(ss_event_log *log, uint32_t type, uint64_t start, uint32_t correlation)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.u.gpu.start_ns = start;
    e.u.gpu.end_ns = start + 1;
    e.u.gpu.correlation = correlation;
    ck_assert_int_eq(ss_evlog_append(log, &e), 0);
}

START_TEST(test_sort_stable)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    append_gpu(&log, SS_EV_KERNEL, 50, 1);
    append_api(&log, 10, 2);
    append_gpu(&log, SS_EV_MEMCPY, 10, 3);
    append_api(&log, 10, 4);
    ss_event s;
    memset(&s, 0, sizeof s);
    s.type = SS_EV_STREAM;
    s.u.stream.stream_id = 5;
    ck_assert_int_eq(ss_evlog_append(&log, &s), 0);
    append_gpu(&log, SS_EV_SYNC, 5, 6); /* sync records start at start_ns too */
    log.events[5].u.sync.start_ns = 5;
    append_api(&log, 10, 7);
    ss_evlog_sort(&log);
    /* Streams first, then by start time; equal times keep their order. */
    ck_assert_uint_eq(log.events[0].type, SS_EV_STREAM);
    ck_assert_uint_eq(log.events[1].type, SS_EV_SYNC);
    static const uint32_t order[] = {2, 3, 4, 7, 1};
    for (size_t i = 0; i < 5; i++) {
        const ss_event *e = &log.events[i + 2];
        uint32_t c = e->type == SS_EV_API ? e->u.api.correlation : e->u.gpu.correlation;
        ck_assert_uint_eq(c, order[i]);
    }
    ss_evlog_free(&log);
}
END_TEST

START_TEST(test_sort_large_reverse)
{
    ss_event_log log;
    ck_assert_int_eq(ss_evlog_init(&log), 0);
    for (uint32_t i = 0; i < 10000; i++)
        append_api(&log, (uint64_t)(10000 - i) / 2, i);
    ss_evlog_sort(&log);
    for (size_t i = 1; i < log.count; i++) {
        const ss_ev_api *a = &log.events[i - 1].u.api, *b = &log.events[i].u.api;
        ck_assert_uint_le(a->enter_ns, b->enter_ns);
        if (a->enter_ns == b->enter_ns)
            ck_assert_uint_lt(a->correlation, b->correlation);
    }
    ss_evlog_free(&log);
}
END_TEST

static Suite *eventlog_suite(void)
{
    Suite *s = suite_create("eventlog");
    TCase *strings = tcase_create("strings");
    tcase_add_test(strings, test_intern);
    tcase_add_test(strings, test_intern_many);
    tcase_add_test(strings, test_string_api);
    /* 100,000 interned strings under the sanitizers: well past Check's 4 s default when the
     * machine is loaded (a correctness test, not a timed one). */
    tcase_set_timeout(strings, 60);
    suite_add_tcase(s, strings);
    TCase *records = tcase_create("records");
    tcase_add_test(records, test_stacks);
    tcase_add_test(records, test_meta);
    tcase_add_test(records, test_sort_stable);
    tcase_add_test(records, test_sort_large_reverse);
    suite_add_tcase(s, records);
    return s;
}

SS_CHECK_MAIN(eventlog_suite)
