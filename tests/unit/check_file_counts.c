/* check_file_counts.c: what a lint run did with its source files (ss_file_counts): the summary
 * line, the JSON summary's "files" (written and read back), SARIF's notifications and
 * properties, and `syncscope lint` end to end in text, JSON and SARIF. */
#include "check_main.h"
#include "cli_fixture.h"
#include "log.h"
#include "report.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A lint result with 5 files: 2 analyzed (1 with errors), 3 left out for three reasons. */
static void sample_counts(ss_result *r)
{
    ss_result_init(r, SS_RESULT_LINT);
    ss_file_counts *c = &r->files;
    c->counted = 1;
    c->total = 5;
    c->analyzed = 2;
    ss_file_counts_add_error(c, "src/broken.cu");
    ss_file_counts_add_skipped(c, "src/empty.cu", SS_SKIP_EMPTY);
    ss_file_counts_add_skipped(c, "src/kernel.cu", SS_SKIP_INCLUDED);
    ss_file_counts_add_skipped(c, "src/vendor_x.cu", SS_SKIP_EXCLUDED);
}

/* What 'write' writes for 'r', malloc'ed. */
static char *render(int (*write)(FILE *, const ss_result *), const ss_result *r)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(write(out, r), 0);
    fclose(out);
    return text;
}

/* 'object'.'name' printed unformatted, malloc'ed. */
static char *member_text(const cJSON *object, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    ck_assert_ptr_nonnull(item);
    char *text = cJSON_PrintUnformatted(item);
    ck_assert_ptr_nonnull(text);
    return text;
}

static const char sample_files_json[] =
    "{\"total\":5,\"analyzed\":2,\"withErrors\":1,\"notAnalyzed\":3,"
    "\"filesWithErrors\":[{\"file\":\"src/broken.cu\"}],"
    "\"filesNotAnalyzed\":[{\"file\":\"src/empty.cu\",\"reason\":\"empty\"},"
    "{\"file\":\"src/kernel.cu\",\"reason\":\"included\"},"
    "{\"file\":\"src/vendor_x.cu\",\"reason\":\"excluded\"}]}";

START_TEST(test_summary_line)
{
    ss_result r;
    sample_counts(&r);
    ck_assert_int_eq(ss_file_counts_notable(&r.files), 1);
    char *text = ss_file_counts_text(&r.files);
    ck_assert_str_eq(text, "5 files, 2 analyzed, 1 with errors; not analyzed: 1 #included by "
                           "other sources, 1 excluded, 1 empty");
    free(text);
    ss_file_counts_add_skipped(&r.files, "src/z.cu", SS_SKIP_STOPPED);
    ss_file_counts_add_skipped(&r.files, "src/y.cu", SS_SKIP_UNLISTED);
    r.files.total += 2;
    text = ss_file_counts_text(&r.files);
    ck_assert_str_eq(text, "7 files, 2 analyzed, 1 with errors; not analyzed: 1 #included by "
                           "other sources, 1 not in the compile database, 1 excluded, 1 empty, 1 "
                           "after the first file with errors (--fail-fast)");
    free(text);
    ss_result_free(&r);

    /* One file, or no errors: nothing worth a line; a run result has no counts. */
    ss_file_counts one = {1, 1, 1, NULL, 0, NULL, 0, NULL};
    ss_file_counts_add_error(&one, "a.cu");
    ck_assert_int_eq(ss_file_counts_notable(&one), 0);
    ss_file_counts clean = {1, 3, 3, NULL, 0, NULL, 0, NULL};
    ck_assert_int_eq(ss_file_counts_notable(&clean), 0);
    text = ss_file_counts_text(&clean);
    ck_assert_str_eq(text, "3 files, 3 analyzed, 0 with errors");
    free(text);
    ss_result run;
    ss_result_init(&run, SS_RESULT_RUN);
    ck_assert_int_eq(ss_file_counts_notable(&run.files), 0);
    ss_result_free(&run);
    free(one.with_errors[0]);
    free(one.with_errors);

    static const char *const names[] = {"excluded", "included", "unlisted", "empty", "stopped"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ss_skip_reason reason;
        ck_assert_int_eq(ss_skip_reason_parse(names[i], &reason), 0);
        ck_assert_str_eq(ss_skip_reason_name(reason), names[i]);
    }
    ss_skip_reason reason;
    ck_assert_int_eq(ss_skip_reason_parse("skipped", &reason), -1);
}
END_TEST

