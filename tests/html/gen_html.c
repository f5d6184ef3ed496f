/* gen_html.c: builds the HTML report test inputs (lint and run results, event logs) in
 * memory and writes the pages the browser tests load, plus the same inputs as files where
 * the JSON and trace writers exist. Usage: gen_html OUT_DIR FIXTURE_DIR [SCENARIO...]. */
#include "detect.h"
#include "evlog.h"
#include "log.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *out_dir;
static const char *fixture_dir;

/* A fixed date keeps the pages byte-for-byte reproducible. */
#define GENERATED_AT "2025-01-01T00:00:00Z"

static ss_finding *add_finding(ss_result *r, ss_rule_id rule, const char *file, unsigned line,
                               const char *function, const char *message)
{
    ss_finding *f = ss_result_add(r);
    f->rule = rule;
    f->severity = ss_rules_get(rule)->severity;
    f->origin = r->kind == SS_RESULT_RUN ? SS_ORIGIN_RUNTIME : SS_ORIGIN_STATIC;
    f->file = ss_xstrdup(file);
    f->line = line;
    f->column = 5;
    f->function = ss_xstrdup(function);
    f->message = ss_xstrdup(message);
    return f;
}

static void set_evidence(ss_finding *f, const char *api, uint64_t count, uint64_t total_ns,
                         uint64_t max_ns, uint64_t bytes, const char *waited_for)
{
    f->evidence.api = ss_xstrdup(api);
    f->evidence.count = count;
    f->evidence.total_ns = total_ns;
    f->evidence.max_ns = max_ns;
    f->evidence.bytes = bytes;
    f->evidence.waited_for = ss_xstrdup(waited_for);
    f->evidence.device = 0;
}

static void add_frames(ss_finding *f, const char *function, const char *file, unsigned line)
{
    f->frames = calloc(2, sizeof *f->frames);
    if (f->frames == NULL)
        abort();
    f->frames[0].function = ss_xstrdup(f->evidence.api ? f->evidence.api : "cudaMemcpyAsync");
    f->frames[0].module = ss_xstrdup("/usr/local/cuda/lib64/libcudart.so.13");
    f->frames[0].pc = 0x7f0000001000;
    f->frames[1].function = ss_xstrdup(function);
    f->frames[1].file = ss_xstrdup(file);
    f->frames[1].line = line;
    f->frames[1].module = ss_xstrdup("/opt/app/bin/app");
    f->frames[1].pc = 0x401234;
    f->frame_count = 2;
}

static void run_meta(ss_result *r, const char *program, int rank, uint64_t wall_ns,
                     uint64_t blocked_ns, uint64_t busy_ns)
{
    r->program = ss_xstrdup(program);
    r->command_line = ss_xasprintf("%s --iterations 100", program);
    r->hostname = ss_xstrdup("gpu-node-01");
    r->pid = 4242 + rank;
    r->rank = rank;
    r->gpu = ss_xstrdup("NVIDIA H200");
    r->driver = ss_xstrdup("580.65.06");
    r->cuda = ss_xstrdup("13.0");
    r->cuda_runtime = ss_xstrdup(rank == 1 ? "13.0" : "12.8");
    r->wall_ns = wall_ns;
    r->blocked_ns = blocked_ns;
    r->gpu_busy_ns = busy_ns;
    r->started_at = ss_xstrdup("2025-01-01T00:00:00Z");
}

/* ---- event logs ---- */

static uint32_t next_correlation = 1;

static uint32_t add_stack(ss_event_log *log, const char *api, const char *function,
                          const char *file, unsigned line)
{
    ss_stack_frame frames[2];
    memset(frames, 0, sizeof frames);
    frames[0].pc = 0x7f0000001000;
    frames[0].function = ss_evlog_intern(log, api);
    frames[0].module = ss_evlog_intern(log, "/usr/local/cuda/lib64/libcudart.so.13");
    frames[1].pc = 0x401234 + line;
    frames[1].function = ss_evlog_intern(log, function);
    frames[1].file = ss_evlog_intern(log, file);
    frames[1].line = line;
    frames[1].module = ss_evlog_intern(log, "/opt/app/bin/app");
    return ss_evlog_add_stack(log, frames, 2);
}

