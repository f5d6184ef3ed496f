/* check_whatif.c: the what-if rules SYNC502 (launch-bound) and SYNC503 (serialized-pipeline),
 * and SYNC301's prediction, over hand-built event logs: period detection, the conditions, and
 * the exact predictions. */
#include "check_main.h"
#include "detect.h"
#include "detect_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S13 0x1000u /* handle of the stream with CUPTI id 13 */
#define S14 0x2000u /* handle of the stream with CUPTI id 14 */

static uint32_t next_corr;

static void setup(void)
{
    fixture_setup();
    next_corr = 1;
}

static uint32_t site(const char *file, unsigned line)
{
    return site_in("/work/app", file, line);
}

/* One API call of thread 1 on 'stream' (CUPTI id 'stream_id'); returns its correlation id. */
static uint32_t call(const char *name, uint64_t enter, uint64_t exit, uint64_t stream,
                     uint32_t stream_id, uint32_t stack)
{
    uint32_t corr = next_corr++;
    api((call_spec){.name = name,
                    .enter = enter,
                    .exit = exit,
                    .corr = corr,
                    .stream = stream,
                    .stream_id = stream_id,
                    .kind = -1,
                    .stack = stack});
    return corr;
}

/* A kernel (named) or a copy between device memory and host memory of kind 'host'. */
static void gpu(uint32_t type, const char *kernel, uint64_t start, uint64_t end, uint32_t corr,
                uint32_t stream_id, uint64_t bytes, ss_copy_kind kind, ss_mem_kind host)
{
    gpu_op((gpu_spec){.type = type,
                      .name = kernel,
                      .start = start,
                      .end = end,
                      .corr = corr,
                      .stream_id = stream_id,
                      .bytes = bytes,
                      .kind = kind,
                      .src = kind == SS_COPY_HTOD ? host : SS_MEM_DEVICE,
                      .dst = kind == SS_COPY_DTOH ? host : SS_MEM_DEVICE});
}

/* A kernel 'name' launched at 'enter' (the call takes 'api_ns') that runs from 'start' for
 * 'ns' on stream 13. */
static void launch(const char *name, uint64_t enter, uint64_t api_ns, uint64_t start, uint64_t ns,
                   uint32_t stack)
{
    uint32_t corr = call("cudaLaunchKernel", enter, enter + api_ns, S13, 13, stack);
    gpu(SS_EV_KERNEL, name, start, start + ns, corr, 13, 0, SS_COPY_UNKNOWN, SS_MEM_UNKNOWN);
}

/* 'n' kernels named by 'names' (cycled, 'period' of them), launch-bound: a launch every
 * 5 us, each call 4 us, its kernel starting 3 us after the call's entry and running 1 us,
 * so the GPU idles 4 us between kernels while the host is in the next launch call. Only the
 * first launch has a stack (loop.cu:12). */
static void launch_bound_run(size_t n, size_t period, const char *const *names)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t t = US(5) * i;
        launch(names[i % period], t, US(4), t + US(3), US(1), i == 0 ? site("loop.cu", 12) : 0);
    }
}

static void assert_extra(const ss_finding *f, const char *key, const char *value)
{
    const char *v = extra(f, key);
    ck_assert_msg(v != NULL, "no extra '%s'", key);
    ck_assert_str_eq(v, value);
}

/* The trace metadata of syncscope's own time (NULL: not set): after each call whose stack it
 * took, over that many calls, and in its launches, over that many launches. */
static void own_time_meta(const char *stack_ns, const char *stacks, const char *launch_ns,
                          const char *launches)
{
    const char *const pairs[4][2] = {{"self_stack_ns", stack_ns},
                                     {"self_stacks", stacks},
                                     {"self_launch_ns", launch_ns},
                                     {"self_launches", launches}};
    for (int i = 0; i < 4; i++) {
        if (pairs[i][1] != NULL)
            ss_evlog_set_meta(&log_, pairs[i][0], pairs[i][1]);
    }
}

static char kernel_names[50][8];
static const char *name_table[50];

static void make_names(void)
{
    for (int i = 0; i < 50; i++) {
        snprintf(kernel_names[i], sizeof kernel_names[i], "k%d", i);
        name_table[i] = kernel_names[i];
    }
}

/* ---- SYNC502 ---- */

