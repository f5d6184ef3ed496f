/* check_scope.c: scopes (NVTX ranges, cudaProfilerStart/Stop, syncscope.scope()) over
 * hand-built event logs with exact finding counts inside and outside, their trace records, and
 * the gate of a run (docs/run.md, "Gates" and "Scopes"). */
#include "check_main.h"
#include "detect.h"
#include "detect_fixture.h"
#include "log.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEGACY_ID 7u
#define S13 0x1000u

static void setup(void)
{
    fixture_setup();
    /* Every round repeats the same kernel: no occurrence is a startup one. */
    opt.startup_phase = 0;
}

static uint32_t site(unsigned line)
{
    return site_in("/work/app", "loop.cu", line);
}

/* One round at 't0' on 'thread': a 300 us kernel on stream 13, then a 4-byte cudaMemcpy
 * readback at loop.cu:'line' that waits for it (SYNC301, 300 us blocked). Correlations
 * 2*'round' and 2*'round'+1. */
static void round_at(uint32_t thread, uint64_t t0, unsigned line, uint32_t round)
{
    api((call_spec){.thread = thread,
                    .name = "cudaLaunchKernel",
                    .enter = t0,
                    .exit = t0 + US(5),
                    .corr = 2 * round,
                    .stream = S13,
                    .stream_id = 13,
                    .kind = -1,
                    .stack = site(5)});
    gpu_op((gpu_spec){.type = SS_EV_KERNEL,
                      .name = "scale",
                      .start = t0 + US(10),
                      .end = t0 + US(310),
                      .corr = 2 * round,
                      .stream_id = 13});
    api((call_spec){.thread = thread,
                    .name = "cudaMemcpy",
                    .enter = t0 + US(20),
                    .exit = t0 + US(320),
                    .corr = 2 * round + 1,
                    .bytes = 4,
                    .kind = 2,
                    .stack = site(line)});
    gpu_op((gpu_spec){.type = SS_EV_MEMCPY,
                      .start = t0 + US(312),
                      .end = t0 + US(315),
                      .corr = 2 * round + 1,
                      .stream_id = LEGACY_ID,
                      .bytes = 4,
                      .kind = SS_COPY_DTOH,
                      .src = SS_MEM_DEVICE,
                      .dst = SS_MEM_PAGEABLE});
}

/* Four rounds on thread 1, 1 ms apart from 1 ms on, with readbacks at lines 10, 20, 30, 40. */
static void four_rounds(void)
{
    for (uint32_t r = 1; r <= 4; r++)
        round_at(1, MS(r), 10 * r, r);
}

/* A scope mark; 'name' NULL for none. */
static void mark(uint32_t thread, uint64_t when, ss_scope_kind kind, ss_scope_source source,
                 uint64_t id, const char *name)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_SCOPE;
    e.u.scope.time_ns = when;
    e.u.scope.thread = thread;
    e.u.scope.kind = (uint8_t)kind;
    e.u.scope.source = (uint8_t)source;
    e.u.scope.id = id;
    e.u.scope.name = name != NULL ? ss_evlog_intern(&log_, name) : 0;
    ck_assert_int_eq(ss_evlog_append(&log_, &e), 0);
}

/* The finding of SYNC301 at 'line', or NULL. */
static const ss_finding *at_line(unsigned line)
{
    for (size_t i = 0; i < res.count; i++) {
        if (res.findings[i].rule == SS_RULE_SCALAR_READBACK && res.findings[i].line == line)
            return &res.findings[i];
    }
    return NULL;
}

/* The diagnostic messages of 'res', joined by '|'. */
static char *diags(void)
{
    char *text = ss_xstrdup("");
    for (size_t i = 0; i < res.diag_count; i++) {
        char *joined = ss_xasprintf("%s%s%s: %s", text, i ? "|" : "",
                                    ss_severity_name(res.diags[i].severity), res.diags[i].message);
        free(text);
        text = joined;
    }
    return text;
}

static void assert_diags(const char *expected)
{
    char *text = diags();
    ck_assert_str_eq(text, expected);
    free(text);
}

/* ---- NVTX ranges ---- */

