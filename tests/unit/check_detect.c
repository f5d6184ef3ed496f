/* check_detect.c: the runtime detectors over hand-built event logs, rule by rule. */
#include "check_main.h"
#include "detect.h"
#include "detect_fixture.h"
#include "files.h"
#include "log.h"

#include <cjson/cJSON.h>
#include <dirent.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEGACY_ID 7u /* the CUPTI stream id the legacy stream gets in these logs */
#define S13 0x1000u  /* handle of the stream with CUPTI id 13 */

static uint32_t site(const char *file, unsigned line)
{
    return site_in("/work/app", file, line);
}

static void kernel(const char *name, uint64_t start, uint64_t end, uint32_t corr,
                   uint32_t stream_id)
{
    gpu_op((gpu_spec){.type = SS_EV_KERNEL,
                      .name = name,
                      .start = start,
                      .end = end,
                      .corr = corr,
                      .stream_id = stream_id});
}

static void copy(uint32_t type, uint64_t start, uint64_t end, uint32_t corr, uint32_t stream_id,
                 uint64_t bytes, ss_copy_kind kind, ss_mem_kind src, ss_mem_kind dst)
{
    gpu_op((gpu_spec){.type = type,
                      .start = start,
                      .end = end,
                      .corr = corr,
                      .stream_id = stream_id,
                      .bytes = bytes,
                      .kind = kind,
                      .src = src,
                      .dst = dst});
}

static void stream_record(uint64_t handle, uint32_t stream_id, uint32_t flags)
{
    stream_rec(handle, stream_id, flags, 0, 0);
}

/* cudaLaunchKernel by 'thread' onto the stream 'handle' (CUPTI id 'stream_id'). */
static void launch_call(uint32_t thread, uint64_t enter, uint64_t exit, uint32_t corr,
                        uint64_t handle, uint32_t stream_id, uint32_t stack)
{
    api((call_spec){.thread = thread,
                    .name = "cudaLaunchKernel",
                    .enter = enter,
                    .exit = exit,
                    .corr = corr,
                    .stream = handle,
                    .stream_id = stream_id,
                    .kind = -1,
                    .stack = stack});
}

/* cudaMemcpy of 'bytes' by 'thread' ('kind': the cudaMemcpyKind argument). */
static void memcpy_call(uint32_t thread, uint64_t enter, uint64_t exit, uint32_t corr,
                        uint64_t bytes, int32_t kind, uint32_t stack)
{
    api((call_spec){.thread = thread,
                    .name = "cudaMemcpy",
                    .enter = enter,
                    .exit = exit,
                    .corr = corr,
                    .bytes = bytes,
                    .kind = kind,
                    .stack = stack});
}

/* cudaMemcpyAsync of 'bytes' on stream 13 by 'thread' ('kind': the cudaMemcpyKind). */
static void async_copy_call(uint32_t thread, uint64_t enter, uint64_t exit, uint32_t corr,
                            uint64_t bytes, int32_t kind, uint32_t stack)
{
    api((call_spec){.thread = thread,
                    .name = "cudaMemcpyAsync",
                    .enter = enter,
                    .exit = exit,
                    .corr = corr,
                    .stream = S13,
                    .stream_id = 13,
                    .bytes = bytes,
                    .kind = kind,
                    .stack = stack});
}

/* cudaFree by thread 1. */
static void free_call(uint64_t enter, uint64_t exit, uint32_t corr, uint32_t stack)
{
    api((call_spec){.name = "cudaFree",
                    .enter = enter,
                    .exit = exit,
                    .corr = corr,
                    .kind = -1,
                    .stack = stack});
}

/* The kernel 'scale' on stream 13, launched at 0 (correlation 1), running 10..310 us. */
static void pending_scale(void)
{
    launch_call(1, 0, US(5), 1, S13, 13, site("main.cu", 30));
    kernel("scale", US(10), US(310), 1, 13);
}

/* ---- SYNC301 ---- */

START_TEST(test_readback_positive)
{
    pending_scale();
    memcpy_call(1, US(20), US(320), 2, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "main.cu");
    ck_assert_uint_eq(f->line, 42);
    ck_assert_str_eq(f->function, "main");
    ck_assert_int_eq(f->severity, SS_SEV_WARNING);
    ck_assert_int_eq(f->origin, SS_ORIGIN_RUNTIME);
    ck_assert_uint_eq(f->frame_count, 2);
    ck_assert_str_eq(f->frames[0].module, "/usr/local/cuda/lib64/libcudart.so.13");
    ck_assert_uint_eq(f->frames[1].line, 42);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(300));
    ck_assert_uint_eq(f->evidence.max_ns, US(300));
    ck_assert_uint_eq(f->evidence.bytes, 4);
    ck_assert_str_eq(f->evidence.api, "cudaMemcpy");
    ck_assert_str_eq(f->evidence.direction, "DtoH");
    ck_assert_str_eq(f->evidence.host_kind, "pageable");
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    ck_assert_str_eq(f->evidence.stream, "stream 7");
    ck_assert_int_eq(f->evidence.device, 0);
    ck_assert_str_eq(f->message, "cudaMemcpy read back 4 bytes to the host in 1 copy and "
                                 "blocked it 0.30 ms (0.30 ms at most) until earlier device "
                                 "work finished");
    ck_assert_uint_eq(res.blocked_ns, US(300));
}
END_TEST

START_TEST(test_readback_nothing_pending)
{
    memcpy_call(1, US(20), US(40), 2, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(30), US(33), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    /* It synchronized, and found the device idle: a latent note, not a warning. */
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->line, 42);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
    ck_assert_str_eq(f->evidence.direction, "DtoH");
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaMemcpy read 4 bytes back to the host");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_readback_async_api_and_size_limit)
{
    /* A 4-byte cudaMemcpyAsync readback is SYNC301 (not 201); a 32-byte one is not a
     * readback: as a pageable async copy it is SYNC201. */
    pending_scale();
    async_copy_call(1, US(20), US(320), 2, 4, 2, site("loss.cu", 7));
    copy(SS_EV_MEMCPY, US(312), US(315), 2, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    launch_call(1, US(330), US(335), 3, S13, 13, site("main.cu", 30));
    kernel("scale", US(340), US(640), 3, 13);
    async_copy_call(1, US(350), US(650), 4, 32, 2, site("loss.cu", 9));
    copy(SS_EV_MEMCPY, US(642), US(645), 4, 13, 32, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *r = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(r->line, 7);
    ck_assert_str_eq(r->evidence.api, "cudaMemcpyAsync");
    const ss_finding *p = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(p->line, 9);
    ck_assert_uint_eq(p->evidence.bytes, 32);
}
END_TEST

START_TEST(test_readback_limit_option)
{
    pending_scale();
    memcpy_call(1, US(20), US(320), 2, 64, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 64, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PINNED);
    opt.readback_max_bytes = 64;
    run();
    ck_assert_uint_eq(res.count, 1);
    ck_assert_str_eq(only(SS_RULE_SCALAR_READBACK)->evidence.host_kind, "pinned");
}
END_TEST

/* A cudaMemcpyAsync DtoH of 'bytes' into pageable memory on stream 13 by 'thread', called over
 * [enter, exit] at file:line, its copy running [start, end] on the GPU. */
static void dtoh_async(uint32_t thread, uint64_t enter, uint64_t exit, uint32_t corr,
                       uint64_t bytes, uint64_t start, uint64_t end, const char *file,
                       unsigned line)
{
    async_copy_call(thread, enter, exit, corr, bytes, 2, site(file, line));
    copy(SS_EV_MEMCPY, start, end, corr, 13, bytes, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
}

/* 'name' (a synchronization) of stream 'stream_id' (handle 'handle') by 'thread'. */
static void sync_call(uint32_t thread, const char *name, uint64_t handle, uint32_t stream_id,
                      uint64_t enter, uint64_t exit, uint32_t corr, const char *file, unsigned line)
{
    api((call_spec){.thread = thread,
                    .name = name,
                    .enter = enter,
                    .exit = exit,
                    .corr = corr,
                    .stream = handle,
                    .stream_id = stream_id,
                    .kind = -1,
                    .stack = site(file, line)});
}

/* PyTorch's .item(): a 4-byte cudaMemcpyAsync that returns at once (PyTorch's goes into pinned
 * memory, this one into pageable: the kind does not matter to SYNC301), then
 * cudaStreamSynchronize of the same stream, which waits for the queued kernel. */
static void item_pattern(uint32_t sync_stream_id, uint64_t sync_handle, const char *sync_name)
{
    pending_scale();
    dtoh_async(1, US(20), US(32), 2, 4, US(311), US(313), "train.py", 36);
    sync_call(1, sync_name, sync_handle, sync_stream_id, US(35), US(320), 3, "train.py", 36);
}

START_TEST(test_readback_then_stream_sync)
{
    item_pattern(13, S13, "cudaStreamSynchronize");
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "train.py");
    ck_assert_uint_eq(f->line, 36);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(12) + US(285));
    ck_assert_uint_eq(f->evidence.bytes, 4);
    ck_assert_str_eq(f->evidence.api, "cudaMemcpyAsync");
    ck_assert_str_eq(f->evidence.host_kind, "pageable");
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    ck_assert_str_eq(f->message, "cudaMemcpyAsync read back 4 bytes to the host in 1 copy and "
                                 "blocked it 0.30 ms (0.30 ms at most) until earlier device work "
                                 "finished (each waited in the cudaStreamSynchronize that "
                                 "followed)");
    ck_assert_uint_eq(res.blocked_ns, US(297));
}
END_TEST

START_TEST(test_readback_then_device_sync)
{
    item_pattern(0, 0, "cudaDeviceSynchronize");
    run();
    ck_assert_uint_eq(res.count, 1);
    ck_assert_uint_eq(only(SS_RULE_SCALAR_READBACK)->evidence.total_ns, US(297));
}
END_TEST

START_TEST(test_readback_then_other_stream_sync)
{
    /* The synchronization is of another stream: not the readback's wait. It is SYNC401 on its
     * own only if it waited for something of its stream (here nothing: no finding), and the
     * 4-byte copy is not SYNC201 either. */
    item_pattern(14, 0x2000u, "cudaStreamSynchronize");
    run();
    /* Each synchronized (the copy into pageable memory, the synchronization of stream 14),
     * neither waited for earlier work: two latent notes. */
    ck_assert_uint_eq(blocking_count(), 0);
    ck_assert_uint_eq(res.count, 2);
    ck_assert_uint_eq(only_latent(SS_RULE_SCALAR_READBACK)->line, 36);
    ck_assert_ptr_null(only_latent(SS_RULE_SCALAR_READBACK)->evidence.waited_for);
    ck_assert_uint_eq(only_latent(SS_RULE_SYNC_IN_LOOP)->evidence.total_ns, 0);
}
END_TEST

START_TEST(test_readback_sync_not_next)
{
    /* A launch between the copy and the synchronization: the synchronization waits for more
     * than the value, so it stays SYNC401 and the copy (which waited for nothing) is no
     * finding. */
    pending_scale();
    dtoh_async(1, US(20), US(32), 2, 4, US(311), US(313), "train.py", 36);
    launch_call(1, US(33), US(34), 3, S13, 13, site("train.py", 37));
    kernel("scale", US(313), US(400), 3, 13);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(35), US(405), 4, "train.py", 38);
    run();
    ck_assert_uint_eq(blocking_count(), 1);
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_uint_eq(f->line, 38);
    ck_assert_uint_eq(f->evidence.total_ns, US(370));
    /* The copy into pageable memory synchronized by itself, and found nothing pending. */
    ck_assert_uint_eq(res.count, 2);
    ck_assert_uint_eq(only_latent(SS_RULE_SCALAR_READBACK)->line, 36);
}
END_TEST

START_TEST(test_readback_then_idle_sync)
{
    /* Nothing pending when the value is read (the loop drained first): neither the copy nor
     * the synchronization is a finding, although the copy is pageable. */
    dtoh_async(1, US(20), US(32), 2, 8, US(25), US(27), "train.py", 54);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(35), US(40), 3, "train.py", 54);
    run();
    /* One latent readback: the copy and the synchronization after it. */
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->line, 54);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaMemcpyAsync read 8 bytes back to the host and "
                                 "cudaStreamSynchronize waited for the device");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

/* ---- a synchronization that waited for its copy's own transfer alone ---- */

/* PyTorch's .item() with nothing queued before it: a 4-byte cudaMemcpyAsync into pinned memory
 * that returns at once, its transfer [30, 33] us, and the cudaStreamSynchronize of its stream
 * [25, 36] us (11 us: 5 us or more), which waits for that transfer alone. With 'kernel', a
 * kernel of stream 14 (launched first, running until 34 us) that a device synchronization
 * also waits for. */
static void item_own_transfer(const char *sync_name, int kernel_too)
{
    if (kernel_too) {
        launch_call(1, 0, US(2), 5, 0x2000u, 14, site("main.cu", 31));
        kernel("bias", US(4), US(34), 5, 14);
    }
    async_copy_call(1, US(20), US(22), 2, 4, 2, site("train.py", 36));
    copy(SS_EV_MEMCPY, US(30), US(33), 2, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PINNED);
    int device = strcmp(sync_name, "cudaDeviceSynchronize") == 0;
    sync_call(1, sync_name, device ? 0 : S13, device ? 0 : 13, US(25), US(36), 3, "train.py", 36);
}

START_TEST(test_readback_sync_waited_for_own_transfer)
{
    /* The synchronization blocked 11 us for the value's own transfer: the readback's (a latent
     * one: nothing earlier was waited for), no SYNC401. */
    item_own_transfer("cudaStreamSynchronize", 0);
    run();
    ck_assert_uint_eq(blocking_count(), 0);
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "train.py");
    ck_assert_uint_eq(f->line, 36);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaMemcpyAsync read 4 bytes back to the host and "
                                 "cudaStreamSynchronize waited for the device");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_readback_sync_waited_for_earlier_kernel_too)
{
    /* The device synchronization after the same readback also waited for stream 14's kernel:
     * earlier work, so it is SYNC401 of its own (its 11 us, over two streams); the copy into
     * pinned memory did not synchronize by itself: no readback finding. */
    item_own_transfer("cudaDeviceSynchronize", 1);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_uint_eq(f->line, 36);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(11));
    ck_assert_str_eq(extra(f, "over_synchronized"), "1");
}
END_TEST

START_TEST(test_pageable_copy_sync_waited_for_own_transfer)
{
    /* model.to(dev): a staged pageable HtoD copy (40 us) with nothing queued before it, then
     * cudaStreamSynchronize (40 us) waiting for the copy's own transfer alone: both the copy's
     * blocking, one SYNC201 of 80 us that waited for no earlier work; no SYNC401. */
    async_copy_call(1, US(20), US(60), 2, 196608, 1, site("infer.py", 20));
    copy(SS_EV_MEMCPY, US(70), US(100), 2, 13, 196608, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(62), US(102), 3, "infer.py", 20);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(f->line, 20);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(80));
    ck_assert_ptr_null(f->evidence.waited_for);
    ck_assert_uint_eq(res.blocked_ns, US(80));
}
END_TEST

/* The light mode's .item() copy: no GPU record; the copy's probe found its stream busy
 * ('pending') or idle. 'probe_pending': the log says whether its copies found work pending
 * (metadata probe_pending 1). */
