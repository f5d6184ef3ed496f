/* trace.c: fuzzes the trace reader (ss_trace_read) and the trace writers over what it reads.
 * Invariant: a trace the reader accepts writes out as text that reads back and writes out
 * again byte for byte the same. */
#include "common.h"
#include "detect.h"
#include "evlog.h"

#include <stdlib.h>
#include <string.h>

/* 'log' in the trace format, malloc'ed ('len' bytes). */
static char *trace_text(const ss_event_log *log, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (out == NULL)
        ss_fuzz_fail("open_memstream failed");
    if (ss_trace_write(out, log) < 0)
        ss_fuzz_fail("ss_trace_write failed on a trace that was read");
    fclose(out);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    ss_event_log log;
    if (ss_trace_read(ss_fuzz_input_file(data, size), &log, err, sizeof err) < 0)
        return 0;
    if (ss_chrome_trace_write(ss_fuzz_sink(), &log) < 0)
        ss_fuzz_fail("ss_chrome_trace_write failed");
    size_t first_len = 0;
    char *first = trace_text(&log, &first_len);
    ss_evlog_free(&log);

    if (ss_trace_read(ss_fuzz_input_file(first, first_len), &log, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        ss_fuzz_fail("a trace written by ss_trace_write does not read back");
    }
    size_t second_len = 0;
    char *second = trace_text(&log, &second_len);
    ss_evlog_free(&log);
    if (first_len != second_len || memcmp(first, second, first_len) != 0)
        ss_fuzz_fail("a trace read back writes out differently");
    free(first);
    free(second);
    return 0;
}