START_TEST(test_unscoped_names_the_range)
{
    four_rounds();
    mark(1, MS(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "step");
    mark(1, MS(2) + US(500), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    run();
    ck_assert_uint_eq(res.count, 4);
    ck_assert_uint_eq(count_of(SS_RULE_SCALAR_READBACK), 4);
    ck_assert_str_eq(extra(at_line(20), "nvtx"), "step");
    ck_assert_ptr_null(extra(at_line(10), "nvtx"));
    ck_assert_ptr_null(extra(at_line(30), "nvtx"));
    ck_assert_ptr_null(extra(at_line(20), "scope"));
    ck_assert_uint_eq(res.blocked_ns, US(1200));
    /* Marks alone scope nothing: no diagnostic. */
    ck_assert_uint_eq(res.diag_count, 0);
}
END_TEST

START_TEST(test_nvtx_range_keeps_inside_only)
{
    four_rounds();
    mark(1, MS(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "step");
    mark(1, MS(2) + US(500), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    opt.nvtx_range = "step";
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->line, 20);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_str_eq(extra(f, "nvtx"), "step");
    ck_assert_uint_eq(res.blocked_ns, US(300));
    assert_diags("note: scope: only calls made inside NVTX range 'step' count; 3 occurrences "
                 "outside were left out");
}
END_TEST

START_TEST(test_nvtx_range_counts_occurrences_of_one_site)
{
    /* One call site, four occurrences; the range holds rounds 2 and 3: the finding counts 2,
     * and its time is theirs alone. */
    for (uint32_t r = 1; r <= 4; r++)
        round_at(1, MS(r), 42, r);
    mark(1, MS(2) - US(1), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "train");
    mark(1, MS(4) - US(1), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    ss_result again;
    opt.nvtx_range = "train";
    run_and_replay(&again);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->evidence.count, 2);
    ck_assert_uint_eq(f->evidence.total_ns, US(600));
    ck_assert_uint_eq(res.blocked_ns, US(600));
    /* The trace gives the same answer. */
    ck_assert_uint_eq(again.count, 1);
    ck_assert_uint_eq(again.findings[0].evidence.count, 2);
    ck_assert_str_eq(extra(&again.findings[0], "nvtx"), "train");
    ss_result_free(&again);
}
END_TEST

START_TEST(test_push_pop_belongs_to_its_thread)
{
    /* Thread 1 pushes "step" around round 2; thread 2's readback during it is outside, and the
     * innermost range of thread 2 is none. A start/end range holds every thread. */
    four_rounds();
    round_at(2, MS(2) + US(100), 50, 5);
    mark(1, MS(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "step");
    mark(1, MS(2) + US(900), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    opt.nvtx_range = "step";
    run();
    ck_assert_uint_eq(res.count, 1);
    ck_assert_uint_eq(only(SS_RULE_SCALAR_READBACK)->line, 20);
}
END_TEST

START_TEST(test_start_end_holds_every_thread)
{
    four_rounds();
    round_at(2, MS(2) + US(100), 50, 5);
    mark(1, MS(2), SS_SCOPE_START, SS_SCOPE_FROM_NVTX, 77, "step");
    mark(2, MS(2) + US(900), SS_SCOPE_END, SS_SCOPE_FROM_NVTX, 77, NULL);
    opt.nvtx_range = "step";
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_str_eq(extra(at_line(20), "nvtx"), "step");
    ck_assert_str_eq(extra(at_line(50), "nvtx"), "step");
}
END_TEST

START_TEST(test_nested_and_unmatched_ranges)
{
    /* A pop and an end without their opening mark close nothing; "step" nested in itself stays
     * open until its outer pop; the innermost range names the finding. */
    four_rounds();
    mark(1, US(100), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, US(200), SS_SCOPE_END, SS_SCOPE_FROM_NVTX, 5, NULL);
    mark(1, MS(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "step");
    mark(1, MS(2) + US(1), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "step");
    mark(1, MS(2) + US(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "forward");
    mark(1, MS(2) + US(600), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, MS(2) + US(700), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, MS(4) - US(1), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    opt.nvtx_range = "step";
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_str_eq(extra(at_line(20), "nvtx"), "forward");
    ck_assert_str_eq(extra(at_line(30), "nvtx"), "step");
}
END_TEST

START_TEST(test_nvtx_range_never_seen)
{
    four_rounds();
    mark(1, MS(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "other");
    opt.nvtx_range = "step";
    run();
    ck_assert_uint_eq(res.count, 0);
    ck_assert_uint_eq(res.blocked_ns, 0);
    assert_diags("warning: no NVTX range named 'step' was seen: no call is in scope (the ranges "
                 "seen: 'other')|note: scope: only calls made inside NVTX range 'step' count; 4 "
                 "occurrences outside were left out");
}
END_TEST

/* No NVTX range at all: the message says where ranges come from. */
START_TEST(test_nvtx_range_none_seen)
{
    four_rounds();
    opt.nvtx_range = "step";
    run();
    ck_assert_uint_eq(res.count, 0);
    assert_diags("warning: no NVTX range named 'step' was seen, nor any other: no call is in scope "
                 "(NVTX ranges are seen under syncscope run or LD_PRELOAD unless SYNCSCOPE_NVTX=0 "
                 "turns them off or NVTX_INJECTION64_PATH names another tool)|note: scope: only "
                 "calls made inside NVTX range 'step' count; 4 occurrences outside were left out");
}
END_TEST

/* The ranges seen are listed once each, in the order first seen, start/end ranges too, the
 * program's own scopes not; past eight names, "and others". */
START_TEST(test_nvtx_range_seen_listed)
{
    four_rounds();
    static const char *const names[] = {"fwd", "bwd", "fwd", "opt", "a", "b", "c", "d", "e"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        mark(1, MS(2) + i, SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, names[i]);
    mark(1, MS(3), SS_SCOPE_PUSH, SS_SCOPE_FROM_PROGRAM, 0, "mine");
    opt.nvtx_range = "step";
    run();
    assert_diags("warning: no NVTX range named 'step' was seen: no call is in scope (the ranges "
                 "seen: 'fwd', 'bwd', 'opt', 'a', 'b', 'c', 'd' and 'e')|note: scope: only calls "
                 "made inside NVTX range 'step' and inside syncscope.scope() count; 4 occurrences "
                 "outside were left out");
}
END_TEST

START_TEST(test_nvtx_range_seen_others)
{
    four_rounds();
    static const char *const names[] = {"fwd", "bwd", "fwd", "opt", "a", "b", "c", "d", "e"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        mark(1, MS(2) + i, SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, names[i]);
    mark(1, MS(3), SS_SCOPE_PUSH, SS_SCOPE_FROM_PROGRAM, 0, "mine");
    mark(1, MS(4), SS_SCOPE_START, SS_SCOPE_FROM_NVTX, 7, "ninth");
    opt.nvtx_range = "step";
    run();
    assert_diags("warning: no NVTX range named 'step' was seen: no call is in scope (the ranges "
                 "seen: 'fwd', 'bwd', 'opt', 'a', 'b', 'c', 'd', 'e' and others)|note: scope: "
                 "only calls made inside NVTX range 'step' and inside syncscope.scope() count; 4 "
                 "occurrences outside were left out");
}
END_TEST

/* ---- cudaProfilerStart/Stop ---- */

START_TEST(test_profiler_region)
{
    four_rounds();
    mark(1, MS(2), SS_SCOPE_PROFILER_START, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, MS(2) + US(1), SS_SCOPE_PROFILER_START, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, MS(3), SS_SCOPE_PROFILER_STOP, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, MS(4), SS_SCOPE_PROFILER_START, SS_SCOPE_FROM_NVTX, 0, NULL);
    run();
    /* From the start (the default): every round. */
    ck_assert_uint_eq(res.count, 4);
    ss_result_free(&res);
    ss_result_init(&res, SS_RESULT_RUN);
    opt.profile_from_start = 0;
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_ptr_nonnull(at_line(20));
    ck_assert_ptr_nonnull(at_line(40));
    assert_diags("note: scope: only calls made between cudaProfilerStart and cudaProfilerStop "
                 "count; 2 occurrences outside were left out");
}
END_TEST

START_TEST(test_profiler_never_started)
{
    four_rounds();
    opt.profile_from_start = 0;
    run();
    ck_assert_uint_eq(res.count, 0);
    assert_diags("warning: the program never called cudaProfilerStart: with --profile-from-start "
                 "off no call is in scope|note: scope: only calls made between cudaProfilerStart "
                 "and cudaProfilerStop count; 4 occurrences outside were left out");
}
END_TEST

START_TEST(test_scopes_intersect)
{
    four_rounds();
    mark(1, MS(2), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "step");
    mark(1, MS(4) - US(1), SS_SCOPE_POP, SS_SCOPE_FROM_NVTX, 0, NULL);
    mark(1, MS(3), SS_SCOPE_PROFILER_START, SS_SCOPE_FROM_NVTX, 0, NULL);
    opt.nvtx_range = "step";
    opt.profile_from_start = 0;
    run();
    ck_assert_uint_eq(res.count, 1);
    ck_assert_uint_eq(only(SS_RULE_SCALAR_READBACK)->line, 30);
    assert_diags("note: scope: only calls made inside NVTX range 'step' and between "
                 "cudaProfilerStart and cudaProfilerStop count; 3 occurrences outside were left "
                 "out");
}
END_TEST

/* ---- syncscope.scope() ---- */

START_TEST(test_program_scope_restricts_by_itself)
{
    /* The program's own ranges scope the run without any option, for every thread. */
    four_rounds();
    round_at(2, MS(3) + US(100), 50, 5);
    mark(1, MS(3), SS_SCOPE_START, SS_SCOPE_FROM_PROGRAM, 1, "train_step");
    mark(1, MS(3) + US(900), SS_SCOPE_END, SS_SCOPE_FROM_PROGRAM, 1, NULL);
    mark(1, MS(3) + US(10), SS_SCOPE_PUSH, SS_SCOPE_FROM_NVTX, 0, "loss");
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *f = at_line(30);
    ck_assert_str_eq(extra(f, "scope"), "train_step");
    ck_assert_str_eq(extra(f, "nvtx"), "loss");
    ck_assert_str_eq(extra(at_line(50), "scope"), "train_step");
    ck_assert_ptr_null(extra(at_line(50), "nvtx"));
    assert_diags("note: scope: only calls made inside syncscope.scope() count; 3 occurrences "
                 "outside were left out");
}
END_TEST

START_TEST(test_program_ids_apart_from_nvtx_ids)
{
    /* An NVTX range with the same id as a program range does not close it. */
    four_rounds();
    mark(1, MS(1), SS_SCOPE_START, SS_SCOPE_FROM_PROGRAM, 1, "all");
    mark(1, MS(1) + US(1), SS_SCOPE_START, SS_SCOPE_FROM_NVTX, 1, "n");
    mark(1, MS(1) + US(2), SS_SCOPE_END, SS_SCOPE_FROM_NVTX, 1, NULL);
    mark(1, MS(3) - US(1), SS_SCOPE_END, SS_SCOPE_FROM_PROGRAM, 1, NULL);
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_ptr_nonnull(at_line(10));
    ck_assert_ptr_nonnull(at_line(20));
}
END_TEST

/* ---- the trace and the recorded settings ---- */

/* Writes the log to a file and returns its text (malloc'ed). */
static char *trace_text(void)
{
    char path[] = "/tmp/syncscope_scope_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w+");
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(ss_trace_write(out, &log_), 0);
    long size = ftell(out);
    rewind(out);
    char *text = calloc(1, (size_t)size + 1);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, out), (size_t)size);
    fclose(out);
    unlink(path);
    return text;
}

START_TEST(test_trace_versions)
{
    four_rounds();
    char *text = trace_text();
    ck_assert_int_eq(strncmp(text, "SSTRACE 1 0\n", 12), 0);
    free(text);
    mark(1, MS(2), SS_SCOPE_START, SS_SCOPE_FROM_PROGRAM, 3, "step");
    text = trace_text();
    ck_assert_int_eq(strncmp(text, "SSTRACE 1 1\n", 12), 0);
    ck_assert_ptr_nonnull(strstr(text, "\nscope 2000000 1 5 1 3 "));
    free(text);
}
END_TEST

/* Reads 'text' as a trace; returns the error ("" when it was read). */
static const char *read_text(const char *text)
{
    static char err[512];
    char path[] = "/tmp/syncscope_scope_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    ss_event_log log;
    err[0] = '\0';
    if (ss_trace_read(path, &log, err, sizeof err) == 0)
        ss_evlog_free(&log);
    unlink(path);
    const char *colon = strchr(err, ':');
    return colon != NULL ? colon + 1 : err;
}

/* Reads 'records' (lines after the header) as a trace of the minor version after this reader's,
 * so that the case stays newer when the format's minor version is raised. */
static const char *read_newer(const char *records)
{
    char text[512];
    int n = snprintf(text, sizeof text, "SSTRACE %d %d\n%s", SS_TRACE_MAJOR, SS_TRACE_MINOR + 1,
                     records);
    ck_assert(n > 0 && (size_t)n < sizeof text);
    return read_text(text);
}

START_TEST(test_trace_scope_records)
{
    ck_assert_str_eq(read_text("SSTRACE 1 1\nstr 1 step\nscope 5 1 3 0 0 1\nend 1 2 1\n"), "");
    ck_assert_str_eq(read_text("SSTRACE 1 0\nscope 5 1 1 0 0 0\nend 1 1 1\n"),
                     "2: scope: record of trace format 1.1, in a file of format 1.0");
    ck_assert_str_eq(read_text("SSTRACE 1 1\nscope 5 1 7 0 0 0\nend 1 1 1\n"),
                     "2: scope: kind: 7 is not a scope kind (1 to 6)");
    ck_assert_str_eq(read_text("SSTRACE 1 1\nscope 5 1 1 2 0 0\nend 1 1 1\n"),
                     "2: scope: source: 2 is not 0 (NVTX) or 1 (the program)");
    ck_assert_str_eq(read_text("SSTRACE 1 1\nscope 5 1 3 0 0 4\nend 1 1 1\n"),
                     "2: scope: name: string 4 is not defined");
    ck_assert_str_eq(read_text("SSTRACE 1 1\nmeta start_ns 10000000000\nmeta end_ns 10000000100\n"
                               "scope 5 1 1 0 0 0\nend 1 1 1\n"),
                     "4: scope: time 5 is 9.999 s before the run started (meta start_ns "
                     "10000000000)");
    /* A newer minor version's kinds are kept and passed over. */
    ck_assert_str_eq(read_newer("scope 5 1 9 3 0 0\nend 1 1 1\n"), "");
}
END_TEST

START_TEST(test_trace_args_records)
{
    /* The device pointers a call was handed (format 1.2 on), and what the reader refuses. */
    ck_assert_str_eq(read_text("SSTRACE 1 2\nargs 5 1 1 1 2 7 8 0 0 0 0 0 0\nend 1 1 1\n"), "");
    ck_assert_str_eq(read_text("SSTRACE 1 1\nargs 5 1 1 1 0 0 0 0 0 0 0 0 0\nend 1 1 1\n"),
                     "2: args: record of trace format 1.2, in a file of format 1.1");
    ck_assert_str_eq(read_text("SSTRACE 1 3\nargs 5 1 6 1 0 0 0 0 0 0 0 0 0\nend 1 1 1\n"),
                     "2: args: kind: 6 is not an argument kind (1 to 5)");
    /* An event's handle (kind 5) is of format 1.3. */
    ck_assert_str_eq(read_text("SSTRACE 1 3\nargs 5 1 5 1 1 225 0 0 0 0 0 0 0\nend 1 1 1\n"), "");
    ck_assert_str_eq(read_text("SSTRACE 1 2\nargs 5 1 5 1 1 225 0 0 0 0 0 0 0\nend 1 1 1\n"),
                     "2: args: kind 5 (an event) is of trace format 1.3, in a file of format 1.2");
    ck_assert_str_eq(read_text("SSTRACE 1 2\nargs 5 1 1 1 9 0 0 0 0 0 0 0 0\nend 1 1 1\n"),
                     "2: args: count 9 (at most 8) or complete 1 (0 or 1) out of range");
    ck_assert_str_eq(read_text("SSTRACE 1 2\nargs 5 1 2 1 2 7 8 9 0 0 0 0 0\nend 1 1 1\n"),
                     "2: args: value 3 is set, but count is 2");
    ck_assert_str_eq(read_text("SSTRACE 1 2\nargs 5 1 1 1 0\nend 1 1 1\n"),
                     "2: args: expected 13 fields, got 5");
    /* A newer minor version's kinds are kept and passed over. */
    ck_assert_str_eq(read_newer("args 5 1 9 1 0 0 0 0 0 0 0 0 0\nend 1 1 1\n"), "");
    /* Calls counted past the memory cap (format 1.5 on): an api record's 16 fields, then
     * count, total, max, bytes, prev, next and long; not an event of 'end'. */
    ck_assert_str_eq(
        read_text(
            "SSTRACE 1 5\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 4 0 7 0 1\nend 0 1 1\n"),
        "");
    ck_assert_str_eq(
        read_text(
            "SSTRACE 1 4\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 4 0 7 0 1\nend 0 1 1\n"),
        "2: tally: record of trace format 1.5, in a file of format 1.4");
    ck_assert_str_eq(
        read_text(
            "SSTRACE 1 5\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 0 6 4 0 7 0 1\nend 0 1 1\n"),
        "2: tally: count: 0, at least 1 call");
    ck_assert_str_eq(
        read_text(
            "SSTRACE 1 5\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 7 0 7 0 2\nend 0 1 1\n"),
        "2: tally: max 7 is more than total 6");
    ck_assert_str_eq(
        read_text(
            "SSTRACE 1 5\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 4 0 7 0 2\nend 0 1 1\n"),
        "2: tally: long: 2 is not 0 or 1");
    ck_assert_str_eq(
        read_text(
            "SSTRACE 1 5\ntally 9 5 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 4 0 7 0 1\nend 0 1 1\n"),
        "2: tally: exit 5 is before enter 9");
    /* 'dropped' counts the tallies' calls too (a reader before 1.5 skips the tallies): one
     * that counts fewer is refused */
    ck_assert_str_eq(
        read_text("SSTRACE 1 5\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 4 0 7 0 1\n"
                  "dropped 2\nend 0 1 1\n"),
        "3: dropped: 2 is less than the 3 calls of the tally records");
    ck_assert_str_eq(
        read_text("SSTRACE 1 5\ntally 5 9 1 0 0 0 0 0 0 -1 0 0 -1 0 0 0 3 6 4 0 7 0 1\n"
                  "dropped 4\nend 0 1 1\n"),
        "");
}
END_TEST

START_TEST(test_settings_from_the_log)
{
    ss_detect_options o;
    ss_detect_options_default(&o);
    ss_detect_scope_from_log(&o, &log_);
    ck_assert_int_eq(o.profile_from_start, 1);
    ck_assert_ptr_null(o.nvtx_range);
    ck_assert_int_eq(ss_evlog_set_meta(&log_, SS_META_PROFILE_FROM_START, "0"), 0);
    ck_assert_int_eq(ss_evlog_set_meta(&log_, SS_META_NVTX_RANGE, "step"), 0);
    ss_detect_scope_from_log(&o, &log_);
    ck_assert_int_eq(o.profile_from_start, 0);
    ck_assert_str_eq(o.nvtx_range, "step");
}
END_TEST

/* ---- the gate ---- */

START_TEST(test_gate_budgets)
{
    static const struct {
        const char *text;
        int ok, percent;
        uint64_t budget;
    } cases[] = {
        {"2%", 1, 1, 200},
        {"0.25%", 1, 1, 25},
        {"100%", 1, 1, 10000},
        {"0%", 1, 1, 0},
        {"100.01%", 0, 0, 0},
        {"0.125%", 0, 0, 0},
        {"50ms", 1, 0, MS(50)},
        {"1.5s", 1, 0, 1500000000},
        {"200us", 1, 0, US(200)},
        {"800ns", 1, 0, 800},
        {"0.5ms", 1, 0, US(500)},
        {"1.5ns", 0, 0, 0},
        {"50", 0, 0, 0},
        {"ms", 0, 0, 0},
        {"5 ms", 0, 0, 0},
        {"-1ms", 0, 0, 0},
        {"1.ms", 0, 0, 0},
        {"2%%", 0, 0, 0},
        {"", 0, 0, 0},
        {"99999999999999999999s", 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ss_gate gate;
        ss_gate_init(&gate);
        int rc = ss_gate_parse_budget(cases[i].text, &gate);
        ck_assert_msg(rc == (cases[i].ok ? 0 : -1), "'%s': %d", cases[i].text, rc);
        if (!cases[i].ok)
            continue;
        ck_assert_int_eq(gate.budget_set, 1);
        ck_assert_int_eq(gate.budget_percent, cases[i].percent);
        ck_assert_uint_eq(gate.budget, cases[i].budget);
    }
    ss_gate gate;
    ss_gate_init(&gate);
    ck_assert_int_eq(ss_gate_parse_fail_on("error", &gate), 0);
    ck_assert_int_eq(gate.fail_on, SS_SEV_ERROR);
    ck_assert_int_eq(ss_gate_parse_fail_on("none", &gate), 0);
    ck_assert_int_eq(gate.fail_on_none, 1);
    ck_assert_int_eq(ss_gate_parse_fail_on("warnings", &gate), -1);
}
END_TEST

START_TEST(test_gate_verdicts)
{
    four_rounds();
    ck_assert_int_eq(ss_evlog_set_meta(&log_, "wall_ns", "50000000"), 0);
    run();
    char why[512];
    ss_gate gate;
    ss_gate_init(&gate);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), 1);
    ck_assert_str_eq(why, "4 findings at or above warning");
    ck_assert_int_eq(ss_gate_parse_fail_on("error", &gate), 0);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), 0);
    ck_assert_str_eq(why, "0 findings at or above error");
    /* 1.2 ms blocked of 50 ms: over 2% (1 ms), within 3% (1.5 ms) and 1.2ms. */
    ck_assert_int_eq(ss_gate_parse_budget("2%", &gate), 0);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), 1);
    ck_assert_str_eq(why, "0 findings at or above error; 1.20 ms blocked, over the budget of "
                          "1.00 ms (2% of 50.00 ms)");
    ck_assert_int_eq(ss_gate_parse_budget("3%", &gate), 0);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), 0);
    ck_assert_str_eq(why, "0 findings at or above error; 1.20 ms blocked, within the budget of "
                          "1.50 ms (3% of 50.00 ms)");
    ck_assert_int_eq(ss_gate_parse_budget("1.2ms", &gate), 0);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), 0);
    ck_assert_int_eq(ss_gate_parse_fail_on("none", &gate), 0);
    ck_assert_int_eq(ss_gate_parse_budget("1199us", &gate), 0);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), 1);
    ck_assert_str_eq(why, "findings do not fail it (--fail-on none); 1.20 ms blocked, over the "
                          "budget of 1.20 ms");
    res.wall_ns = 0;
    ck_assert_int_eq(ss_gate_parse_budget("0.5%", &gate), 0);
    ck_assert_int_eq(ss_gate_check(&gate, &res, why, sizeof why), -1);
    ck_assert_str_eq(why, "the run's wall time is unknown, so a budget of 0.5% of it cannot be "
                          "judged");
}
END_TEST

