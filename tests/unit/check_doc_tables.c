/* check_doc_tables.c: the generated tables of the docs are what interpose/settings.def and
 * report/formats.def generate (docs/run.md, docs/configuration.md, docs/output-formats.md),
 * and a page whose table differs from its rows is told apart. */
#include "check_main.h"
#include "files.h"
#include "interpose.h"
#include "log.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGENERATE "run cmake --build BUILD --target doc-tables"

static char *read_page(const char *page)
{
    char *path = ss_xasprintf("%s/%s", SS_SOURCE_DIR, page);
    size_t len;
    char *text = ss_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    free(path);
    return text;
}

/* The table of 'name' ("settings", "settings-elsewhere", "formats"), malloc'ed. */
static char *generated(const char *name)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    int rc = strcmp(name, "formats") == 0
                 ? ss_report_write_format_table(out)
                 : ss_interpose_write_settings_table(out, strcmp(name, "settings-elsewhere") == 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(fclose(out), 0);
    return text;
}

/* Whether the region 'name' of 'page_text' holds exactly 'table': 1 yes, 0 no, -1 when the
 * page has no such region. */
static int region_matches(const char *page_text, const char *name, const char *table)
{
    char *updated = ss_doc_region_replace(page_text, name, table);
    if (updated == NULL)
        return -1;
    int same = strcmp(updated, page_text) == 0;
    free(updated);
    return same;
}

static void check_page(const char *page, const char *name)
{
    char *text = read_page(page);
    char *table = generated(name);
    int match = region_matches(text, name, table);
    ck_assert_msg(match >= 0, "%s has no region <!-- %s:begin --> ... <!-- %s:end -->", page, name,
                  name);
    ck_assert_msg(match == 1, "the %s table of %s differs from its rows: " REGENERATE, name, page);
    free(table);
    free(text);
}

START_TEST(test_run_settings_table)
{
    check_page("docs/run.md", "settings");
}
END_TEST

START_TEST(test_other_settings_table)
{
    check_page("docs/configuration.md", "settings-elsewhere");
}
END_TEST

START_TEST(test_formats_table)
{
    check_page("docs/output-formats.md", "formats");
}
END_TEST

/* A page is compared with the whole table: a row changed, added or taken away in the
 * .def file without regenerating the page fails the check. */
START_TEST(test_changed_row_is_caught)
{
    char *text = read_page("docs/run.md");
    char *table = generated("settings");
    ck_assert_int_eq(region_matches(text, "settings", table), 1);

    /* A row's default changed in settings.def, the page not regenerated. */
    const char *row = strstr(table, "| `--max-memory SIZE` | `SYNCSCOPE_MAX_MEMORY` | `256M` |");
    ck_assert_ptr_nonnull(row);
    char *changed = ss_xstrdup(table);
    memcpy(changed + (row - table) + strlen("| `--max-memory SIZE` | `SYNCSCOPE_MAX_MEMORY` | `"),
           "512", 3);
    ck_assert_int_eq(region_matches(text, "settings", changed), 0);
    free(changed);

    /* A new row. */
    char *longer = ss_xasprintf("%s| — | `SYNCSCOPE_NEW` | unset | a new setting |\n", table);
    ck_assert_int_eq(region_matches(text, "settings", longer), 0);
    free(longer);

    /* A row taken away: the last one. */
    char *shorter = ss_xstrdup(table);
    char *last = shorter + strlen(shorter) - 1;
    while (last > shorter && last[-1] != '\n')
        last--;
    *last = '\0';
    ck_assert_int_eq(region_matches(text, "settings", shorter), 0);
    free(shorter);

    /* A format renamed. */
    char *formats_page = read_page("docs/output-formats.md");
    char *formats = generated("formats");
    char *edited = ss_xstrdup(formats);
    char *gitlab = strstr(edited, "| `gitlab` | ");
    ck_assert_ptr_nonnull(gitlab);
    gitlab[3] = 'G';
    ck_assert_int_eq(region_matches(formats_page, "formats", edited), 0);
    free(edited);
    free(formats);
    free(formats_page);
    free(table);
    free(text);
}
END_TEST