static void light_readback(int pending, int probe_pending)
{
    ck_assert_int_eq(ss_evlog_set_meta(&log_, "mode", "light"), 0);
    if (probe_pending)
        ck_assert_int_eq(ss_evlog_set_meta(&log_, "probe_pending", "1"), 0);
    api((call_spec){.name = "cudaMemcpyAsync",
                    .enter = US(20),
                    .exit = US(22),
                    .corr = 2,
                    .stream = S13,
                    .stream_id = 13,
                    .bytes = 4,
                    .kind = 2,
                    .flags = SS_API_MEM_WORD(SS_MEM_DEVICE, SS_MEM_PINNED) | SS_API_PROBED |
                             (pending ? SS_API_PENDING : 0),
                    .stack = site("train.py", 36)});
}

/* The stream's synchronization after it (11 us), which found work complete at its exit:
 * correlation 'corr', at line 'line' of train.py, with 'flags' besides. */
static void light_sync(uint32_t corr, unsigned line, uint32_t flags)
{
    api((call_spec){.name = "cudaStreamSynchronize",
                    .enter = US(25),
                    .exit = US(36),
                    .corr = corr,
                    .stream = S13,
                    .stream_id = 13,
                    .kind = -1,
                    .flags = SS_API_PROBED | SS_API_WAITED | flags,
                    .stack = site("train.py", line)});
}

/* The light mode's .item(): the copy (light_readback) and the synchronization at line 36. */
static void light_item(int pending, int probe_pending)
{
    light_readback(pending, probe_pending);
    light_sync(3, 36, 0);
}

START_TEST(test_light_readback_found_stream_idle)
{
    /* The copy found its stream idle: the synchronization waited for its transfer alone, as
     * the full mode sees it (test_readback_sync_waited_for_own_transfer). */
    light_item(0, 1);
    run();
    ck_assert_uint_eq(blocking_count(), 0);
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->line, 36);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
}
END_TEST

START_TEST(test_light_readback_found_stream_busy)
{
    /* The copy found work queued before it: the synchronization's wait is the readback's. The
     * same without the metadata (a trace of the light mode before it said so). */
    for (int probe_pending = 0; probe_pending < 2; probe_pending++) {
        fixture_teardown();
        fixture_setup();
        light_item(probe_pending, probe_pending);
        run();
        ck_assert_uint_eq(res.count, 1);
        const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
        ck_assert_uint_eq(f->line, 36);
        ck_assert_uint_eq(f->evidence.count, 1);
        ck_assert_uint_eq(f->evidence.total_ns, US(2) + US(11));
        ck_assert_str_eq(extra(f, "waited_in_sync"), "1");
    }
}
END_TEST

/* A light readback that found work pending, then its stream's synchronization (11 us, waited):
 * 'between' 0 nothing between them, 1 a copy between device memory recorded between them (as
 * the light mode recorded it before trace format 1.4: no probe, no stack), 2 that copy left
 * out and the synchronization marked SS_API_BETWEEN (as the light mode records it now). */
static void light_item_after_copy(int between)
{
    light_readback(1, 1);
    if (between == 1)
        api((call_spec){.name = "cudaMemcpyAsync",
                        .enter = US(23),
                        .exit = US(24),
                        .corr = 3,
                        .stream = S13,
                        .stream_id = 13,
                        .bytes = 4096,
                        .kind = 3,
                        .flags = SS_API_MEM_WORD(SS_MEM_DEVICE, SS_MEM_DEVICE)});
    light_sync(4, 40, between == 2 ? SS_API_BETWEEN : 0);
}

START_TEST(test_light_copy_between_readback_and_sync)
{
    /* A copy between the readback and the synchronization, recorded or left out with the
     * synchronization marked: the same findings, the synchronization's SYNC401 of its own (the
     * readback returned at once and nothing joins it); nothing between: the synchronization's
     * wait is the readback's (test_light_readback_found_stream_busy). */
    for (int between = 0; between < 3; between++) {
        fixture_teardown();
        fixture_setup();
        light_item_after_copy(between);
        run();
        ck_assert_uint_eq(res.count, 1);
        const ss_finding *f = only(between ? SS_RULE_SYNC_IN_LOOP : SS_RULE_SCALAR_READBACK);
        ck_assert_uint_eq(f->line, between ? 40 : 36);
        ck_assert_uint_eq(f->evidence.count, 1);
        ck_assert_uint_eq(f->evidence.total_ns, between ? US(11) : US(2) + US(11));
    }
}
END_TEST

START_TEST(test_light_between_ignored_in_full_log)
{
    /* SS_API_BETWEEN is read in light and sampled logs only: a full-mode log's flags word
     * holds the call's own flags argument. The readback and its synchronization of
     * test_readback_then_stream_sync, the synchronization's flags word with that bit: the same
     * finding. */
    item_pattern(13, S13, "cudaStreamSynchronize");
    size_t last = log_.count;
    while (last > 0 && log_.events[last - 1].type != SS_EV_API)
        last--;
    ck_assert_uint_gt(last, 0);
    log_.events[last - 1].u.api.flags |= SS_API_BETWEEN;
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->evidence.total_ns, US(297));
    ck_assert_str_eq(extra(f, "waited_in_sync"), "1");
}
END_TEST

START_TEST(test_light_short_call_not_asked_at_exit)
{
    /* A light cudaStreamSynchronize held 3 us, probed, its exit answer "waited": a latent
     * SYNC401 of 3 us. With the metadata probe_exit_min_ns 5000 the light mode did not ask at
     * the exit of a call held less: judged by its time (under 5 us: it did not wait, 0 us). */
    for (int exit_min = 0; exit_min < 2; exit_min++) {
        fixture_teardown();
        fixture_setup();
        ck_assert_int_eq(ss_evlog_set_meta(&log_, "mode", "light"), 0);
        if (exit_min)
            ck_assert_int_eq(ss_evlog_set_meta(&log_, "probe_exit_min_ns", "5000"), 0);
        api((call_spec){.name = "cudaStreamSynchronize",
                        .enter = US(25),
                        .exit = US(28),
                        .corr = 3,
                        .stream = S13,
                        .stream_id = 13,
                        .kind = -1,
                        .flags = SS_API_PROBED | SS_API_WAITED,
                        .stack = site("train.py", 40)});
        run();
        ck_assert_uint_eq(res.count, 1);
        const ss_finding *f = only_latent(SS_RULE_SYNC_IN_LOOP);
        ck_assert_uint_eq(f->line, 40);
        ck_assert_uint_eq(f->evidence.count, 1);
        ck_assert_uint_eq(f->evidence.total_ns, exit_min ? 0 : US(3));
    }
}
END_TEST

START_TEST(test_readback_then_sync_two_threads)
{
    /* The synchronization that follows the copy is the same thread's: thread 2 synchronizing
     * in between does not count, and it is SYNC401 on its own. */
    pending_scale();
    dtoh_async(1, US(20), US(32), 2, 4, US(311), US(313), "train.py", 36);
    sync_call(2, "cudaStreamSynchronize", S13, 13, US(33), US(318), 3, "worker.py", 9);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(35), US(320), 4, "train.py", 36);
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *r = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(r->line, 36);
    ck_assert_uint_eq(r->evidence.total_ns, US(297));
    const ss_finding *s = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_str_eq(s->file, "worker.py");
    ck_assert_uint_eq(s->evidence.total_ns, US(285));
}
END_TEST

START_TEST(test_readback_legacy_sync_of_non_blocking_copy)
{
    /* The copy is on a non-blocking stream; cudaStreamSynchronize(0) then waits for a kernel
     * on the legacy stream, which that stream does not synchronize with: not the readback's
     * wait. SYNC401 at the synchronization; the copy (which waited for nothing) is none. */
    stream_record(S13, 13, 1);
    launch_call(1, 0, US(5), 1, 0, LEGACY_ID, site("main.cu", 30));
    kernel("scale", US(10), US(310), 1, LEGACY_ID);
    dtoh_async(1, US(20), US(32), 2, 4, US(25), US(27), "train.py", 36);
    sync_call(1, "cudaStreamSynchronize", 0, LEGACY_ID, US(35), US(320), 3, "train.py", 38);
    run();
    ck_assert_uint_eq(blocking_count(), 1);
    ck_assert_uint_eq(only_latent(SS_RULE_SCALAR_READBACK)->line, 36);
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_uint_eq(f->line, 38);
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 7 (0.30 ms)");
}
END_TEST

START_TEST(test_readback_sync_copy_joins_nothing)
{
    /* A synchronous 4-byte cudaMemcpy is done when it returns: the device synchronization
     * after it, which waits for a kernel of stream 13, is SYNC401 of its own. */
    pending_scale();
    memcpy_call(1, US(20), US(30), 2, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(22), US(25), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    sync_call(1, "cudaDeviceSynchronize", 0, 0, US(35), US(320), 3, "main.cu", 43);
    run();
    ck_assert_uint_eq(blocking_count(), 1);
    ck_assert_uint_eq(only_latent(SS_RULE_SCALAR_READBACK)->line, 42);
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_uint_eq(f->line, 43);
    ck_assert_uint_eq(f->evidence.total_ns, US(285));
}
END_TEST

START_TEST(test_readback_device_sync_of_other_streams)
{
    /* The device synchronization after the readback also waits for stream 14's kernel: it
     * waits for more than the value and stays SYNC401 (over-synchronized: two streams). */
    pending_scale();
    launch_call(1, US(6), US(8), 5, 0x2000u, 14, site("main.cu", 31));
    kernel("bias", US(12), US(300), 5, 14);
    dtoh_async(1, US(20), US(32), 2, 4, US(311), US(313), "train.py", 36);
    sync_call(1, "cudaDeviceSynchronize", 0, 0, US(35), US(320), 3, "train.py", 36);
    run();
    ck_assert_uint_eq(blocking_count(), 1);
    ck_assert_uint_eq(only_latent(SS_RULE_SCALAR_READBACK)->line, 36);
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_str_eq(extra(f, "over_synchronized"), "1");
}
END_TEST

START_TEST(test_readback_same_enter_time)
{
    /* A copy that took no measurable time and the synchronization entered at the same
     * nanosecond: linked in the order the thread made them. */
    pending_scale();
    dtoh_async(1, US(20), US(20), 2, 4, US(311), US(313), "train.py", 36);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(20), US(320), 3, "train.py", 36);
    run();
    ck_assert_uint_eq(res.count, 1);
    ck_assert_uint_eq(only(SS_RULE_SCALAR_READBACK)->evidence.total_ns, US(300));
}
END_TEST

START_TEST(test_aggregation)
{
    /* Three readbacks at one call site (different stacks, same file:line). */
    uint64_t blocked[3] = {US(100), US(300), US(200)};
    for (uint32_t i = 0; i < 3; i++) {
        uint64_t t0 = US(1000) * i;
        launch_call(1, t0, t0 + US(5), 10 * i + 1, S13, 13, site("main.cu", 30));
        kernel("scale", t0 + US(10), t0 + US(10) + blocked[i] - US(20), 10 * i + 1, 13);
        memcpy_call(1, t0 + US(10), t0 + US(10) + blocked[i], 10 * i + 2, 4, 2,
                    site("main.cu", 42));
        copy(SS_EV_MEMCPY, t0 + blocked[i], t0 + blocked[i] + US(2), 10 * i + 2, LEGACY_ID, 4,
             SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    }
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->evidence.count, 3);
    ck_assert_uint_eq(f->evidence.total_ns, US(600));
    ck_assert_uint_eq(f->evidence.max_ns, US(300));
    ck_assert_uint_eq(f->evidence.bytes, 12);
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (3 times, 0.54 ms)");
    ck_assert_str_eq(f->message, "cudaMemcpy read back 12 bytes to the host in 3 copies and "
                                 "blocked it 0.60 ms (0.30 ms at most) until earlier device "
                                 "work finished");
}
END_TEST

START_TEST(test_readback_prediction)
{
    /* Ten readbacks, one every 500 us, each blocked 300 us by its kernel; after each the GPU
     * idles 208 us (the host's own work) until the next kernel, and after the last nothing
     * runs. Deferred, each of the first nine overlaps 208 us: 1.872 ms, 9 of 10 of it saved. */
    for (uint32_t i = 0; i < 10; i++) {
        uint64_t t0 = US(500) * i;
        launch_call(1, t0, t0 + US(5), 10 * i + 1, S13, 13, site("main.cu", 30));
        kernel("scale", t0 + US(10), t0 + US(280), 10 * i + 1, 13);
        memcpy_call(1, t0 + US(10), t0 + US(310), 10 * i + 2, 4, 2, site("main.cu", 42));
        copy(SS_EV_MEMCPY, t0 + US(300), t0 + US(302), 10 * i + 2, LEGACY_ID, 4, SS_COPY_DTOH,
             SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    }
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_uint_eq(f->evidence.count, 10);
    ck_assert_uint_eq(f->evidence.total_ns, US(3000));
    ck_assert_str_eq(extra(f, "overlap_ns"), "1872000");
    ck_assert_str_eq(extra(f, "saving_ns"), "1684800");
    ck_assert_str_eq(f->message,
                     "cudaMemcpy read back 40 bytes to the host in 10 copies and blocked it "
                     "3.00 ms (0.30 ms at most) until earlier device work finished. Model: kept "
                     "on the device and read every 10th time, the other reads no longer hold "
                     "the host, and its own work after each (the GPU's idle time after the "
                     "value arrived) overlaps the device work the read waited for, the lesser "
                     "of the two: 1.87 ms in all, 9 of 10 of it saved, about 1.68 ms");
}
END_TEST

START_TEST(test_nested_driver_call_not_counted_twice)
{
    pending_scale();
    memcpy_call(1, US(20), US(320), 2, 4, 2, site("main.cu", 42));
    /* The driver call the runtime made; the copy carries its correlation id. */
    api((call_spec){.name = "cuMemcpyDtoH_v2",
                    .enter = US(21),
                    .exit = US(318),
                    .corr = 3,
                    .bytes = 4,
                    .kind = -1,
                    .stack = site("main.cu", 42),
                    .nested = 1});
    copy(SS_EV_MEMCPY, US(312), US(315), 3, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->evidence.api, "cudaMemcpy");
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_str_eq(f->evidence.host_kind, "pageable");
}
END_TEST

START_TEST(test_nested_driver_call_without_runtime_parent)
{
    /* A program calling the driver directly: nested is 0 and the call is reported. */
    pending_scale();
    api((call_spec){.name = "cuMemcpyDtoH_v2",
                    .enter = US(21),
                    .exit = US(318),
                    .corr = 3,
                    .bytes = 8,
                    .kind = -1,
                    .stack = site("drv.c", 5)});
    copy(SS_EV_MEMCPY, US(312), US(315), 3, LEGACY_ID, 8, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->evidence.api, "cuMemcpyDtoH_v2");
    ck_assert_str_eq(f->file, "drv.c");
}
END_TEST

START_TEST(test_two_threads)
{
    /* Thread 2 launched 'scale' before thread 1's readback: that work is waited for. Thread
     * 2's later launch (after the readback was entered) is not. */
    launch_call(2, 0, US(5), 1, S13, 13, site("worker.cu", 3));
    kernel("scale", US(10), US(200), 1, 13);
    memcpy_call(1, US(20), US(320), 2, 4, 2, site("main.cu", 42));
    launch_call(2, US(30), US(35), 3, S13, 13, site("worker.cu", 4));
    kernel("late", US(200), US(310), 3, 13);
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.19 ms)");
}
END_TEST

