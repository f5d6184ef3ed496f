/* check_baseline.c: baseline files: round trip, matching that survives moves, counts, errors. */
#include "check_main.h"
#include "log.h"
#include "report.h"
#include "tmp_fixture.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char fixture_dir[300];

static void make_root(void)
{
    fixture_root_make("baseline");
}

static void begin(const char *test_name)
{
    snprintf(fixture_dir, sizeof fixture_dir, "%s/%s", fixture_root, test_name);
    ck_assert_int_eq(mkdir(fixture_dir, 0755), 0);
}

static const char *at(const char *rel)
{
    static char bufs[4][512];
    static int next;
    char *buf = bufs[next++ % 4];
    snprintf(buf, sizeof bufs[0], "%s/%s", fixture_dir, rel);
    return buf;
}

static void put(const char *rel, const char *text)
{
    FILE *f = fopen(at(rel), "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static ss_finding *add(ss_result *r, ss_rule_id rule, const char *file, unsigned line,
                       const char *text)
{
    ss_finding *f = ss_result_add(r);
    f->rule = rule;
    f->severity = ss_rules_get(rule)->severity;
    f->origin = SS_ORIGIN_STATIC;
    f->file = ss_xstrdup(file);
    f->line = line;
    f->column = 5;
    f->message = ss_xasprintf("finding at line %u", line);
    f->line_text = ss_xstrdup(text);
    return f;
}

/* Writes 'old' as a baseline, loads it back, and filters 'now' with it. Returns how many
 * findings were removed. */
static size_t baseline_filter(const ss_result *old, ss_result *now)
{
    char err[512] = "";
    ss_baseline b;
    ck_assert_int_eq(ss_baseline_write(at("baseline.json"), old, err, sizeof err), 0);
    ck_assert_int_eq(ss_baseline_load(at("baseline.json"), &b, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    size_t removed = ss_baseline_filter(&b, now);
    ss_baseline_free(&b);
    return removed;
}

/* Loads 'rel' with 'text' in it and expects the error 'expected_fmt' ("%s": the path). */
static void expect_error(const char *rel, const char *text, const char *expected_fmt)
{
    char err[512] = "", expected[700];
    ss_baseline b;
    if (text)
        put(rel, text);
    const char *mark = strstr(expected_fmt, "%s");
    ck_assert_ptr_nonnull(mark);
    snprintf(expected, sizeof expected, "%.*s%s%s", (int)(mark - expected_fmt), expected_fmt,
             at(rel), mark + 2);
    ck_assert_int_eq(ss_baseline_load(at(rel), &b, err, sizeof err), -1);
    ck_assert_str_eq(err, expected);
    ck_assert_uint_eq(b.count, 0);
    ck_assert_ptr_null(b.entries);
}

START_TEST(test_round_trip)
{
    begin("round_trip");
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    add(&r, SS_RULE_SCALAR_READBACK, "src/b.cu", 40, "  cudaMemcpy(&x, d, 4, kind);");
    add(&r, SS_RULE_PAGEABLE_ASYNC_COPY, "src/a.cu", 12, "cudaMemcpyAsync(d, h, n, k, s);");
    add(&r, SS_RULE_DEFAULT_STREAM_LAUNCH, "src/a.cu", 3, "k<<<1, 1>>>();");
    char err[256] = "";
    mode_t mask = umask(027);
    ck_assert_int_eq(ss_baseline_write(at("baseline.json"), &r, err, sizeof err), 0);
    umask(mask);
    struct stat created;
    ck_assert_int_eq(stat(at("baseline.json"), &created), 0);
    ck_assert_int_eq(created.st_mode & 07777, 0640);

    /* Only the baseline is left in the folder: the temporary file was renamed. */
    DIR *d = opendir(fixture_dir);
    ck_assert_ptr_nonnull(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] != '.') {
            ck_assert_str_eq(e->d_name, "baseline.json");
            entries++;
        }
    }
    closedir(d);
    ck_assert_int_eq(entries, 1);

    /* The file: version, and the findings in file and line order with their fingerprints. */
    FILE *f = fopen(at("baseline.json"), "r");
    ck_assert_ptr_nonnull(f);
    char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    ck_assert_int_eq(text[len - 1], '\n');
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(cJSON_GetObjectItem(root, "version")->valueint, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "tool")->valuestring, "syncscope");
    cJSON *list = cJSON_GetObjectItem(root, "findings");
    ck_assert_int_eq(cJSON_GetArraySize(list), 3);
    const char *files[] = {"src/a.cu", "src/a.cu", "src/b.cu"};
    const char *rules[] = {"SYNC101", "SYNC201", "SYNC301"};
    const int lines[] = {3, 12, 40};
    const size_t source_index[] = {2, 1, 0};
    for (int i = 0; i < 3; i++) {
        cJSON *item = cJSON_GetArrayItem(list, i);
        char fp[17];
        ss_finding_fingerprint(&r.findings[source_index[i]], fp);
        ck_assert_str_eq(cJSON_GetObjectItem(item, "file")->valuestring, files[i]);
        ck_assert_str_eq(cJSON_GetObjectItem(item, "rule")->valuestring, rules[i]);
        ck_assert_int_eq(cJSON_GetObjectItem(item, "line")->valueint, lines[i]);
        ck_assert_str_eq(cJSON_GetObjectItem(item, "fingerprint")->valuestring, fp);
    }
    cJSON_Delete(root);

    ss_baseline b;
    ck_assert_int_eq(ss_baseline_load(at("baseline.json"), &b, err, sizeof err), 0);
    ck_assert_uint_eq(b.total, 3);
    ck_assert_uint_eq(b.count, 3);
    for (size_t i = 0; i < b.count; i++) {
        ck_assert_uint_eq(b.entries[i].count, 1);
        if (i > 0)
            ck_assert_int_lt(strcmp(b.entries[i - 1].fingerprint, b.entries[i].fingerprint), 0);
    }
    /* The same findings again: all of them are known. */
    ck_assert_uint_eq(ss_baseline_filter(&b, &r), 3);
    ck_assert_uint_eq(r.count, 0);
    ss_baseline_free(&b);
    ss_result_free(&r);

    /* Writing over an existing baseline replaces it and keeps its permissions; an empty one
     * holds no findings. */
    struct stat st;
    ck_assert_int_eq(chmod(at("baseline.json"), 0600), 0);
    ss_result_init(&r, SS_RESULT_LINT);
    ck_assert_int_eq(ss_baseline_write(at("baseline.json"), &r, err, sizeof err), 0);
    ck_assert_int_eq(stat(at("baseline.json"), &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0600);
    ck_assert_int_eq(ss_baseline_load(at("baseline.json"), &b, err, sizeof err), 0);
    ck_assert_uint_eq(b.total, 0);
    ck_assert_uint_eq(b.count, 0);
    add(&r, SS_RULE_SCALAR_READBACK, "src/b.cu", 40, "x");
    ck_assert_uint_eq(ss_baseline_filter(&b, &r), 0);
    ck_assert_uint_eq(r.count, 1);
    ss_baseline_free(&b);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_moved_code_still_matched)
{
    begin("moved");
    ss_result old, now;
    ss_result_init(&old, SS_RESULT_LINT);
    ss_result_init(&now, SS_RESULT_LINT);
    add(&old, SS_RULE_PAGEABLE_ASYNC_COPY, "src/a.cu", 5, "    cudaMemcpyAsync(d, h, n, k, s);");
    add(&old, SS_RULE_SYNC_IN_LOOP, "src/a.cu", 9, "cudaDeviceSynchronize();");
    /* Ten lines further down, and re-indented. */
    add(&now, SS_RULE_PAGEABLE_ASYNC_COPY, "src/a.cu", 15, "\tcudaMemcpyAsync(d,h,n,k,s);  ");
    add(&now, SS_RULE_SYNC_IN_LOOP, "src/a.cu", 19, "        cudaDeviceSynchronize();");
    add(&now, SS_RULE_DEFAULT_STREAM_LAUNCH, "src/a.cu", 30, "k<<<1, 1>>>();");
    ck_assert_uint_eq(baseline_filter(&old, &now), 2);
    ck_assert_uint_eq(now.count, 1);
    ck_assert_int_eq(now.findings[0].rule, SS_RULE_DEFAULT_STREAM_LAUNCH);
    ck_assert_uint_eq(now.findings[0].line, 30);
    ck_assert_str_eq(now.findings[0].message, "finding at line 30");
    ss_result_free(&old);
    ss_result_free(&now);
}
END_TEST

START_TEST(test_changed_text_is_new)
{
    begin("changed");
    ss_result old, now;
    ss_result_init(&old, SS_RESULT_LINT);
    ss_result_init(&now, SS_RESULT_LINT);
    add(&old, SS_RULE_PAGEABLE_ASYNC_COPY, "src/a.cu", 5, "cudaMemcpyAsync(d, h, n, k, s);");
    /* Same line number, different text; same text, other file; same text, other rule. */
    add(&now, SS_RULE_PAGEABLE_ASYNC_COPY, "src/a.cu", 5, "cudaMemcpyAsync(d, h, 2 * n, k, s);");
    add(&now, SS_RULE_PAGEABLE_ASYNC_COPY, "src/b.cu", 5, "cudaMemcpyAsync(d, h, n, k, s);");
    add(&now, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, "src/a.cu", 5, "cudaMemcpyAsync(d, h, n, k, s);");
    ck_assert_uint_eq(baseline_filter(&old, &now), 0);
    ck_assert_uint_eq(now.count, 3);
    ss_result_free(&old);
    ss_result_free(&now);
}
END_TEST

START_TEST(test_count_aware)
{
    begin("counts");
    ss_result old, now;
    ss_result_init(&old, SS_RESULT_LINT);
    ss_result_init(&now, SS_RESULT_LINT);
    add(&old, SS_RULE_SCALAR_READBACK, "src/t.cu", 10, "loss = l.item<float>();");
    add(&old, SS_RULE_SCALAR_READBACK, "src/t.cu", 20, "loss = l.item<float>();");
    char err[256] = "";
    ss_baseline b;
    ck_assert_int_eq(ss_baseline_write(at("baseline.json"), &old, err, sizeof err), 0);
    ck_assert_int_eq(ss_baseline_load(at("baseline.json"), &b, err, sizeof err), 0);
    ck_assert_uint_eq(b.total, 2);
    ck_assert_uint_eq(b.count, 1);
    ck_assert_uint_eq(b.entries[0].count, 2);

    add(&now, SS_RULE_SCALAR_READBACK, "src/t.cu", 12, "loss = l.item<float>();");
    add(&now, SS_RULE_SCALAR_READBACK, "src/t.cu", 22, "loss = l.item<float>();");
    add(&now, SS_RULE_SCALAR_READBACK, "src/t.cu", 32, "loss = l.item<float>();");
    ck_assert_uint_eq(ss_baseline_filter(&b, &now), 2);
    ck_assert_uint_eq(now.count, 1);
    ck_assert_uint_eq(now.findings[0].line, 32);
    /* The baseline itself is not used up: the same filter gives the same answer again. */
    ss_result again;
    ss_result_init(&again, SS_RESULT_LINT);
    add(&again, SS_RULE_SCALAR_READBACK, "src/t.cu", 1, "loss = l.item<float>();");
    add(&again, SS_RULE_SCALAR_READBACK, "src/t.cu", 2, "loss = l.item<float>();");
    ck_assert_uint_eq(ss_baseline_filter(&b, &again), 2);
    ck_assert_uint_eq(again.count, 0);
    /* Fewer than before: nothing new. */
    ss_baseline_free(&b);
    ss_result_free(&again);
    ss_result_free(&old);
    ss_result_free(&now);
}
END_TEST

START_TEST(test_malformed)
{
    begin("malformed");
    expect_error("missing.json", NULL, "%s: No such file or directory");
    expect_error("empty.json", "", "%s:1:1: malformed baseline: the file is empty");
    expect_error("comma.json",
                 "{\n  \"version\": 1,\n  \"findings\": [\n    {\"fingerprint\": "
                 "\"0123456789abcdef\",}\n  ]\n}\n",
                 "%s:4:41: malformed baseline: JSON syntax error");
    expect_error("cut.json", "{\"version\": 1, \"findings\": [",
                 "%s:1:29: malformed baseline: the file ends inside the JSON document");
    expect_error("trailing.json", "{\"version\": 1, \"findings\": []}\n\nx\n",
                 "%s:3:1: malformed baseline: text after the JSON document");
    expect_error("array.json", "[]", "%s: malformed baseline: the top level must be a JSON object");
    expect_error("noversion.json", "{\"findings\": []}",
                 "%s: malformed baseline: no 'version' field");
    expect_error("v2.json", "{\"version\": 2, \"findings\": []}",
                 "%s: unsupported baseline version 2 (this syncscope reads version 1)");
    expect_error("vstr.json", "{\"version\": \"1\", \"findings\": []}",
                 "%s: unsupported baseline version \"1\" (this syncscope reads version 1)");
    expect_error("nofindings.json", "{\"version\": 1}",
                 "%s: malformed baseline: 'findings' must be an array");
    expect_error("badfp.json",
                 "{\"version\": 1, \"findings\": [{\"fingerprint\": \"0123456789abcdef\"}, "
                 "{\"fingerprint\": \"0123456789ABCDEF\"}]}",
                 "%s: malformed baseline: findings[1]: 'fingerprint' must be 16 lowercase "
                 "hexadecimal digits");
    expect_error("nofp.json", "{\"version\": 1, \"findings\": [{\"rule\": \"SYNC201\"}]}",
                 "%s: malformed baseline: findings[0]: 'fingerprint' must be 16 lowercase "
                 "hexadecimal digits");
}
END_TEST

START_TEST(test_write_error)
{
    begin("write_error");
    ss_result r;
    ss_result_init(&r, SS_RESULT_LINT);
    char err[512] = "", expected[600];
    ck_assert_int_eq(ss_baseline_write(at("no/such/dir/b.json"), &r, err, sizeof err), -1);
    snprintf(expected, sizeof expected,
             "%s: cannot create a temporary file: No such file or directory",
             at("no/such/dir/b.json"));
    ck_assert_str_eq(err, expected);
    ss_result_free(&r);
}
END_TEST

/* A run finding of 'rule' at file:line in 'function' (NULL file: a site without source, in
 * 'module'), through 'api'. */
static ss_finding *add_run(ss_result *r, ss_rule_id rule, const char *file, unsigned line,
                           const char *function, const char *module, const char *api)
{
    ss_finding *f = ss_result_add(r);
    f->rule = rule;
    f->severity = ss_rules_get(rule)->severity;
    f->origin = SS_ORIGIN_RUNTIME;
    f->file = ss_xstrdup(file);
    f->line = line;
    f->function = ss_xstrdup(function);
    f->module = ss_xstrdup(module);
    f->evidence.api = ss_xstrdup(api);
    f->message = ss_xasprintf("observed at line %u", line);
    return f;
}

static void key_of(const ss_finding *f, char *out)
{
    ss_baseline_fingerprint(f, out);
    ck_assert_uint_eq(strlen(out), 16);
}

START_TEST(test_run_keys)
{
    begin("run_keys");
    put("loop.py", "import torch\n\nx = y.item()\nz  =  w.item()\n");
    put("moved.py", "\n\n\n\n\nx = y.item()   \n");
    ss_result r;
    ss_result_init(&r, SS_RESULT_RUN);
    /* Lines 3 and 4 of one function: keyed by their texts, apart. */
    const ss_finding *a =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("loop.py"), 3, "step", NULL, "cudaMemcpyAsync");
    const ss_finding *b =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("loop.py"), 4, "step", NULL, "cudaMemcpyAsync");
    char ka[17], kb[17], k[17];
    key_of(a, ka);
    key_of(b, kb);
    ck_assert_str_ne(ka, kb);
    /* The same text moved to line 6 of another file is another file. */
    const ss_finding *m =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("moved.py"), 6, "step", NULL, "cudaMemcpyAsync");
    key_of(m, k);
    ck_assert_str_ne(k, ka);
    /* ... but moved within its file (the text of line 6 now, trailing spaces aside), it keeps
     * its key. */
    put("loop.py", "import torch\n\n\n\n\nx = y.item()   \n");
    ss_finding *moved =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("loop.py"), 6, "step", NULL, "cudaMemcpyAsync");
    key_of(moved, k);
    ck_assert_str_eq(k, ka);
    /* Another rule or API on the same line is another finding. */
    ss_finding *other = add_run(&r, SS_RULE_SYNC_COPY_IN_PIPELINE, at("loop.py"), 6, "step", NULL,
                                "cudaMemcpyAsync");
    key_of(other, k);
    ck_assert_str_ne(k, ka);
    free(other->evidence.api);
    other->rule = SS_RULE_SCALAR_READBACK;
    other->evidence.api = ss_xstrdup("cudaMemcpy");
    key_of(other, k);
    ck_assert_str_ne(k, ka);
    /* A file that cannot be read: the function stands for the line, so two lines of one
     * function share a key, and the line number never counts. */
    const ss_finding *g1 =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("gone.py"), 3, "step", NULL, "cudaMemcpy");
    const ss_finding *g2 =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("gone.py"), 9, "step", NULL, "cudaMemcpy");
    const ss_finding *g3 =
        add_run(&r, SS_RULE_SCALAR_READBACK, at("gone.py"), 9, "eval", NULL, "cudaMemcpy");
    char k1[17], k2[17], k3[17];
    key_of(g1, k1);
    key_of(g2, k2);
    key_of(g3, k3);
    ck_assert_str_eq(k1, k2);
    ck_assert_str_ne(k2, k3);
    /* A site without source: function and the module's file name, whatever its folder. */
    const ss_finding *n1 =
        add_run(&r, SS_RULE_SCALAR_READBACK, NULL, 0, "main", "/build/a/bin/app", "cudaMemcpy");
    const ss_finding *n2 =
        add_run(&r, SS_RULE_SCALAR_READBACK, NULL, 0, "main", "/opt/app/bin/app", "cudaMemcpy");
    const ss_finding *n3 =
        add_run(&r, SS_RULE_SCALAR_READBACK, NULL, 0, "main", "/opt/app/bin/other", "cudaMemcpy");
    key_of(n1, k1);
    key_of(n2, k2);
    key_of(n3, k3);
    ck_assert_str_eq(k1, k2);
    ck_assert_str_ne(k2, k3);
    /* Lint findings keep lint's key. */
    const ss_finding *lint = add(&r, SS_RULE_SCALAR_READBACK, "a.cu", 3, "x = y;");
    char fp[17];
    ss_finding_fingerprint(lint, fp);
    key_of(lint, k);
    ck_assert_str_eq(k, fp);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_run_baseline_round_trip)
{
    /* A baseline of a run, written and read back, leaves out those findings and keeps a new
     * line of the same function. */
    begin("run_round_trip");
    put("loop.py", "a = x.item()\nb = y.item()\nc = z.item()\n");
    ss_result old, now;
    ss_result_init(&old, SS_RESULT_RUN);
    ss_result_init(&now, SS_RESULT_RUN);
    add_run(&old, SS_RULE_SCALAR_READBACK, at("loop.py"), 1, "step", NULL, "cudaMemcpyAsync");
    add_run(&old, SS_RULE_SCALAR_READBACK, at("loop.py"), 2, "step", NULL, "cudaMemcpyAsync");
    add_run(&now, SS_RULE_SCALAR_READBACK, at("loop.py"), 3, "step", NULL, "cudaMemcpyAsync");
    add_run(&now, SS_RULE_SCALAR_READBACK, at("loop.py"), 2, "step", NULL, "cudaMemcpyAsync");
    add_run(&now, SS_RULE_SCALAR_READBACK, at("loop.py"), 1, "step", NULL, "cudaMemcpyAsync");
    ck_assert_uint_eq(baseline_filter(&old, &now), 2);
    ck_assert_uint_eq(now.count, 1);
    ck_assert_uint_eq(now.findings[0].line, 3);
    ss_result_free(&old);
    ss_result_free(&now);
}
END_TEST

static Suite *baseline_suite(void)
{
    Suite *s = suite_create("baseline");
    TCase *files = tcase_create("files");
    tcase_add_unchecked_fixture(files, make_root, remove_root);
    tcase_add_test(files, test_round_trip);
    tcase_add_test(files, test_malformed);
    tcase_add_test(files, test_write_error);
    suite_add_tcase(s, files);
    TCase *matching = tcase_create("matching");
    tcase_add_unchecked_fixture(matching, make_root, remove_root);
    tcase_add_test(matching, test_moved_code_still_matched);
    tcase_add_test(matching, test_changed_text_is_new);
    tcase_add_test(matching, test_count_aware);
    tcase_add_test(matching, test_run_keys);
    tcase_add_test(matching, test_run_baseline_round_trip);
    suite_add_tcase(s, matching);
    return s;
}

SS_CHECK_MAIN(baseline_suite)
