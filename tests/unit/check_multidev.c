/* check_multidev.c: the runtime detectors over hand-built logs of one process driving two GPUs:
 * device attribution, streams of two contexts sharing CUPTI ids, peer copies. */
#include "check_main.h"
#include "detect.h"
#include "detect_fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Device 0 runs in CUPTI context 1, device 1 in context 2. Both contexts have a stream with
 * CUPTI id 13 and one with id 14, and their legacy streams both have id 7: the ids collide. */
#define CTX0 1u
#define CTX1 2u
#define LEGACY_ID 7u
#define S13_DEV0 0x1000u /* handles of the streams with id 13 */
#define S13_DEV1 0x2000u
#define S14_DEV0 0x1100u /* handles of the streams with id 14 */
#define S14_DEV1 0x2100u

static uint32_t site(const char *file, unsigned line)
{
    return site_in("/work/multi", file, line);
}

/* A kernel launch call on 'stream' of 'device' (thread 'thread'), and its kernel. */
static void launch(uint32_t thread, int32_t device, uint64_t stream, uint32_t stream_id,
                   uint64_t enter, uint32_t corr, const char *kernel, uint64_t start, uint64_t end,
                   uint32_t stack)
{
    api((call_spec){.thread = thread,
                    .name = "cudaLaunchKernel",
                    .enter = enter,
                    .exit = enter + US(3),
                    .corr = corr,
                    .stream = stream,
                    .stream_id = stream_id,
                    .kind = -1,
                    .device = device,
                    .stack = stack});
    gpu_op((gpu_spec){.type = SS_EV_KERNEL,
                      .name = kernel,
                      .start = start,
                      .end = end,
                      .corr = corr,
                      .stream_id = stream_id,
                      .context = device == 1 ? CTX1 : CTX0,
                      .device = device});
}

/* A copy on the GPU of 'device' (its context), for the call of correlation 'corr'. */
static void copy(int32_t device, uint64_t start, uint64_t end, uint32_t corr, uint32_t stream_id,
                 uint64_t bytes, ss_copy_kind kind, ss_mem_kind src, ss_mem_kind dst)
{
    gpu_op((gpu_spec){.type = SS_EV_MEMCPY,
                      .start = start,
                      .end = end,
                      .corr = corr,
                      .stream_id = stream_id,
                      .context = device == 1 ? CTX1 : CTX0,
                      .device = device,
                      .bytes = bytes,
                      .kind = kind,
                      .src = src,
                      .dst = dst});
}

/* The finding of 'rule' on 'device' (exactly one). */
static const ss_finding *on_device(ss_rule_id rule, int device)
{
    const ss_finding *found = NULL;
    for (size_t i = 0; i < res.count; i++) {
        if (res.findings[i].rule == rule && res.findings[i].evidence.device == device) {
            ck_assert_ptr_null(found);
            found = &res.findings[i];
        }
    }
    ck_assert_ptr_nonnull(found);
    return found;
}

/* ---- device-wide synchronizations ---- */

/* Device 0 is busy on stream 13 (10..300 us) and stream 14 (12..290 us); device 1 runs 'work1'
 * on its own stream 13 (20..320 us). Calls of thread 1 launch on device 0, of thread 2 on
 * device 1. */
static void two_busy_devices(void)
{
    launch(1, 0, S13_DEV0, 13, 0, 1, "busy0", US(10), US(300), site("multi.cu", 20));
    launch(1, 0, S14_DEV0, 14, US(4), 2, "busy0b", US(12), US(290), site("multi.cu", 21));
    launch(2, 1, S13_DEV1, 13, US(1), 3, "work1", US(20), US(320), site("multi.cu", 25));
}

START_TEST(test_device_sync_waits_for_its_device_only)
{
    /* cudaDeviceSynchronize on device 1 returns when device 1's kernel ends; device 0's two
     * kernels, which ended meanwhile, were not what it waited for (and so it was not
     * over-synchronized: it waited for one stream). */
    two_busy_devices();
    api((call_spec){.thread = 2,
                    .name = "cudaDeviceSynchronize",
                    .enter = US(15),
                    .exit = US(325),
                    .corr = 4,
                    .kind = -1,
                    .device = 1,
                    .stack = site("multi.cu", 30)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_SYNC_IN_LOOP, 1);
    ck_assert_str_eq(f->file, "multi.cu");
    ck_assert_uint_eq(f->line, 30);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(310));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'work1' on stream 13 (0.30 ms)");
    ck_assert_str_eq(extra(f, "over_synchronized"), "0");
    ck_assert_str_eq(f->message, "device 1: cudaDeviceSynchronize blocked the host 1 time "
                                 "waiting for device work: 0.31 ms (0.31 ms at most)");
}
END_TEST