START_TEST(test_only_later_work_pending)
{
    /* The only work that ends while the call blocks was enqueued after it was entered (by
     * another thread): the call did not wait for earlier work. */
    memcpy_call(1, US(20), US(320), 2, 4, 2, site("main.cu", 42));
    launch_call(2, US(30), US(35), 3, S13, 13, site("worker.cu", 4));
    kernel("late", US(40), US(310), 3, 13);
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 1);
    ck_assert_uint_eq(only_latent(SS_RULE_SCALAR_READBACK)->evidence.total_ns, 0);
}
END_TEST

START_TEST(test_out_of_order_activity)
{
    /* Activity records arrive in buffers after the API records, newest first. */
    launch_call(1, 0, US(5), 1, S13, 13, site("main.cu", 30));
    memcpy_call(1, US(20), US(320), 2, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    kernel("scale", US(10), US(310), 1, 13);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    /* The log is sorted by start time now. */
    for (size_t i = 1; i < log_.count; i++) {
        const ss_event *a = &log_.events[i - 1], *b = &log_.events[i];
        uint64_t ta = a->type == SS_EV_API ? a->u.api.enter_ns : a->u.gpu.start_ns;
        uint64_t tb = b->type == SS_EV_API ? b->u.api.enter_ns : b->u.gpu.start_ns;
        ck_assert_uint_le(ta, tb);
    }
}
END_TEST

/* ---- SYNC201 / SYNC202 ---- */

START_TEST(test_pageable_async_copy)
{
    pending_scale();
    async_copy_call(1, US(20), US(2220), 2, 16777216, 1, site("pipe.cu", 12));
    copy(SS_EV_MEMCPY, US(900), US(2210), 2, 13, 16777216, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_str_eq(f->file, "pipe.cu");
    ck_assert_uint_eq(f->line, 12);
    ck_assert_uint_eq(f->evidence.bytes, 16777216);
    ck_assert_uint_eq(f->evidence.total_ns, US(2200));
    ck_assert_str_eq(f->evidence.direction, "HtoD");
    ck_assert_str_eq(f->evidence.host_kind, "pageable");
    ck_assert_str_eq(f->evidence.stream, "stream 13");
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    ck_assert_str_eq(extra(f, "waited_for_earlier_work"), "1");
    ck_assert_str_eq(f->message,
                     "cudaMemcpyAsync HtoD with pageable host memory blocked the host 1 time: "
                     "2.20 ms (2.20 ms at most) for 16777216 bytes; 1 of 1 waited for earlier "
                     "device work. Model: from pinned memory the same copies run in the same "
                     "order at the pinned rate (54.0 GB/s) and do not hold the host: 0.31 ms on "
                     "the GPU instead of 1.31 ms, a saving of about 1.00 ms");
    /* 16 MiB at the default 54 GB/s: 310.689 us instead of the 1.31 ms it took. */
    ck_assert_str_eq(extra(f, "copy_gpu_ns"), "1310000");
    ck_assert_str_eq(extra(f, "copy_pinned_ns"), "310689");
    ck_assert_str_eq(extra(f, "pinned_bytes_per_us"), "54000");
    ck_assert_str_eq(extra(f, "saving_ns"), "999311");
    ck_assert_uint_eq(res.blocked_ns, US(2200));
}
END_TEST

START_TEST(test_pageable_async_copy_host_bound_range)
{
    /* Two 16 MiB pageable copies of 0.98 ms each, 2 ms of the host's own time between them
     * (a loader's main thread waiting for its workers): 1.34 ms predicted at the pinned rate,
     * which that time could swallow, so the message gives a range down to none. */
    async_copy_call(1, US(20), US(1020), 2, 16777216, 1, site("load.py", 45));
    copy(SS_EV_MEMCPY, US(30), US(1010), 2, 13, 16777216, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    async_copy_call(1, US(3020), US(4020), 3, 16777216, 1, site("load.py", 45));
    copy(SS_EV_MEMCPY, US(3030), US(4010), 3, 13, 16777216, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    run();
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(f->evidence.count, 2);
    ck_assert_str_eq(extra(f, "copy_gpu_ns"), "1960000");
    ck_assert_str_eq(extra(f, "copy_pinned_ns"), "621378");
    ck_assert_str_eq(extra(f, "saving_ns"), "1338622");
    ck_assert_str_eq(extra(f, "host_between_ns"), "2000000");
    ck_assert_str_eq(f->message,
                     "cudaMemcpyAsync HtoD with pageable host memory blocked the host 2 times: "
                     "2.00 ms (1.00 ms at most) for 33554432 bytes; 0 of 2 waited for earlier "
                     "device work. Model: from pinned memory the same copies run in the same "
                     "order at the pinned rate (54.0 GB/s) and do not hold the host: 0.62 ms on "
                     "the GPU instead of 1.96 ms, a saving of about 1.34 ms if the copies bound "
                     "the loop; the host's own time between them is as long (2.00 ms in all), "
                     "and where it waits for the data (a data loader's workers) the saving is "
                     "smaller, down to none");
}
END_TEST

START_TEST(test_pageable_async_copy_without_pending_work)
{
    /* It blocked for its own staging: still SYNC201, with no earlier work waited for. */
    async_copy_call(1, US(20), US(1620), 2, 1 << 20, 2, site("pipe.cu", 14));
    copy(SS_EV_MEMCPY, US(30), US(1610), 2, 13, 1 << 20, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_ptr_null(f->evidence.waited_for);
    ck_assert_str_eq(extra(f, "waited_for_earlier_work"), "0");
    ck_assert_str_eq(f->evidence.direction, "DtoH");
}
END_TEST

START_TEST(test_pageable_async_copy_then_stream_sync)
{
    /* torch.tensor(list, device='cuda'): a staged pageable HtoD copy that returns in 40 us,
     * then cudaStreamSynchronize of its stream, which waits for the queued kernel and the
     * copy. One SYNC201 with both times; no SYNC401. */
    pending_scale();
    async_copy_call(1, US(20), US(60), 2, 196608, 1, site("infer.py", 27));
    copy(SS_EV_MEMCPY, US(311), US(330), 2, 13, 196608, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(62), US(332), 3, "infer.py", 27);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(f->line, 27);
    ck_assert_uint_eq(f->evidence.total_ns, US(40) + US(270));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    ck_assert_str_eq(extra(f, "waited_for_earlier_work"), "1");
    ck_assert_str_eq(extra(f, "waited_in_sync"), "1");
    ck_assert_str_eq(f->message,
                     "cudaMemcpyAsync HtoD with pageable host memory blocked the host 1 time: "
                     "0.31 ms (0.31 ms at most) for 196608 bytes; 1 of 1 waited for earlier "
                     "device work (1 in the cudaStreamSynchronize that followed). Model: from "
                     "pinned memory the same copies run in the same order at the pinned rate "
                     "(54.0 GB/s) and do not hold the host: 3.6 us on the GPU instead of 19.0 "
                     "us, a saving of about 15.4 us");
    ck_assert_uint_eq(res.blocked_ns, US(310));
}
END_TEST

START_TEST(test_pageable_copy_then_sync_counts_work_once)
{
    /* The kernel ends at 62 us: inside the copy's window (exit 60 us + 5 us slack) and inside
     * the synchronization's. It is listed once. */
    launch_call(1, 0, US(5), 1, S13, 13, site("main.cu", 30));
    kernel("scale", US(10), US(62), 1, 13);
    async_copy_call(1, US(20), US(60), 2, 196608, 1, site("infer.py", 27));
    copy(SS_EV_MEMCPY, US(63), US(80), 2, 13, 196608, SS_COPY_HTOD, SS_MEM_PAGEABLE, SS_MEM_DEVICE);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(61), US(100), 3, "infer.py", 27);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(f->evidence.total_ns, US(40) + US(39));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (52.0 us)");
}
END_TEST

START_TEST(test_pinned_copy_then_stream_sync_stays_401)
{
    /* Only pageable copies take the synchronization after them: after a pinned copy it is an
     * explicit synchronization (SYNC401) of its own. */
    pending_scale();
    async_copy_call(1, US(20), US(29), 2, 196608, 1, site("infer.py", 27));
    copy(SS_EV_MEMCPY, US(311), US(330), 2, 13, 196608, SS_COPY_HTOD, SS_MEM_PINNED, SS_MEM_DEVICE);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(30), US(332), 3, "infer.py", 28);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_uint_eq(f->line, 28);
    ck_assert_uint_eq(f->evidence.total_ns, US(302));
}
END_TEST

START_TEST(test_pinned_async_copy_is_not_201)
{
    pending_scale();
    async_copy_call(1, US(20), US(29), 2, 16777216, 1, site("pipe.cu", 12));
    copy(SS_EV_MEMCPY, US(310), US(1600), 2, 13, 16777216, SS_COPY_HTOD, SS_MEM_PINNED,
         SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

START_TEST(test_sync_copy_in_pipeline)
{
    stream_record(S13, 13, SS_STREAM_FLAG_NON_BLOCKING);
    pending_scale();
    memcpy_call(1, US(20), US(420), 2, 1 << 20, 1, site("main.cu", 50));
    copy(SS_EV_MEMCPY, US(311), US(410), 2, LEGACY_ID, 1 << 20, SS_COPY_HTOD, SS_MEM_PINNED,
         SS_MEM_DEVICE);
    launch_call(1, US(430), US(435), 3, S13, 13, site("main.cu", 30));
    kernel("scale", US(440), US(740), 3, 13);
    api((call_spec){.name = "cudaMemset",
                    .enter = US(450),
                    .exit = US(760),
                    .corr = 4,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("main.cu", 51)});
    copy(SS_EV_MEMSET, US(741), US(745), 4, LEGACY_ID, 4096, SS_COPY_UNKNOWN, SS_MEM_UNKNOWN,
         SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_int_eq(res.findings[0].rule, SS_RULE_SYNC_COPY_IN_PIPELINE);
    ck_assert_uint_eq(res.findings[0].line, 50);
    ck_assert_uint_eq(res.findings[0].evidence.total_ns, US(400));
    ck_assert_str_eq(res.findings[0].evidence.direction, "HtoD");
    ck_assert_str_eq(res.findings[0].evidence.host_kind, "pinned");
    ck_assert_str_eq(res.findings[0].message, "synchronous cudaMemcpy blocked the host 1 time "
                                              "while earlier device work was pending: 0.40 ms "
                                              "(0.40 ms at most)");
    ck_assert_int_eq(res.findings[1].rule, SS_RULE_SYNC_COPY_IN_PIPELINE);
    ck_assert_uint_eq(res.findings[1].line, 51);
    ck_assert_str_eq(res.findings[1].evidence.api, "cudaMemset");
    ck_assert_ptr_null(res.findings[1].evidence.direction);
    ck_assert_uint_eq(res.findings[1].evidence.bytes, 4096);
    ck_assert_uint_eq(res.blocked_ns, US(400) + US(310));
}
END_TEST

START_TEST(test_sync_copy_nothing_pending)
{
    memcpy_call(1, US(20), US(420), 2, 1 << 20, 1, site("main.cu", 50));
    copy(SS_EV_MEMCPY, US(30), US(410), 2, LEGACY_ID, 1 << 20, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    run();
    /* It blocked 0.40 ms for its own transfer, and waited for no earlier work: latent. */
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_SYNC_COPY_IN_PIPELINE);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "synchronous cudaMemcpy");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_sync_copy_device_side_not_latent)
{
    /* A device-to-device cudaMemcpy and a cudaMemset of device memory do not hold the host
     * (CUDA's API synchronization behavior): nothing pending, nothing blocked, no latent note.
     * A memset of pinned host memory does: one latent SYNC202. */
    memcpy_call(1, US(20), US(40), 2, 1 << 20, 3, site("main.cu", 50));
    copy(SS_EV_MEMCPY, US(30), US(90), 2, LEGACY_ID, 1 << 20, SS_COPY_DTOD, SS_MEM_DEVICE,
         SS_MEM_DEVICE);
    api((call_spec){.name = "cudaMemset",
                    .enter = US(100),
                    .exit = US(110),
                    .corr = 3,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("main.cu", 51)});
    copy(SS_EV_MEMSET, US(102), US(104), 3, LEGACY_ID, 4096, SS_COPY_UNKNOWN, SS_MEM_UNKNOWN,
         SS_MEM_DEVICE);
    api((call_spec){.name = "cudaMemset",
                    .enter = US(200),
                    .exit = US(230),
                    .corr = 4,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("main.cu", 52)});
    copy(SS_EV_MEMSET, US(202), US(228), 4, LEGACY_ID, 4096, SS_COPY_UNKNOWN, SS_MEM_UNKNOWN,
         SS_MEM_PINNED);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_SYNC_COPY_IN_PIPELINE);
    ck_assert_uint_eq(f->line, 52);
    ck_assert_str_eq(f->evidence.api, "cudaMemset");
}
END_TEST

/* ---- SYNC401 / SYNC402 ---- */

static void two_stream_work(void)
{
    pending_scale();
    launch_call(1, US(6), US(9), 5, 0x2000, 14, site("main.cu", 31));
    kernel("bias", US(12), US(400), 5, 14);
}

START_TEST(test_device_sync_over_synchronized)
{
    two_stream_work();
    sync_call(1, "cudaDeviceSynchronize", 0, 0, US(20), US(405), 2, "main.cu", 60);
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(500), US(505), 3, "main.cu", 61);
    run();
    ck_assert_uint_eq(blocking_count(), 1);
    ck_assert_uint_eq(only_latent(SS_RULE_SYNC_IN_LOOP)->line, 61);
    const ss_finding *f = NULL;
    for (size_t i = 0; i < res.count; i++)
        f = res.findings[i].latent ? f : &res.findings[i];
    ck_assert_int_eq(f->rule, SS_RULE_SYNC_IN_LOOP);
    ck_assert_uint_eq(f->line, 60);
    ck_assert_int_eq(f->severity, SS_SEV_NOTE);
    ck_assert_uint_eq(f->evidence.total_ns, US(385));
    ck_assert_str_eq(extra(f, "over_synchronized"), "1");
    ck_assert_str_eq(extra(f, "over_synchronized_ns"), "385000");
    ck_assert_str_eq(f->evidence.waited_for,
                     "kernel 'scale' on stream 13 (0.30 ms), kernel 'bias' on stream 14 "
                     "(0.39 ms)");
    ck_assert_str_eq(f->message, "cudaDeviceSynchronize blocked the host 1 time waiting for "
                                 "device work: 0.39 ms (0.39 ms at most); 1 of them (0.39 ms) "
                                 "waited for work on two or more streams, where waiting for "
                                 "one stream or event may suffice");
    /* Explicit synchronization is not implicit blocking. */
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_stream_sync_waits_for_its_stream_only)
{
    two_stream_work();
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(20), US(312), 2, "main.cu", 61);
    run();
    const ss_finding *f = only(SS_RULE_SYNC_IN_LOOP);
    ck_assert_str_eq(extra(f, "over_synchronized"), "0");
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    ck_assert_str_eq(f->evidence.stream, "stream 13");
}
END_TEST

START_TEST(test_device_wide_sync_call)
{
    pending_scale();
    free_call(US(20), US(330), 2, site("alloc.cu", 8));
    api((call_spec){.name = "cudaMalloc",
                    .enter = US(400),
                    .exit = US(900),
                    .corr = 3,
                    .bytes = 1 << 30,
                    .kind = -1,
                    .stack = site("alloc.cu", 9)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_uint_eq(f->line, 8);
    ck_assert_uint_eq(f->evidence.total_ns, US(310));
    ck_assert_str_eq(f->message, "cudaFree blocked the host 1 time while device work was "
                                 "pending: 0.31 ms (0.31 ms at most)");
    ck_assert_uint_eq(res.blocked_ns, US(310));
}
END_TEST

/* cudaFreeArray waits for the whole device as cudaFree does (docs/studies/validation.md,
 * 2026-12-06): its row is a free that synchronizes the device, judged as cudaFree's. */
START_TEST(test_free_array_is_a_free)
{
    pending_scale();
    api((call_spec){.name = "cudaFreeArray",
                    .enter = US(20),
                    .exit = US(330),
                    .corr = 2,
                    .kind = -1,
                    .stack = site("array.cu", 12)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_uint_eq(f->line, 12);
    ck_assert_uint_eq(f->evidence.total_ns, US(310));
    ck_assert_str_eq(f->message, "cudaFreeArray blocked the host 1 time while device work was "
                                 "pending: 0.31 ms (0.31 ms at most)");
}
END_TEST

/* Blocked less than the threshold: a latent note, as a cudaFree's. */
START_TEST(test_free_array_short_is_latent)
{
    pending_scale();
    api((call_spec){.name = "cudaFreeArray",
                    .enter = US(306),
                    .exit = US(310),
                    .corr = 2,
                    .kind = -1,
                    .stack = site("array.cu", 20)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_uint_eq(f->line, 20);
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaFreeArray, which synchronizes the device");
}
END_TEST

/* Frees that wait for nothing (measured on an H100, docs/studies/validation.md 2026-12-06
 * 23:40): cudaFree(NULL), which frameworks call to create the context, and a cudaFree of memory
 * cudaMallocAsync gave. Neither is a finding, latent or not, even while work was pending and
 * ended during the call; a cudaFree of cudaMalloc memory at an address the pool used before
 * still is. */
START_TEST(test_frees_that_wait_for_nothing)
{
    pending_scale();
    free_call(US(20), US(300), 2, site("quiet.cu", 5)); /* cudaFree(NULL), the context's */
    pointer_rec(US(20), 2, SS_ARGS_FREE, 0);
    api((call_spec){.name = "cudaMallocAsync",
                    .enter = US(301),
                    .exit = US(302),
                    .corr = 3,
                    .stream = S13,
                    .stream_id = 13,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("quiet.cu", 6)});
    pointer_rec(US(301), 3, SS_ARGS_ALLOC, 0x7000000);
    free_call(US(303), US(312), 4, site("quiet.cu", 7)); /* the pool's memory */
    pointer_rec(US(303), 4, SS_ARGS_FREE, 0x7000000);
    api((call_spec){.name = "cudaMalloc",
                    .enter = US(320),
                    .exit = US(321),
                    .corr = 5,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("quiet.cu", 8)});
    pointer_rec(US(320), 5, SS_ARGS_ALLOC, 0x7000000);
    free_call(US(330), US(331), 6, site("quiet.cu", 9)); /* cudaMalloc's, at the same address */
    pointer_rec(US(330), 6, SS_ARGS_FREE, 0x7000000);
    ss_result again;
    run_and_replay(&again);
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_uint_eq(f->line, 9);
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaFree, which synchronizes the device");
    ck_assert_uint_eq(again.count, 1);
    ck_assert_uint_eq(again.findings[0].line, 9);
    ss_result_free(&again);
}
END_TEST

START_TEST(test_short_block_is_ignored)
{
    pending_scale();
    free_call(US(306), US(310), 2, site("alloc.cu", 8));
    run();
    /* 4 us is under the evidence threshold: a latent note with the time it did block. */
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_uint_eq(f->evidence.total_ns, US(4));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'scale' on stream 13 (0.30 ms)");
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaFree, which synchronizes the device");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

/* ---- SYNC101 / SYNC102 / SYNC103 ---- */

/* Stream 13 (blocking unless 'flags' say otherwise) runs k1, then a legacy-stream operation
 * runs, then k2 of stream 13, which was ready at 100 us, starts only at 152 us. */
static void legacy_between(uint32_t flags, int per_thread, int as_copy)
{
    stream_record(S13, 13, flags);
    api((call_spec){.name = "cudaStreamCreate",
                    .enter = 0,
                    .exit = US(1),
                    .corr = 9,
                    .stream = S13,
                    .stream_id = 13,
                    .kind = -1,
                    .stack = site("main.cu", 10)});
    launch_call(1, US(2), US(4), 1, S13, 13, site("main.cu", 30));
    kernel("k1", US(5), US(100), 1, 13);
    uint32_t legacy_id = per_thread ? 8 : LEGACY_ID;
    if (as_copy) {
        api((call_spec){.name = "cudaMemsetAsync",
                        .enter = US(10),
                        .exit = US(12),
                        .corr = 2,
                        .stream = 0,
                        .stream_id = legacy_id,
                        .bytes = 256,
                        .kind = -1,
                        .stack = site("main.cu", 33),
                        .per_thread = (uint8_t)per_thread});
        copy(SS_EV_MEMSET, US(102), US(150), 2, legacy_id, 256, SS_COPY_UNKNOWN, SS_MEM_UNKNOWN,
             SS_MEM_DEVICE);
    } else {
        api((call_spec){.name = "cudaLaunchKernel",
                        .enter = US(10),
                        .exit = US(12),
                        .corr = 2,
                        .stream = 0,
                        .stream_id = legacy_id,
                        .kind = -1,
                        .stack = site("main.cu", 33),
                        .per_thread = (uint8_t)per_thread});
        kernel("fill", US(102), US(150), 2, legacy_id);
    }
    launch_call(1, US(20), US(22), 3, S13, 13, site("main.cu", 36));
    kernel("k2", US(152), US(250), 3, 13);
}

START_TEST(test_default_stream_launch)
{
    legacy_between(0, 0, 0);
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *f = only(SS_RULE_DEFAULT_STREAM_LAUNCH);
    ck_assert_uint_eq(f->line, 33);
    /* It waited from 10 us (enqueued) to 102 us; it held k2 back from 102 to 152 us. */
    ck_assert_uint_eq(f->evidence.total_ns, US(92) + US(50));
    ck_assert_str_eq(f->evidence.stream, "stream 7; other streams: 13");
    ck_assert_str_eq(f->evidence.waited_for,
                     "kernel 'k1' on stream 13 (95.0 us), kernel 'k2' on stream 13 (98.0 us)");
    ck_assert_str_eq(f->message, "kernel 'fill' ran on the legacy default stream and serialized "
                                 "with other blocking streams 1 time: 0.14 ms of GPU time lost "
                                 "(0.14 ms at most)");
    const ss_finding *c = only(SS_RULE_BLOCKING_STREAM_CREATE);
    ck_assert_uint_eq(c->line, 10);
    ck_assert_str_eq(c->evidence.api, "cudaStreamCreate");
    ck_assert_uint_eq(c->evidence.total_ns, US(50));
    ck_assert_str_eq(c->evidence.stream, "stream 13; other streams: 7");
    /* GPU serialization is not host blocking. */
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_default_stream_launch_borrowed_site)
{
    /* The serializing legacy launch of 'fill' has no stack (launches get one only when they
     * may become findings); another launch of 'fill' by the same thread, at main.cu:31, has
     * one: the finding is there. A launch of another kernel lends nothing. */
    launch_call(1, MS(5), MS(5) + US(900), 20, 0, LEGACY_ID, site("main.cu", 31));
    kernel("fill", MS(5) + US(10), MS(5) + US(20), 20, LEGACY_ID);
    launch_call(1, MS(6), MS(6) + US(900), 21, 0, LEGACY_ID, site("main.cu", 32));
    kernel("other", MS(6) + US(10), MS(6) + US(20), 21, LEGACY_ID);
    legacy_between(0, 0, 0);
    /* legacy_between's 'fill' launch has a stack at main.cu:33; take it away. */
    for (size_t i = 0; i < log_.count; i++) {
        if (log_.events[i].type == SS_EV_API && log_.events[i].u.api.correlation == 2)
            log_.events[i].u.api.stack = 0;
    }
    run();
    const ss_finding *f = only(SS_RULE_DEFAULT_STREAM_LAUNCH);
    ck_assert_str_eq(f->file, "main.cu");
    ck_assert_uint_eq(f->line, 31);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(92) + US(50));
}
END_TEST

START_TEST(test_default_stream_async_call)
{
    legacy_between(0, 0, 1);
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *f = only(SS_RULE_DEFAULT_STREAM_ASYNC_CALL);
    ck_assert_uint_eq(f->line, 33);
    ck_assert_str_eq(f->evidence.api, "cudaMemsetAsync");
    ck_assert_uint_eq(f->evidence.bytes, 256);
    ck_assert_uint_eq(f->evidence.total_ns, US(142));
    only(SS_RULE_BLOCKING_STREAM_CREATE);
}
END_TEST

START_TEST(test_non_blocking_stream_is_not_serialized)
{
    legacy_between(SS_STREAM_FLAG_NON_BLOCKING, 0, 0);
    run();
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

START_TEST(test_per_thread_default_stream_is_not_101)
{
    legacy_between(0, 1, 0);
    run();
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

START_TEST(test_overlapping_streams_are_not_serialized)
{
    /* The legacy kernel ran while stream 13's kernels ran: nothing was serialized. */
    stream_record(S13, 13, 0);
    launch_call(1, US(2), US(4), 1, S13, 13, site("main.cu", 30));
    kernel("k1", US(5), US(100), 1, 13);
    launch_call(1, US(10), US(12), 2, SS_STREAM_LEGACY, LEGACY_ID, site("main.cu", 33));
    kernel("fill", US(50), US(150), 2, LEGACY_ID);
    run();
    /* Stream 13 had work around it: the legacy launch could have serialized (latent). */
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_DEFAULT_STREAM_LAUNCH);
    ck_assert_uint_eq(f->line, 33);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
}
END_TEST

/* ---- SYNC501 ---- */

static void capture(int32_t copy_result, int32_t end_result)
{
    api((call_spec){.name = "cudaStreamBeginCapture",
                    .enter = US(1),
                    .exit = US(2),
                    .corr = 1,
                    .stream = S13,
                    .stream_id = 13,
                    .kind = -1,
                    .stack = site("graph.cu", 20)});
    launch_call(1, US(3), US(4), 2, S13, 13, site("graph.cu", 21));
    api((call_spec){.name = "cudaMemcpy",
                    .enter = US(5),
                    .exit = US(6),
                    .corr = 3,
                    .bytes = 4,
                    .kind = 2,
                    .stack = site("graph.cu", 22),
                    .result = copy_result});
    api((call_spec){.name = "cudaStreamEndCapture",
                    .enter = US(7),
                    .exit = US(8),
                    .corr = 4,
                    .stream = S13,
                    .stream_id = 13,
                    .kind = -1,
                    .stack = site("graph.cu", 23),
                    .result = end_result});
}

START_TEST(test_capture_invalidated)
{
    capture(900, 901);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_CAPTURE_UNSAFE_CALL);
    ck_assert_int_eq(f->severity, SS_SEV_ERROR);
    ck_assert_str_eq(f->file, "graph.cu");
    ck_assert_uint_eq(f->line, 22);
    ck_assert_str_eq(f->evidence.api, "cudaMemcpy");
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_str_eq(extra(f, "capture_error"), "cudaErrorStreamCaptureInvalidated");
    ck_assert_str_eq(extra(f, "capture_ended_at"), "graph.cu:23");
    ck_assert_str_eq(f->message, "cudaMemcpy broke a stream capture 1 time: cudaStreamEndCapture "
                                 "then returned cudaErrorStreamCaptureInvalidated (901)");
}
END_TEST

START_TEST(test_capture_unsafe_call_without_error_result)
{
    /* The copy's own result was not recorded as an error: the first capture-unsafe call is
     * named. */
    capture(0, 906);
    run();
    const ss_finding *f = only(SS_RULE_CAPTURE_UNSAFE_CALL);
    ck_assert_uint_eq(f->line, 22);
    ck_assert_str_eq(extra(f, "capture_error"), "cudaErrorStreamCaptureImplicit");
}
END_TEST

START_TEST(test_capture_success)
{
    capture(0, 0);
    run();
    ck_assert_uint_eq(count_of(SS_RULE_CAPTURE_UNSAFE_CALL), 0);
}
END_TEST

/* ---- call sites, totals, metadata ---- */

START_TEST(test_python_frame_is_primary)
{
    ss_stack_frame frames[4] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaMemcpyAsync"), ss_evlog_intern(&log_, "x.cpp"),
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 5, 0},
        {0x7f02, ss_evlog_intern(&log_, "at::native::_local_scalar_dense_cuda"),
         ss_evlog_intern(&log_, "Scalar.cu"), ss_evlog_intern(&log_, "/torch/lib/libtorch_cuda.so"),
         30, 0},
        {0, ss_evlog_intern(&log_, "train_step"), ss_evlog_intern(&log_, "train.py"), 0, 17, 1},
        {0, ss_evlog_intern(&log_, "<module>"), ss_evlog_intern(&log_, "main.py"), 0, 3, 1},
    };
    uint32_t stack = ss_evlog_add_stack(&log_, frames, 4);
    pending_scale();
    async_copy_call(1, US(20), US(320), 2, 4, 2, stack);
    copy(SS_EV_MEMCPY, US(312), US(315), 2, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    opt.python_depth = 1;
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "train.py");
    ck_assert_uint_eq(f->line, 17);
    ck_assert_str_eq(f->function, "train_step");
    ck_assert_uint_eq(f->frame_count, 3); /* two native frames, one Python frame kept */
    ck_assert_int_eq(f->frames[2].is_python, 1);
    ck_assert_str_eq(f->frames[2].file, "train.py");
}
END_TEST

START_TEST(test_python_site_skips_library_frames)
{
    /* print(tensor): the readback is made in torch's own Python code; the site is the
     * program's print line. */
    ss_stack_frame frames[4] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaMemcpyAsync"), ss_evlog_intern(&log_, "x.cpp"),
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 5, 0},
        {0, ss_evlog_intern(&log_, "_tensor_str"),
         ss_evlog_intern(&log_, "/usr/lib/python3/dist-packages/torch/_tensor_str.py"), 0, 700, 1},
        {0, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, "samples/python/infer_loop.py"),
         0, 38, 1},
        {0, ss_evlog_intern(&log_, "<module>"),
         ss_evlog_intern(&log_, "samples/python/infer_loop.py"), 0, 50, 1},
    };
    uint32_t stack = ss_evlog_add_stack(&log_, frames, 4);
    pending_scale();
    async_copy_call(1, US(20), US(320), 2, 4, 2, stack);
    copy(SS_EV_MEMCPY, US(312), US(315), 2, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "samples/python/infer_loop.py");
    ck_assert_uint_eq(f->line, 38);
    ck_assert_str_eq(f->function, "main");
    ck_assert_uint_eq(f->frame_count, 4);
}
END_TEST

/* Two readbacks through one copy function of a release library (no line), one from inside
 * XLA's autotuner: the stack of each, the copy frame first. */
static uint32_t xla_stack(const char *caller, uint64_t caller_pc)
{
    uint32_t plugin = ss_evlog_intern(&log_, "/opt/jax/xla_cuda_plugin.so");
    ss_stack_frame frames[2] = {
        {0x7f01, ss_evlog_intern(&log_, "stream_executor::gpu::CudaStream::Memcpy(void*)"), 0,
         plugin, 0, 0},
        {caller_pc, ss_evlog_intern(&log_, caller), 0, plugin, 0, 0},
    };
    return ss_evlog_add_stack(&log_, frames, 2);
}

static void autotuned_and_loop_readbacks(void)
{
    pending_scale();
    memcpy_call(
        1, US(20), US(320), 2, 4, 2,
        xla_stack("xla::Autotuner::GetTunedConfig(xla::HloInstruction const*, int)", 0x7f02));
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    launch_call(1, US(330), US(335), 3, S13, 13, site("main.cu", 30));
    kernel("scale", US(340), US(640), 3, 13);
    memcpy_call(
        1, US(350), US(650), 4, 4, 2,
        xla_stack("xla::PjRtStreamExecutorBuffer::ToLiteral(xla::MutableLiteralBase*)", 0x7f03));
    copy(SS_EV_MEMCPY, US(642), US(645), 4, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
}

START_TEST(test_compile_work_is_apart_and_startup)
{
    autotuned_and_loop_readbacks();
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SCALAR_READBACK), 2);
    const ss_finding *tuned = nth(SS_RULE_SCALAR_READBACK, 0);
    const ss_finding *loop = nth(SS_RULE_SCALAR_READBACK, 1);
    if (!tuned->startup) {
        const ss_finding *t = tuned;
        tuned = loop;
        loop = t;
    }
    ck_assert_int_eq(tuned->startup, 1);
    ck_assert_uint_eq(tuned->evidence.count, 1);
    ck_assert_str_eq(tuned->frames[1].function,
                     "xla::Autotuner::GetTunedConfig(xla::HloInstruction const*, int)");
    ck_assert_str_eq(tuned->message, "startup: cudaMemcpy read back 4 bytes to the host in 1 "
                                     "copy and blocked it 0.30 ms (0.30 ms at most) until "
                                     "earlier device work finished");
    ck_assert_int_eq(loop->startup, 0);
    ck_assert_uint_eq(loop->evidence.count, 1);
    ck_assert_str_eq(loop->message, "cudaMemcpy read back 4 bytes to the host in 1 copy and "
                                    "blocked it 0.30 ms (0.30 ms at most) until earlier device "
                                    "work finished");
}
END_TEST

START_TEST(test_compile_work_unmarked_without_phase)
{
    /* With the startup phase off, compile work is still a finding of its own, unmarked. */
    autotuned_and_loop_readbacks();
    opt.startup_phase = 0;
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SCALAR_READBACK), 2);
    ck_assert_int_eq(nth(SS_RULE_SCALAR_READBACK, 0)->startup, 0);
    ck_assert_int_eq(nth(SS_RULE_SCALAR_READBACK, 1)->startup, 0);
}
END_TEST

