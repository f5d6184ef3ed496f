/* check_analyzer_checks.c: the table of static checks (analyzer/checks.def): every rule of
 * the static half has a check and no other rule does, each row is well formed (its family's
 * file, classes some API has), two named rows as written, and a class reaches its rows in the
 * table's order. Properties of the table, so that a new row needs no edit here. */
#include "check_main.h"
#include "checks.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The entry names of the rows of 'on' (for SS_CHECK_API, those that take 'klass'), in table
 * order, joined by spaces (malloc'ed; "" for none). */
static char *rows_of(ss_check_on on, ss_api_class klass)
{
    size_t count;
    const ss_check *checks = ss_checks_all(&count);
    char *names = ss_xstrdup("");
    for (size_t i = 0; i < count; i++) {
        if (checks[i].on != on)
            continue;
        if (on == SS_CHECK_API && !(checks[i].classes & (UINT64_C(1) << klass)))
            continue;
        char *joined = ss_xasprintf("%s%s%s", names, names[0] ? " " : "", checks[i].name);
        free(names);
        names = joined;
    }
    return names;
}

/* The row whose entry is named 'name', or NULL. */
static const ss_check *row_named(const char *name)
{
    size_t count;
    const ss_check *checks = ss_checks_all(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(checks[i].name, name) == 0)
            return &checks[i];
    return NULL;
}

START_TEST(test_every_static_rule_has_a_check)
{
    size_t rule_count, check_count;
    const ss_rule *rules = ss_rules_all(&rule_count);
    const ss_check *checks = ss_checks_all(&check_count);
    uint64_t static_rules = 0, checked = 0;
    for (size_t r = 0; r < rule_count; r++) {
        size_t rows = 0;
        for (size_t i = 0; i < check_count; i++)
            rows += (checks[i].rules & (UINT64_C(1) << rules[r].rule)) != 0;
        if (rules[r].halves & SS_HALF_STATIC) {
            static_rules |= UINT64_C(1) << rules[r].rule;
            ck_assert_msg(rows > 0, "%s has a static half but no row in checks.def", rules[r].id);
        } else {
            ck_assert_msg(rows == 0, "%s has no static half but a row in checks.def", rules[r].id);
        }
    }
    /* Every row's rules are static rules of the catalog (no bit beyond it), and together the
     * rows name them all. */
    for (size_t i = 0; i < check_count; i++) {
        ck_assert_msg((checks[i].rules & ~static_rules) == 0,
                      "%s names a rule that is not a static rule of the catalog", checks[i].name);
        checked |= checks[i].rules;
    }
    ck_assert_uint_ne(static_rules, 0);
    ck_assert_uint_eq(checked, static_rules);
}
END_TEST

START_TEST(test_rows_are_well_formed)
{
    size_t count, api_count;
    const ss_check *checks = ss_checks_all(&count);
    const ss_api *apis = ss_api_all(&api_count);
    uint64_t api_classes = 0;
    for (size_t a = 0; a < api_count; a++)
        api_classes |= UINT64_C(1) << apis[a].klass;
    ck_assert_uint_gt(count, 0);
    for (size_t i = 0; i < count; i++) {
        const ss_check *c = &checks[i];
        /* The entry is named after its function, unique, and lives in its family's file. */
        ck_assert_msg(strncmp(c->name, "ss_check_", 9) == 0, "%s: not an ss_check_ name", c->name);
        ck_assert_ptr_eq(row_named(c->name), c);
        ck_assert_ptr_nonnull(c->entry);
        char *file = ss_xasprintf("%s/analyzer/checks/%s.c", SS_SOURCE_DIR, c->family);
        ck_assert_msg(access(file, R_OK) == 0, "%s: no file %s for its family", c->name, file);
        free(file);
        /* The rows of one family are together. */
        for (size_t j = i + 2; j < count; j++)
            ck_assert_msg(strcmp(checks[j].family, c->family) != 0 ||
                              strcmp(checks[j - 1].family, c->family) == 0,
                          "%s: the rows of family %s are apart", checks[j].name, c->family);
        ck_assert_uint_ne(c->rules, 0);
        /* Only API rows name classes; each names at least one, and only classes some API of
         * cuda_api.def has, so that every row can run. */
        if (c->on == SS_CHECK_API) {
            ck_assert_uint_ne(c->classes, 0);
            ck_assert_msg((c->classes & ~api_classes) == 0, "%s: a class no API has", c->name);
        } else {
            ck_assert_uint_eq(c->classes, 0);
        }
    }
}
END_TEST

START_TEST(test_named_rows)
{
    /* Two rows as checks.def writes them: an API row and a row for every call. */
    const ss_check *copy = row_named("ss_check_pageable_copy");
    ck_assert_ptr_nonnull(copy);
    ck_assert_str_eq(copy->family, "pageable_copy");
    ck_assert_ptr_eq(copy->entry, ss_check_pageable_copy);
    ck_assert_int_eq(copy->on, SS_CHECK_API);
    ck_assert_uint_eq(copy->classes, UINT64_C(1) << SS_CLASS_COPY);
    ck_assert_uint_eq(copy->rules, UINT64_C(1) << SS_RULE_PAGEABLE_ASYNC_COPY);
    const ss_check *call = row_named("ss_check_readback_call");
    ck_assert_ptr_nonnull(call);
    ck_assert_str_eq(call->family, "lint_readback");
    ck_assert_ptr_eq(call->entry, ss_check_readback_call);
    ck_assert_int_eq(call->on, SS_CHECK_CALL);
    ck_assert_uint_eq(call->classes, 0);
    ck_assert_uint_eq(call->rules, UINT64_C(1) << SS_RULE_SCALAR_READBACK);
    ck_assert_ptr_null(row_named("ss_check_nothing"));
}
END_TEST

START_TEST(test_dispatch_in_table_order)
{
    /* A class reaches its rows in checks.def's order: a copy is looked at for the default
     * stream before the checks of its own family run. */
    char *copy = rows_of(SS_CHECK_API, SS_CLASS_COPY);
    const char *stream = strstr(copy, "ss_check_default_stream_call");
    const char *pageable = strstr(copy, "ss_check_pageable_copy");
    const char *readback = strstr(copy, "ss_check_readback_copy");
    ck_assert_ptr_nonnull(stream);
    ck_assert_ptr_nonnull(pageable);
    ck_assert_ptr_nonnull(readback);
    ck_assert(stream < pageable && pageable < readback);
    ck_assert_ptr_null(strstr(copy, "ss_check_readback_call"));
    free(copy);
    char *launch = rows_of(SS_CHECK_LAUNCH, SS_CLASS_LAUNCH);
    ck_assert_ptr_nonnull(strstr(launch, "ss_check_default_stream_launch"));
    free(launch);
}
END_TEST

static Suite *analyzer_checks_suite(void)
{
    Suite *s = suite_create("analyzer_checks");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_every_static_rule_has_a_check);
    tcase_add_test(table, test_rows_are_well_formed);
    tcase_add_test(table, test_named_rows);
    tcase_add_test(table, test_dispatch_in_table_order);
    suite_add_tcase(s, table);
    return s;
}

SS_CHECK_MAIN(analyzer_checks_suite)