START_TEST(test_launch_bound_period_and_prediction)
{
    make_names();
    launch_bound_run(150, 50, name_table);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    ck_assert_str_eq(f->file, "loop.cu");
    ck_assert_uint_eq(f->line, 12);
    ck_assert_int_eq(f->severity, SS_SEV_NOTE);
    ck_assert_uint_eq(f->evidence.count, 1);
    assert_extra(f, "kernels", "150");
    assert_extra(f, "kernels_per_iteration", "50");
    assert_extra(f, "iterations", "3");
    /* From the first kernel's start (3 us) to the last one's end (149 * 5 + 4 us). */
    assert_extra(f, "measured_ns", "746000");
    assert_extra(f, "measured_iteration_ns", "248666");
    /* The graph removes the host's 5 us per launch (149 x 5 us before the last launch) and
     * adds 3 graph launches of 2.5 us on the host: 746 - 745 + 7.5 us, less than the 150 us of
     * kernels back to back, which it takes. Counting only the 4 us inside each launch call:
     * 746 - 596 + 7.5 = 157.5 us. */
    assert_extra(f, "predicted_ns", "150000");
    assert_extra(f, "predicted_calls_ns", "157500");
    assert_extra(f, "predicted_iteration_ns", "50000");
    assert_extra(f, "gpu_busy_ns", "150000");
    assert_extra(f, "gpu_idle_ns", "596000");
    assert_extra(f, "launch_host_ns", "745000");
    assert_extra(f, "launch_calls_ns", "596000");
    assert_extra(f, "launch_api_ns", "4000");
    assert_extra(f, "per_launch_host_ns", "5000");
    assert_extra(f, "graph_launches", "3");
    assert_extra(f, "iterations_per_graph", "1");
    assert_extra(f, "saving_traced_ns", "596000");
    assert_extra(f, "saving_calls_ns", "588500");
    /* Without syncscope each of the 149 launches before the last costs the host up to 2.5 us
     * less (CUPTI; no time of its callbacks and no synchronization records in this log): the
     * GPU's waits and the host time removed shrink by up to 372.5 us, the replay stays
     * 150 us. */
    assert_extra(f, "self_launch_ns", "0");
    assert_extra(f, "saving_ns", "596000");
    assert_extra(f, "saving_low_ns", "223500");
    ck_assert_uint_eq(f->evidence.total_ns, US(596));
    ck_assert_str_eq(f->evidence.stream, "stream 13");
    ck_assert_str_eq(f->message,
                     "150 kernels (first 'k0') were launched one by one and the GPU sat idle "
                     "0.60 ms (79% of 0.75 ms) between them: the host took 5.0 us per launch, "
                     "4.0 us of it inside the launch call. The kernel sequence repeats every 50 "
                     "kernels (3 iterations, 0.25 ms each). Model: a CUDA graph replay (3 graph "
                     "launches) removes the host's time per launch (0.75 ms in all) but not its "
                     "other work (1.0 us), and the GPU still runs its 0.15 ms of kernels: about "
                     "0.15 ms (50.0 us per iteration), a saving of 0.60 ms in this run. "
                     "syncscope's own work lengthened each launch (its callbacks' time not "
                     "recorded, CUPTI up to 2.5 us more): without it the saving would be "
                     "between 0.22 ms and 0.60 ms");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_launch_bound_host_work_between_steps)
{
    /* 4 steps of 40 launch-bound kernels (as above) with 60 us of the host's own work between
     * steps, more than a step's 40 us of kernels: a graph removes the launches, not that
     * work. */
    make_names();
    for (size_t i = 0; i < 160; i++) {
        uint64_t t = US(5) * i + US(60) * (i / 40);
        launch(name_table[i % 40], t, US(4), t + US(3), US(1), i == 0 ? site("loop.cu", 12) : 0);
    }
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "kernels_per_iteration", "40");
    /* From 3 us to 3 x 260 + 39 x 5 + 4 us. */
    assert_extra(f, "measured_ns", "976000");
    assert_extra(f, "gpu_idle_ns", "816000");
    /* 159 gaps to the next launch, each counted up to the median 5 us. */
    assert_extra(f, "launch_host_ns", "795000");
    /* 976 - 795 us (the 3 x 60 us of own work and 1 us) and 4 graph launches of 2.5 us:
     * 191 us, above the 160 us of kernels. */
    assert_extra(f, "predicted_ns", "191000");
    assert_extra(f, "saving_traced_ns", "785000");
    /* The 4 us inside each launch call only: 976 - 636 + 10 us. */
    assert_extra(f, "launch_calls_ns", "636000");
    assert_extra(f, "predicted_calls_ns", "350000");
    assert_extra(f, "saving_calls_ns", "626000");
    ck_assert_str_eq(f->message,
                     "160 kernels (first 'k0') were launched one by one and the GPU sat idle "
                     "0.82 ms (83% of 0.98 ms) between them: the host took 5.0 us per launch, "
                     "4.0 us of it inside the launch call. The kernel sequence repeats every 40 "
                     "kernels (4 iterations, 0.24 ms each). Model: a CUDA graph replay (4 graph "
                     "launches) removes the host's time per launch (0.80 ms in all) but not its "
                     "other work (0.18 ms), and the GPU still runs its 0.16 ms of kernels: about "
                     "0.19 ms (47.8 us per iteration), a saving of 0.79 ms (at least 0.63 ms if "
                     "only the time inside the launch calls goes) in this run. syncscope's own "
                     "work lengthened each launch (its callbacks' time not recorded, CUPTI up "
                     "to 2.5 us more): without it the saving would be between 0.39 ms and "
                     "0.79 ms");
}
END_TEST

START_TEST(test_launch_bound_self_cost)
{
    /* The run of the first test, its log saying that syncscope's callbacks took 1 us of each
     * launch: without syncscope a launch costs 1 to 3.5 us less, the GPU's 4 us waits shrink by
     * that (149 to 521.5 us in all) and so does the host time a graph removes. */
    make_names();
    launch_bound_run(150, 50, name_table);
    own_time_meta(NULL, NULL, "150000", "150");
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "saving_traced_ns", "596000");
    assert_extra(f, "self_launch_ns", "1000");
    assert_extra(f, "saving_ns", "447000");
    assert_extra(f, "saving_low_ns", "74500");
    ck_assert_uint_eq(f->evidence.total_ns, US(447));
    ck_assert_ptr_nonnull(strstr(f->message, "a saving of 0.60 ms in this run. syncscope's own "
                                             "work lengthened each launch (its callbacks by 1.0 "
                                             "us, CUPTI up to 2.5 us more): without it the "
                                             "saving would be between 74.5 us and 0.45 ms"));
}
END_TEST