START_TEST(test_native_site_skips_library_frames)
{
    ss_stack_frame frames[3] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaFree"), ss_evlog_intern(&log_, "cudart.cpp"),
         ss_evlog_intern(&log_, "/usr/local/cuda/lib64/libcudart.so.13"), 5, 0},
        {0x7f02, ss_evlog_intern(&log_, "pool_release"), ss_evlog_intern(&log_, "pool.c"),
         ss_evlog_intern(&log_, "/opt/app/libpool.so"), 77, 0},
        {0x4011, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, "main.c"),
         ss_evlog_intern(&log_, "/opt/app/app"), 9, 0},
    };
    uint32_t stack = ss_evlog_add_stack(&log_, frames, 3);
    pending_scale();
    free_call(US(20), US(330), 2, stack);
    run();
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_str_eq(f->file, "pool.c");
    ck_assert_uint_eq(f->line, 77);
    ck_assert_str_eq(f->function, "pool_release");
}
END_TEST

START_TEST(test_unsymbolized_stacks_aggregate_by_stack)
{
    ss_stack_frame a = {0x4011, 0, 0, 0, 0, 0}, b = {0x4022, 0, 0, 0, 0, 0};
    uint32_t sa = ss_evlog_add_stack(&log_, &a, 1), sb = ss_evlog_add_stack(&log_, &b, 1);
    pending_scale();
    free_call(US(20), US(100), 2, sa);
    free_call(US(110), US(200), 3, sb);
    free_call(US(210), US(315), 4, sa);
    /* 'scale' ends at 310 us: only the third call waited for it. The first two waited for
     * nothing, so give them work of their own that ends in time. */
    launch_call(1, US(1), US(2), 5, 0x2000, 14, sa);
    kernel("a", US(3), US(95), 5, 14);
    launch_call(1, US(101), US(102), 6, 0x2000, 14, sa);
    kernel("b", US(103), US(195), 6, 14);
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_ptr_null(res.findings[0].file);
    ck_assert_uint_eq(res.findings[0].evidence.count, 2); /* stack sa: 80 + 105 us */
    ck_assert_uint_eq(res.findings[0].evidence.total_ns, US(185));
    ck_assert_uint_eq(res.findings[0].frames[0].pc, 0x4011);
    ck_assert_uint_eq(res.findings[1].evidence.count, 1);
    ck_assert_uint_eq(res.findings[1].frames[0].pc, 0x4022);
}
END_TEST