START_TEST(test_json_files)
{
    ss_result r;
    sample_counts(&r);
    char *text = render(ss_report_write_json, &r);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    char *files = member_text(cJSON_GetObjectItem(root, "summary"), "files");
    ck_assert_str_eq(files, sample_files_json);
    free(files);
    cJSON_Delete(root);

    /* Read back: the same counts and lists, written out byte for byte the same. */
    char path[] = "/tmp/ss-check-file-counts-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    ss_result back;
    char err[1024];
    ck_assert_int_eq(ss_report_read_json(path, &back, err, sizeof err), 0);
    ck_assert_int_eq(back.files.counted, 1);
    ck_assert_uint_eq(back.files.total, 5);
    ck_assert_uint_eq(back.files.analyzed, 2);
    ck_assert_uint_eq(back.files.with_errors_count, 1);
    ck_assert_str_eq(back.files.with_errors[0], "src/broken.cu");
    ck_assert_uint_eq(back.files.not_analyzed_count, 3);
    ck_assert_str_eq(back.files.not_analyzed[1].file, "src/kernel.cu");
    ck_assert_int_eq(back.files.not_analyzed[1].reason, SS_SKIP_INCLUDED);
    char *again = render(ss_report_write_json, &back);
    ck_assert_str_eq(again, text);
    free(again);
    ss_result_free(&back);

    /* Counts that disagree with the lists are refused. */
    const char *from = strstr(text, "\"total\":\t5");
    ck_assert_ptr_nonnull(from);
    char *bad = ss_xstrdup(text);
    bad[from - text + 9] = '6';
    FILE *out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fputs(bad, out);
    fclose(out);
    ck_assert_int_eq(ss_report_read_json(path, &back, err, sizeof err), -1);
    char *expected = ss_xasprintf(
        "%s: not a syncscope JSON result: summary.files: the counts do not agree with the lists "
        "(total 6, analyzed 2, withErrors 1, notAnalyzed 3; listed: 1 with errors, 3 not "
        "analyzed)",
        path);
    ck_assert_str_eq(err, expected);
    free(expected);
    ss_result_free(&back);
    free(bad);
    free(text);

    /* A run result: null. */
    ss_result run;
    ss_result_init(&run, SS_RESULT_RUN);
    text = render(ss_report_write_json, &run);
    root = cJSON_Parse(text);
    files = member_text(cJSON_GetObjectItem(root, "summary"), "files");
    ck_assert_str_eq(files, "null");
    free(files);
    cJSON_Delete(root);
    free(text);
    ss_result_free(&run);
    unlink(path);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_sarif_files)
{
    ss_result r;
    sample_counts(&r);
    ss_result_add_diag(&r, SS_SEV_NOTE, "src/empty.cu", 0, 0, "empty file: nothing to analyze");
    char *text = render(ss_report_write_sarif, &r);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
    char *files = member_text(cJSON_GetObjectItem(run, "properties"), "files");
    ck_assert_str_eq(files, sample_files_json);
    free(files);
    const cJSON *invocation = cJSON_GetArrayItem(cJSON_GetObjectItem(run, "invocations"), 0);
    char *notes = member_text(invocation, "toolExecutionNotifications");
    /* The diagnostic, then a warning per file with errors and a note per file left out (the
     * empty file's note is the diagnostic). */
    ck_assert_str_eq(
        notes,
        "[{\"level\":\"note\",\"message\":{\"text\":\"empty file: nothing to analyze.\"},"
        "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"src/empty.cu\","
        "\"uriBaseId\":\"%SRCROOT%\"}}}]},"
        "{\"level\":\"warning\",\"message\":{\"text\":\"analyzed with parse errors: findings in "
        "this file may be missing.\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
        "{\"uri\":\"src/broken.cu\",\"uriBaseId\":\"%SRCROOT%\"}}}]},"
        "{\"level\":\"note\",\"message\":{\"text\":\"not analyzed on its own: another source "
        "#includes it.\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
        "\"src/kernel.cu\",\"uriBaseId\":\"%SRCROOT%\"}}}]},"
        "{\"level\":\"note\",\"message\":{\"text\":\"not analyzed: an exclude pattern matches "
        "it.\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
        "\"src/vendor_x.cu\",\"uriBaseId\":\"%SRCROOT%\"}}}]}]");
    free(notes);
    cJSON_Delete(root);
    free(text);
    ss_result_free(&r);
}
END_TEST

