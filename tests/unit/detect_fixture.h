/* detect_fixture.h: hand-built event logs for the detector suites (check_detect, check_multidev,
 * check_whatif): one log, one result and the default options per test, and builders for API
 * calls, GPU work and stream records. Everything is static inline: a suite uses what it needs. */
#ifndef SS_DETECT_FIXTURE_H
#define SS_DETECT_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"

#define US(x) ((uint64_t)(x)*1000u)
#define MS(x) ((uint64_t)(x)*1000000u)

static ss_event_log log_;
static ss_result res;
static ss_detect_options opt;

static inline void fixture_setup(void)
{
    ck_assert_int_eq(ss_evlog_init(&log_), 0);
    ss_result_init(&res, SS_RESULT_RUN);
    ss_detect_options_default(&opt);
}

static inline void fixture_teardown(void)
{
    ss_result_free(&res);
    ss_evlog_free(&log_);
}

/* A stack: a libcudart frame, then the user's frame at file:line in main() of 'module'. */
static inline uint32_t site_in(const char *module, const char *file, unsigned line)
{
    ss_stack_frame frames[2] = {
        {0x7f0000001000u, ss_evlog_intern(&log_, "cudaMemcpy"),
         ss_evlog_intern(&log_, "cudart.cpp"),
         ss_evlog_intern(&log_, "/usr/local/cuda/lib64/libcudart.so.13"), 120, 0},
        {0x401234u, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, file),
         ss_evlog_intern(&log_, module), line, 0},
    };
    return ss_evlog_add_stack(&log_, frames, 2);
}

/* One API call; fields left out are 0 (thread 0 means thread 1; 'kind' -1: no copy kind). */
typedef struct call_spec {
    uint32_t thread;
    const char *name;
    uint64_t enter, exit;
    uint32_t corr;
    uint64_t stream; /* the handle as passed */
    uint32_t stream_id;
    uint64_t bytes;
    int32_t kind;
    int32_t device;
    uint32_t flags;
    uint32_t stack;
    int32_t result;
    uint8_t nested, per_thread;
} call_spec;

static inline void api(call_spec s)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_API;
    ss_ev_api *a = &e.u.api;
    a->enter_ns = s.enter;
    a->exit_ns = s.exit;
    a->thread = s.thread ? s.thread : 1;
    a->name = ss_evlog_intern(&log_, s.name);
    const ss_api *row = ss_evlog_api(&log_, a->name);
    a->api = (uint16_t)(row ? row->api : SS_API_COUNT);
    a->correlation = s.corr;
    a->stream = s.stream;
    a->stream_id = s.stream_id;
    a->bytes = s.bytes;
    a->copy_kind = s.kind;
    a->device = s.device;
    a->flags = s.flags;
    a->stack = s.stack;
    a->result = s.result;
    a->domain = strncmp(s.name, "cu", 2) == 0 && strncmp(s.name, "cuda", 4) != 0
                    ? SS_DOMAIN_DRIVER
                    : SS_DOMAIN_RUNTIME;
    a->nested = s.nested;
    a->per_thread = s.per_thread;
    ck_assert_int_eq(ss_evlog_append(&log_, &e), 0);
}

/* One kernel, copy or memset on the GPU; fields left out are 0. */
typedef struct gpu_spec {
    uint32_t type; /* SS_EV_KERNEL, SS_EV_MEMCPY, SS_EV_MEMSET */
    const char *name;
    uint64_t start, end;
    uint32_t corr;
    uint32_t stream_id;
    uint32_t context;
    int32_t device;
    uint64_t bytes;
    ss_copy_kind kind;
    ss_mem_kind src, dst;
} gpu_spec;

static inline void gpu_op(gpu_spec s)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = s.type;
    e.u.gpu.start_ns = s.start;
    e.u.gpu.end_ns = s.end;
    e.u.gpu.correlation = s.corr;
    e.u.gpu.stream_id = s.stream_id;
    e.u.gpu.context = s.context;
    e.u.gpu.device = s.device;
    e.u.gpu.name = s.name ? ss_evlog_intern(&log_, s.name) : 0;
    e.u.gpu.bytes = s.bytes;
    e.u.gpu.copy_kind = (uint8_t)s.kind;
    e.u.gpu.src_kind = (uint8_t)s.src;
    e.u.gpu.dst_kind = (uint8_t)s.dst;
    ck_assert_int_eq(ss_evlog_append(&log_, &e), 0);
}

static inline void stream_rec(uint64_t handle, uint32_t stream_id, uint32_t flags, int32_t device,
                              uint32_t context)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_STREAM;
    e.u.stream.handle = handle;
    e.u.stream.stream_id = stream_id;
    e.u.stream.flags = flags;
    e.u.stream.device = device;
    e.u.stream.context = context;
    ck_assert_int_eq(ss_evlog_append(&log_, &e), 0);
}

