/* check_docs.c: docs/rules/ is exactly what the catalog generates (a page per rule, no page
 * for a rule that does not exist), and docs/output-formats.md documents every JSON key. */
#include "check_main.h"
#include "log.h"
#include "report.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULES_DIR SS_SOURCE_DIR "/docs/rules"

static char *read_file(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return NULL;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
    return text;
}

/* What the generator writes for 'rule' (the index when NULL). */
static char *generated(const ss_rule *rule)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(rule ? ss_report_write_rule_doc(out, rule) : ss_report_write_rule_index(out),
                     0);
    ck_assert_int_eq(fclose(out), 0);
    return text;
}

START_TEST(test_every_rule_page_matches_catalog)
{
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, RULES_DIR "/%s.md", rules[i].id);
        char *committed = read_file(path);
        ck_assert_msg(committed != NULL,
                      "%s has no page %s: run cmake --build BUILD --target rule-docs", rules[i].id,
                      path);
        char *expected = generated(&rules[i]);
        ck_assert_msg(strcmp(committed, expected) == 0,
                      "%s differs from the catalog: run cmake --build BUILD --target rule-docs",
                      path);
        /* The page is about this rule. */
        char heading[128];
        snprintf(heading, sizeof heading, "\n# %s: %s\n", rules[i].id, rules[i].name);
        ck_assert_ptr_nonnull(strstr(committed, heading));
        free(expected);
        free(committed);
    }
    char *index = read_file(RULES_DIR "/README.md");
    ck_assert_msg(index != NULL, "docs/rules/README.md is missing");
    char *expected = generated(NULL);
    ck_assert_msg(strcmp(index, expected) == 0,
                  "docs/rules/README.md differs from the catalog: run the rule-docs target");
    free(expected);
    free(index);
}
END_TEST

START_TEST(test_no_page_without_rule)
{
    DIR *d = opendir(RULES_DIR);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    size_t pages = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (strcmp(e->d_name, "README.md") == 0)
            continue;
        size_t len = strlen(e->d_name);
        ck_assert_msg(len > 3 && strcmp(e->d_name + len - 3, ".md") == 0,
                      "docs/rules/%s is not a rule page", e->d_name);
        char id[64];
        snprintf(id, sizeof id, "%.*s", (int)(len - 3), e->d_name);
        const ss_rule *rule = ss_rules_find(id);
        ck_assert_msg(rule != NULL && strcmp(rule->id, id) == 0,
                      "docs/rules/%s documents no rule of the catalog", e->d_name);
        pages++;
    }
    closedir(d);
    ck_assert_uint_eq(pages, SS_RULE_COUNT);
}
END_TEST

START_TEST(test_generator_escapes_markdown)
{
    /* Catalog text is literal: launch syntax must not turn into HTML, and the fix
     * paragraph gets its own section. */
    char *page = generated(ss_rules_find("SYNC101"));
    ck_assert_ptr_nonnull(strstr(page, "(k\\<\\<\\<grid, block, shmem, stream\\>\\>\\>)"));
    ck_assert_ptr_nonnull(strstr(page, "\n## How to fix\n\nLaunch on an explicit stream"));
    ck_assert_ptr_null(strstr(page, "Fix:"));
    ck_assert_ptr_nonnull(strstr(page, "| `SYNC101` | `default-stream-launch` | warning |"));
    free(page);
    page = generated(ss_rules_find("SYNC502"));
    ck_assert_ptr_nonnull(strstr(page, "| note | `syncscope run` (observed at run time) |"));
    free(page);
}
END_TEST

/* Every member name in 'item' (recursively) must appear in 'doc' as `name`. */
static void check_keys_documented(const cJSON *item, const char *doc, const char *where)
{
    const cJSON *child;
    cJSON_ArrayForEach(child, item)
    {
        char path[256];
        if (child->string) {
            char quoted[128];
            snprintf(quoted, sizeof quoted, "`%s`", child->string);
            ck_assert_msg(strstr(doc, quoted) != NULL,
                          "docs/output-formats.md does not document the JSON key %s.%s", where,
                          child->string);
            snprintf(path, sizeof path, "%s.%s", where, child->string);
        } else {
            snprintf(path, sizeof path, "%s[]", where);
        }
        check_keys_documented(child, doc, path);
    }
}