START_TEST(test_launch_bound_sync_records)
{
    /* A log with CUPTI's synchronization records (every trace of syncscope run): they cost
     * each launch 0.5 to 1 us more, so without syncscope a launch costs 0.5 to 3.5 us less. */
    make_names();
    launch_bound_run(150, 50, name_table);
    ss_evlog_set_meta(&log_, "sync_records", "1");
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "self_launch_ns", "0");
    assert_extra(f, "saving_ns", "521500");
    assert_extra(f, "saving_low_ns", "74500");
    ck_assert_ptr_nonnull(strstr(f->message, "(its callbacks' time not recorded, CUPTI about 0.5 "
                                             "us to 3.5 us more): without it the saving would be "
                                             "between 74.5 us and 0.52 ms"));
}
END_TEST

START_TEST(test_launch_bound_all_own_cost)
{
    /* Callbacks of 4 us per launch: even with nothing of CUPTI's, the GPU's 4 us waits are all
     * syncscope's; bare, the loop would keep the GPU busy and a graph save nothing. */
    make_names();
    launch_bound_run(150, 50, name_table);
    own_time_meta(NULL, NULL, "600000", "150");
    run();
    ck_assert_uint_eq(count_of(SS_RULE_LAUNCH_BOUND), 0);
}
END_TEST

START_TEST(test_launch_bound_graph_gap_option)
{
    make_names();
    launch_bound_run(150, 50, name_table);
    opt.graph_kernel_gap_ns = 1000;
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    /* 150 us of kernels and 149 gaps of 1 us. */
    assert_extra(f, "predicted_ns", "299000");
}
END_TEST

START_TEST(test_launch_bound_host_side_bound)
{
    /* 2.5 us kernels would still wait for 10 us graph launches of one iteration each. */
    make_names();
    for (size_t i = 0; i < 40; i++) {
        uint64_t t = US(5) * i;
        launch(name_table[i % 2], t, US(4), t + US(3), 500, i == 0 ? site("loop.cu", 12) : 0);
    }
    opt.graph_launch_host_ns = US(10);
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "kernels_per_iteration", "2");
    assert_extra(f, "iterations", "20");
    /* An iteration is 1 us on the GPU: 10 per graph, 2 graphs of 10 us on the host, after
     * the 0.5 us left of the launches (195.5 us - 39 x 5 us): 20.5 us. */
    assert_extra(f, "iterations_per_graph", "10");
    assert_extra(f, "graph_launches", "2");
    assert_extra(f, "predicted_ns", "20500");
}
END_TEST

START_TEST(test_launch_bound_noise_tolerance)
{
    /* 4 iterations of 50; three kernels replaced by another one: still period 50. */
    make_names();
    for (size_t i = 0; i < 200; i++) {
        uint64_t t = US(5) * i;
        const char *name = (i == 60 || i == 111 || i == 170) ? "noise" : name_table[i % 50];
        launch(name, t, US(4), t + US(3), US(1), i == 0 ? site("loop.cu", 12) : 0);
    }
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "kernels_per_iteration", "50");
    assert_extra(f, "iterations", "4");
}
END_TEST

START_TEST(test_launch_bound_single_kernel_repeated)
{
    const char *step[] = {"step"};
    launch_bound_run(100, 1, step);
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "kernels_per_iteration", "1");
    assert_extra(f, "iterations", "100");
    /* A 1 us iteration: 3 per graph to cover a 2.5 us graph launch; 34 graphs (85 us on the
     * host, after 1 us left of the launches), under the 100 us of kernels. */
    assert_extra(f, "iterations_per_graph", "3");
    assert_extra(f, "graph_launches", "34");
    assert_extra(f, "predicted_ns", "100000");
}
END_TEST

START_TEST(test_launch_bound_busy_gpu)
{
    /* 10 us kernels queue up behind each other: no GPU gap, nothing to gain. */
    make_names();
    uint64_t end = 0;
    for (size_t i = 0; i < 100; i++) {
        uint64_t t = US(5) * i, start = t + US(3) > end ? t + US(3) : end;
        launch(name_table[i % 50], t, US(4), start, US(10), i == 0 ? site("loop.cu", 12) : 0);
        end = start + US(10);
    }
    run();
    ck_assert_uint_eq(count_of(SS_RULE_LAUNCH_BOUND), 0);
}
END_TEST

START_TEST(test_launch_bound_host_busy_elsewhere)
{
    /* The host computes 30 us between 4 us launches: the GPU waits for that work, not for
     * the launches, so a graph would not remove the gaps. */
    make_names();
    for (size_t i = 0; i < 100; i++) {
        uint64_t t = US(34) * i;
        launch(name_table[i % 50], t, US(4), t + US(3), US(1), i == 0 ? site("loop.cu", 12) : 0);
    }
    run();
    ck_assert_uint_eq(count_of(SS_RULE_LAUNCH_BOUND), 0);
}
END_TEST

START_TEST(test_launch_bound_short_run_and_copy_split)
{
    /* 15 launches, a copy on the stream, 15 more: two runs below the 20-kernel minimum. */
    make_names();
    for (size_t i = 0; i < 30; i++) {
        uint64_t t = US(5) * i + (i >= 15 ? US(100) : 0);
        launch(name_table[i % 5], t, US(4), t + US(3), US(1), 0);
        if (i == 14) {
            uint32_t corr = call("cudaMemcpyAsync", t + US(10), t + US(14), S13, 13, 0);
            gpu(SS_EV_MEMCPY, NULL, t + US(20), t + US(30), corr, 13, 4096, SS_COPY_DTOH,
                SS_MEM_PINNED);
        }
    }
    run();
    ck_assert_uint_eq(count_of(SS_RULE_LAUNCH_BOUND), 0);
    /* Without the copy the 30 launches would be one run. */
    opt.launch_min_kernels = 15;
    ss_result_free(&res);
    ss_result_init(&res, SS_RESULT_RUN);
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    ck_assert_uint_eq(f->evidence.count, 2);
    assert_extra(f, "kernels", "30");
    ck_assert_ptr_null(f->file); /* no launch had a stack */
    ck_assert_str_eq(f->evidence.api, "cudaLaunchKernel");
}
END_TEST

