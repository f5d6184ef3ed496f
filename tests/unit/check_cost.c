/* check_cost.c: what a run finding's time figure means comes from its rule's cost column
 * (rules.def) in every writer: the text line, the JSON finding's "cost", SARIF's
 * properties.cost of each rule. */
#include "check_main.h"
#include "log.h"
#include "report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A run with one finding of each kind of cost: SYNC101 5 ms of GPU held back, SYNC301 2 ms of
 * host blocked, SYNC401 1 ms of explicit synchronization, SYNC502 3 ms of estimated saving. */
static void cost_run(ss_result *r)
{
    ss_result_init(r, SS_RESULT_RUN);
    static const struct {
        ss_rule_id rule;
        unsigned line;
        const char *api, *message;
        uint64_t total_ns, max_ns;
    } rows[] = {
        {SS_RULE_DEFAULT_STREAM_LAUNCH, 20, "cudaLaunchKernel", "kernel on the legacy stream",
         5000000, 600000},
        {SS_RULE_SCALAR_READBACK, 32, "cudaMemcpy", "4 bytes read back", 2000000, 250000},
        {SS_RULE_SYNC_IN_LOOP, 45, "cudaDeviceSynchronize", "synchronize in a loop", 1000000,
         100000},
        {SS_RULE_LAUNCH_BOUND, 50, "cudaLaunchKernel", "launch-bound loop", 3000000, 3000000},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        ss_finding *f = ss_result_add(r);
        f->rule = rows[i].rule;
        f->severity = ss_rules_get(rows[i].rule)->severity;
        f->origin = SS_ORIGIN_RUNTIME;
        f->file = ss_xstrdup("app.cu");
        f->line = rows[i].line;
        f->column = 5;
        f->message = ss_xstrdup(rows[i].message);
        f->evidence.count = 10;
        f->evidence.total_ns = rows[i].total_ns;
        f->evidence.max_ns = rows[i].max_ns;
        f->evidence.api = ss_xstrdup(rows[i].api);
        f->evidence.device = 0;
    }
}

/* Runs 'format' on 'r' into memory; returns the bytes (free them). */
static char *written(const ss_result *r, ss_format format)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
    ss_text_options options = {.color = 0, .show_source = 0};
    int rc = format == SS_FORMAT_TEXT    ? ss_report_write_text(out, r, &options)
             : format == SS_FORMAT_JSON  ? ss_report_write_json(out, r)
             : format == SS_FORMAT_SARIF ? ss_report_write_sarif(out, r)
                                         : -1;
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(fclose(out), 0);
    return text;
}

START_TEST(test_text)
{
    ss_result r;
    cost_run(&r);
    char *text = written(&r, SS_FORMAT_TEXT);
    ck_assert_str_eq(
        text, "app.cu:20:5: warning: kernel on the legacy stream [SYNC101 default-stream-launch]\n"
              "  observed: 10 times in cudaLaunchKernel, held other streams back 5.00 ms in total, "
              "0.60 ms at most, device 0\n"
              "app.cu:32:5: warning: 4 bytes read back [SYNC301 scalar-readback]\n"
              "  observed: 10 times in cudaMemcpy, blocked 2.00 ms in total, 0.25 ms at most, "
              "device 0\n"
              "app.cu:45:5: note: synchronize in a loop [SYNC401 sync-in-loop]\n"
              "  observed: 10 times in cudaDeviceSynchronize, blocked 1.00 ms in total, 0.10 ms at "
              "most, device 0\n"
              "app.cu:50:5: note: launch-bound loop [SYNC502 launch-bound]\n"
              "  observed: 10 times in cudaLaunchKernel, estimated saving 3.00 ms, device 0\n"
              "2 warnings and 2 notes generated.\n");
    free(text);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_json)
{
    ss_result r;
    cost_run(&r);
    char *text = written(&r, SS_FORMAT_JSON);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings");
    ck_assert_int_eq(cJSON_GetArraySize(findings), 4);
    static const char *const want[] = {"gpu-held", "host", "host-explicit", "saving"};
    for (int i = 0; i < 4; i++) {
        const cJSON *cost =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(findings, i), "cost");
        ck_assert(cJSON_IsString(cost));
        ck_assert_str_eq(cost->valuestring, want[i]);
    }
    /* The member as written, beside the rule's name. */
    ck_assert_ptr_nonnull(strstr(text, "\"ruleName\":\t\"scalar-readback\",\n"
                                       "\t\t\t\"cost\":\t\"host\",\n"));
    cJSON_Delete(root);
    free(text);
    /* Read back and written again: the same bytes (the cost comes from the rule). */
    char path[] = "/tmp/check_cost_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    ck_assert_int_eq(ss_report_write_json(out, &r), 0);
    ck_assert_int_eq(fclose(out), 0);
    ss_result back;
    char err[256];
    ck_assert_int_eq(ss_report_read_json(path, &back, err, sizeof err), 0);
    char *again = written(&back, SS_FORMAT_JSON);
    text = written(&r, SS_FORMAT_JSON);
    ck_assert_str_eq(again, text);
    free(again);
    free(text);
    unlink(path);
    ss_result_free(&back);
    ss_result_free(&r);
}
END_TEST

START_TEST(test_sarif)
{
    ss_result r;
    cost_run(&r);
    char *text = written(&r, SS_FORMAT_SARIF);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "runs"), 0), "tool"),
            "driver"),
        "rules");
    size_t count = 0;
    const ss_rule *all = ss_rules_all(&count);
    ck_assert_int_eq(cJSON_GetArraySize(rules), (int)count);
    for (size_t i = 0; i < count; i++) {
        const cJSON *rule = cJSON_GetArrayItem(rules, (int)i);
        ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(rule, "id")->valuestring, all[i].id);
        const cJSON *cost = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(rule, "properties"), "cost");
        ck_assert_msg(cJSON_IsString(cost), "%s: no properties.cost", all[i].id);
        ck_assert_str_eq(cost->valuestring, ss_cost_name(all[i].cost));
    }
    /* Spelled as in JSON: SYNC101's is "gpu-held", SYNC301's "host". */
    ck_assert_ptr_nonnull(
        strstr(text, "\"properties\":\t{\n\t\t\t\t\t\t\t\t\"cost\":\t\"gpu-held\""));
    cJSON_Delete(root);
    free(text);
    ss_result_free(&r);
}
END_TEST

static Suite *cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *writers = tcase_create("writers");
    tcase_add_test(writers, test_text);
    tcase_add_test(writers, test_json);
    tcase_add_test(writers, test_sarif);
    suite_add_tcase(s, writers);
    return s;
}

SS_CHECK_MAIN(cost_suite)