/* Appends an API call and returns its correlation id. */
static uint32_t add_api(ss_event_log *log, uint32_t thread, const char *name, uint64_t enter,
                        uint64_t exit_ns, uint64_t stream, uint32_t stream_id, uint64_t bytes,
                        uint32_t stack)
{
    ss_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SS_EV_API;
    ev.u.api.enter_ns = enter;
    ev.u.api.exit_ns = exit_ns;
    ev.u.api.stream = stream;
    ev.u.api.stream_id = stream_id;
    ev.u.api.bytes = bytes;
    ev.u.api.correlation = next_correlation++;
    ev.u.api.thread = thread;
    ev.u.api.stack = stack;
    ev.u.api.name = ss_evlog_intern(log, name);
    ev.u.api.device = 0;
    ev.u.api.copy_kind = -1;
    const ss_api *row = ss_api_find(name);
    ev.u.api.api = (uint16_t)(row ? row->api : SS_API_COUNT);
    if (ss_evlog_append(log, &ev) < 0)
        abort();
    return ev.u.api.correlation;
}

static void add_gpu(ss_event_log *log, ss_event_type type, uint32_t stream_id, uint64_t start,
                    uint64_t end, const char *name, ss_copy_kind copy, uint64_t bytes,
                    uint32_t correlation)
{
    ss_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.u.gpu.start_ns = start;
    ev.u.gpu.end_ns = end;
    ev.u.gpu.bytes = bytes;
    ev.u.gpu.correlation = correlation;
    ev.u.gpu.stream_id = stream_id;
    ev.u.gpu.context = 1;
    ev.u.gpu.name = name ? ss_evlog_intern(log, name) : 0;
    ev.u.gpu.device = 0;
    ev.u.gpu.copy_kind = (uint8_t)copy;
    ev.u.gpu.src_kind = copy == SS_COPY_HTOD ? SS_MEM_PAGEABLE : SS_MEM_DEVICE;
    ev.u.gpu.dst_kind = copy == SS_COPY_DTOH ? SS_MEM_PAGEABLE : SS_MEM_DEVICE;
    if (ss_evlog_append(log, &ev) < 0)
        abort();
}

static void add_stream(ss_event_log *log, uint64_t handle, uint32_t stream_id, uint32_t flags)
{
    ss_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = SS_EV_STREAM;
    ev.u.stream.handle = handle;
    ev.u.stream.stream_id = stream_id;
    ev.u.stream.flags = flags;
    ev.u.stream.context = 1;
    if (ss_evlog_append(log, &ev) < 0)
        abort();
}

enum { LEGACY = 7, BLOCKING = 13, NONBLOCKING = 14 };

/* The small program of fixtures/app.cu, 'iterations' times: host threads 1 and 2, streams 7
 * (legacy default), 13 (blocking) and 14 (non-blocking): five lanes. 'kernel' names the
 * kernel of thread 2 (the adversarial scenario passes a hostile one). */
static void small_trace(ss_event_log *log, const char *src, int iterations, const char *kernel)
{
    add_stream(log, 0x5000, BLOCKING, 0);
    add_stream(log, 0x6000, NONBLOCKING, SS_STREAM_FLAG_NON_BLOCKING);
    uint32_t st_copy = add_stack(log, "cudaMemcpyAsync", "step", src, 12);
    uint32_t st_launch = add_stack(log, "cudaLaunchKernel", "launch", src, 20);
    uint32_t st_read = add_stack(log, "cudaMemcpy", "readback", src, 32);
    uint32_t st_free = add_stack(log, "cudaFree", "main", src, 51);
    uint32_t st_sync = add_stack(log, "cudaDeviceSynchronize", "main", src, 45);
    uint64_t t = 1000000000ULL;
    for (int it = 0; it < iterations; it++) {
        add_api(log, 1, "cudaDeviceSynchronize", t, t + 60000, 0, 0, 0, st_sync);
        t += 61000;
        for (int c = 0; c < 10; c++) {
            uint32_t corr = add_api(log, 1, "cudaMemcpyAsync", t, t + 30000, 0x5000, BLOCKING,
                                    1 << 20, st_copy);
            add_gpu(log, SS_EV_MEMCPY, BLOCKING, t + 2000, t + 28000, NULL, SS_COPY_HTOD, 1 << 20,
                    corr);
            t += 31000;
        }
        for (int k = 0; k < 4; k++) {
            uint32_t corr =
                add_api(log, 1, "cudaLaunchKernel", t, t + 4000, 0, LEGACY, 0, st_launch);
            add_gpu(log, SS_EV_KERNEL, LEGACY, t + 5000, t + 25000, "scale(float*, int)",
                    SS_COPY_UNKNOWN, 0, corr);
            t += 26000;
        }
        uint32_t corr = add_api(log, 1, "cudaMemcpy", t, t + 45000, 0, LEGACY, 4, st_read);
        add_gpu(log, SS_EV_MEMCPY, LEGACY, t + 40000, t + 42000, NULL, SS_COPY_DTOH, 4, corr);
        t += 46000;
        add_api(log, 1, "cudaMalloc", t, t + 3000, 0, 0, 64, 0);
        t += 3500;
        add_api(log, 1, "cudaFree", t, t + 25000, 0, 0, 0, st_free);
        t += 26000;
        /* Thread 2 feeds the non-blocking stream meanwhile. */
        uint64_t t2 = t - 200000;
        for (int k = 0; k < 3; k++) {
            uint32_t c2 =
                add_api(log, 2, "cudaLaunchKernel", t2, t2 + 5000, 0x6000, NONBLOCKING, 0, 0);
            add_gpu(log, SS_EV_KERNEL, NONBLOCKING, t2 + 6000, t2 + 50000, kernel, SS_COPY_UNKNOWN,
                    0, c2);
            t2 += 60000;
        }
        add_gpu(log, SS_EV_MEMSET, BLOCKING, t - 10000, t - 8000, NULL, SS_COPY_UNKNOWN, 4096, 0);
    }
    ss_evlog_set_meta(log, "program", "./app");
}