START_TEST(test_launch_bound_site_borrowed)
{
    /* Two launch-bound runs of k0..k4 split by a copy; only the very first launch has a
     * stack (as the first launch of a kernel, which loads its module, usually has). The second
     * run takes the site of an earlier launch of its kernels by the same thread: one finding,
     * two occurrences, at loop.cu:12. A run of another thread's launches does not. */
    make_names();
    for (size_t i = 0; i < 60; i++) {
        uint64_t t = US(5) * i + (i >= 30 ? US(100) : 0);
        launch(name_table[i % 5], t, US(4), t + US(3), US(1), i == 0 ? site("loop.cu", 12) : 0);
        if (i == 29) {
            uint32_t corr = call("cudaMemcpyAsync", t + US(10), t + US(14), S13, 13, 0);
            gpu(SS_EV_MEMCPY, NULL, t + US(20), t + US(30), corr, 13, 4096, SS_COPY_DTOH,
                SS_MEM_PINNED);
        }
    }
    for (size_t i = 0; i < 30; i++) {
        uint64_t t = MS(10) + US(5) * i;
        uint32_t corr = next_corr++;
        api((call_spec){.thread = 2,
                        .name = "cudaLaunchKernel",
                        .enter = t,
                        .exit = t + US(4),
                        .corr = corr,
                        .stream = S14,
                        .stream_id = 14,
                        .kind = -1});
        gpu(SS_EV_KERNEL, name_table[i % 5], t + US(3), t + US(4), corr, 14, 0, SS_COPY_UNKNOWN,
            SS_MEM_UNKNOWN);
    }
    run();
    ck_assert_uint_eq(count_of(SS_RULE_LAUNCH_BOUND), 2);
    const ss_finding *sited = NULL, *unsited = NULL;
    for (size_t i = 0; i < res.count; i++) {
        if (res.findings[i].rule != SS_RULE_LAUNCH_BOUND)
            continue;
        if (res.findings[i].file != NULL)
            sited = &res.findings[i];
        else
            unsited = &res.findings[i];
    }
    ck_assert_ptr_nonnull(sited);
    ck_assert_ptr_nonnull(unsited);
    ck_assert_str_eq(sited->file, "loop.cu");
    ck_assert_uint_eq(sited->line, 12);
    ck_assert_uint_eq(sited->evidence.count, 2);
    assert_extra(sited, "kernels", "60");
    ck_assert_uint_eq(unsited->evidence.count, 1);
    assert_extra(unsited, "kernels", "30");
    ck_assert_str_eq(unsited->evidence.stream, "stream 14");
}
END_TEST

START_TEST(test_launch_bound_no_repeat)
{
    /* 40 different kernels, none repeated: no sequence to capture once and replay. */
    static char names[40][8];
    for (size_t i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "u%zu", i);
        uint64_t t = US(5) * i;
        launch(names[i], t, US(4), t + US(3), US(1), 0);
    }
    run();
    ck_assert_uint_eq(count_of(SS_RULE_LAUNCH_BOUND), 0);
}
END_TEST

/* ---- SYNC503 ---- */

/* One chunk at 't': copy in of 'in' ns, kernel of 'k' ns, copy out of 'out' ns, back to back,
 * on 'stream_in' for the copies and 'stream_k' for the kernel; copies of 'bytes' from
 * 'host' memory. The first copy in of the log gets the stack pipe.cu:30. Returns the end. */
/* The kernel name chunk() uses ("work" unless a test says otherwise). */
static const char *chunk_kernel = "work";

static uint64_t chunk(uint64_t t, uint64_t in, uint64_t k, uint64_t out, uint32_t stream_in,
                      uint32_t stream_k, uint64_t bytes, ss_mem_kind host, int first)
{
    uint64_t h_in = stream_in == 13 ? S13 : S14, h_k = stream_k == 13 ? S13 : S14;
    uint32_t c =
        call("cudaMemcpyAsync", t, t + US(5), h_in, stream_in, first ? site("pipe.cu", 30) : 0);
    gpu(SS_EV_MEMCPY, NULL, t, t + in, c, stream_in, bytes, SS_COPY_HTOD, host);
    c = call("cudaLaunchKernel", t + US(5), t + US(10), h_k, stream_k, 0);
    gpu(SS_EV_KERNEL, chunk_kernel, t + in, t + in + k, c, stream_k, 0, SS_COPY_UNKNOWN,
        SS_MEM_UNKNOWN);
    /* The copy out holds the host until the chunk is done (a synchronous pipeline). */
    c = call("cudaMemcpy", t + US(10), t + in + k + out, h_in, stream_in, 0);
    gpu(SS_EV_MEMCPY, NULL, t + in + k, t + in + k + out, c, stream_in, bytes, SS_COPY_DTOH, host);
    return t + in + k + out;
}