START_TEST(test_totals_and_metadata)
{
    static const char *const meta[][2] = {
        {"program", "./app"},
        {"command_line", "./app --n 3"},
        {"pid", "4242"},
        {"hostname", "gpu-7"},
        {"rank", "3"},
        {"gpu", "NVIDIA H200"},
        {"driver", "580.65"},
        {"cuda", "13.0"},
        {"cuda_runtime", "12.8"},
        {"started_at", "2025-01-02T03:04:05Z"},
        {"wall_ns", "123456789"},
    };
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++)
        ck_assert_int_eq(ss_evlog_set_meta(&log_, meta[i][0], meta[i][1]), 0);
    log_.dropped = 5;
    pending_scale();
    launch_call(1, US(6), US(9), 5, 0x2000, 14, site("main.cu", 31));
    kernel("bias", US(200), US(400), 5, 14);
    kernel("orphan", US(1000), US(1010), 77, 14);
    run();
    ck_assert_str_eq(res.program, "./app");
    ck_assert_str_eq(res.command_line, "./app --n 3");
    ck_assert_int_eq(res.pid, 4242);
    ck_assert_str_eq(res.hostname, "gpu-7");
    ck_assert_int_eq(res.rank, 3);
    ck_assert_str_eq(res.gpu, "NVIDIA H200");
    ck_assert_str_eq(res.driver, "580.65");
    ck_assert_str_eq(res.cuda, "13.0");
    ck_assert_str_eq(res.cuda_runtime, "12.8");
    ck_assert_str_eq(res.started_at, "2025-01-02T03:04:05Z");
    ck_assert_uint_eq(res.wall_ns, 123456789);
    ck_assert_uint_eq(res.gpu_busy_ns, US(390) + US(10)); /* 10..400 and 1000..1010 */
    ck_assert_uint_eq(res.events, 5);
    ck_assert_uint_eq(res.dropped, 5);
    ck_assert_uint_eq(res.diag_count, 1);
    ck_assert_str_eq(res.diags[0].message, "5 events were dropped past the memory cap; the "
                                           "findings may be incomplete");
}
END_TEST

START_TEST(test_refused_activity_buffers_warned)
{
    /* The capture refused CUPTI 2 activity buffers (memory cap): a warning, once. */
    ss_evlog_set_meta(&log_, "refused_activity_buffers", "2");
    pending_scale();
    run();
    ck_assert_uint_eq(res.count, 0);
    ck_assert_uint_eq(res.diag_count, 1);
    ck_assert_int_eq(res.diags[0].severity, SS_SEV_WARNING);
    ck_assert_str_eq(res.diags[0].message,
                     "2 requests of CUPTI for an activity buffer were refused past the memory "
                     "cap, and CUPTI dropped the GPU records it had no room for; the findings "
                     "may be incomplete (raise SYNCSCOPE_MAX_MEMORY)");
}
END_TEST

START_TEST(test_same_findings_after_trace_round_trip)
{
    legacy_between(0, 0, 0);
    pending_scale();
    memcpy_call(1, US(300), US(320), 20, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(312), US(315), 20, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    ss_result again;
    run_and_replay(&again);
    ck_assert_uint_ge(res.count, 3);
    ck_assert_uint_eq(again.count, res.count);
    for (size_t i = 0; i < res.count; i++) {
        const ss_finding *a = &res.findings[i], *b = &again.findings[i];
        ck_assert_int_eq(a->rule, b->rule);
        ck_assert_str_eq(a->file, b->file);
        ck_assert_uint_eq(a->line, b->line);
        ck_assert_str_eq(a->message, b->message);
        ck_assert_uint_eq(a->evidence.count, b->evidence.count);
        ck_assert_uint_eq(a->evidence.total_ns, b->evidence.total_ns);
        ck_assert_pstr_eq(a->evidence.waited_for, b->evidence.waited_for);
    }
    ss_result_free(&again);
}
END_TEST

/* ---- latent synchronizations ---- */

START_TEST(test_latent_off_reports_nothing)
{
    /* --no-latent: a readback that found the device idle is no finding at all (as before). */
    memcpy_call(1, US(20), US(40), 2, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(30), US(33), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    opt.latent = 0;
    run();
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

START_TEST(test_latent_folds_into_blocking_finding)
{
    /* Two readbacks at one line: the first waited for 'scale', the second found nothing
     * pending. One finding (the one that blocked) that counts the other as latent. */
    pending_scale();
    memcpy_call(1, US(20), US(320), 2, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(312), US(315), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    memcpy_call(1, US(400), US(410), 3, 4, 2, site("main.cu", 42));
    copy(SS_EV_MEMCPY, US(402), US(405), 3, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_int_eq(f->latent, 0);
    ck_assert_int_eq(f->severity, SS_SEV_WARNING);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(300));
    ck_assert_str_eq(extra(f, "latent_count"), "1");
    ck_assert_uint_eq(res.blocked_ns, US(300));
}
END_TEST

START_TEST(test_latent_pageable_copy)
{
    /* A 64 KiB pageable cudaMemcpyAsync that blocked 3 us for its own transfer: latent
     * SYNC201, with the evidence of a blocking one. */
    async_copy_call(1, US(20), US(23), 2, 65536, 1, site("load.cu", 12));
    copy(SS_EV_MEMCPY, US(21), US(22), 2, 13, 65536, SS_COPY_HTOD, SS_MEM_PAGEABLE, SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only_latent(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_uint_eq(f->line, 12);
    ck_assert_uint_eq(f->evidence.bytes, 65536);
    ck_assert_str_eq(f->evidence.direction, "HtoD");
    ck_assert_str_eq(f->evidence.host_kind, "pageable");
    ck_assert_str_eq(f->evidence.stream, "stream 13");
    ck_assert_str_eq(f->message, "latent: synchronized 1 time, blocked 0.0 ms this run: "
                                 "cudaMemcpyAsync HtoD with pageable host memory, 65536 bytes");
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_latent_syncs_by_kind)
{
    /* Idle: a stream and an event synchronization are latent SYNC401; a device
     * synchronization (the program's own explicit request) and a cudaMalloc (which only
     * sometimes synchronizes) are not reported; a cudaFree that failed did nothing. */
    sync_call(1, "cudaStreamSynchronize", S13, 13, US(10), US(12), 1, "idle.cu", 1);
    sync_call(1, "cudaEventSynchronize", 0, 0, US(20), US(22), 2, "idle.cu", 2);
    sync_call(1, "cudaDeviceSynchronize", 0, 0, US(30), US(32), 3, "idle.cu", 3);
    api((call_spec){.name = "cudaMalloc",
                    .enter = US(40),
                    .exit = US(45),
                    .corr = 4,
                    .bytes = 1024,
                    .kind = -1,
                    .stack = site("idle.cu", 4)});
    api((call_spec){.name = "cudaFree",
                    .enter = US(50),
                    .exit = US(51),
                    .corr = 5,
                    .kind = -1,
                    .result = 1,
                    .stack = site("idle.cu", 5)});
    free_call(US(60), US(61), 6, site("idle.cu", 6));
    run();
    ck_assert_uint_eq(res.count, 3);
    ck_assert_uint_eq(blocking_count(), 0);
    ck_assert_uint_eq(count_of(SS_RULE_SYNC_IN_LOOP), 2);
    for (size_t i = 0; i < res.count; i++)
        ck_assert_uint_ne(res.findings[i].line, 3);
    ck_assert_uint_eq(only_latent(SS_RULE_DEVICE_WIDE_SYNC_CALL)->line, 6);
    ck_assert_str_eq(nth(SS_RULE_SYNC_IN_LOOP, 0)->evidence.api, "cudaStreamSynchronize");
    ck_assert_str_eq(nth(SS_RULE_SYNC_IN_LOOP, 1)->evidence.api, "cudaEventSynchronize");
}
END_TEST

START_TEST(test_latent_ranked_after_blocking)
{
    /* Latent notes cost (almost) nothing this run: they come after the findings that
     * blocked, and do not count in the run's blocked time. */
    pending_scale();
    free_call(US(20), US(330), 2, site("alloc.cu", 8));
    free_call(US(400), US(401), 3, site("alloc.cu", 20));
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_int_eq(res.findings[0].latent, 0);
    ck_assert_uint_eq(res.findings[0].line, 8);
    ck_assert_int_eq(res.findings[1].latent, 1);
    ck_assert_uint_eq(res.findings[1].line, 20);
    ck_assert_uint_eq(res.blocked_ns, US(310));
}
END_TEST

/* ---- just-my-code: call sites and via frames ---- */

/* A stack: libcudart, a libtorch frame, then 'python' Python frames (file, line) innermost
 * first. */
static uint32_t python_stack(size_t python, const char *const *files, const unsigned *lines)
{
    ss_stack_frame frames[8] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaMemcpyAsync"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 0, 0},
        {0x7f02, ss_evlog_intern(&log_, "at::native::copy_"), 0,
         ss_evlog_intern(&log_, "/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"), 0,
         0},
    };
    for (size_t i = 0; i < python; i++)
        frames[2 + i] = (ss_stack_frame){
            0, ss_evlog_intern(&log_, "f"), ss_evlog_intern(&log_, files[i]), 0, lines[i], 1};
    return ss_evlog_add_stack(&log_, frames, (uint32_t)(2 + python));
}

#define GENERATION "/venv/lib/python3.12/site-packages/transformers/generation/utils.py"

/* A 4-byte readback that waited for 'scale' (correlation 'corr', at 'at'), made from 'stack'. */
static void readback_on(uint32_t thread, uint32_t corr, uint64_t at, uint32_t stack)
{
    launch_call(1, at, at + US(5), corr + 100, S13, 13, site("main.cu", 30));
    kernel("scale", at + US(10), at + US(310), corr + 100, 13);
    async_copy_call(thread, at + US(20), at + US(320), corr, 4, 2, stack);
    copy(SS_EV_MEMCPY, at + US(312), at + US(315), corr, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
         SS_MEM_PAGEABLE);
}

/* The same, made by the main thread (1). */
static void readback_at(uint32_t corr, uint64_t at, uint32_t stack)
{
    readback_on(1, corr, at, stack);
}

START_TEST(test_python_site_with_via)
{
    /* generate() in the program's line 11 reaches .item() at transformers' line 2192: the
     * finding is at line 11, and names the library line it went through. */
    const char *files[] = {GENERATION, "/work/pt_gpt2.py"};
    const unsigned lines[] = {2192, 11};
    readback_at(2, 0, python_stack(2, files, lines));
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "/work/pt_gpt2.py");
    ck_assert_uint_eq(f->line, 11);
    ck_assert_str_eq(f->via_file, GENERATION);
    ck_assert_uint_eq(f->via_line, 2192);
    ck_assert_str_eq(f->via_function, "f");
    char text[256];
    ck_assert_str_eq(ss_finding_via_text(f, text, sizeof text),
                     "transformers/generation/utils.py:2192");
    ck_assert_str_eq(f->hint,
                     ".item(), float(t), bool(t), 'if t:' and print(t) copy a value to the CPU "
                     "and wait for the GPU: in a loop, accumulate on the device (total += "
                     "loss.detach(), correct += (pred == y).sum()) and read once after the loop, "
                     "or every N steps.");
}
END_TEST

/* The value of the extra figure 'key' of 'f', or NULL. */
static const char *extra_of(const ss_finding *f, const char *key)
{
    for (size_t i = 0; i < f->extra_count; i++) {
        if (strcmp(f->extra[i].key, key) == 0)
            return f->extra[i].value;
    }
    return NULL;
}

/* The two findings of 'rule' into 'a' and 'b', 'a' the one 'is_a' accepts. */
static void two_findings(ss_rule_id rule, int (*is_a)(const ss_finding *), const ss_finding **a,
                         const ss_finding **b)
{
    ck_assert_uint_eq(res.count, 2);
    *a = nth(rule, 0);
    *b = nth(rule, 1);
    if (!is_a(*a)) {
        const ss_finding *t = *a;
        *a = *b;
        *b = t;
    }
}

static int has_file(const ss_finding *f)
{
    return f->file != NULL;
}

static int has_phase(const ss_finding *f)
{
    return extra_of(f, "phase") != NULL;
}

static int at_line_30(const ss_finding *f)
{
    return f->line == 30;
}

/* The stack of a readback on PyTorch's autograd thread: its native frames (the backward of
 * boolean-mask indexing calling nonzero), then the frames of the Python thread that waited
 * in loss.backward() meanwhile ('python' SS_FRAME_OTHER_THREAD). */
static uint32_t autograd_stack(void)
{
    uint32_t torch = ss_evlog_intern(&log_, "/venv/lib/python3.12/site-packages/torch/lib/"
                                            "libtorch_cpu.so");
    ss_stack_frame frames[8] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaMemcpyAsync"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 0, 0},
        {0x7f02,
         ss_evlog_intern(&log_, "at::native::nonzero_out_cuda(at::Tensor const&, "
                                "at::Tensor&)"),
         0, ss_evlog_intern(&log_, "/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"),
         0, 0},
        {0x7f03, ss_evlog_intern(&log_, "at::_ops::nonzero::call(at::Tensor const&)"), 0, torch, 0,
         0},
        {0x7f04, ss_evlog_intern(&log_, "at::_ops::_index_put_impl_::call(at::Tensor&, ...)"), 0,
         torch, 0, 0},
        {0x7f05,
         ss_evlog_intern(&log_, "torch::autograd::generated::IndexBackward0::apply(std::"
                                "vector<at::Tensor, std::allocator<at::Tensor> >&&)"),
         0, torch, 0, 0},
        {0x7f06,
         ss_evlog_intern(&log_, "torch::autograd::Engine::thread_main(std::shared_ptr<"
                                "torch::autograd::GraphTask> const&)"),
         0, torch, 0, 0},
        {0, ss_evlog_intern(&log_, "_engine_run_backward"),
         ss_evlog_intern(&log_, "/venv/lib/python3.12/site-packages/torch/autograd/graph.py"), 0,
         825, SS_FRAME_OTHER_THREAD},
        {0, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, "/work/train.py"), 0, 28,
         SS_FRAME_OTHER_THREAD},
    };
    return ss_evlog_add_stack(&log_, frames, 8);
}

START_TEST(test_other_thread_site)
{
    /* Two readbacks in the backward, on thread 2 (no Python frames of its own): one finding at
     * the program's loss.backward() line, naming the thread and the operation. */
    ss_evlog_set_meta(&log_, "thread_name:2", "pt_autograd_0");
    uint32_t stack = autograd_stack();
    readback_on(2, 2, 0, stack);
    readback_on(2, 3, US(1000), stack);
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "/work/train.py");
    ck_assert_uint_eq(f->line, 28);
    ck_assert_uint_eq(f->evidence.count, 2);
    ck_assert_uint_eq(f->via_line, 825);
    ck_assert_str_eq(extra_of(f, "thread"),
                     "2 (pt_autograd_0), which runs no Python code: the line is where the "
                     "program's Python thread waited meanwhile");
    ck_assert_str_eq(extra_of(f, "operation"), "the backward of aten::index -> aten::nonzero");
    const char *note = strstr(f->message, "; made on thread");
    ck_assert_ptr_nonnull(note);
    ck_assert_str_eq(note, "; made on thread 2 (pt_autograd_0) while this line waited, in the "
                           "backward of aten::index -> aten::nonzero");
}
END_TEST

START_TEST(test_readback_waited_by_other_thread)
{
    /* JAX: a runtime thread without Python frames copies a 4-byte value back and returns at once
     * (pinned memory, no synchronization call) while the program waits in float(): the program
     * waited from the copy's enqueue (20 us) until the value arrived (315 us), behind the kernel
     * pending then. The same copy with the thread's own frames is no finding. */
    uint32_t stack = autograd_stack();
    launch_call(1, 0, US(5), 102, S13, 13, site("main.cu", 30));
    kernel("scale", US(10), US(310), 102, 13);
    async_copy_call(2, US(20), US(25), 2, 4, 2, stack);
    copy(SS_EV_MEMCPY, US(312), US(315), 2, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PINNED);
    const char *files[] = {"/work/train.py"};
    const unsigned lines[] = {40};
    launch_call(1, US(1000), US(1005), 103, S13, 13, site("main.cu", 30));
    kernel("scale", US(1010), US(1310), 103, 13);
    async_copy_call(1, US(1020), US(1025), 3, 4, 2, python_stack(1, files, lines));
    copy(SS_EV_MEMCPY, US(1312), US(1315), 3, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PINNED);
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_int_eq(f->latent, 0);
    ck_assert_uint_eq(f->line, 28);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(295));
}
END_TEST