/* ---- results ---- */

/* Lint findings of fixtures/app.cu (paths relative to the root, as lint prints them). */
static void small_lint(ss_result *r)
{
    r->root = ss_xstrdup(fixture_dir);
    add_finding(r, SS_RULE_PAGEABLE_ASYNC_COPY, "app.cu", 12, "step",
                "cudaMemcpyAsync copies from pageable memory 'h' (malloc) in function 'step'");
    add_finding(r, SS_RULE_DEFAULT_STREAM_LAUNCH, "app.cu", 20, "launch",
                "kernel 'scale' is launched on the legacy default stream in function 'launch'");
    add_finding(r, SS_RULE_SCALAR_READBACK, "app.cu", 32, "readback",
                "cudaMemcpy reads back 4 bytes (one value) to the host in function 'readback'");
    add_finding(r, SS_RULE_BLOCKING_STREAM_CREATE, "app.cu", 41, "main",
                "cudaStreamCreate creates a blocking stream in function 'main'");
    add_finding(r, SS_RULE_SYNC_IN_LOOP, "app.cu", 45, "main",
                "cudaDeviceSynchronize inside a loop that launches kernels in function 'main'");
    ss_result_add_diag(r, SS_SEV_NOTE, "app.cu", 0, 0, "parsed with 0 errors");
}

/* Run findings of the same program: three sites lint predicted (one through a path of the
 * build machine), a cudaFree lint did not flag, and a second rule on line 12. 'scale' (1 or
 * 2) multiplies the costs so that two ranks differ. */
static void small_run(ss_result *r, int rank, uint64_t scale)
{
    char *abs_dot = ss_xasprintf("%s/./app.cu", fixture_dir);
    char *abs = ss_xasprintf("%s/app.cu", fixture_dir);
    run_meta(r, "./app", rank, 250000000ULL * scale, 83000000ULL * scale, 120000000ULL * scale);
    ss_finding *f = add_finding(r, SS_RULE_PAGEABLE_ASYNC_COPY, abs, 12, "step",
                                "cudaMemcpyAsync from pageable memory blocked the host");
    set_evidence(f, "cudaMemcpyAsync", 1000, 30000000ULL * scale, 31000, 1048576000ULL,
                 "earlier work on stream 13");
    f->evidence.direction = ss_xstrdup("HtoD");
    f->evidence.host_kind = ss_xstrdup("pageable");
    f->evidence.stream = ss_xstrdup("stream 13 (blocking)");
    add_frames(f, "step", abs, 12);
    f = add_finding(r, SS_RULE_DEFAULT_STREAM_LAUNCH, abs_dot, 20, "launch",
                    "kernel 'scale' on the legacy default stream held back stream 13");
    set_evidence(f, "cudaLaunchKernel", 400, 8000000ULL * scale, 26000, 0,
                 "all work on blocking streams");
    f->evidence.stream = ss_xstrdup("legacy default stream (7)");
    add_frames(f, "launch", abs_dot, 20);
    f = add_finding(r, SS_RULE_SCALAR_READBACK, "/builds/ci/proj/app.cu", 32, "readback",
                    "cudaMemcpy read back 4 bytes and blocked the host");
    set_evidence(f, "cudaMemcpy", 100, 4500000ULL * scale, 46000, 400,
                 "4 kernels on the legacy default stream");
    f->evidence.direction = ss_xstrdup("DtoH");
    f->evidence.host_kind = ss_xstrdup("pageable");
    add_frames(f, "readback", "/builds/ci/proj/app.cu", 32);
    f = add_finding(r, SS_RULE_DEVICE_WIDE_SYNC_CALL, abs, 51, "main",
                    "cudaFree blocked the host while device work was pending");
    set_evidence(f, "cudaFree", 100, 2500000ULL * scale, 25000, 0, "all work on the device");
    add_frames(f, "main", abs, 51);
    f = add_finding(r, SS_RULE_DEFAULT_STREAM_ASYNC_CALL, abs, 12, "step",
                    "cudaMemcpyAsync on the legacy default stream");
    set_evidence(f, "cudaMemcpyAsync", 10, 100000ULL * scale, 12000, 10485760, NULL);
    ss_result_sort(r);
    free(abs_dot);
    free(abs);
}