START_TEST(test_pipeline_ten_chunks)
{
    /* 10 chunks of 3 : 7 : 2 ms; copy in varies by 0, 10 or 20 us. */
    uint64_t t = MS(1);
    for (int i = 0; i < 10; i++)
        t = chunk(t, MS(3) + US(10) * (uint64_t)(i % 3), MS(7), MS(2), 13, 13, 1u << 20,
                  SS_MEM_PINNED, i == 0);
    run();
    /* The pipeline, and its synchronous copies out (SYNC202). */
    ck_assert_uint_eq(res.count, 2);
    ck_assert_uint_eq(count_of(SS_RULE_SYNC_COPY_IN_PIPELINE), 1);
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    ck_assert_str_eq(f->file, "pipe.cu");
    ck_assert_uint_eq(f->line, 30);
    ck_assert_int_eq(f->severity, SS_SEV_NOTE);
    assert_extra(f, "chunks", "10");
    /* Medians: copy in 3.010 ms (sorted: 4 x 3.000, 3 x 3.010, 3 x 3.020; the lower middle). */
    assert_extra(f, "stage_h2d_ns", "3010000");
    assert_extra(f, "stage_kernel_ns", "7000000");
    assert_extra(f, "stage_d2h_ns", "2000000");
    assert_extra(f, "measured_ns", "120090000");
    /* 3.01 + 7 + 2 ms, then 9 x 7 ms. */
    assert_extra(f, "predicted_ns", "75010000");
    assert_extra(f, "saving_ns", "45080000");
    assert_extra(f, "pageable_copies", "0");
    ck_assert_ptr_null(extra(f, "stage_h2d_pinned_ns"));
    ck_assert_uint_eq(f->evidence.bytes, 20u << 20);
    ck_assert_str_eq(f->evidence.stream, "stream 13");
    ck_assert_str_eq(f->message,
                     "10 chunks of copy in, kernel, copy out ran one after another with nothing "
                     "overlapping them: 120.09 ms, of which the GPU worked 120.09 ms (per chunk, "
                     "median: copy in 3.01 ms, kernel 7.00 ms, copy out 2.00 ms). Model: "
                     "double-buffered, a chunk takes the longer of the host's own work, which "
                     "stays, and its slowest stage with pinned buffers (7.00 ms), plus one "
                     "pipeline fill: about 75.01 ms, a saving of 45.08 ms");
}
END_TEST

START_TEST(test_pipeline_host_work_between_chunks)
{
    /* 10 chunks of 0.1 ms stages with 2 ms of the host's own work after each but the last
     * (a CuPy loop's Python, a sample's CPU work): double buffering hides the GPU's 0.3 ms
     * per chunk behind that work and nothing more. */
    uint64_t t = 0;
    for (int i = 0; i < 10; i++)
        t = chunk(t, US(100), US(100), US(100), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0) +
            (i < 9 ? MS(2) : 0);
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    assert_extra(f, "chunks", "10");
    assert_extra(f, "measured_ns", "21000000");
    assert_extra(f, "gpu_ns", "3000000");
    /* 2 ms of its own work and the two 5 us calls that enqueue (which stay). */
    assert_extra(f, "chunk_idle_ns", "2010000");
    assert_extra(f, "chunk_period_ns", "2300000");
    /* 9 chunks of 2.01 ms (the host's work), the last one's 0.1 ms slowest stage, one fill of
     * 0.2 ms: 18.39 ms; the saving, 2.61 ms, stays under the 2.9 ms the fix can remove. */
    assert_extra(f, "predicted_ns", "18390000");
    assert_extra(f, "saving_ns", "2610000");
    assert_extra(f, "removable_ns", "2900000");
    ck_assert_str_eq(f->message,
                     "10 chunks of copy in, kernel, copy out ran one after another with nothing "
                     "overlapping them: 21.00 ms, of which the GPU worked 3.00 ms (per chunk, "
                     "median: copy in 0.10 ms, kernel 0.10 ms, copy out 0.10 ms) and was idle "
                     "87% of each chunk's time waiting for the host's own work (2.01 ms per "
                     "chunk). Model: double-buffered, a chunk takes the longer of the host's own "
                     "work, which stays, and its slowest stage with pinned buffers (0.10 ms), "
                     "plus one pipeline fill: about 18.39 ms. The GPU was idle 87% of this loop "
                     "waiting for the host's own work: overlap would save at most 2.61 ms (of the "
                     "2.90 ms that is not the host's own work)");
}
END_TEST

START_TEST(test_pipeline_own_time_taken_off)
{
    /* The chunks above, each copy in with a stack, in a trace that says the capture took
     * 10 us after each call whose stack it took and 2 us in each launch: 12 us of each
     * chunk's 2.01 ms of the host's own work is syncscope's (the last chunk's 10 us of
     * enqueueing, all of it): 118 us in all, off the 21 ms measured and off that work. 9
     * chunks of 1.998 ms, the last one's 0.1 ms, one fill of 0.2 ms: 18.282 ms, against
     * 20.882 ms without syncscope: 2.6 ms saved (2.61 ms with syncscope's time counted). */
    own_time_meta("100000", "10", "20000", "10");
    uint64_t t = 0;
    for (int i = 0; i < 10; i++)
        t = chunk(t, US(100), US(100), US(100), 13, 13, 1u << 20, SS_MEM_PINNED, 1) +
            (i < 9 ? MS(2) : 0);
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    assert_extra(f, "measured_ns", "21000000");
    assert_extra(f, "self_ns", "118000");
    assert_extra(f, "chunk_idle_ns", "1998000");
    assert_extra(f, "predicted_ns", "18282000");
    assert_extra(f, "saving_ns", "2600000");
    assert_extra(f, "removable_ns", "2900000");
    ck_assert_str_eq(f->message,
                     "10 chunks of copy in, kernel, copy out ran one after another with nothing "
                     "overlapping them: 21.00 ms (syncscope's own time in it, taken off: "
                     "0.12 ms), of which the GPU worked 3.00 ms (per chunk, median: copy in "
                     "0.10 ms, kernel 0.10 ms, copy out 0.10 ms) and was idle 86% of each "
                     "chunk's time waiting for the host's own work (2.00 ms per chunk). Model: "
                     "double-buffered, a chunk takes the longer of the host's own work, which "
                     "stays, and its slowest stage with pinned buffers (0.10 ms), plus one "
                     "pipeline fill: about 18.28 ms. The GPU was idle 86% of this loop waiting "
                     "for the host's own work: overlap would save at most 2.60 ms (of the "
                     "2.90 ms that is not the host's own work)");
}
END_TEST