START_TEST(test_free_on_idle_device_is_not_blamed)
{
    /* cudaFree on device 1 while only device 0 is busy: it waited for nothing of its device. */
    launch(1, 0, S13_DEV0, 13, 0, 1, "busy0", US(10), US(300), site("multi.cu", 20));
    api((call_spec){.thread = 2,
                    .name = "cudaFree",
                    .enter = US(15),
                    .exit = US(302),
                    .corr = 4,
                    .kind = -1,
                    .device = 1,
                    .stack = site("multi.cu", 31)});
    run();
    /* It synchronized its own, idle device: a latent note that waited for nothing. */
    ck_assert_uint_eq(blocking_count(), 0);
    const ss_finding *f = only_latent(SS_RULE_DEVICE_WIDE_SYNC_CALL);
    ck_assert_uint_eq(f->evidence.total_ns, 0);
    ck_assert_ptr_null(f->evidence.waited_for);
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_free_waits_for_its_device)
{
    /* cudaFree on device 1 while both are busy: SYNC402 on device 1 with device 1's work. */
    two_busy_devices();
    api((call_spec){.thread = 2,
                    .name = "cudaFree",
                    .enter = US(15),
                    .exit = US(322),
                    .corr = 4,
                    .kind = -1,
                    .device = 1,
                    .stack = site("multi.cu", 31)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_DEVICE_WIDE_SYNC_CALL, 1);
    ck_assert_uint_eq(f->line, 31);
    ck_assert_uint_eq(f->evidence.count, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(307));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'work1' on stream 13 (0.30 ms)");
    ck_assert_str_eq(f->message, "device 1: cudaFree blocked the host 1 time while device work "
                                 "was pending: 0.31 ms (0.31 ms at most)");
    ck_assert_uint_eq(res.blocked_ns, US(307));
}
END_TEST

START_TEST(test_over_synchronized_share_per_device)
{
    /* One call site syncs each device in turn (a loop over devices). On device 0 it waits for
     * two streams (over-synchronized); on device 1 for one. Two findings, one per device. */
    two_busy_devices();
    uint32_t stack = site("multi.cu", 40);
    api((call_spec){.thread = 1,
                    .name = "cudaDeviceSynchronize",
                    .enter = US(8),
                    .exit = US(301),
                    .corr = 5,
                    .kind = -1,
                    .device = 0,
                    .stack = stack});
    api((call_spec){.thread = 1,
                    .name = "cudaDeviceSynchronize",
                    .enter = US(302),
                    .exit = US(321),
                    .corr = 6,
                    .kind = -1,
                    .device = 1,
                    .stack = stack});
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_uint_eq(count_of(SS_RULE_SYNC_IN_LOOP), 2);
    const ss_finding *d0 = on_device(SS_RULE_SYNC_IN_LOOP, 0);
    ck_assert_uint_eq(d0->line, 40);
    ck_assert_uint_eq(d0->evidence.count, 1);
    ck_assert_uint_eq(d0->evidence.total_ns, US(293));
    ck_assert_str_eq(extra(d0, "over_synchronized"), "1");
    ck_assert_str_eq(extra(d0, "over_synchronized_ns"), "293000");
    ck_assert_str_eq(d0->evidence.waited_for,
                     "kernel 'busy0b' on stream 14 (0.28 ms), kernel 'busy0' on stream 13 "
                     "(0.29 ms)");
    const ss_finding *d1 = on_device(SS_RULE_SYNC_IN_LOOP, 1);
    ck_assert_uint_eq(d1->line, 40);
    ck_assert_uint_eq(d1->evidence.count, 1);
    ck_assert_uint_eq(d1->evidence.total_ns, US(19));
    ck_assert_str_eq(extra(d1, "over_synchronized"), "0");
    ck_assert_str_eq(d1->evidence.waited_for, "kernel 'work1' on stream 13 (0.30 ms)");
    ck_assert_str_eq(d1->message, "device 1: cudaDeviceSynchronize blocked the host 1 time "
                                  "waiting for device work: 19.0 us (19.0 us at most)");
}
END_TEST

START_TEST(test_over_synchronized_counts_streams_not_ids)
{
    /* A device-wide sync whose device is unknown waits for both devices' stream 13: two
     * streams that share a CUPTI id, so it was over-synchronized. */
    launch(1, 0, S13_DEV0, 13, 0, 1, "busy0", US(10), US(300), site("multi.cu", 20));
    launch(2, 1, S13_DEV1, 13, US(1), 3, "work1", US(20), US(320), site("multi.cu", 25));
    api((call_spec){.thread = 1,
                    .name = "cudaDeviceSynchronize",
                    .enter = US(8),
                    .exit = US(321),
                    .corr = 5,
                    .kind = -1,
                    .device = -1,
                    .stack = site("multi.cu", 40)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = nth(SS_RULE_SYNC_IN_LOOP, 0);
    ck_assert_int_eq(f->evidence.device, -1);
    ck_assert_str_eq(extra(f, "over_synchronized"), "1");
    ck_assert_str_eq(f->message, "cudaDeviceSynchronize blocked the host 1 time waiting for "
                                 "device work: 0.31 ms (0.31 ms at most); 1 of them (0.31 ms) "
                                 "waited for work on two or more streams, where waiting for "
                                 "one stream or event may suffice");
}
END_TEST

START_TEST(test_stream_sync_on_colliding_id)
{
    /* cudaStreamSynchronize of device 1's stream 13 waits for that stream only, not for
     * device 0's stream with the same CUPTI id. */
    two_busy_devices();
    api((call_spec){.thread = 2,
                    .name = "cudaStreamSynchronize",
                    .enter = US(15),
                    .exit = US(322),
                    .corr = 4,
                    .stream = S13_DEV1,
                    .stream_id = 13,
                    .kind = -1,
                    .device = 1,
                    .stack = site("multi.cu", 33)});
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_SYNC_IN_LOOP, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(307));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'work1' on stream 13 (0.30 ms)");
    ck_assert_str_eq(f->evidence.stream, "stream 13");
}
END_TEST

/* ---- legacy-stream serialization ---- */

/* Device 0: 'a0' on its blocking stream 13 (10..300 us), a legacy kernel 'legacy0' (302..352),
 * then 'b0' on stream 13 (354..600), enqueued after the legacy kernel. */
static void legacy_on_device0(void)
{
    launch(1, 0, S13_DEV0, 13, 0, 1, "a0", US(10), US(300), site("multi.cu", 50));
    launch(1, 0, 0, LEGACY_ID, US(6), 2, "legacy0", US(302), US(352), site("multi.cu", 51));
    launch(1, 0, S13_DEV0, 13, US(12), 3, "b0", US(354), US(600), site("multi.cu", 52));
}

/* Device 1: its blocking stream 13 (same CUPTI id as device 0's) ends 'a1' 1 us before the
 * legacy kernel of device 0 starts, and starts 'b1' 1 us after it ends. */
static void device1_around_legacy(void)
{
    launch(2, 1, S13_DEV1, 13, US(1), 4, "a1", US(20), US(301), site("multi.cu", 60));
    launch(2, 1, S13_DEV1, 13, US(13), 5, "b1", US(353), US(500), site("multi.cu", 61));
}

START_TEST(test_legacy_on_device0_serializes_device0_only)
{
    legacy_on_device0();
    device1_around_legacy();
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_DEFAULT_STREAM_LAUNCH, 0);
    ck_assert_uint_eq(f->line, 51);
    ck_assert_uint_eq(f->evidence.count, 1);
    /* Its own wait: ready at 6 us, started at 302 us; held back 'b0': ready at 302 (its
     * stream idle from 300), started at 354. */
    ck_assert_uint_eq(f->evidence.total_ns, US(296) + US(52));
    ck_assert_str_eq(f->evidence.waited_for,
                     "kernel 'a0' on stream 13 (0.29 ms), kernel 'b0' on stream 13 (0.25 ms)");
    ck_assert_str_eq(f->evidence.stream, "stream 7; other streams: 13");
    ck_assert_str_eq(f->message, "device 0: kernel 'legacy0' ran on the legacy default stream and "
                                 "serialized with other blocking streams 1 time: 0.35 ms of GPU "
                                 "time lost (0.35 ms at most)");
}
END_TEST

START_TEST(test_legacy_on_device0_ignores_device1_streams)
{
    /* Only device 1's blocking stream runs around device 0's legacy kernel: no SYNC101. */
    launch(1, 0, 0, LEGACY_ID, US(6), 2, "legacy0", US(302), US(352), site("multi.cu", 51));
    device1_around_legacy();
    run();
    ck_assert_uint_eq(res.count, 0);
    ck_assert_uint_eq(count_of(SS_RULE_DEFAULT_STREAM_LAUNCH), 0);
}
END_TEST

START_TEST(test_legacy_on_device1_with_colliding_legacy_id)
{
    /* Both devices run a legacy kernel on a legacy stream with CUPTI id 7; only device 1's
     * serializes (with device 1's stream 13), and device 0's legacy stream is not mistaken
     * for device 1's. */
    launch(1, 0, 0, LEGACY_ID, 0, 1, "legacy0", US(10), US(340), site("multi.cu", 51));
    launch(2, 1, S13_DEV1, 13, US(1), 4, "a1", US(20), US(301), site("multi.cu", 60));
    launch(2, 1, 0, LEGACY_ID, US(5), 6, "legacy1", US(302), US(352), site("multi.cu", 62));
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_DEFAULT_STREAM_LAUNCH, 1);
    ck_assert_uint_eq(f->line, 62);
    ck_assert_uint_eq(f->evidence.total_ns, US(297));
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'a1' on stream 13 (0.28 ms)");
}
END_TEST