/* Whether any file in 'dir' whose name ends with one of 'suffixes' (NULL-terminated) contains
 * 'needle'. */
static int folder_mentions(const char *dir, const char *const *suffixes, const char *needle)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        int match = 0;
        for (const char *const *sfx = suffixes; *sfx && !match; sfx++) {
            size_t sl = strlen(*sfx);
            match = len > sl && strcmp(e->d_name + len - sl, *sfx) == 0;
        }
        if (!match)
            continue;
        char *path = ss_xasprintf("%s/%s", dir, e->d_name);
        char *text = read_file(path);
        found = text != NULL && strstr(text, needle) != NULL;
        free(text);
        free(path);
    }
    closedir(d);
    return found;
}

/* Every rule has its cases: a static rule a lint test file that expects it; a runtime rule a
 * GPU test program whose expectation names it, or (for the what-if rules, whose proof is a
 * naive/fixed pair) the samples' proof script. */
START_TEST(test_every_rule_has_its_cases)
{
    static const char *const lint_sources[] = {".cu", ".cpp", ".c", NULL};
    static const char *const expect_files[] = {".expect", NULL};
    static const char *const prove_files[] = {".sh", NULL};
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    for (size_t i = 0; i < n; i++) {
        if (rules[i].halves & SS_HALF_STATIC) {
            char *needle = ss_xasprintf("expect: %s", rules[i].id);
            int seen = folder_mentions(SS_SOURCE_DIR "/tests/lint", lint_sources, needle);
            free(needle);
            if (!seen) {
                /* "expect: SYNC101, SYNC201": the ID may follow another one. */
                needle = ss_xasprintf(", %s", rules[i].id);
                seen = folder_mentions(SS_SOURCE_DIR "/tests/lint", lint_sources, needle);
                free(needle);
            }
            ck_assert_msg(seen, "%s has no tests/lint case expecting it", rules[i].id);
        }
        if (rules[i].halves & SS_HALF_RUNTIME) {
            char *needle = ss_xasprintf("%s ", rules[i].id);
            int seen = folder_mentions(SS_SOURCE_DIR "/tests/gpu", expect_files, needle) ||
                       folder_mentions(SS_SOURCE_DIR "/samples/prove", prove_files, rules[i].id);
            free(needle);
            ck_assert_msg(seen, "%s has no GPU test program or proof", rules[i].id);
        }
    }
}
END_TEST

START_TEST(test_output_formats_documents_json)
{
    char *doc = read_file(SS_SOURCE_DIR "/docs/output-formats.md");
    ck_assert_msg(doc != NULL, "docs/output-formats.md is missing");
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    ss_finding *f = ss_result_add(&r);
    f->rule = SS_RULE_SCALAR_READBACK;
    f->origin = SS_ORIGIN_RUNTIME;
    f->message = ss_xstrdup("m");
    f->frame_count = 1;
    f->frames = calloc(1, sizeof *f->frames);
    ss_result_add_diag(&r, SS_SEV_NOTE, "a.cu", 1, 1, "d");
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_int_eq(ss_report_write_json(out, &r), 0);
    ck_assert_int_eq(fclose(out), 0);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    check_keys_documented(root, doc, "$");
    /* The SARIF fingerprint key and each GitHub command are described. */
    ck_assert_ptr_nonnull(strstr(doc, "`syncscope/v1`"));
    ck_assert_ptr_nonnull(strstr(doc, "`::notice`"));
    ck_assert_ptr_nonnull(strstr(doc, "`::warning`"));
    ck_assert_ptr_nonnull(strstr(doc, "`::error`"));
    cJSON_Delete(root);
    free(text);
    free(doc);
    ss_result_free(&r);
}
END_TEST

static Suite *docs_suite(void)
{
    Suite *s = suite_create("docs");
    TCase *rules = tcase_create("rules");
    tcase_add_test(rules, test_every_rule_page_matches_catalog);
    tcase_add_test(rules, test_no_page_without_rule);
    tcase_add_test(rules, test_generator_escapes_markdown);
    tcase_add_test(rules, test_every_rule_has_its_cases);
    suite_add_tcase(s, rules);
    TCase *formats = tcase_create("formats");
    tcase_add_test(formats, test_output_formats_documents_json);
    suite_add_tcase(s, formats);
    return s;
}

SS_CHECK_MAIN(docs_suite)