START_TEST(test_gate_records)
{
    char path[] = "/tmp/syncscope_gate_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(ss_gate_record(path, 42, 1, "2 findings at or above warning"), 0);
    ck_assert_int_eq(ss_gate_record(path, 43, 0, "two\nlines"), 0);
    char text[256] = "";
    FILE *in = fopen(path, "r");
    ck_assert_ptr_nonnull(in);
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    ck_assert_str_eq(text, "syncscope-gate 1 42 1 2 findings at or above warning\n"
                           "syncscope-gate 1 43 0 two lines\n");
    long pid = 0;
    const char *why = NULL;
    ck_assert_int_eq(ss_gate_parse_record("syncscope-gate 1 42 1 over budget", &pid, &why), 1);
    ck_assert_int_eq(pid, 42);
    ck_assert_str_eq(why, "over budget");
    ck_assert_int_eq(ss_gate_parse_record("syncscope-gate 1 7 0", &pid, &why), 0);
    ck_assert_str_eq(why, "");
    ck_assert_int_eq(ss_gate_parse_record("syncscope-gate 2 7 0 x", &pid, &why), -1);
    ck_assert_int_eq(ss_gate_parse_record("syncscope-gate 1 7 2 x", &pid, &why), -1);
    ck_assert_int_eq(ss_gate_parse_record("syncscope-gate 1 x 1 x", &pid, &why), -1);
    unlink(path);
    /* The file is made by syncscope run: a missing one is not created. */
    ck_assert_int_eq(ss_gate_record(path, 42, 1, "x"), -1);
    ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

static Suite *scope_suite(void)
{
    const fixture_case cases[] = {
        {"nvtx",
         {test_unscoped_names_the_range, test_nvtx_range_keeps_inside_only,
          test_nvtx_range_counts_occurrences_of_one_site, test_push_pop_belongs_to_its_thread,
          test_start_end_holds_every_thread, test_nested_and_unmatched_ranges,
          test_nvtx_range_never_seen, test_nvtx_range_none_seen, test_nvtx_range_seen_listed,
          test_nvtx_range_seen_others, NULL}},
        {"profiler",
         {test_profiler_region, test_profiler_never_started, test_scopes_intersect, NULL}},
        {"program",
         {test_program_scope_restricts_by_itself, test_program_ids_apart_from_nvtx_ids, NULL}},
        {"trace",
         {test_trace_versions, test_trace_scope_records, test_trace_args_records,
          test_settings_from_the_log, NULL}},
        {"gate", {test_gate_budgets, test_gate_verdicts, test_gate_records, NULL}},
    };
    return fixture_suite("scope", cases, sizeof cases / sizeof cases[0], setup, 0);
}

SS_CHECK_MAIN(scope_suite)