static int write_page(const char *name, const ss_result *const *results, size_t n,
                      const ss_event_log *const *traces, const char *root, const char *title)
{
    char *path = ss_xasprintf("%s/%s.html", out_dir, name);
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        ss_log_error("cannot write '%s': %s", path, strerror(errno));
        free(path);
        return -1;
    }
    const char *inputs[4] = {"lint.json", "run.json", "run-rank1.json", "extra.json"};
    ss_html_options opt;
    memset(&opt, 0, sizeof opt);
    opt.title = title;
    opt.root = root;
    opt.inputs = inputs;
    opt.input_count = n < 4 ? n : 4;
    opt.traces = traces;
    opt.generated_at = GENERATED_AT;
    int rc = ss_report_write_html(out, results, n, &opt);
    if (fclose(out) != 0)
        rc = -1;
    if (rc != 0)
        ss_log_error("writing '%s' failed", path);
    free(path);
    return rc;
}

/* Writes 'result' as JSON, or 'log' as a trace, to OUT_DIR/'name'. Returns 0 or -1. */
static int write_input(const char *name, const ss_result *result, const ss_event_log *log)
{
    char *path = ss_xasprintf("%s/%s", out_dir, name);
    FILE *out = fopen(path, "w");
    int rc = -1;
    if (out != NULL) {
        rc = result ? ss_report_write_json(out, result) : ss_trace_write(out, log);
        if (fclose(out) != 0)
            rc = -1;
    }
    if (rc != 0)
        ss_log_error("cannot write '%s'", path);
    free(path);
    return rc;
}

static int scenario_small(const char *name)
{
    char *src = ss_xasprintf("%s/app.cu", fixture_dir);
    ss_result lint, run0, run1;
    ss_event_log log0, log1;
    ss_result_init(&lint, SS_RESULT_LINT);
    ss_result_init(&run0, SS_RESULT_RUN);
    ss_result_init(&run1, SS_RESULT_RUN);
    if (ss_evlog_init(&log0) < 0 || ss_evlog_init(&log1) < 0)
        abort();
    small_lint(&lint);
    int rc = 0;
    if (strcmp(name, "lint") == 0) {
        const ss_result *rs[] = {&lint};
        rc = write_page(name, rs, 1, NULL, fixture_dir, "app.cu lint");
    } else {
        small_run(&run0, strcmp(name, "multi") == 0 ? 0 : -1, 1);
        small_trace(&log0, src, 100, "scale(float*, int)");
        if (strcmp(name, "run") == 0) {
            /* A stream created and never used (a framework's stream pool): an empty lane. And
             * a readback that waited for a kernel with a long demangled name. */
            add_stream(&log0, 0x9000, 21, SS_STREAM_FLAG_NON_BLOCKING);
            for (size_t i = 0; i < run0.count; i++) {
                ss_finding *f = &run0.findings[i];
                if (f->rule != SS_RULE_SCALAR_READBACK)
                    continue;
                free(f->evidence.waited_for);
                f->evidence.waited_for =
                    ss_xstrdup("kernel 'void scale<float, 4>(float*, int)' on stream 7 (400 times, "
                               "8.00 ms), kernel 'sum' on stream 7 (4.0 us)");
                free(f->frames[1].function);
                f->frames[1].function = ss_xstrdup("readback(float const*, unsigned long)");
                /* Called from Python: its line, then the interpreter's own frame. */
                f->frames = ss_xreallocarray(f->frames, 4, sizeof *f->frames);
                memset(&f->frames[2], 0, 2 * sizeof *f->frames);
                f->frames[2].function = ss_xstrdup("step");
                f->frames[2].file = ss_xstrdup("train.py");
                f->frames[2].line = 9;
                f->frames[2].is_python = 1;
                f->frames[3].function = ss_xstrdup("_PyEval_EvalFrameDefault");
                f->frames[3].module = ss_xstrdup("/usr/bin/python3.12");
                f->frames[3].pc = 0x54caed;
                f->frame_count = 4;
            }
            const ss_result *rs[] = {&run0};
            const ss_event_log *ts[] = {&log0};
            rc = write_page(name, rs, 1, ts, fixture_dir, "./app --iterations 100");
        } else if (strcmp(name, "joined") == 0) {
            const ss_result *rs[] = {&lint, &run0};
            const ss_event_log *ts[] = {NULL, &log0};
            rc = write_page(name, rs, 2, ts, fixture_dir, "app: lint and run");
            /* The same inputs as files, for `syncscope report` (the trace beside the JSON). */
            if (rc == 0)
                rc = write_input("cli-lint.json", &lint, NULL);
            if (rc == 0)
                rc = write_input("cli-run.json", &run0, NULL);
            if (rc == 0)
                rc = write_input("cli-run.sstrace", NULL, &log0);
        } else {
            small_run(&run1, 1, 2);
            small_trace(&log1, src, 60, "scale(float*, int)");
            const ss_result *rs[] = {&lint, &run0, &run1};
            const ss_event_log *ts[] = {NULL, &log0, &log1};
            rc = write_page(name, rs, 3, ts, fixture_dir, "app: two ranks");
        }
    }
    ss_result_free(&lint);
    ss_result_free(&run0);
    ss_result_free(&run1);
    ss_evlog_free(&log0);
    ss_evlog_free(&log1);
    free(src);
    return rc;
}