START_TEST(test_pipeline_host_time_inside_the_calls)
{
    /* Four chunks whose copy calls outlast their GPU copies (staging: the copy in's call
     * 1 ms, its copy the last 0.4 ms of it; the copy out's call 0.29 ms after its copy), then
     * 0.2 ms of the host's own work. The time inside the calls is the fix's to remove; only
     * the 0.2 ms (and 1 us between two calls) is the host's own. */
    for (int i = 0; i < 4; i++) {
        uint64_t t = US(1600) * (uint64_t)i;
        uint32_t c = call("cudaMemcpy", t, t + US(1000), S13, 13, i == 0 ? site("pipe.cu", 30) : 0);
        gpu(SS_EV_MEMCPY, NULL, t + US(600), t + US(1000), c, 13, 1u << 20, SS_COPY_HTOD,
            SS_MEM_PINNED);
        c = call("cudaLaunchKernel", t + US(1000), t + US(1005), S13, 13, 0);
        gpu(SS_EV_KERNEL, "work", t + US(1010), t + US(1110), c, 13, 0, SS_COPY_UNKNOWN,
            SS_MEM_UNKNOWN);
        c = call("cudaMemcpy", t + US(1006), t + US(1400), S13, 13, 0);
        gpu(SS_EV_MEMCPY, NULL, t + US(1110), t + US(1200), c, 13, 1u << 20, SS_COPY_DTOH,
            SS_MEM_PINNED);
    }
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    assert_extra(f, "chunks", "4");
    /* From the first copy's start (0.6 ms) to the last copy out's end (4.8 + 1.2 ms). */
    assert_extra(f, "measured_ns", "5400000");
    assert_extra(f, "gpu_ns", "2360000");
    /* 3 x 206 us of own work (the launch call, which stays, and the gaps) and the last
     * chunk's 6 us: 5.4 - 0.624 ms. */
    assert_extra(f, "removable_ns", "4776000");
    assert_extra(f, "chunk_idle_ns", "206000");
    /* Each chunk the slowest stage, 0.4 ms, over its 0.2 ms of own work; a fill of 0.19 ms. */
    assert_extra(f, "predicted_ns", "1790000");
    assert_extra(f, "saving_ns", "3610000");
}
END_TEST

START_TEST(test_pipeline_two_loops_one_finding)
{
    /* Two chains of 5 chunks at one call site, split by a lone kernel: one finding of 10
     * chunks in 2 loops, its figures the sums of the two (medians: their mean). */
    uint64_t t = 0;
    for (int loop = 0; loop < 2; loop++) {
        for (int i = 0; i < 5; i++)
            t = chunk(t, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0);
        uint32_t c = call("cudaLaunchKernel", t, t + US(3), S13, 13, 0);
        gpu(SS_EV_KERNEL, "other", t + US(5), t + US(10), c, 13, 0, SS_COPY_UNKNOWN,
            SS_MEM_UNKNOWN);
        t += MS(1);
    }
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    ck_assert_uint_eq(f->evidence.count, 2);
    assert_extra(f, "chunks", "10");
    /* Each chain: 60 ms measured, 3 + 7 + 2 + 4 x 7 = 40 ms predicted. */
    assert_extra(f, "measured_ns", "120000000");
    assert_extra(f, "predicted_ns", "80000000");
    assert_extra(f, "stage_kernel_ns", "7000000");
    ck_assert_str_eq(f->message,
                     "10 chunks (in 2 loops) of copy in, kernel, copy out ran one after another "
                     "with nothing overlapping them: 120.00 ms, of which the GPU worked 120.00 "
                     "ms (per chunk, median: copy in 3.00 ms, kernel 7.00 ms, copy out 2.00 ms). "
                     "Model: double-buffered, a chunk takes the longer of the host's own work, "
                     "which stays, and its slowest stage with pinned buffers (7.00 ms), plus one "
                     "pipeline fill: about 80.00 ms, a saving of 40.00 ms");
}
END_TEST

START_TEST(test_pipeline_pageable_at_pinned_rate)
{
    /* Pageable copies of 54 MB at 20 ms in and 8 ms out; at the default 54 GB/s pinned rate
     * they take 1 ms each. */
    uint64_t t = 0;
    for (int i = 0; i < 4; i++)
        t = chunk(t, MS(20), MS(7), MS(8), 13, 13, 54000000u, SS_MEM_PAGEABLE, i == 0);
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    assert_extra(f, "stage_h2d_ns", "20000000");
    assert_extra(f, "stage_d2h_ns", "8000000");
    assert_extra(f, "stage_h2d_pinned_ns", "1000000");
    assert_extra(f, "stage_d2h_pinned_ns", "1000000");
    assert_extra(f, "pageable_copies", "8");
    assert_extra(f, "pinned_h2d_bytes_per_us", "54000");
    assert_extra(f, "measured_ns", "140000000");
    /* 1 + 7 + 1 ms, then 3 x 7 ms. */
    assert_extra(f, "predicted_ns", "30000000");
}
END_TEST