START_TEST(test_own_python_frames_name_no_thread)
{
    /* A readback with the thread's own Python frames: no thread or operation named. */
    const char *files[] = {GENERATION, "/work/pt_gpt2.py"};
    const unsigned lines[] = {2192, 11};
    readback_at(2, 0, python_stack(2, files, lines));
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_ptr_null(extra_of(f, "thread"));
    ck_assert_ptr_null(extra_of(f, "operation"));
}
END_TEST

START_TEST(test_library_only_stack_names_function)
{
    /* A readback whose stack has library frames only (a framework's thread, no Python): the
     * finding names the innermost function that is not CUDA's, with its module and offset. */
    uint32_t module = ss_evlog_intern(&log_, "/torch/lib/libtorch_cuda.so");
    ss_stack_frame frames[3] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaMemcpyAsync"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 0, 0},
        {0x7f0200, ss_evlog_intern(&log_, "at::native::_local_scalar_dense_cuda"), 0, module, 0, 0},
        {0x7f0300, ss_evlog_intern(&log_, "torch::autograd::Engine::thread_main"), 0, module, 0, 0},
    };
    ss_evlog_set_meta(&log_, "base:/torch/lib/libtorch_cuda.so", "0x7f0000");
    readback_at(2, 0, ss_evlog_add_stack(&log_, frames, 3));
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_ptr_null(f->file);
    ck_assert_str_eq(f->function, "at::native::_local_scalar_dense_cuda");
    ck_assert_str_eq(f->module, "/torch/lib/libtorch_cuda.so");
    ck_assert_uint_eq(f->module_offset, 0x200);
}
END_TEST

START_TEST(test_no_stack_names_phase)
{
    /* A readback without any stack is named by the phase of the run it was made in. */
    readback_at(2, 0, 0);
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_ptr_null(f->file);
    ck_assert_ptr_null(f->function);
    ck_assert_str_eq(extra_of(f, "phase"), "during the run (no call stack was recorded)");
}
END_TEST

#define PIN_MEMORY "/venv/lib/python3.12/site-packages/torch/utils/data/_utils/pin_memory.py"

START_TEST(test_helper_thread_named)
{
    /* A call whose Python frames are all a library's (the DataLoader's pin-memory thread): the
     * finding names the thread and the function it runs, outside the threading module. */
    ss_evlog_set_meta(&log_, "thread_name:1", "pt_pin");
    const char *files[] = {PIN_MEMORY, PIN_MEMORY, "/usr/lib/python3.12/threading.py"};
    const unsigned lines[] = {71, 52, 1012};
    uint32_t stack = python_stack(3, files, lines);
    ss_stack *st = &log_.stacks[stack];
    st->frames[3].function = ss_evlog_intern(&log_, "_pin_memory_loop");
    readback_at(2, 0, stack);
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, PIN_MEMORY);
    ck_assert_uint_eq(f->line, 71);
    ck_assert_str_eq(extra_of(f, "thread"), "1 (pt_pin), running _pin_memory_loop in " PIN_MEMORY
                                            ": no frame of the program's own code");
}
END_TEST

START_TEST(test_started_thread_site)
{
    /* The pin-memory thread (2) was started by thread 1 at the program's line 30 (its stack in
     * pthread_create: Thread.start in threading.py, DataLoader.__iter__, then the program): its
     * readback with library frames only is at line 30, via its own library line, and names the
     * thread, what it runs and who started it. */
    ss_evlog_set_meta(&log_, "thread_name:2", "pt_data_pin");
    const char *start_files[] = {"/usr/lib/python3.12/threading.py",
                                 "/venv/lib/python3.12/site-packages/torch/utils/data/"
                                 "dataloader.py",
                                 "/work/train.py"};
    const unsigned start_lines[] = {992, 1135, 30};
    char value[32];
    snprintf(value, sizeof value, "1 %u", (unsigned)python_stack(3, start_files, start_lines));
    ss_evlog_set_meta(&log_, "thread_start:2", value);
    const char *files[] = {PIN_MEMORY, "/usr/lib/python3.12/threading.py"};
    const unsigned lines[] = {57, 1012};
    uint32_t stack = python_stack(2, files, lines);
    log_.stacks[stack].frames[2].function = ss_evlog_intern(&log_, "_pin_memory_loop");
    readback_on(2, 2, 0, stack);
    readback_on(2, 3, US(1000), stack);
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "/work/train.py");
    ck_assert_uint_eq(f->line, 30);
    ck_assert_uint_eq(f->evidence.count, 2);
    ck_assert_str_eq(f->via_file, PIN_MEMORY);
    ck_assert_uint_eq(f->via_line, 57);
    ck_assert_str_eq(extra_of(f, "thread"),
                     "2 (pt_data_pin), running _pin_memory_loop in " PIN_MEMORY
                     ": started at this line (by thread 1)");
    const char *note = strstr(f->message, "; made on thread");
    ck_assert_ptr_nonnull(note);
    ck_assert_str_eq(note, "; made on thread 2 (pt_data_pin, running _pin_memory_loop), which "
                           "this line started");
}
END_TEST