/* One process driving two GPUs whose streams have the same CUPTI id (13): the timeline must
 * draw them as two lanes, one per device. */
static int scenario_twodev(void)
{
    ss_result run;
    ss_event_log log;
    ss_result_init(&run, SS_RESULT_RUN);
    if (ss_evlog_init(&log) < 0)
        abort();
    run_meta(&run, "./twodev", -1, 10000000ULL, 0, 4000000ULL);
    for (int device = 0; device < 2; device++) {
        for (int k = 0; k < 3; k++) {
            uint64_t t = 1000000ULL * (uint64_t)k + 100000ULL * (uint64_t)device;
            uint32_t corr =
                add_api(&log, 1, "cudaLaunchKernel", t, t + 5000, 0x5000 + device, 13, 0, 0);
            log.events[log.count - 1].u.api.device = device;
            add_gpu(&log, SS_EV_KERNEL, 13, t + 10000, t + 400000, "work", SS_COPY_UNKNOWN, 0,
                    corr);
            log.events[log.count - 1].u.gpu.device = device;
            log.events[log.count - 1].u.gpu.context = (uint32_t)device + 1;
        }
    }
    const ss_result *rs[] = {&run};
    const ss_event_log *ts[] = {&log};
    int rc = write_page("twodev", rs, 1, ts, fixture_dir, "./twodev");
    ss_result_free(&run);
    ss_evlog_free(&log);
    return rc;
}

/* What a finding's time means comes from its rule's cost column: a run with a SYNC101 finding
 * of 5 ms (GPU time held back), a SYNC301 finding of 2 ms (host blocked) and a latent SYNC202
 * note of 0.5 ms (in no total). Its blocked_ns
 * is deliberately the sum of both, 7 ms: the page totals time by cost from the findings. The
 * trace starts with a cudaMalloc of 150 ms before any GPU work (context creation) and has a
 * later cudaMalloc of 20 ms while a kernel runs (host blocked). */