START_TEST(test_stream_records_of_two_contexts)
{
    /* Stream id 13 is blocking on device 0 and non-blocking on device 1 (records of both
     * contexts; the non-blocking one comes last). The legacy kernel of device 0 serializes
     * with device 0's stream 13, and SYNC103 names device 0's creation site. */
    api((call_spec){.thread = 3,
                    .name = "cudaStreamCreate",
                    .enter = 0,
                    .exit = US(1),
                    .corr = 10,
                    .stream = S13_DEV0,
                    .stream_id = 13,
                    .kind = -1,
                    .device = 0,
                    .stack = site("multi.cu", 10)});
    api((call_spec){.thread = 4,
                    .name = "cudaStreamCreateWithFlags",
                    .enter = 0,
                    .exit = US(1),
                    .corr = 11,
                    .stream = S13_DEV1,
                    .stream_id = 13,
                    .kind = -1,
                    .device = 1,
                    .flags = 1,
                    .stack = site("multi.cu", 11)});
    stream_rec(S13_DEV0, 13, 0, 0, CTX0);
    stream_rec(S13_DEV1, 13, SS_STREAM_FLAG_NON_BLOCKING, 1, CTX1);
    legacy_on_device0();
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *f = on_device(SS_RULE_DEFAULT_STREAM_LAUNCH, 0);
    ck_assert_uint_eq(f->evidence.total_ns, US(348));
    const ss_finding *c = on_device(SS_RULE_BLOCKING_STREAM_CREATE, 0);
    ck_assert_uint_eq(c->line, 10);
    ck_assert_uint_eq(c->evidence.count, 1);
    ck_assert_uint_eq(c->evidence.total_ns, US(52));
    ck_assert_str_eq(c->message, "device 0: stream 13 was created blocking here, and legacy "
                                 "default stream work serialized with it 1 time: 52.0 us of GPU "
                                 "time lost (52.0 us at most)");
}
END_TEST