START_TEST(test_pipeline_pinned_rate_from_log)
{
    /* A pinned 10 MB copy in 0.5 ms elsewhere in the log (after the chain: before it, it would
     * join the first chunk's copy-in and give it a shape of its own): 20 GB/s in, the default
     * out. */
    uint64_t t = MS(1);
    for (int i = 0; i < 3; i++)
        t = chunk(t, MS(20), MS(7), MS(8), 13, 13, 54000000u, SS_MEM_PAGEABLE, i == 0);
    uint32_t c = call("cudaMemcpyAsync", t + MS(1), t + MS(1) + US(5), S14, 14, 0);
    gpu(SS_EV_MEMCPY, NULL, t + MS(2), t + MS(2) + US(500), c, 14, 10000000u, SS_COPY_HTOD,
        SS_MEM_PINNED);
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    assert_extra(f, "pinned_h2d_bytes_per_us", "20000");
    assert_extra(f, "pinned_d2h_bytes_per_us", "54000");
    assert_extra(f, "stage_h2d_pinned_ns", "2700000");
    assert_extra(f, "predicted_ns", "24700000");
}
END_TEST

START_TEST(test_pipeline_serialized_across_streams)
{
    /* Copies on stream 14, kernels on stream 13, never overlapping: still one chain. */
    uint64_t t = 0;
    for (int i = 0; i < 5; i++)
        t = chunk(t, MS(3), MS(7), MS(2), 14, 13, 1u << 20, SS_MEM_PINNED, i == 0);
    run();
    const ss_finding *f = only(SS_RULE_SERIALIZED_PIPELINE);
    assert_extra(f, "chunks", "5");
    ck_assert_str_eq(f->evidence.stream, "stream 14; other streams: 13");
}
END_TEST

START_TEST(test_pipeline_overlapping_streams)
{
    /* Two streams each run chunks, shifted by half a chunk: the device already overlaps
     * them. */
    for (int i = 0; i < 10; i++) {
        chunk(MS(12) * (uint64_t)i, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0);
        chunk(MS(12) * (uint64_t)i + MS(6), MS(3), MS(7), MS(2), 14, 14, 1u << 20, SS_MEM_PINNED,
              0);
    }
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SERIALIZED_PIPELINE), 0);
}
END_TEST

START_TEST(test_pipeline_too_few_chunks)
{
    uint64_t t = 0;
    for (int i = 0; i < 2; i++)
        t = chunk(t, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0);
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SERIALIZED_PIPELINE), 0);
}
END_TEST

START_TEST(test_pipeline_needs_a_repeated_shape)
{
    /* Four copy-in, kernel, copy-out chunks around four different kernels (an autotuner
     * trying candidates): no repeated shape, no pipeline; with the same kernel three times
     * among them, one. */
    static const char *const candidates[] = {"gemm_64x64", "gemm_128x64", "gemm_64x128",
                                             "gemm_128x128"};
    uint64_t t = 0;
    for (int i = 0; i < 4; i++) {
        chunk_kernel = candidates[i];
        t = chunk(t, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0);
    }
    chunk_kernel = "work";
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SERIALIZED_PIPELINE), 0);
    ss_result_free(&res);
    ss_result_init(&res, SS_RESULT_RUN);
    for (int i = 0; i < 3; i++)
        t = chunk(t, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, 0);
    run();
    /* The four candidates' chunks are the startup phase (the first repeated kernels begin
     * after them): the what-if leaves them out. */
    assert_extra(only(SS_RULE_SERIALIZED_PIPELINE), "chunks", "3");
}
END_TEST

START_TEST(test_pipeline_no_meaningful_saving)
{
    /* A kernel stage of 100 ms against 0.1 ms copies: double buffering saves under 10%. */
    uint64_t t = 0;
    for (int i = 0; i < 5; i++)
        t = chunk(t, US(100), MS(100), US(100), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0);
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SERIALIZED_PIPELINE), 0);
}
END_TEST

START_TEST(test_pipeline_incomplete_chunk_breaks_chain)
{
    /* Two chunks, a copy in followed directly by a copy out, then two chunks: no chain of
     * three. */
    uint64_t t = 0;
    for (int i = 0; i < 2; i++)
        t = chunk(t, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, i == 0);
    uint32_t c = call("cudaMemcpyAsync", t, t + US(5), S13, 13, 0);
    gpu(SS_EV_MEMCPY, NULL, t, t + MS(3), c, 13, 1u << 20, SS_COPY_HTOD, SS_MEM_PINNED);
    c = call("cudaMemcpyAsync", t + US(6), t + US(9), S13, 13, 0);
    gpu(SS_EV_MEMCPY, NULL, t + MS(3), t + MS(5), c, 13, 1u << 20, SS_COPY_DTOH, SS_MEM_PINNED);
    t += MS(5);
    for (int i = 0; i < 2; i++)
        t = chunk(t, MS(3), MS(7), MS(2), 13, 13, 1u << 20, SS_MEM_PINNED, 0);
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SERIALIZED_PIPELINE), 0);
}
END_TEST

/* ---- SYNC301's prediction ---- */

