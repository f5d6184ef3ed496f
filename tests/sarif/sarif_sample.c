/* sarif_sample.c: writes a SARIF log with a finding of every rule from each half that
 * detects it, for the SARIF validator test. Usage: sarif_sample OUT.sarif ROOT */
#include "log.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_static(ss_result *result, const char *root, const ss_rule *rule, unsigned line)
{
    ss_finding *f = ss_result_add(result);
    f->rule = rule->rule;
    f->severity = rule->severity;
    f->origin = SS_ORIGIN_STATIC;
    /* A file name with a space and a non-ASCII letter: URIs must be percent-encoded. */
    f->file = ss_xasprintf("%s/src/pipeline stage%s.cu", root, line % 2 ? "" : "\xc3\xa9");
    f->line = line;
    f->column = 5;
    f->function = ss_xstrdup("run_pipeline");
    f->message = ss_xasprintf("%s in 'run_pipeline': %s", rule->name, rule->summary);
    if (rule->rule == SS_RULE_DEFAULT_STREAM_LAUNCH)
        f->hint = ss_xstrdup("launch on at::cuda::getCurrentCUDAStream()");
    f->line_text = ss_xstrdup("\tstep<<<grid, block>>>(d_buf, n);   // 100% of the time");
    /* A fix-it (SARIF 'fixes'), as lint gives SYNC103. */
    if (rule->rule == SS_RULE_BLOCKING_STREAM_CREATE)
        ss_finding_add_fixit(f, line, 2, 22, "step<<<grid, block, 0, stream>>>");
}

static void add_runtime(ss_result *result, const char *root, const ss_rule *rule, unsigned line)
{
    ss_finding *f = ss_result_add(result);
    f->rule = rule->rule;
    f->severity = rule->severity;
    f->origin = SS_ORIGIN_RUNTIME;
    f->file = ss_xasprintf("%s/app/main.cu", root);
    f->line = line;
    f->column = 9;
    f->function = ss_xstrdup("train_step");
    f->message = ss_xasprintf("%s observed", rule->name);
    f->line_text = ss_xstrdup("        cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);");
    f->evidence.count = 12;
    f->evidence.total_ns = 26400000;
    f->evidence.max_ns = 2200000;
    f->evidence.bytes = 201326592;
    f->evidence.api = ss_xstrdup("cudaMemcpyAsync");
    f->evidence.direction = ss_xstrdup("DtoH");
    f->evidence.host_kind = ss_xstrdup("pageable");
    f->evidence.waited_for = ss_xstrdup("a kernel on stream 13 (0.3 ms)");
    f->evidence.stream = ss_xstrdup("stream 13");
    f->evidence.device = 0;
    ss_finding_add_extra(f, "predicted", "SYNC201 at app/main.cu:42");
    f->frame_count = 3;
    f->frames = calloc(3, sizeof *f->frames);
    f->frames[0].pc = 0x7f0011223344ULL;
    f->frames[0].function = ss_xstrdup("cudaMemcpyAsync");
    f->frames[0].module = ss_xstrdup("/usr/local/cuda/lib64/libcudart.so.13");
    f->frames[1].pc = 0x401a2b;
    f->frames[1].function = ss_xstrdup("train_step");
    f->frames[1].file = ss_xasprintf("%s/app/main.cu", root);
    f->frames[1].line = line;
    f->frames[1].module = ss_xstrdup("/opt/app/bin/train");
    f->frames[2].function = ss_xstrdup("<module>");
    f->frames[2].file = ss_xstrdup("/opt/venv/lib/python3.12/site-packages/train.py");
    f->frames[2].line = 7;
    f->frames[2].is_python = 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sarif_sample OUT.sarif ROOT\n");
        return 2;
    }
    ss_result result;
    ss_result_init(&result, SS_RESULT_RUN);
    result.root = ss_xstrdup(argv[2]);
    result.program = ss_xstrdup("./train");
    result.command_line = ss_xstrdup("./train --epochs 1");
    result.hostname = ss_xstrdup("gpu-node-1");
    result.pid = 4242;
    result.gpu = ss_xstrdup("NVIDIA H200");
    result.driver = ss_xstrdup("580.65.06");
    result.wall_ns = 5000000000ULL;
    result.blocked_ns = 26400000;
    result.gpu_busy_ns = 3100000000ULL;
    result.events = 100000;
    result.dropped = 3;
    result.started_at = ss_xstrdup("2025-01-01T12:00:00Z");
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    for (size_t i = 0; i < n; i++) {
        if (rules[i].halves & SS_HALF_STATIC)
            add_static(&result, argv[2], &rules[i], (unsigned)(10 + i));
        if (rules[i].halves & SS_HALF_RUNTIME)
            add_runtime(&result, argv[2], &rules[i], (unsigned)(40 + i));
    }
    /* Run findings without a source line of their own: one placed on its stack, one with
     * no source at all (SARIF for GitHub still needs a location). */
    ss_finding *f = &result.findings[result.count - 1];
    free(f->file);
    f->file = NULL;
    free(f->line_text);
    f->line_text = NULL;
    f = ss_result_add(&result);
    f->rule = SS_RULE_LAUNCH_BOUND;
    f->severity = SS_SEV_NOTE;
    f->origin = SS_ORIGIN_RUNTIME;
    f->message = ss_xstrdup("GPU idle 61% of the time between 4000 kernels of 3 us");
    f->evidence.count = 4000;
    f->evidence.total_ns = 18000000;
    f->evidence.max_ns = 9000;
    char *header = ss_xasprintf("%s/include/missing.h", argv[2]);
    ss_result_add_diag(&result, SS_SEV_ERROR, header, 3, 10,
                       "'thrust/device_vector.h' file not found");
    ss_result_add_diag(&result, SS_SEV_WARNING, NULL, 0, 0,
                       "3 events were dropped past the memory cap");
    free(header);
    int rc = ss_report_write(argv[1], SS_FORMAT_SARIF, &result, NULL);
    ss_result_free(&result);
    return rc == 0 ? 0 : 1;
}