static int scenario_cost(void)
{
    char *src = ss_xasprintf("%s/app.cu", fixture_dir);
    ss_result run;
    ss_event_log log;
    ss_result_init(&run, SS_RESULT_RUN);
    if (ss_evlog_init(&log) < 0)
        abort();
    run_meta(&run, "./app", -1, 200000000ULL, 7000000ULL, 50000000ULL);
    ss_finding *f = add_finding(&run, SS_RULE_DEFAULT_STREAM_LAUNCH, src, 20, "launch",
                                "kernel 'scale' on the legacy default stream held back stream 13");
    set_evidence(f, "cudaLaunchKernel", 10, 5000000ULL, 600000ULL, 0,
                 "all work on blocking streams");
    add_frames(f, "launch", src, 20);
    f = add_finding(&run, SS_RULE_SCALAR_READBACK, src, 32, "readback",
                    "cudaMemcpy read back 4 bytes and blocked the host");
    set_evidence(f, "cudaMemcpy", 10, 2000000ULL, 250000ULL, 40, "a kernel on the legacy stream");
    add_frames(f, "readback", src, 32);
    /* A latent note (it synchronized, blocking less than the threshold): in no total. */
    f = add_finding(&run, SS_RULE_SYNC_COPY_IN_PIPELINE, src, 40, "main",
                    "latent: synchronized 5 times, blocked 0.5 ms this run: cudaMemcpy");
    set_evidence(f, "cudaMemcpy", 5, 500000ULL, 100000ULL, 20, NULL);
    f->severity = SS_SEV_NOTE;
    f->latent = 1;
    ss_result_sort(&run);

    uint32_t st_launch = add_stack(&log, "cudaLaunchKernel", "launch", src, 20);
    uint32_t st_read = add_stack(&log, "cudaMemcpy", "readback", src, 32);
    add_stream(&log, 0x5000, BLOCKING, 0);
    uint64_t t = 1000000000ULL;
    add_api(&log, 1, "cudaMalloc", t, t + 150000000ULL, 0, 0, 1 << 20, 0);
    t += 150100000ULL;
    for (int it = 0; it < 10; it++) {
        uint32_t corr = add_api(&log, 1, "cudaLaunchKernel", t, t + 5000, 0, LEGACY, 0, st_launch);
        add_gpu(&log, SS_EV_KERNEL, LEGACY, t + 6000, t + 206000, "scale(float*, int)",
                SS_COPY_UNKNOWN, 0, corr);
        corr = add_api(&log, 1, "cudaMemcpy", t + 7000, t + 207000, 0, LEGACY, 4, st_read);
        add_gpu(&log, SS_EV_MEMCPY, LEGACY, t + 206500, t + 206800, NULL, SS_COPY_DTOH, 4, corr);
        t += 300000;
    }
    uint32_t corr = add_api(&log, 1, "cudaLaunchKernel", t, t + 5000, 0x5000, BLOCKING, 0, 0);
    add_gpu(&log, SS_EV_KERNEL, BLOCKING, t + 6000, t + 20006000ULL, "long(float*)",
            SS_COPY_UNKNOWN, 0, corr);
    add_api(&log, 1, "cudaMalloc", t + 10000, t + 20010000ULL, 0, 0, 1 << 20, 0);
    ss_evlog_set_meta(&log, "program", "./app");
    const ss_result *rs[] = {&run};
    const ss_event_log *ts[] = {&log};
    int rc = write_page("cost", rs, 1, ts, fixture_dir, "./app: cost");
    ss_result_free(&run);
    ss_evlog_free(&log);
    free(src);
    return rc;
}

/* Strings a hostile program, path or source could carry. Each would set window.__pwned if
 * the page ever treated it as markup or code. */
static const char *const hostile[] = {
    "<script>window.__pwned=1</script>",
    "\"><img src=x onerror=\"window.__pwned=1\">",
    "</style><script>window.__pwned=1</script><style>",
    "javascript:window.__pwned=1",
    "</script><script>window.__pwned=1</script>",
    "'; window.__pwned=1; '",
    "\xe2\x80\xa8\xe2\x80\xa9 line separators \xe2\x80\xa8",
    "invalid \xff\xfe utf-8 \xc3",
    "&lt;b&gt;entity&lt;/b&gt; & <!-- comment -->",
};

