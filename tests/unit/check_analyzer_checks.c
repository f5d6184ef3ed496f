/* check_analyzer_checks.c: the table of static checks (analyzer/checks.def): every rule of
 * the static half has a check and no other rule does, each row is well formed, and each API
 * class, launches and other calls reach exactly the checks they always did, in that order. */
#include "check_main.h"
#include "checks.h"

#include <stdlib.h>
#include <string.h>

/* The entry names of the rows of 'on' (for SS_CHECK_API, those that take 'klass'), in table
 * order, joined by spaces (malloc'ed; "" for none). */
static char *rows_of(ss_check_on on, ss_api_class klass)
{
    size_t count;
    const ss_check *checks = ss_checks_all(&count);
    char *names = ss_strdup("");
    for (size_t i = 0; i < count; i++) {
        if (checks[i].on != on)
            continue;
        if (on == SS_CHECK_API && !(checks[i].classes & (UINT64_C(1) << klass)))
            continue;
        char *joined = ss_asprintf("%s%s%s", names, names[0] ? " " : "", checks[i].name);
        free(names);
        names = joined;
    }
    return names;
}

START_TEST(test_every_static_rule_has_a_check)
{
    size_t rule_count, check_count;
    const ss_rule *rules = ss_rules_all(&rule_count);
    const ss_check *checks = ss_checks_all(&check_count);
    size_t static_rules = 0;
    for (size_t r = 0; r < rule_count; r++) {
        size_t rows = 0;
        for (size_t i = 0; i < check_count; i++)
            rows += (checks[i].rules & (UINT64_C(1) << rules[r].rule)) != 0;
        if (rules[r].halves & SS_HALF_STATIC) {
            static_rules++;
            ck_assert_msg(rows > 0, "%s has a static half but no row in checks.def", rules[r].id);
        } else {
            ck_assert_msg(rows == 0, "%s has no static half but a row in checks.def", rules[r].id);
        }
    }
    ck_assert_uint_eq(static_rules, 9);
}
END_TEST

START_TEST(test_rows_are_well_formed)
{
    static const char *const expected[][2] = {
        {"default_stream", "ss_check_default_stream_call"},
        {"default_stream", "ss_check_default_stream_launch"},
        {"stream_create", "ss_check_stream_create"},
        {"loops", "ss_check_sync_in_loop"},
        {"loops", "ss_check_device_sync_in_loop"},
        {"capture", "ss_check_capture"},
        {"pageable_copy", "ss_check_pageable_copy"},
        {"sync_copy", "ss_check_sync_copy"},
        {"readback", "ss_check_readback_copy"},
        {"readback", "ss_check_readback_call"},
    };
    size_t count;
    const ss_check *checks = ss_checks_all(&count);
    ck_assert_uint_eq(count, sizeof expected / sizeof expected[0]);
    for (size_t i = 0; i < count; i++) {
        ck_assert_str_eq(checks[i].family, expected[i][0]);
        ck_assert_str_eq(checks[i].name, expected[i][1]);
        ck_assert_ptr_nonnull(checks[i].entry);
        ck_assert_uint_ne(checks[i].rules, 0);
        /* Only API rows name classes, and each of them names at least one. */
        if (checks[i].on == SS_CHECK_API)
            ck_assert_uint_ne(checks[i].classes, 0);
        else
            ck_assert_uint_eq(checks[i].classes, 0);
    }
}
END_TEST

START_TEST(test_dispatch_by_class_launch_and_call)
{
    /* What the hand-written tables of tu.c dispatched, class by class, in their order. */
    static const struct {
        ss_api_class klass;
        const char *names;
    } expected[] = {
        {SS_CLASS_LAUNCH, "ss_check_default_stream_call"},
        {SS_CLASS_COPY, "ss_check_default_stream_call ss_check_pageable_copy ss_check_sync_copy "
                        "ss_check_readback_copy"},
        {SS_CLASS_MEMSET, "ss_check_default_stream_call ss_check_sync_copy"},
        {SS_CLASS_ALLOC, "ss_check_default_stream_call ss_check_device_sync_in_loop"},
        {SS_CLASS_FREE, "ss_check_default_stream_call ss_check_device_sync_in_loop"},
        {SS_CLASS_HOST_ALLOC, "ss_check_device_sync_in_loop"},
        {SS_CLASS_MANAGED_ALLOC, "ss_check_device_sync_in_loop"},
        {SS_CLASS_HOST_REGISTER, "ss_check_device_sync_in_loop"},
        {SS_CLASS_HOST_UNREGISTER, "ss_check_device_sync_in_loop"},
        {SS_CLASS_HOST_FREE, "ss_check_device_sync_in_loop"},
        {SS_CLASS_EVENT_RECORD, "ss_check_default_stream_call"},
        {SS_CLASS_STREAM_WAIT, "ss_check_default_stream_call"},
        {SS_CLASS_STREAM_CREATE, "ss_check_stream_create"},
        {SS_CLASS_STREAM_SYNC, "ss_check_sync_in_loop"},
        {SS_CLASS_DEVICE_SYNC, "ss_check_sync_in_loop"},
        {SS_CLASS_EVENT_SYNC, "ss_check_sync_in_loop"},
        {SS_CLASS_QUERY, ""},
        {SS_CLASS_CAPTURE_BEGIN, "ss_check_capture"},
        {SS_CLASS_CAPTURE_END, ""},
        {SS_CLASS_GRAPH_LAUNCH, "ss_check_default_stream_call"},
        {SS_CLASS_HOST_FUNC, "ss_check_default_stream_call"},
        {SS_CLASS_PREFETCH, "ss_check_default_stream_call"},
        {SS_CLASS_ATTACH, "ss_check_default_stream_call"},
        {SS_CLASS_DEVICE_CONFIG, "ss_check_device_sync_in_loop"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        char *names = rows_of(SS_CHECK_API, expected[i].klass);
        ck_assert_msg(strcmp(names, expected[i].names) == 0, "class %s: '%s'",
                      ss_api_class_name(expected[i].klass), names);
        free(names);
    }
    char *launch = rows_of(SS_CHECK_LAUNCH, SS_CLASS_LAUNCH);
    ck_assert_str_eq(launch, "ss_check_default_stream_launch");
    free(launch);
    char *any = rows_of(SS_CHECK_CALL, SS_CLASS_LAUNCH);
    ck_assert_str_eq(any, "ss_check_readback_call");
    free(any);
}
END_TEST

static Suite *analyzer_checks_suite(void)
{
    Suite *s = suite_create("analyzer_checks");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_every_static_rule_has_a_check);
    tcase_add_test(table, test_rows_are_well_formed);
    tcase_add_test(table, test_dispatch_by_class_launch_and_call);
    suite_add_tcase(s, table);
    return s;
}

SS_CHECK_MAIN(analyzer_checks_suite)