/* Ten steps of PyTorch's `.item()` (train.py:28), one every 500 us: a kernel on stream 13
 * (10 to 280 us into the step), a 4-byte cudaMemcpyAsync into pinned memory that returns at
 * once (its copy 280 to 282 us), and cudaStreamSynchronize from 30 to 285 us, which waits
 * for them; the next step's kernel starts 510 us in: the GPU idles 228 us after each value
 * arrived, the last one's nothing. */
static void item_steps(void)
{
    for (uint32_t i = 0; i < 10; i++) {
        uint64_t t0 = US(500) * i;
        launch("loss", t0, US(5), t0 + US(10), US(270), 0);
        uint32_t corr = next_corr++;
        api((call_spec){.name = "cudaMemcpyAsync",
                        .enter = t0 + US(20),
                        .exit = t0 + US(25),
                        .corr = corr,
                        .stream = S13,
                        .stream_id = 13,
                        .bytes = 4,
                        .kind = 2});
        gpu(SS_EV_MEMCPY, NULL, t0 + US(280), t0 + US(282), corr, 13, 4, SS_COPY_DTOH,
            SS_MEM_PINNED);
        call("cudaStreamSynchronize", t0 + US(30), t0 + US(285), S13, 13, site("train.py", 28));
    }
}

START_TEST(test_readback_prediction_as_traced)
{
    /* A trace without syncscope's own times: the nine idle times as they were, 2.052 ms, 9 of
     * 10 of it saved. */
    item_steps();
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->evidence.count, 10);
    assert_extra(f, "overlap_ns", "2052000");
    assert_extra(f, "saving_ns", "1846800");
    ck_assert_ptr_null(extra(f, "self_ns"));
}
END_TEST

START_TEST(test_readback_prediction_without_own_time)
{
    /* The capture took 13 us on average after a call whose stack it took returned (the
     * synchronization's, in the GPU's idle time after the value) and 0.3 us in each launch
     * (the next step's): 13.3 us of each of the nine idle times is syncscope's, 228 - 13.3 =
     * 214.7 us overlap: 1.9323 ms, 9 of 10 of it 1.73907 ms. The last read, after which
     * nothing runs, has no idle time to take it from. */
    own_time_meta("130000", "10", "3000", "10");
    item_steps();
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    assert_extra(f, "overlap_ns", "1932300");
    assert_extra(f, "self_ns", "119700");
    assert_extra(f, "saving_ns", "1739070");
    ck_assert_str_eq(f->message,
                     "cudaMemcpyAsync read back 40 bytes to the host in 10 copies and blocked it "
                     "2.60 ms (0.26 ms at most) until earlier device work finished (each waited "
                     "in the cudaStreamSynchronize that followed). Model: kept on the device "
                     "and read every 10th time, the other reads no longer hold the host, and "
                     "its own work after each (the GPU's idle time after the value arrived) "
                     "overlaps the device work the read waited for, the lesser of the two: "
                     "1.93 ms in all (syncscope's own time in it taken off: 0.12 ms), 9 of 10 "
                     "of it saved, about 1.74 ms");
}
END_TEST

START_TEST(test_readback_own_time_over_idle)
{
    /* Own time longer than an idle time takes all of it, no more: nothing overlaps. */
    own_time_meta("3000000", "10", NULL, NULL);
    item_steps();
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    assert_extra(f, "overlap_ns", "0");
    assert_extra(f, "self_ns", "2052000");
    assert_extra(f, "saving_ns", "0");
}
END_TEST

START_TEST(test_whatif_large_log)
{
    /* 200,000 launch-bound kernels in 4,000 iterations of 50 kernels: linear-time search. */
    make_names();
    launch_bound_run(200000, 50, name_table);
    run();
    const ss_finding *f = only(SS_RULE_LAUNCH_BOUND);
    assert_extra(f, "kernels_per_iteration", "50");
    assert_extra(f, "iterations", "4000");
}
END_TEST

static Suite *whatif_suite(void)
{
    const fixture_case cases[] = {
        {"launch_bound",
         {test_launch_bound_period_and_prediction, test_launch_bound_host_work_between_steps,
          test_launch_bound_self_cost, test_launch_bound_sync_records,
          test_launch_bound_all_own_cost, test_launch_bound_graph_gap_option,
          test_launch_bound_host_side_bound, test_launch_bound_noise_tolerance,
          test_launch_bound_single_kernel_repeated, test_launch_bound_busy_gpu,
          test_launch_bound_host_busy_elsewhere, test_launch_bound_short_run_and_copy_split,
          test_launch_bound_site_borrowed, test_launch_bound_no_repeat, NULL}},
        {"pipeline",
         {test_pipeline_ten_chunks, test_pipeline_host_work_between_chunks,
          test_pipeline_two_loops_one_finding, test_pipeline_own_time_taken_off,
          test_pipeline_host_time_inside_the_calls, test_pipeline_pageable_at_pinned_rate,
          test_pipeline_pinned_rate_from_log, test_pipeline_serialized_across_streams,
          test_pipeline_overlapping_streams, test_pipeline_too_few_chunks,
          test_pipeline_needs_a_repeated_shape, test_pipeline_no_meaningful_saving,
          test_pipeline_incomplete_chunk_breaks_chain, NULL}},
        {"readback",
         {test_readback_prediction_as_traced, test_readback_prediction_without_own_time,
          test_readback_own_time_over_idle, NULL}},
        {"scale", {test_whatif_large_log, NULL}},
    };
    return fixture_suite("whatif", cases, sizeof cases / sizeof cases[0], setup, 60);
}

SS_CHECK_MAIN(whatif_suite)