static int scenario_adversarial(void)
{
    /* A source file whose lines are hostile too. */
    char *dir = ss_xasprintf("%s/adv-src", out_dir);
    mkdir(dir, 0777);
    char *src = ss_xasprintf("%s/<script>window.__pwned=1<!--.cu", dir);
    FILE *f = fopen(src, "w");
    if (f == NULL) {
        ss_log_error("cannot write '%s'", src);
        free(dir);
        free(src);
        return -1;
    }
    fputs("// line 1\n</script><script>window.__pwned=1</script>\n"
          "const char *s = \"</style><img src=x onerror=window.__pwned=1>\";\n"
          "cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, 0); // javascript:alert(1)\n"
          "\xe2\x80\xa8 // U+2028\n",
          f);
    fclose(f);

    /* A long string of astral and combining characters. */
    size_t long_len = 0;
    char *long_text = calloc(40001, 1);
    if (long_text == NULL)
        abort();
    while (long_len + 8 < 40000) {
        memcpy(long_text + long_len, "\xf0\x9d\x95\x8a\xc3\xbf\xcc\x81", 8);
        long_len += 8;
    }

    ss_result lint, run;
    ss_event_log log;
    ss_result_init(&lint, SS_RESULT_LINT);
    ss_result_init(&run, SS_RESULT_RUN);
    if (ss_evlog_init(&log) < 0)
        abort();
    lint.root = ss_xstrdup(dir);
    size_t nh = sizeof hostile / sizeof hostile[0];
    for (size_t i = 0; i < nh; i++) {
        ss_finding *x = add_finding(&lint, SS_RULE_PAGEABLE_ASYNC_COPY, src, 4, hostile[i],
                                    hostile[(i + 1) % nh]);
        x->hint = ss_xstrdup(hostile[(i + 2) % nh]);
        x->line_text = ss_xstrdup(hostile[(i + 3) % nh]);
        x->column = (unsigned)i + 1;
    }
    ss_finding *x =
        add_finding(&lint, SS_RULE_SCALAR_READBACK, hostile[0], 2, long_text, long_text);
    (void)x;
    run_meta(&run, hostile[0], -1, 1000000000ULL, 1000ULL, 2000ULL);
    free(run.gpu);
    run.gpu = ss_xstrdup(hostile[1]);
    free(run.driver);
    run.driver = ss_xstrdup(hostile[3]);
    free(run.command_line);
    run.command_line = ss_xstrdup(hostile[4]);
    for (size_t i = 0; i < nh; i++) {
        ss_finding *y = add_finding(&run, SS_RULE_PAGEABLE_ASYNC_COPY, src, 4, hostile[i],
                                    hostile[(i + 4) % nh]);
        set_evidence(y, hostile[(i + 5) % nh], 1, 1000, 1000, 8, hostile[(i + 6) % nh]);
        y->evidence.stream = ss_xstrdup(hostile[(i + 7) % nh]);
        add_frames(y, hostile[(i + 8) % nh], hostile[i], 4);
        ss_finding_add_extra(y, hostile[i], hostile[(i + 1) % nh]);
    }
    ss_result_add_diag(&run, SS_SEV_WARNING, hostile[2], 3, 1, hostile[4]);
    small_trace(&log, src, 3, hostile[0]);
    add_api(&log, 1, hostile[4], 1000000000ULL + 50, 1000000000ULL + 500, 0, 0, 0, 0);
    const ss_result *rs[] = {&lint, &run};
    const ss_event_log *ts[] = {NULL, &log};
    int rc = write_page("adversarial", rs, 2, ts, dir,
                        "</title><script>window.__pwned=1</script> \"javascript:x\"");
    ss_result_free(&lint);
    ss_result_free(&run);
    ss_evlog_free(&log);
    free(long_text);
    free(src);
    free(dir);
    return rc;
}

/* 10,000 findings over 100 generated source files (4,000 lint, 6,000 run of which 2,000 at
 * lint's sites) and a trace of 1,000,000 operations: 400,000 API calls on two host threads,
 * 600,000 kernels and copies on four streams. */
