/* result_json.c: fuzzes the result-JSON reader (ss_report_read_json: the file reader and the
 * parser) and the writers over what it reads. Invariant: a result the reader accepts writes
 * out as JSON that reads back and writes out again byte for byte the same. */
#include "common.h"
#include "report.h"
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

/* 'result' as JSON, malloc'ed ('len' bytes). */
static char *json_text(const ss_result *result, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (out == NULL)
        ss_fuzz_fail("open_memstream failed");
    if (ss_report_write_json(out, result) < 0)
        ss_fuzz_fail("ss_report_write_json failed on a result that was read");
    fclose(out);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    ss_result result;
    if (ss_report_read_json(ss_fuzz_input_file(data, size), &result, err, sizeof err) < 0) {
        ss_result_free(&result);
        return 0;
    }
    FILE *sink = ss_fuzz_sink();
    ss_text_options text;
    memset(&text, 0, sizeof text);
    /* Run findings in both forms: concise, and every frame and figure. */
    ss_text_options full = {.frames = SS_TEXT_ALL_FRAMES, .evidence = 1};
    if (ss_report_write_text(sink, &result, &text) < 0 ||
        ss_report_write_text(sink, &result, &full) < 0 ||
        ss_report_write_sarif(sink, &result) < 0 || ss_report_write_github(sink, &result) < 0 ||
        ss_report_write_gitlab(sink, &result) < 0)
        ss_fuzz_fail("a result writer failed");
    const ss_result *results[1] = {&result};
    ss_html_options html;
    memset(&html, 0, sizeof html);
    html.root = ss_fuzz_empty_dir();
    html.generated_at = "2025-01-01 00:00 UTC";
    if (ss_report_write_html(sink, results, 1, &html) < 0)
        ss_fuzz_fail("ss_report_write_html failed");

    size_t first_len = 0;
    char *first = json_text(&result, &first_len);
    ss_result_free(&result);
    if (ss_report_read_json(ss_fuzz_input_file(first, first_len), &result, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        ss_fuzz_fail("a result written by ss_report_write_json does not read back");
    }
    size_t second_len = 0;
    char *second = json_text(&result, &second_len);
    ss_result_free(&result);
    if (first_len != second_len || memcmp(first, second, first_len) != 0)
        ss_fuzz_fail("a result read back writes out differently");
    free(first);
    free(second);
    return 0;
}