static char work[64];

/* Writes 'text' to WORK/'name' (its folder made). */
static void put(const char *name, const char *text)
{
    char *path = ss_xasprintf("%s/%s", work, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
    FILE *out = fopen(path, "wb");
    ck_assert_ptr_nonnull(out);
    fputs(text, out);
    fclose(out);
    free(path);
}

/* Runs syncscope lint with 'argv' (NULL-terminated) in WORK; fills the captured stdout and
 * stderr (malloc'ed) and returns the exit status. */
static int lint(const char *const *argv, char **out, char **err)
{
    static const char *const lead[] = {"lint", "--cuda-path=none", "--no-cache", NULL};
    char *capture = ss_xasprintf("%s/", work);
    int status = cli_run(work, capture, NULL, lead, argv, out, err);
    free(capture);
    return status;
}

/* A folder walk over a small project: one source #included by another, one with a missing
 * header, an empty one, one excluded. */
static void make_project(void)
{
    snprintf(work, sizeof work, "/tmp/ss-check-file-counts-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(work));
    put("src/main.cu", "#include <cuda_runtime.h>\n"
                       "#include \"kernel.cu\"\n"
                       "void go(float *x) { scale<<<1, 32>>>(x); }\n");
    put("src/kernel.cu", "__global__ void scale(float *x) { x[threadIdx.x] *= 2; }\n");
    put("src/broken.cu", "#include <cuda_runtime.h>\n#include \"missing.h\"\n");
    put("src/empty.cu", "");
    put("src/vendor_x.cu", "int v;\n");
}

static void remove_project(void)
{
    char *cmd = ss_xasprintf("rm -rf '%s'", work);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

#define COUNTS_LINE                                                                                \
    "syncscope: 5 files, 2 analyzed, 1 with errors; not analyzed: 1 #included by other sources, "  \
    "1 excluded, 1 empty\n"
#define FIRST_ERRORS                                                                               \
    "syncscope:   src/broken.cu: first error: src/broken.cu:2:10: 'missing.h' file not found\n"

START_TEST(test_lint_counts_every_format)
{
    make_project();
    char *out, *err;
    const char *json[] = {"--exclude", "src/vendor_*", "--format", "json", "src", NULL};
    ck_assert_int_eq(lint(json, &out, &err), 2);
    ck_assert_str_eq(err, COUNTS_LINE FIRST_ERRORS);
    cJSON *root = cJSON_Parse(out);
    ck_assert_ptr_nonnull(root);
    char *files = member_text(cJSON_GetObjectItem(root, "summary"), "files");
    ck_assert_str_eq(files, sample_files_json);
    free(files);
    cJSON_Delete(root);
    free(out);
    free(err);

    const char *sarif[] = {"--exclude", "src/vendor_*", "--format", "sarif", "src", NULL};
    ck_assert_int_eq(lint(sarif, &out, &err), 2);
    ck_assert_str_eq(err, COUNTS_LINE FIRST_ERRORS);
    root = cJSON_Parse(out);
    ck_assert_ptr_nonnull(root);
    const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
    files = member_text(cJSON_GetObjectItem(run, "properties"), "files");
    ck_assert_str_eq(files, sample_files_json);
    free(files);
    const cJSON *invocation = cJSON_GetArrayItem(cJSON_GetObjectItem(run, "invocations"), 0);
    const cJSON *notes = cJSON_GetObjectItem(invocation, "toolExecutionNotifications");
    /* The empty file's note, the parse error, then the three notes on the files. */
    ck_assert_int_eq(cJSON_GetArraySize(notes), 5);
    const cJSON *broken = cJSON_GetArrayItem(notes, 2);
    ck_assert_str_eq(cJSON_GetObjectItem(broken, "level")->valuestring, "warning");
    ck_assert_str_eq(
        cJSON_GetObjectItem(cJSON_GetObjectItem(broken, "message"), "text")->valuestring,
        "analyzed with parse errors: findings in this file may be missing.");
    cJSON_Delete(root);
    free(out);
    free(err);

    /* Text to a file ends with the counts; to standard output they are on stderr only. */
    const char *text[] = {"--exclude", "src/vendor_*", "--color=never", "-o", "report.txt", "src",
                          NULL};
    ck_assert_int_eq(lint(text, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, COUNTS_LINE FIRST_ERRORS);
    free(out);
    free(err);
    char *path = ss_xasprintf("%s/report.txt", work);
    char *report = cli_slurp(path);
    free(path);
    const char *last = strstr(report, "1 note generated.\n");
    ck_assert_ptr_nonnull(last);
    ck_assert_str_eq(last, "1 note generated.\n" COUNTS_LINE);
    free(report);
    const char *to_stdout[] = {"--exclude", "src/vendor_*", "--color=never", "src", NULL};
    ck_assert_int_eq(lint(to_stdout, &out, &err), 2);
    ck_assert_ptr_null(strstr(out, "5 files"));
    ck_assert_str_eq(err, COUNTS_LINE FIRST_ERRORS);
    free(out);
    free(err);
    remove_project();
}
END_TEST

/* Named files with --fail-fast: the run ends at the first file with errors, and the files
 * after it are counted as not analyzed, whatever -j is. */
START_TEST(test_lint_counts_stopped)
{
    make_project();
    static const char *const jobs[] = {"-j1", "-j2"};
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        const char *argv[] = {jobs[i],         "--fail-fast", "--format", "json",
                              "src/broken.cu", "src/main.cu", NULL};
        char *out, *err;
        ck_assert_int_eq(lint(argv, &out, &err), 2);
        ck_assert_str_eq(err, "syncscope: 2 files, 1 analyzed, 1 with errors; not analyzed: 1 "
                              "after the first file with errors (--fail-fast)\n"
                              "syncscope:   src/broken.cu: first error: src/broken.cu:2:10: "
                              "'missing.h' file not found\n");
        cJSON *root = cJSON_Parse(out);
        ck_assert_ptr_nonnull(root);
        char *files = member_text(cJSON_GetObjectItem(root, "summary"), "files");
        ck_assert_str_eq(files, "{\"total\":2,\"analyzed\":1,\"withErrors\":1,\"notAnalyzed\":1,"
                                "\"filesWithErrors\":[{\"file\":\"src/broken.cu\"}],"
                                "\"filesNotAnalyzed\":[{\"file\":\"src/main.cu\",\"reason\":"
                                "\"stopped\"}]}");
        free(files);
        cJSON_Delete(root);
        free(out);
        free(err);
    }
    /* A clean run of one file: counted, nothing on stderr. */
    const char *one[] = {"--format", "json", "--fail-on=none", "src/main.cu", NULL};
    char *out, *err;
    ck_assert_int_eq(lint(one, &out, &err), 0);
    ck_assert_str_eq(err, "");
    cJSON *root = cJSON_Parse(out);
    char *files = member_text(cJSON_GetObjectItem(root, "summary"), "files");
    ck_assert_str_eq(files, "{\"total\":1,\"analyzed\":1,\"withErrors\":0,\"notAnalyzed\":0,"
                            "\"filesWithErrors\":[],\"filesNotAnalyzed\":[]}");
    free(files);
    cJSON_Delete(root);
    free(out);
    free(err);
    remove_project();
}
END_TEST

static Suite *file_counts_suite(void)
{
    Suite *s = suite_create("file_counts");
    TCase *writers = tcase_create("writers");
    tcase_add_test(writers, test_summary_line);
    tcase_add_test(writers, test_json_files);
    tcase_add_test(writers, test_sarif_files);
    suite_add_tcase(s, writers);
    TCase *cli = tcase_create("lint");
    tcase_set_timeout(cli, 120);
    tcase_add_test(cli, test_lint_counts_every_format);
    tcase_add_test(cli, test_lint_counts_stopped);
    suite_add_tcase(s, cli);
    return s;
}

SS_CHECK_MAIN(file_counts_suite)