START_TEST(test_region_replace)
{
    const char *page = "intro\n<!-- t:begin -->\nold 1\nold 2\n<!-- t:end -->\nafter\n";
    char *out = ss_doc_region_replace(page, "t", "| a |\n");
    ck_assert_str_eq(out, "intro\n<!-- t:begin -->\n| a |\n<!-- t:end -->\nafter\n");
    free(out);
    out = ss_doc_region_replace("<!-- t:begin -->\n<!-- t:end -->\n", "t", "x\n");
    ck_assert_str_eq(out, "<!-- t:begin -->\nx\n<!-- t:end -->\n");
    free(out);
    /* No region, one marker, markers out of order or twice, a marker inside a line. */
    ck_assert_ptr_null(ss_doc_region_replace(page, "u", "x\n"));
    ck_assert_ptr_null(ss_doc_region_replace("<!-- t:begin -->\ntext\n", "t", "x\n"));
    ck_assert_ptr_null(ss_doc_region_replace("<!-- t:end -->\n<!-- t:begin -->\n", "t", "x\n"));
    ck_assert_ptr_null(ss_doc_region_replace(
        "<!-- t:begin -->\n<!-- t:end -->\n<!-- t:begin -->\n<!-- t:end -->\n", "t", "x\n"));
    ck_assert_ptr_null(ss_doc_region_replace("a <!-- t:begin -->\n<!-- t:end -->\n", "t", "x\n"));
}
END_TEST

/* What the generators write: the cells of a few rows, exactly. */
START_TEST(test_table_cells)
{
    char *settings = generated("settings");
    ck_assert_ptr_eq(strstr(settings, "| option | variable | default | meaning |\n"
                                      "| --- | --- | --- | --- |\n"
                                      "| `-o, --output FILE` | `SYNCSCOPE_OUTPUT` | "
                                      "`syncscope-%p.json` | "),
                     settings);
    ck_assert_ptr_nonnull(strstr(settings, "\n| `--no-kernel-activity` | "
                                           "`SYNCSCOPE_KERNEL_ACTIVITY=0` | `1` | "));
    ck_assert_ptr_nonnull(strstr(settings, "\n| `-q, --quiet` | `SYNCSCOPE_QUIET=1` | `0` | "));
    ck_assert_ptr_nonnull(strstr(settings, "\n| `--profile-from-start on\\|off` | "
                                           "`SYNCSCOPE_PROFILE_FROM_START` | `on` | "));
    ck_assert_ptr_nonnull(strstr(settings, "\n| — | `SYNCSCOPE_PYTHON_DEPTH` | `8` | "));
    ck_assert_ptr_nonnull(strstr(settings, "\n| `--sarif FILE` | `SYNCSCOPE_SARIF` | unset | "));
    ck_assert_ptr_null(strstr(settings, "SYNCSCOPE_RULES_URL"));
    free(settings);
    char *other = generated("settings-elsewhere");
    ck_assert_ptr_eq(strstr(other, "| variable | option | meaning |\n| --- | --- | --- |\n"
                                   "| `SYNCSCOPE_RULES_URL` | `--rules-url BASE` | "),
                     other);
    ck_assert_ptr_nonnull(strstr(other, "\n| `SYNCSCOPE_NO_CUDA` | — | "));
    free(other);
    char *formats = generated("formats");
    ck_assert_ptr_nonnull(strstr(formats, "\n| `html` | `lint`, `run`, `analyze`, `report` | "
                                          "`.html` | "));
    ck_assert_ptr_nonnull(strstr(formats, "\n| `json` | `lint`, `run`, `analyze` | `.json` | "));
    free(formats);
}
END_TEST

static Suite *doc_tables_suite(void)
{
    Suite *s = suite_create("doc_tables");
    TCase *pages = tcase_create("pages");
    tcase_add_test(pages, test_run_settings_table);
    tcase_add_test(pages, test_other_settings_table);
    tcase_add_test(pages, test_formats_table);
    suite_add_tcase(s, pages);
    TCase *check = tcase_create("check");
    tcase_add_test(check, test_changed_row_is_caught);
    tcase_add_test(check, test_region_replace);
    tcase_add_test(check, test_table_cells);
    suite_add_tcase(s, check);
    return s;
}

SS_CHECK_MAIN(doc_tables_suite)