static int scenario_big(void)
{
    enum { FILES = 100, LINT = 4000, RUN = 6000, JOINED = 2000, OPS = 1000000, API = 400000 };
    char *dir = ss_xasprintf("%s/big-src", out_dir);
    mkdir(dir, 0777);
    for (int i = 0; i < FILES; i++) {
        char *path = ss_xasprintf("%s/kernel_%03d.cu", dir, i);
        FILE *f = fopen(path, "w");
        if (f == NULL)
            abort();
        for (int l = 1; l <= 200; l++)
            fprintf(f, "    cudaMemcpyAsync(d_%d, h_%d, bytes, cudaMemcpyHostToDevice, s); // %d\n",
                    l, l, l);
        fclose(f);
        free(path);
    }
    ss_result lint, run;
    ss_event_log log;
    ss_result_init(&lint, SS_RESULT_LINT);
    ss_result_init(&run, SS_RESULT_RUN);
    if (ss_evlog_init(&log) < 0)
        abort();
    lint.root = ss_xstrdup(dir);
    static const ss_rule_id rules[] = {SS_RULE_PAGEABLE_ASYNC_COPY, SS_RULE_DEFAULT_STREAM_LAUNCH,
                                       SS_RULE_SCALAR_READBACK, SS_RULE_SYNC_IN_LOOP};
    char file[1024];
    for (int i = 0; i < LINT; i++) {
        snprintf(file, sizeof file, "kernel_%03d.cu", i % FILES);
        char *msg = ss_xasprintf("lint finding %d in function 'work_%d'", i, i);
        add_finding(&lint, rules[i % 4], file, (unsigned)(1 + (i / FILES) % 200), "work", msg);
        free(msg);
    }
    run_meta(&run, "./big", -1, 60000000000ULL, 9000000000ULL, 41000000000ULL);
    for (int i = 0; i < RUN; i++) {
        unsigned line;
        ss_rule_id rule;
        if (i < JOINED) { /* the same site as lint finding i */
            snprintf(file, sizeof file, "%s/kernel_%03d.cu", dir, i % FILES);
            line = (unsigned)(1 + (i / FILES) % 200);
            rule = rules[i % 4];
        } else {
            snprintf(file, sizeof file, "%s/kernel_%03d.cu", dir, i % FILES);
            line = (unsigned)(1 + (i / FILES) % 200);
            rule = SS_RULE_DEVICE_WIDE_SYNC_CALL;
        }
        char *msg = ss_xasprintf("runtime finding %d blocked the host", i);
        ss_finding *f = add_finding(&run, rule, file, line, "work", msg);
        set_evidence(f, "cudaMemcpyAsync", (uint64_t)(i % 50 + 1), (uint64_t)(i * 7919 % 1000000),
                     (uint64_t)(i * 31 % 50000), (uint64_t)i * 4096, "earlier work");
        add_frames(f, "work", file, line);
        free(msg);
    }
    ss_result_sort(&run);
    /* The trace: 1,000 call sites on the stacks of the API calls. */
    uint32_t stacks[1000];
    for (int i = 0; i < 1000; i++) {
        snprintf(file, sizeof file, "%s/kernel_%03d.cu", dir, i % FILES);
        stacks[i] =
            add_stack(&log, "cudaMemcpyAsync", "work", file, (unsigned)(1 + (i / FILES) % 200));
    }
    add_stream(&log, 0x5000, 13, 0);
    add_stream(&log, 0x6000, 14, SS_STREAM_FLAG_NON_BLOCKING);
    add_stream(&log, 0x7000, 15, SS_STREAM_FLAG_NON_BLOCKING);
    char kname[64];
    uint64_t t = 5000000000ULL;
    uint64_t gpu_t[4] = {t, t, t, t};
    static const uint32_t streams[4] = {7, 13, 14, 15};
    unsigned rng = 12345;
    for (int i = 0; i < API; i++) {
        rng = rng * 1103515245u + 12345u;
        uint32_t thread = 1 + (uint32_t)(i & 1);
        uint64_t dur = 2000 + (rng >> 16) % 8000;
        const char *api = (i % 10 == 0) ? "cudaMemcpy" : "cudaMemcpyAsync";
        if (i % 10 == 0)
            dur += 30000;
        uint32_t corr = add_api(&log, thread, api, t, t + dur, i % 3 == 0 ? 0 : 0x5000,
                                i % 3 == 0 ? 7 : 13, 4096, stacks[i % 1000]);
        /* One or two GPU operations per call: 600,000 in all. */
        for (int g = 0; g < (i % 2 ? 2 : 1); g++) {
            int s = (i + g) % 4;
            uint64_t gs = gpu_t[s] > t ? gpu_t[s] : t + 1000;
            uint64_t gd = 3000 + (rng >> 8) % 40000;
            snprintf(kname, sizeof kname, "kernel_%d<float, %d>", (i + g) % 700, g);
            if ((i + g) % 5 == 0)
                add_gpu(&log, SS_EV_MEMCPY, streams[s], gs, gs + gd, NULL,
                        (i & 2) ? SS_COPY_DTOH : SS_COPY_HTOD, 65536, corr);
            else
                add_gpu(&log, SS_EV_KERNEL, streams[s], gs, gs + gd, kname, SS_COPY_UNKNOWN, 0,
                        corr);
            gpu_t[s] = gs + gd + 500;
        }
        t += dur / 2 + 1500;
    }
    const ss_result *rs[] = {&lint, &run};
    const ss_event_log *ts[] = {NULL, &log};
    int rc = write_page("big", rs, 2, ts, dir, "big: 10,000 findings, 1,000,000 operations");
    ss_result_free(&lint);
    ss_result_free(&run);
    ss_evlog_free(&log);
    free(dir);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_html OUT_DIR FIXTURE_DIR [lint|run|joined|multi|"
                        "adversarial|big|twodev|cost...]\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    /* Absolute folders: the results carry absolute paths like real ones do. */
    char *out_real = realpath(argv[1], NULL);
    char *fixture_real = realpath(argv[2], NULL);
    if (out_real == NULL || fixture_real == NULL) {
        fprintf(stderr, "gen_html: cannot resolve '%s' or '%s'\n", argv[1], argv[2]);
        free(out_real);
        free(fixture_real);
        return 2;
    }
    out_dir = out_real;
    fixture_dir = fixture_real;
    static const char *const all[] = {"lint", "run", "joined", "multi", "adversarial"};
    const char *const *names = argc > 3 ? (const char *const *)argv + 3 : all;
    int count = argc > 3 ? argc - 3 : (int)(sizeof all / sizeof all[0]);
    int rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        if (strcmp(names[i], "adversarial") == 0)
            rc = scenario_adversarial();
        else if (strcmp(names[i], "big") == 0)
            rc = scenario_big();
        else if (strcmp(names[i], "twodev") == 0)
            rc = scenario_twodev();
        else if (strcmp(names[i], "cost") == 0)
            rc = scenario_cost();
        else
            rc = scenario_small(names[i]);
    }
    free(out_real);
    free(fixture_real);
    return rc == 0 ? 0 : 1;
}