/* The pointer record (SS_EV_ARGS) of call 'corr' entered at 'enter': kind SS_ARGS_ALLOC or
 * SS_ARGS_FREE with one address. */
static inline void pointer_rec(uint64_t enter, uint32_t corr, uint8_t kind, uint64_t address)
{
    ss_event e;
    memset(&e, 0, sizeof e);
    e.type = SS_EV_ARGS;
    e.u.args.time_ns = enter;
    e.u.args.correlation = corr;
    e.u.args.kind = kind;
    e.u.args.complete = 1;
    e.u.args.count = 1;
    e.u.args.values[0] = address;
    ck_assert_int_eq(ss_evlog_append(&log_, &e), 0);
}

static inline void run(void)
{
    ck_assert_int_eq(ss_detect_run(&log_, &opt, &res), 0);
}

/* Runs the detectors on the log (into 'res'), and again on the log written to a trace file and
 * read back (into 'again', initialized here; the caller frees it). Findings own their strings,
 * so the replayed log is freed here. */
static inline void run_and_replay(ss_result *again)
{
    char path[] = "/tmp/syncscope_fixture_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(ss_trace_write(out, &log_), 0);
    ck_assert_int_eq(fclose(out), 0);
    run();
    ss_event_log replay;
    char err[256];
    ck_assert_msg(ss_trace_read(path, &replay, err, sizeof err) == 0, "%s", err);
    unlink(path);
    ss_result_init(again, SS_RESULT_RUN);
    ck_assert_int_eq(ss_detect_run(&replay, &opt, again), 0);
    ss_evlog_free(&replay);
}

/* The one finding of 'rule' (fails the test unless there is exactly one). */
static inline const ss_finding *only(ss_rule_id rule)
{
    const ss_finding *found = NULL;
    for (size_t i = 0; i < res.count; i++) {
        if (res.findings[i].rule == rule) {
            ck_assert_ptr_null(found);
            found = &res.findings[i];
        }
    }
    ck_assert_ptr_nonnull(found);
    return found;
}

/* The 'index'th finding of 'rule' in result order, or NULL. */
static inline const ss_finding *nth(ss_rule_id rule, size_t index)
{
    size_t seen = 0;
    for (size_t i = 0; i < res.count; i++) {
        if (res.findings[i].rule == rule && seen++ == index)
            return &res.findings[i];
    }
    return NULL;
}

/* Findings that are not latent notes (ss_finding.latent). */
static inline size_t blocking_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < res.count; i++)
        n += !res.findings[i].latent;
    return n;
}

/* The one latent note of 'rule' (fails the test unless there is exactly one); checks what
 * every latent note is: a note whose message starts "latent: synchronized " (after "device N: "
 * in a log of two or more devices). */
static inline const ss_finding *only_latent(ss_rule_id rule)
{
    const ss_finding *found = NULL;
    for (size_t i = 0; i < res.count; i++) {
        if (res.findings[i].rule == rule && res.findings[i].latent) {
            ck_assert_ptr_null(found);
            found = &res.findings[i];
        }
    }
    ck_assert_ptr_nonnull(found);
    ck_assert_int_eq(found->severity, SS_SEV_NOTE);
    const char *text = found->message;
    if (strncmp(text, "device ", 7) == 0 && strstr(text, ": ") != NULL)
        text = strstr(text, ": ") + 2;
    ck_assert_int_eq(strncmp(text, "latent: synchronized ", 21), 0);
    return found;
}

static inline size_t count_of(ss_rule_id rule)
{
    size_t n = 0;
    for (size_t i = 0; i < res.count; i++)
        n += res.findings[i].rule == rule;
    return n;
}

static inline const char *extra(const ss_finding *f, const char *key)
{
    for (size_t i = 0; i < f->extra_count; i++) {
        if (strcmp(f->extra[i].key, key) == 0)
            return f->extra[i].value;
    }
    return NULL;
}

/* One test case of a detector suite: a name and up to FIXTURE_CASE_TESTS tests (a longer list is
 * an "excess elements" error under -Werror; a shorter one ends at the first NULL). */
#define FIXTURE_CASE_TESTS 24
typedef struct fixture_case {
    const char *name;
    const TTest *tests[FIXTURE_CASE_TESTS];
} fixture_case;

/* The suite 'name' of 'count' cases, each test between 'setup' and fixture_teardown; 'timeout_s'
 * 0 keeps Check's default. */
static inline Suite *fixture_suite(const char *name, const fixture_case *cases, size_t count,
                                   void (*setup)(void), int timeout_s)
{
    Suite *s = suite_create(name);
    for (size_t i = 0; i < count; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_checked_fixture(tc, setup, fixture_teardown);
        if (timeout_s > 0)
            tcase_set_timeout(tc, timeout_s);
        for (size_t j = 0; j < FIXTURE_CASE_TESTS && cases[i].tests[j] != NULL; j++)
            tcase_add_test(tc, cases[i].tests[j]);
        suite_add_tcase(s, tc);
    }
    return s;
}

#endif