START_TEST(test_started_thread_through_starters)
{
    /* A native thread (3) without Python frames, started by a runtime's thread (2) whose stack
     * then had no frame of the program's code, which thread 1 started at the program's line 12:
     * the readback is at line 12. A thread whose starter's stack is unknown (4) keeps its own
     * library frame. */
    uint32_t library = ss_evlog_intern(&log_, "/venv/lib/python3.12/site-packages/jaxlib/x.so");
    ss_stack_frame pool[2] = {
        {0x7f10, ss_evlog_intern(&log_, "tsl::thread::ThreadPool::Schedule"), 0, library, 0, 0},
        {0x7f11, ss_evlog_intern(&log_, "start_thread"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libc.so.6"), 0, 0},
    };
    uint32_t pool_stack = ss_evlog_add_stack(&log_, pool, 2);
    const char *files[] = {"/work/loop.py"};
    const unsigned lines[] = {12};
    char value[32];
    snprintf(value, sizeof value, "1 %u", (unsigned)python_stack(1, files, lines));
    ss_evlog_set_meta(&log_, "thread_start:2", value);
    snprintf(value, sizeof value, "2 %u", (unsigned)pool_stack);
    ss_evlog_set_meta(&log_, "thread_start:3", value);
    ss_evlog_set_meta(&log_, "thread_start:4", "1 0");
    ss_stack_frame own[2] = {
        {0x7f01, ss_evlog_intern(&log_, "cuMemcpyDtoHAsync_v2"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcuda.so.1"), 0, 0},
        {0x7f20, ss_evlog_intern(&log_, "xla::TransferToHost"), 0, library, 0, 0},
    };
    uint32_t stack = ss_evlog_add_stack(&log_, own, 2);
    readback_on(3, 2, 0, stack);
    readback_on(4, 3, US(1000), stack);
    run();
    const ss_finding *a, *b;
    two_findings(SS_RULE_SCALAR_READBACK, has_file, &a, &b);
    ck_assert_str_eq(a->file, "/work/loop.py");
    ck_assert_uint_eq(a->line, 12);
    ck_assert_str_eq(a->via_function, "xla::TransferToHost");
    ck_assert_str_eq(extra_of(a, "thread"),
                     "3: no frame of the program's own code; started at this line");
    ck_assert_ptr_null(b->file);
    ck_assert_str_eq(b->function, "xla::TransferToHost");
    ck_assert_ptr_null(extra_of(b, "thread"));
}
END_TEST

/* A stack of library frames only that ends the process through 'exit_function' (the
 * interpreter's finalization destroying a framework's client), its site at 'pc'. */
static uint32_t exit_stack(const char *exit_function, uint64_t pc)
{
    uint32_t plugin = ss_evlog_intern(&log_, "/venv/lib/python3.12/site-packages/jax_plugins/"
                                             "xla_cuda_plugin.so");
    uint32_t python = ss_evlog_intern(&log_, "/usr/bin/python3.12");
    ss_stack_frame frames[5] = {
        {0x7f01, ss_evlog_intern(&log_, "cuMemcpyDtoHAsync_v2"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcuda.so.1"), 0, 0},
        {pc, ss_evlog_intern(&log_, "xla::LocalDeviceState::~LocalDeviceState()"), 0, plugin, 0, 0},
        {0x7f31, ss_evlog_intern(&log_, "PyGC_Collect"), 0, python, 0, 0},
        {0x7f32, ss_evlog_intern(&log_, exit_function), 0, python, 0, 0},
        {0x7f33, ss_evlog_intern(&log_, "Py_RunMain"), 0, python, 0, 0},
    };
    return ss_evlog_add_stack(&log_, frames, 5);
}

START_TEST(test_exit_teardown_names_phase)
{
    /* A call with no frame of the program's code, made in Py_FinalizeEx: the finding names the
     * phase in its figure and its message; one through a function of another name does not. */
    ss_evlog_set_meta(&log_, "executable", "/usr/bin/python3.12");
    ss_evlog_set_meta(&log_, "python", "3.12");
    readback_at(2, 0, exit_stack("Py_FinalizeEx", 0x7f30));
    readback_at(3, US(1000), exit_stack("Py_RunFinal", 0x7f50));
    run();
    const ss_finding *a, *b;
    two_findings(SS_RULE_SCALAR_READBACK, has_phase, &a, &b);
    ck_assert_ptr_null(a->file);
    ck_assert_str_eq(a->function, "xla::LocalDeviceState::~LocalDeviceState()");
    ck_assert_str_eq(extra_of(a, "phase"),
                     "context teardown at exit: made in Py_FinalizeEx, after the program's last "
                     "line, with no frame of the program's own code");
    const char *note = strstr(a->message, "; in the context");
    ck_assert_ptr_nonnull(note);
    ck_assert_str_eq(note, "; in the context teardown at exit (Py_FinalizeEx), after the "
                           "program's last line");
    ck_assert_ptr_null(extra_of(b, "phase"));
    ck_assert_ptr_null(strstr(b->message, "teardown"));
}
END_TEST

START_TEST(test_exit_at_user_line_no_phase)
{
    /* A static destructor of the program's own code at exit: its line, no phase. */
    ss_stack_frame frames[3] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaFree"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 0, 0},
        {0x5501, ss_evlog_intern(&log_, "Pool::~Pool()"),
         ss_evlog_intern(&log_, "/work/app/pool.cu"), ss_evlog_intern(&log_, "/work/app/a.out"), 41,
         0},
        {0x7f40, ss_evlog_intern(&log_, "__run_exit_handlers"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libc.so.6"), 0, 0},
    };
    readback_at(2, 0, ss_evlog_add_stack(&log_, frames, 3));
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "/work/app/pool.cu");
    ck_assert_uint_eq(f->line, 41);
    ck_assert_ptr_null(extra_of(f, "phase"));
    ck_assert_ptr_null(strstr(f->message, "teardown"));
}
END_TEST

START_TEST(test_python_hints_for_allocations)
{
    /* PyTorch's pinned-memory allocation (a frame in site-packages/torch) from the program's
     * line 30 gets the advice about its caching host allocator; a JAX program's cudaFree (its
     * venv folder named torch, no torch package in the stack) gets no PyTorch advice. */
    const char *files[] = {PIN_MEMORY, "/work/train.py"};
    const unsigned lines[] = {57, 30};
    pending_scale();
    api((call_spec){.name = "cudaHostAlloc",
                    .enter = US(20),
                    .exit = US(330),
                    .corr = 2,
                    .bytes = 1 << 20,
                    .kind = -1,
                    .stack = python_stack(2, files, lines)});
    ss_stack_frame jax[3] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaFree"), 0,
         ss_evlog_intern(&log_, "/usr/lib/libcudart.so.13"), 0, 0},
        {0, ss_evlog_intern(&log_, "compile_or_get_cached"),
         ss_evlog_intern(&log_, "/opt/torch/.venv/lib/python3.12/site-packages/jax/_src/"
                                "compiler.py"),
         0, 395, 1},
        {0, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, "/work/loop.py"), 0, 25, 1},
    };
    launch_call(1, US(1000), US(1005), 3, S13, 13, site("main.cu", 30));
    kernel("scale", US(1010), US(1310), 3, 13);
    free_call(US(1020), US(1330), 4, ss_evlog_add_stack(&log_, jax, 3));
    run();
    const ss_finding *a, *b;
    two_findings(SS_RULE_DEVICE_WIDE_SYNC_CALL, at_line_30, &a, &b);
    ck_assert_uint_eq(a->line, 30);
    ck_assert_str_eq(a->hint,
                     "Pinned memory (DataLoader(..., pin_memory=True), tensor.pin_memory()) is "
                     "allocated with cudaHostAlloc, which waits for the whole device, whenever "
                     "PyTorch's caching host allocator has no free block of the size: keep batch "
                     "shapes fixed (pad them, drop_last=True) so that its blocks are reused.");
    ck_assert_str_eq(b->file, "/work/loop.py");
    ck_assert_ptr_null(b->hint);
}
END_TEST

START_TEST(test_via_keeps_library_lines_apart)
{
    /* One line of the program reaches readbacks at two library lines: two findings, one per
     * library line (each a line PyTorch's sync debug mode would name). A third occurrence
     * through the first library line joins the first finding. */
    const char *files[] = {GENERATION, "/work/pt_gpt2.py"};
    const unsigned first[] = {2192, 11}, second[] = {2210, 11};
    readback_at(2, 0, python_stack(2, files, first));
    readback_at(3, US(1000), python_stack(2, files, second));
    readback_at(4, US(2000), python_stack(2, files, first));
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *a = nth(SS_RULE_SCALAR_READBACK, 0), *b = nth(SS_RULE_SCALAR_READBACK, 1);
    ck_assert_uint_eq(a->line, 11);
    ck_assert_uint_eq(b->line, 11);
    ck_assert_uint_eq(a->via_line, 2192);
    ck_assert_uint_eq(a->evidence.count, 2);
    ck_assert_uint_eq(b->via_line, 2210);
    ck_assert_uint_eq(b->evidence.count, 1);
}
END_TEST

START_TEST(test_python_stdlib_is_not_user_code)
{
    /* The standard library (PREFIX/lib/python3.N/) is library code; a folder that merely
     * starts like it is not. */
    const char *files[] = {"/usr/lib/python3.12/json/encoder.py", "/home/me/lib/python3x/run.py"};
    const unsigned lines[] = {200, 7};
    readback_at(2, 0, python_stack(2, files, lines));
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "/home/me/lib/python3x/run.py");
    ck_assert_str_eq(f->via_file, "/usr/lib/python3.12/json/encoder.py");
}
END_TEST

START_TEST(test_inductor_code_is_not_user_code)
{
    /* torch.compile: the call is made in the Python TorchInductor generated (its cache folder);
     * the site is the program's call of the compiled function, through the generated line. */
    const char *files[] = {"/tmp/torchinductor_me/3z/c3zc7ooyi4.py", "/work/train.py"};
    const unsigned lines[] = {262, 30};
    readback_at(2, 0, python_stack(2, files, lines));
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, "/work/train.py");
    ck_assert_uint_eq(f->line, 30);
    ck_assert_str_eq(f->via_file, "/tmp/torchinductor_me/3z/c3zc7ooyi4.py");
    ck_assert_uint_eq(f->via_line, 262);
}
END_TEST

START_TEST(test_attribute_to_paths)
{
    /* --attribute-to the package: its frame is the user's code now, no via. */
    const char *files[] = {GENERATION, "/work/pt_gpt2.py"};
    const unsigned lines[] = {2192, 11};
    readback_at(2, 0, python_stack(2, files, lines));
    const char *const paths[] = {"/venv/lib/python3.12/site-packages/transformers"};
    opt.user_paths = paths;
    opt.user_path_count = 1;
    run();
    const ss_finding *f = only(SS_RULE_SCALAR_READBACK);
    ck_assert_str_eq(f->file, GENERATION);
    ck_assert_uint_eq(f->line, 2192);
    ck_assert_ptr_null(f->via_file);
}
END_TEST

START_TEST(test_attribute_to_native)
{
    /* Native: by default a library of the program's tree is its code; with --attribute-to the
     * program's sources, the finding moves to main() and names the library as the via. */
    ss_stack_frame frames[3] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaFree"), 0,
         ss_evlog_intern(&log_, "/usr/local/cuda/lib64/libcudart.so.13"), 0, 0},
        {0x7f02, ss_evlog_intern(&log_, "pool_release"), ss_evlog_intern(&log_, "/src/pool/pool.c"),
         ss_evlog_intern(&log_, "/opt/app/libpool.so"), 77, 0},
        {0x4011, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, "/src/app/main.c"),
         ss_evlog_intern(&log_, "/opt/app/app"), 9, 0},
    };
    uint32_t stack = ss_evlog_add_stack(&log_, frames, 3);
    pending_scale();
    free_call(US(20), US(330), 2, stack);
    const char *const paths[] = {"/src/app/"};
    opt.user_paths = paths;
    opt.user_path_count = 1;
    run();
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_str_eq(f->file, "/src/app/main.c");
    ck_assert_uint_eq(f->line, 9);
    ck_assert_str_eq(f->via_file, "/src/pool/pool.c");
    ck_assert_uint_eq(f->via_line, 77);
    ck_assert_str_eq(f->via_function, "pool_release");
}
END_TEST

START_TEST(test_system_library_is_via)
{
    /* A library installed under /usr is not the program's: the site is main(), the library
     * frame is the via; nvcc's header template (cuda_runtime.h) is neither. */
    ss_stack_frame frames[4] = {
        {0x7f01, ss_evlog_intern(&log_, "cudaMallocHost"), 0,
         ss_evlog_intern(&log_, "/usr/local/cuda/lib64/libcudart.so.13"), 0, 0},
        {0x4008, ss_evlog_intern(&log_, "cudaError cudaMallocHost<float>(float**, unsigned long)"),
         ss_evlog_intern(&log_, "/usr/local/cuda/targets/x86_64-linux/include/cuda_runtime.h"),
         ss_evlog_intern(&log_, "/work/app"), 575, 0},
        {0x7f03, ss_evlog_intern(&log_, "blas_init"), 0,
         ss_evlog_intern(&log_, "/usr/lib/x86_64-linux-gnu/libblas.so.3"), 0, 0},
        {0x4011, ss_evlog_intern(&log_, "main"), ss_evlog_intern(&log_, "/work/main.cu"),
         ss_evlog_intern(&log_, "/work/app"), 21, 0},
    };
    uint32_t stack = ss_evlog_add_stack(&log_, frames, 4);
    pending_scale();
    api((call_spec){.name = "cudaMallocHost",
                    .enter = US(20),
                    .exit = US(330),
                    .corr = 2,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = stack});
    run();
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_str_eq(f->file, "/work/main.cu");
    ck_assert_uint_eq(f->line, 21);
    ck_assert_ptr_null(f->via_file);
    ck_assert_str_eq(f->via_function, "blas_init");
}
END_TEST

/* ---- binaries built without -g ---- */

/* A stack of a program built without -g: static cudart inside the executable, then 'caller'
 * at 'pc' in /work/bin/app (loaded with bias 0x400000, say the metadata), then an outer
 * frame at 'outer_pc'. */
static uint32_t release_stack(uint64_t pc, uint64_t outer_pc)
{
    ss_evlog_set_meta(&log_, "executable", "/work/bin/app");
    ss_evlog_set_meta(&log_, "base:/work/bin/app", "0x400000");
    ss_stack_frame frames[4] = {
        {0x402000, ss_evlog_intern(&log_, "cudart::cudaApiFree(void*)"), 0,
         ss_evlog_intern(&log_, "/work/bin/app"), 0, 0},
        {0x402100, ss_evlog_intern(&log_, "cudaFree"), 0, ss_evlog_intern(&log_, "/work/bin/app"),
         0, 0},
        {pc, ss_evlog_intern(&log_, "release_pool(Pool*)"), 0,
         ss_evlog_intern(&log_, "/work/bin/app"), 0, 0},
        {outer_pc, ss_evlog_intern(&log_, "main"), 0, ss_evlog_intern(&log_, "/work/bin/app"), 0,
         0},
    };
    return ss_evlog_add_stack(&log_, frames, 4);
}

START_TEST(test_release_binary_site)
{
    /* The site is the program's innermost function, at an offset in its module; the same call
     * site reached from two callers is one finding, and the result says once how to get source
     * lines. */
    pending_scale();
    free_call(US(20), US(330), 2, release_stack(0x401234, 0x401500));
    launch_call(1, US(400), US(405), 5, S13, 13, site("main.cu", 30));
    kernel("scale", US(410), US(710), 5, 13);
    free_call(US(420), US(730), 3, release_stack(0x401234, 0x401600));
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_ptr_null(f->file);
    ck_assert_uint_eq(f->evidence.count, 2);
    ck_assert_str_eq(f->function, "release_pool(Pool*)");
    ck_assert_str_eq(f->module, "/work/bin/app");
    ck_assert_uint_eq(f->module_offset, 0x1234);
    char text[256];
    ck_assert_str_eq(ss_finding_module_text(f, text, sizeof text),
                     "release_pool(Pool*) (app+0x1234)");
    ck_assert_uint_eq(res.diag_count, 1);
    ck_assert_int_eq(res.diags[0].severity, SS_SEV_NOTE);
    ck_assert_str_eq(res.diags[0].message,
                     "1 finding has no source line, only a function and its offset in a module: "
                     "build with -g (or -lineinfo for device code) for source lines");
}
END_TEST

START_TEST(test_release_binary_without_base)
{
    /* A trace without the module's load address (recorded before it was kept): no offset is
     * made up. */
    uint32_t stack = release_stack(0x401234, 0x401500);
    ss_evlog_set_meta(&log_, "base:/work/bin/app", "unknown");
    pending_scale();
    free_call(US(20), US(330), 2, stack);
    run();
    const ss_finding *f = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_str_eq(f->function, "release_pool(Pool*)");
    ck_assert_ptr_null(f->module);
    ck_assert_uint_eq(res.diag_count, 0);
}
END_TEST

/* ---- copy direction ---- */

