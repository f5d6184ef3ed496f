/* html.c: fuzzes the report writers over a parsed trace: the input is read as a trace; when it
 * reads, the detectors run over it and the HTML page (with the trace as its timeline) and the
 * text, JSON, SARIF, GitHub and GitLab results are written to /dev/null. Source excerpts may only
 * come from an empty folder given as the root. */
#include "common.h"
#include "detect.h"
#include "evlog.h"
#include "report.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    ss_event_log log;
    if (ss_trace_read(ss_fuzz_input_file(data, size), &log, err, sizeof err) < 0)
        return 0;
    ss_result result;
    ss_result_init(&result, SS_RESULT_RUN);
    ss_detect_options options;
    ss_detect_options_default(&options);
    if (ss_detect_run(&log, &options, &result) < 0)
        ss_fuzz_fail("ss_detect_run failed");
    ss_result_sort(&result);

    const ss_result *results[1] = {&result};
    const ss_event_log *traces[1] = {&log};
    const char *inputs[1] = {"input.sstrace"};
    ss_html_options html;
    memset(&html, 0, sizeof html);
    html.root = ss_fuzz_empty_dir();
    html.inputs = inputs;
    html.input_count = 1;
    html.traces = traces;
    html.generated_at = "2025-01-01 00:00 UTC";
    FILE *sink = ss_fuzz_sink();
    if (ss_report_write_html(sink, results, 1, &html) < 0)
        ss_fuzz_fail("ss_report_write_html failed");
    ss_text_options text;
    memset(&text, 0, sizeof text);
    /* Run findings in both forms: concise, and every frame and figure. */
    ss_text_options full = {.frames = SS_TEXT_ALL_FRAMES, .evidence = 1};
    if (ss_report_write_text(sink, &result, &text) < 0 ||
        ss_report_write_text(sink, &result, &full) < 0 || ss_report_write_json(sink, &result) < 0 ||
        ss_report_write_sarif(sink, &result) < 0 || ss_report_write_github(sink, &result) < 0 ||
        ss_report_write_gitlab(sink, &result) < 0)
        ss_fuzz_fail("a result writer failed");
    ss_result_free(&result);
    ss_evlog_free(&log);
    return 0;
}