START_TEST(test_stream_record_without_context)
{
    /* A stream record that does not know its context (a hand-written log) applies to the
     * stream of that id on its device: here non-blocking, so nothing is serialized. */
    stream_rec(S13_DEV0, 13, SS_STREAM_FLAG_NON_BLOCKING, 0, 0);
    legacy_on_device0();
    run();
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

/* ---- peer copies ---- */

/* Device 0 has 'busy0' pending on stream 13 (10..300 us). */
static void busy_device0(void)
{
    launch(1, 0, S13_DEV0, 13, 0, 1, "busy0", US(10), US(300), site("multi.cu", 20));
}

START_TEST(test_peer_async_copy_is_no_readback_nor_pageable)
{
    /* A 4-byte cudaMemcpyPeerAsync that blocked behind pending work: with peer access it is
     * one PtoP copy; without, staged through host memory (CUPTI: DtoH then HtoD). Neither is
     * a readback (SYNC301) nor a pageable copy (SYNC201): the copy has no host side. */
    busy_device0();
    api((call_spec){.name = "cudaMemcpyPeerAsync",
                    .enter = US(5),
                    .exit = US(305),
                    .corr = 2,
                    .stream = S13_DEV0,
                    .stream_id = 13,
                    .bytes = 4,
                    .kind = -1,
                    .device = 0,
                    .stack = site("multi.cu", 70)});
    copy(0, US(301), US(302), 2, 13, 4, SS_COPY_PTOP, SS_MEM_DEVICE, SS_MEM_DEVICE);
    api((call_spec){.name = "cudaMemcpyPeerAsync",
                    .enter = US(310),
                    .exit = US(620),
                    .corr = 3,
                    .stream = S13_DEV0,
                    .stream_id = 13,
                    .bytes = 4,
                    .kind = -1,
                    .device = 0,
                    .stack = site("multi.cu", 72)});
    launch(1, 0, S13_DEV0, 13, US(306), 4, "busy0", US(320), US(600), site("multi.cu", 20));
    copy(0, US(601), US(603), 3, 13, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    copy(1, US(605), US(607), 3, 13, 4, SS_COPY_HTOD, SS_MEM_PAGEABLE, SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 0);
    ck_assert_uint_eq(res.blocked_ns, 0);
}
END_TEST

START_TEST(test_default_kind_copy_between_devices)
{
    /* cudaMemcpyAsync with cudaMemcpyDefault between two devices' memory: CUPTI says PtoP.
     * Not SYNC201, not SYNC301. */
    busy_device0();
    api((call_spec){.name = "cudaMemcpyAsync",
                    .enter = US(5),
                    .exit = US(305),
                    .corr = 2,
                    .stream = S13_DEV0,
                    .stream_id = 13,
                    .bytes = 8,
                    .kind = 4,
                    .device = 0,
                    .stack = site("multi.cu", 74)});
    copy(0, US(301), US(302), 2, 13, 8, SS_COPY_PTOP, SS_MEM_DEVICE, SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 0);
}
END_TEST

START_TEST(test_sync_device_copies_are_not_readbacks)
{
    /* A 4-byte synchronous cudaMemcpy DtoD and a 4-byte cudaMemcpyPeer that waited for
     * pending work: SYNC202 (a synchronous copy that waited), never SYNC301. */
    busy_device0();
    api((call_spec){.name = "cudaMemcpy",
                    .enter = US(5),
                    .exit = US(305),
                    .corr = 2,
                    .bytes = 4,
                    .kind = 3,
                    .device = 0,
                    .stack = site("multi.cu", 76)});
    copy(0, US(301), US(302), 2, LEGACY_ID, 4, SS_COPY_DTOD, SS_MEM_DEVICE, SS_MEM_DEVICE);
    launch(1, 0, S13_DEV0, 13, US(306), 4, "busy0", US(320), US(600), site("multi.cu", 20));
    api((call_spec){.name = "cudaMemcpyPeer",
                    .enter = US(310),
                    .exit = US(610),
                    .corr = 3,
                    .bytes = 4,
                    .kind = -1,
                    .device = 0,
                    .stack = site("multi.cu", 78)});
    copy(0, US(601), US(603), 3, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PINNED);
    run();
    ck_assert_uint_eq(res.count, 2);
    ck_assert_uint_eq(count_of(SS_RULE_SCALAR_READBACK), 0);
    ck_assert_uint_eq(count_of(SS_RULE_SYNC_COPY_IN_PIPELINE), 2);
    const ss_finding *d = nth(SS_RULE_SYNC_COPY_IN_PIPELINE, 0);
    const ss_finding *p = nth(SS_RULE_SYNC_COPY_IN_PIPELINE, 1);
    if (d->line != 76) {
        const ss_finding *t = d;
        d = p;
        p = t;
    }
    ck_assert_uint_eq(d->line, 76);
    ck_assert_str_eq(d->evidence.direction, "DtoD");
    ck_assert_ptr_null(d->evidence.host_kind);
    ck_assert_uint_eq(d->evidence.total_ns, US(300));
    ck_assert_uint_eq(p->line, 78);
    ck_assert_str_eq(p->evidence.direction, "PtoP");
    ck_assert_ptr_null(p->evidence.host_kind);
    ck_assert_uint_eq(p->evidence.total_ns, US(300));
    ck_assert_int_eq(p->evidence.device, 0);
    /* One device in the log: messages do not name it. */
    ck_assert_str_eq(p->message, "synchronous cudaMemcpyPeer blocked the host 1 time while "
                                 "earlier device work was pending: 0.30 ms (0.30 ms at most)");
}
END_TEST

/* ---- attribution of every finding ---- */

START_TEST(test_readbacks_per_device)
{
    /* One readback line, run against each device: one SYNC301 per device, each with its own
     * count, time and waited-for work. */
    uint32_t stack = site("multi.cu", 80);
    launch(1, 0, S13_DEV0, 13, 0, 1, "busy0", US(10), US(300), site("multi.cu", 20));
    api((call_spec){.name = "cudaMemcpy",
                    .enter = US(5),
                    .exit = US(305),
                    .corr = 2,
                    .bytes = 4,
                    .kind = 2,
                    .device = 0,
                    .stack = stack});
    copy(0, US(301), US(302), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PAGEABLE);
    for (uint32_t i = 0; i < 2; i++) {
        uint64_t t0 = US(400) + US(1000) * i;
        launch(1, 1, S13_DEV1, 13, t0, 10 + 2 * i, "work1", t0 + US(10), t0 + US(210),
               site("multi.cu", 25));
        api((call_spec){.name = "cudaMemcpy",
                        .enter = t0 + US(5),
                        .exit = t0 + US(215),
                        .corr = 11 + 2 * i,
                        .bytes = 4,
                        .kind = 2,
                        .device = 1,
                        .stack = stack});
        copy(1, t0 + US(211), t0 + US(212), 11 + 2 * i, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE,
             SS_MEM_PAGEABLE);
    }
    run();
    ck_assert_uint_eq(res.count, 2);
    const ss_finding *d0 = on_device(SS_RULE_SCALAR_READBACK, 0);
    ck_assert_uint_eq(d0->line, 80);
    ck_assert_uint_eq(d0->evidence.count, 1);
    ck_assert_uint_eq(d0->evidence.total_ns, US(300));
    ck_assert_str_eq(d0->evidence.waited_for, "kernel 'busy0' on stream 13 (0.29 ms)");
    const ss_finding *d1 = on_device(SS_RULE_SCALAR_READBACK, 1);
    ck_assert_uint_eq(d1->line, 80);
    ck_assert_uint_eq(d1->evidence.count, 2);
    ck_assert_uint_eq(d1->evidence.total_ns, US(420));
    ck_assert_uint_eq(d1->evidence.bytes, 8);
    ck_assert_str_eq(d1->evidence.waited_for, "kernel 'work1' on stream 13 (2 times, 0.40 ms)");
    ck_assert_str_eq(d1->message, "device 1: cudaMemcpy read back 8 bytes to the host in 2 "
                                  "copies and blocked it 0.42 ms (0.21 ms at most) until earlier "
                                  "device work finished");
    ck_assert_uint_eq(res.blocked_ns, US(720));
}
END_TEST

START_TEST(test_device_from_operation_when_call_has_none)
{
    /* A call recorded without a device (no current context seen) takes its copy's device. */
    launch(1, 1, S13_DEV1, 13, 0, 1, "work1", US(10), US(300), site("multi.cu", 25));
    launch(1, 0, S13_DEV0, 13, US(4), 3, "busy0", US(10), US(100), site("multi.cu", 20));
    api((call_spec){.name = "cudaMemcpy",
                    .enter = US(8),
                    .exit = US(305),
                    .corr = 2,
                    .bytes = 4,
                    .kind = 2,
                    .device = -1,
                    .stack = site("multi.cu", 82)});
    copy(1, US(301), US(302), 2, LEGACY_ID, 4, SS_COPY_DTOH, SS_MEM_DEVICE, SS_MEM_PINNED);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_SCALAR_READBACK, 1);
    ck_assert_str_eq(f->evidence.waited_for, "kernel 'work1' on stream 13 (0.29 ms)");
    ck_assert_str_eq(f->evidence.host_kind, "pinned");
}
END_TEST

START_TEST(test_pageable_copy_names_device)
{
    /* A pageable cudaMemcpyAsync on device 1 in a two-device log: SYNC201 on device 1. */
    busy_device0();
    api((call_spec){.thread = 2,
                    .name = "cudaMemcpyAsync",
                    .enter = US(20),
                    .exit = US(120),
                    .corr = 2,
                    .stream = S13_DEV1,
                    .stream_id = 13,
                    .bytes = 1 << 20,
                    .kind = 1,
                    .device = 1,
                    .stack = site("multi.cu", 84)});
    copy(1, US(25), US(118), 2, 13, 1 << 20, SS_COPY_HTOD, SS_MEM_PAGEABLE, SS_MEM_DEVICE);
    run();
    ck_assert_uint_eq(res.count, 1);
    const ss_finding *f = on_device(SS_RULE_PAGEABLE_ASYNC_COPY, 1);
    ck_assert_uint_eq(f->evidence.total_ns, US(100));
    ck_assert_str_eq(extra(f, "waited_for_earlier_work"), "0");
    ck_assert_str_eq(f->message, "device 1: cudaMemcpyAsync HtoD with pageable host memory "
                                 "blocked the host 1 time: 0.10 ms (0.10 ms at most) for 1048576 "
                                 "bytes; 0 of 1 waited for earlier device work. Model: from "
                                 "pinned memory the same copies run in the same order at the "
                                 "pinned rate (54.0 GB/s) and do not hold the host: 19.4 us on "
                                 "the GPU instead of 93.0 us, a saving of about 73.6 us");
}
END_TEST

START_TEST(test_round_trip_keeps_devices_and_contexts)
{
    /* The trace keeps devices and contexts: analyze reproduces the run's findings. */
    legacy_on_device0();
    device1_around_legacy();
    api((call_spec){.thread = 2,
                    .name = "cudaDeviceSynchronize",
                    .enter = US(20),
                    .exit = US(505),
                    .corr = 40,
                    .kind = -1,
                    .device = 1,
                    .stack = site("multi.cu", 30)});
    ss_result again;
    run_and_replay(&again);
    ck_assert_uint_eq(res.count, 2);
    ck_assert_uint_eq(again.count, res.count);
    for (size_t i = 0; i < res.count; i++) {
        const ss_finding *a = &res.findings[i], *b = &again.findings[i];
        ck_assert_int_eq(a->rule, b->rule);
        ck_assert_int_eq(a->evidence.device, b->evidence.device);
        ck_assert_uint_eq(a->line, b->line);
        ck_assert_str_eq(a->message, b->message);
        ck_assert_uint_eq(a->evidence.total_ns, b->evidence.total_ns);
        ck_assert_pstr_eq(a->evidence.waited_for, b->evidence.waited_for);
    }
    ck_assert_int_eq(on_device(SS_RULE_DEFAULT_STREAM_LAUNCH, 0)->line, 51);
    const ss_finding *sync = on_device(SS_RULE_SYNC_IN_LOOP, 1);
    ck_assert_int_eq(sync->line, 30);
    ck_assert_uint_eq(sync->evidence.total_ns, US(485));
    ck_assert_str_eq(sync->evidence.waited_for, "kernel 'a1' on stream 13 (0.28 ms), kernel 'b1' "
                                                "on stream 13 (0.15 ms)");
    ss_result_free(&again);
}
END_TEST

static Suite *multidev_suite(void)
{
    const fixture_case cases[] = {
        {"device_syncs",
         {test_device_sync_waits_for_its_device_only, test_free_on_idle_device_is_not_blamed,
          test_free_waits_for_its_device, test_over_synchronized_share_per_device,
          test_over_synchronized_counts_streams_not_ids, test_stream_sync_on_colliding_id}},
        {"legacy_streams",
         {test_legacy_on_device0_serializes_device0_only,
          test_legacy_on_device0_ignores_device1_streams,
          test_legacy_on_device1_with_colliding_legacy_id, test_stream_records_of_two_contexts,
          test_stream_record_without_context}},
        {"peer_copies",
         {test_peer_async_copy_is_no_readback_nor_pageable, test_default_kind_copy_between_devices,
          test_sync_device_copies_are_not_readbacks}},
        {"attribution",
         {test_readbacks_per_device, test_device_from_operation_when_call_has_none,
          test_pageable_copy_names_device, test_round_trip_keeps_devices_and_contexts}},
    };
    return fixture_suite("multidev", cases, sizeof cases / sizeof cases[0], fixture_setup, 0);
}

SS_CHECK_MAIN(multidev_suite)