START_TEST(test_driver_copy_direction_from_api)
{
    /* cuMemcpyDtoHAsync has no kind argument, and CUPTI may report its copy as HtoH (seen with
     * XLA): the direction is the API's. Its 4 KiB into pageable memory is SYNC201, DtoH. */
    pending_scale();
    api((call_spec){.name = "cuMemcpyDtoHAsync_v2",
                    .enter = US(20),
                    .exit = US(320),
                    .corr = 2,
                    .stream = S13,
                    .stream_id = 13,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("xla.cc", 5)});
    copy(SS_EV_MEMCPY, US(312), US(315), 2, 13, 4096, SS_COPY_HTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    run();
    const ss_finding *f = only(SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_str_eq(f->evidence.direction, "DtoH");
    ck_assert_str_eq(f->evidence.host_kind, "pageable");
}
END_TEST

START_TEST(test_driver_memcpy_direction_unknown)
{
    /* cuMemcpy takes no kind: without a copy record its direction is unknown, never guessed;
     * with one, it is the record's. */
    pending_scale();
    api((call_spec){.name = "cuMemcpy",
                    .enter = US(20),
                    .exit = US(320),
                    .corr = 2,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("drv.c", 5)});
    api((call_spec){.name = "cuMemcpy",
                    .enter = US(400),
                    .exit = US(420),
                    .corr = 3,
                    .bytes = 4096,
                    .kind = -1,
                    .stack = site("drv.c", 6)});
    launch_call(1, US(330), US(331), 4, S13, 13, site("main.cu", 30));
    kernel("scale", US(332), US(410), 4, 13);
    copy(SS_EV_MEMCPY, US(412), US(415), 3, LEGACY_ID, 4096, SS_COPY_DTOD, SS_MEM_DEVICE,
         SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(count_of(SS_RULE_SYNC_COPY_IN_PIPELINE), 2);
    const ss_finding *a = nth(SS_RULE_SYNC_COPY_IN_PIPELINE, 0);
    const ss_finding *b = nth(SS_RULE_SYNC_COPY_IN_PIPELINE, 1);
    ck_assert_uint_eq(a->line, 5);
    ck_assert_ptr_null(a->evidence.direction);
    ck_assert_uint_eq(b->line, 6);
    ck_assert_str_eq(b->evidence.direction, "DtoD");
}
END_TEST

/* ---- startup phase ---- */

/* A cudaFree that waits for kernel 'init' at 0, then 'rounds' rounds of kernels 'a', 'b' and a
 * 4-byte readback each that waits for them, starting at 1 ms. */
static void startup_then_loop(int rounds)
{
    launch_call(1, 0, US(5), 1, S13, 13, site("main.cu", 5));
    kernel("init", US(10), US(310), 1, 13);
    free_call(US(20), US(320), 2, site("main.cu", 6));
    uint64_t t = MS(1);
    uint32_t corr = 10;
    for (int i = 0; i < rounds; i++, t += MS(1)) {
        launch_call(1, t, t + US(5), corr, S13, 13, site("main.cu", 10));
        kernel("a", t + US(10), t + US(110), corr++, 13);
        launch_call(1, t + US(6), t + US(8), corr, S13, 13, site("main.cu", 11));
        kernel("b", t + US(110), t + US(310), corr++, 13);
        async_copy_call(1, t + US(20), t + US(320), corr, 4, 2, site("main.cu", 12));
        copy(SS_EV_MEMCPY, t + US(312), t + US(315), corr++, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
             SS_MEM_PAGEABLE);
    }
}

START_TEST(test_startup_phase_marked)
{
    startup_then_loop(4);
    run();
    const ss_finding *setup = only(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_int_eq(setup->startup, 1);
    ck_assert_int_eq(setup->severity, SS_SEV_WARNING); /* marked, not demoted */
    ck_assert_int_eq(strncmp(setup->message, "startup: cudaFree blocked the host", 34), 0);
    const ss_finding *loop = only(SS_RULE_SCALAR_READBACK);
    ck_assert_int_eq(loop->startup, 0);
    ck_assert_uint_eq(loop->evidence.count, 4);
}
END_TEST

START_TEST(test_startup_phase_needs_three_repeats)
{
    /* Two rounds are no loop yet: nothing is marked; and marking can be turned off. */
    startup_then_loop(2);
    run();
    ck_assert_int_eq(only(SS_RULE_DEVICE_WIDE_SYNC_CALL)->startup, 0);
    ss_result_free(&res);
    ss_result_init(&res, SS_RESULT_RUN);
    ss_evlog_free(&log_);
    ck_assert_int_eq(ss_evlog_init(&log_), 0);
    startup_then_loop(4);
    opt.startup_phase = 0;
    run();
    ck_assert_int_eq(only(SS_RULE_DEVICE_WIDE_SYNC_CALL)->startup, 0);
}
END_TEST

/* ---- advice for Python ---- */

START_TEST(test_python_hint_for_pageable_copy)
{
    /* x.to('cuda') of a pageable tensor in Python: pin_memory, not cudaMallocHost. The same
     * copy from C++ keeps the catalog's fix (no hint). */
    const char *files[] = {"/work/train.py"};
    const unsigned lines[] = {30};
    pending_scale();
    async_copy_call(1, US(20), US(320), 2, 1 << 20, 1, python_stack(1, files, lines));
    copy(SS_EV_MEMCPY, US(312), US(318), 2, 13, 1 << 20, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    async_copy_call(1, US(400), US(700), 3, 1 << 20, 1, site("load.cu", 9));
    copy(SS_EV_MEMCPY, US(410), US(690), 3, 13, 1 << 20, SS_COPY_HTOD, SS_MEM_PAGEABLE,
         SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(count_of(SS_RULE_PAGEABLE_ASYNC_COPY), 2);
    for (size_t i = 0; i < res.count; i++) {
        const ss_finding *f = &res.findings[i];
        if (f->line == 30)
            ck_assert_ptr_nonnull(strstr(f->hint, "DataLoader(..., pin_memory=True)"));
        else
            ck_assert_ptr_null(f->hint);
    }
}
END_TEST

/* ---- the new fields in the outputs ---- */

START_TEST(test_outputs_carry_via_latent_and_module)
{
    const char *files[] = {GENERATION, "/work/pt_gpt2.py"};
    const unsigned lines[] = {2192, 11};
    readback_at(2, 0, python_stack(2, files, lines));
    free_call(US(900), US(901), 9, release_stack(0x401234, 0x401500));
    run();
    ck_assert_uint_eq(res.count, 2);
    char path[] = "/tmp/check_detect_json_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *out = fdopen(fd, "w");
    ck_assert_int_eq(ss_report_write_json(out, &res), 0);
    ck_assert_int_eq(fclose(out), 0);
    ss_result back;
    char err[256];
    ck_assert_msg(ss_report_read_json(path, &back, err, sizeof err) == 0, "%s", err);
    unlink(path);
    ck_assert_uint_eq(back.count, 2);
    for (size_t i = 0; i < 2; i++) {
        const ss_finding *a = &res.findings[i], *b = &back.findings[i];
        ck_assert_int_eq(a->latent, b->latent);
        ck_assert_int_eq(a->startup, b->startup);
        ck_assert_uint_eq(a->via_line, b->via_line);
        ck_assert_uint_eq(a->module_offset, b->module_offset);
        if (a->via_file)
            ck_assert_str_eq(a->via_file, b->via_file);
        if (a->module)
            ck_assert_str_eq(a->module, b->module);
    }
    ss_result_free(&back);

    /* SARIF: the module as the artifact of the finding without a line, the via frame as a
     * related location the message links to. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    ck_assert_int_eq(ss_report_write_sarif(mem, &res), 0);
    ck_assert_int_eq(fclose(mem), 0);
    cJSON *sarif = cJSON_Parse(text);
    free(text);
    ck_assert_ptr_nonnull(sarif);
    cJSON *results =
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(sarif, "runs"), 0), "results");
    int checked = 0;
    cJSON *r;
    cJSON_ArrayForEach(r, results)
    {
        cJSON *physical = cJSON_GetObjectItem(
            cJSON_GetArrayItem(cJSON_GetObjectItem(r, "locations"), 0), "physicalLocation");
        cJSON *related = cJSON_GetObjectItem(r, "relatedLocations");
        const char *message =
            cJSON_GetObjectItem(cJSON_GetObjectItem(r, "message"), "text")->valuestring;
        if (related != NULL) {
            cJSON *via = cJSON_GetArrayItem(related, 0);
            ck_assert_int_eq(cJSON_GetObjectItem(via, "id")->valueint, 1);
            ck_assert_str_eq(
                cJSON_GetObjectItem(cJSON_GetObjectItem(via, "message"), "text")->valuestring,
                "via transformers/generation/utils.py:2192.");
            ck_assert_ptr_nonnull(
                strstr(message, "Called through [transformers/generation/utils.py:2192](1)."));
            checked++;
        } else {
            cJSON *artifact = cJSON_GetObjectItem(physical, "artifactLocation");
            ck_assert_str_eq(cJSON_GetObjectItem(artifact, "uri")->valuestring,
                             "file:///work/bin/app");
            cJSON *address = cJSON_GetObjectItem(physical, "address");
            ck_assert_int_eq(cJSON_GetObjectItem(address, "relativeAddress")->valueint, 0x1234);
            ck_assert_str_eq(cJSON_GetObjectItem(address, "name")->valuestring,
                             "release_pool(Pool*)");
            checked++;
        }
    }
    ck_assert_int_eq(checked, 2);
    cJSON_Delete(sarif);
}
END_TEST

/* detect/families.def: every rule that the runtime half finds is reported by exactly one
 * family, and no family reports a rule that only the static half finds. */
START_TEST(test_families_cover_runtime_rules)
{
    static const ss_rule_id listed[] = {
#define DET_FAMILY(file, id, ...) __VA_ARGS__,
#include "families.def"
#undef DET_FAMILY
    };
    size_t runtime = 0;
    for (int r = 0; r < SS_RULE_COUNT; r++) {
        size_t families = 0;
        for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
            families += listed[i] == (ss_rule_id)r;
        int found_at_run_time = (ss_rules_get((ss_rule_id)r)->halves & SS_HALF_RUNTIME) != 0;
        ck_assert_msg(families == (size_t)found_at_run_time, "%s: in %zu families",
                      ss_rules_get((ss_rule_id)r)->id, families);
        runtime += (size_t)found_at_run_time;
    }
    ck_assert_uint_eq(sizeof listed / sizeof listed[0], runtime);
}
END_TEST

/* Each row of families.def names the file that defines its family (detect/CMakeLists.txt
 * compiles the files the rows name), and every family defined in detect/ has its row. */
START_TEST(test_families_in_their_files)
{
    static const struct {
        const char *file, *id;
    } rows[] = {
#define DET_FAMILY(file, id, ...) {#file, #id},
#include "families.def"
#undef DET_FAMILY
    };
    size_t n = sizeof rows / sizeof rows[0], size;
    for (size_t i = 0; i < n; i++) {
        char *path = ss_xasprintf("%s/detect/%s.c", SS_SOURCE_DIR, rows[i].file);
        char *text = ss_read_file(path, &size);
        ck_assert_msg(text != NULL, "%s: no file %s", rows[i].id, path);
        char *definition = ss_xasprintf("const det_family det_family_%s = {", rows[i].id);
        ck_assert_msg(strstr(text, definition) != NULL, "%s does not define det_family_%s", path,
                      rows[i].id);
        free(definition);
        free(text);
        free(path);
    }
    /* The other way: each definition in detect/ is a row's, in that row's file. */
    char *folder = ss_xasprintf("%s/detect", SS_SOURCE_DIR);
    DIR *dir = opendir(folder);
    ck_assert_ptr_nonnull(dir);
    size_t defined = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0)
            continue;
        char *path = ss_xasprintf("%s/%s", folder, e->d_name);
        char *text = ss_read_file(path, &size);
        ck_assert_ptr_nonnull(text);
        static const char mark[] = "\nconst det_family det_family_";
        for (const char *p = strstr(text, mark); p != NULL; p = strstr(p + 1, mark)) {
            const char *id = p + sizeof mark - 1;
            size_t id_len = strcspn(id, " =");
            int listed = 0;
            for (size_t i = 0; i < n; i++)
                listed |= strlen(rows[i].id) == id_len && strncmp(rows[i].id, id, id_len) == 0 &&
                          strlen(rows[i].file) == len - 2 &&
                          strncmp(rows[i].file, e->d_name, len - 2) == 0;
            ck_assert_msg(listed, "%s: det_family_%.*s has no row of families.def naming this file",
                          e->d_name, (int)id_len, id);
            defined++;
        }
        free(text);
        free(path);
    }
    closedir(dir);
    free(folder);
    ck_assert_uint_eq(defined, n);
}
END_TEST

static Suite *detect_suite(void)
{
    const fixture_case cases[] = {
        {"families", {test_families_cover_runtime_rules, test_families_in_their_files}},
        {"readback",
         {test_readback_positive, test_readback_nothing_pending,
          test_readback_async_api_and_size_limit, test_readback_limit_option, test_aggregation,
          test_readback_prediction, test_nested_driver_call_not_counted_twice,
          test_nested_driver_call_without_runtime_parent, test_two_threads,
          test_only_later_work_pending, test_out_of_order_activity}},
        {"joined",
         {test_readback_then_stream_sync, test_readback_then_device_sync,
          test_readback_then_other_stream_sync, test_readback_sync_not_next,
          test_readback_then_idle_sync, test_readback_then_sync_two_threads,
          test_readback_legacy_sync_of_non_blocking_copy, test_readback_sync_copy_joins_nothing,
          test_readback_device_sync_of_other_streams, test_readback_same_enter_time}},
        {"own_transfer",
         {test_readback_sync_waited_for_own_transfer,
          test_readback_sync_waited_for_earlier_kernel_too,
          test_pageable_copy_sync_waited_for_own_transfer, test_light_readback_found_stream_idle,
          test_light_readback_found_stream_busy, test_light_short_call_not_asked_at_exit,
          test_light_copy_between_readback_and_sync, test_light_between_ignored_in_full_log}},
        {"copies",
         {test_pageable_async_copy, test_pageable_async_copy_host_bound_range,
          test_pageable_async_copy_without_pending_work, test_pageable_async_copy_then_stream_sync,
          test_pageable_copy_then_sync_counts_work_once,
          test_pinned_copy_then_stream_sync_stays_401, test_pinned_async_copy_is_not_201,
          test_sync_copy_in_pipeline, test_sync_copy_nothing_pending,
          test_sync_copy_device_side_not_latent}},
        {"syncs",
         {test_device_sync_over_synchronized, test_stream_sync_waits_for_its_stream_only,
          test_device_wide_sync_call, test_short_block_is_ignored, test_free_array_is_a_free,
          test_free_array_short_is_latent, test_frees_that_wait_for_nothing}},
        {"streams",
         {test_default_stream_launch, test_default_stream_launch_borrowed_site,
          test_default_stream_async_call, test_non_blocking_stream_is_not_serialized,
          test_per_thread_default_stream_is_not_101, test_overlapping_streams_are_not_serialized}},
        {"capture",
         {test_capture_invalidated, test_capture_unsafe_call_without_error_result,
          test_capture_success}},
        {"sites",
         {test_python_frame_is_primary, test_python_site_skips_library_frames,
          test_native_site_skips_library_frames, test_unsymbolized_stacks_aggregate_by_stack,
          test_compile_work_is_apart_and_startup, test_compile_work_unmarked_without_phase,
          test_totals_and_metadata, test_refused_activity_buffers_warned,
          test_same_findings_after_trace_round_trip}},
        {"latent",
         {test_latent_off_reports_nothing, test_latent_folds_into_blocking_finding,
          test_latent_pageable_copy, test_latent_syncs_by_kind, test_latent_ranked_after_blocking}},
        {"just_my_code",
         {test_python_site_with_via, test_via_keeps_library_lines_apart, test_other_thread_site,
          test_library_only_stack_names_function, test_readback_waited_by_other_thread,
          test_no_stack_names_phase, test_helper_thread_named, test_started_thread_site,
          test_started_thread_through_starters, test_exit_teardown_names_phase,
          test_exit_at_user_line_no_phase, test_python_hints_for_allocations,
          test_own_python_frames_name_no_thread, test_python_stdlib_is_not_user_code,
          test_inductor_code_is_not_user_code, test_attribute_to_paths, test_attribute_to_native,
          test_system_library_is_via}},
        {"release",
         {test_release_binary_site, test_release_binary_without_base,
          test_driver_copy_direction_from_api, test_driver_memcpy_direction_unknown}},
        {"phase",
         {test_startup_phase_marked, test_startup_phase_needs_three_repeats,
          test_python_hint_for_pageable_copy, test_outputs_carry_via_latent_and_module}},
    };
    return fixture_suite("detect", cases, sizeof cases / sizeof cases[0], fixture_setup, 0);
}

SS_CHECK_MAIN(detect_suite)
