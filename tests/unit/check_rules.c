/* check_rules.c: the rule catalog and CUDA API table are consistent and searchable. */
#include "check_main.h"
#include "rules.h"
#include "util.h"

#include <string.h>

START_TEST(test_rule_ids_unique_and_ordered)
{
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    ck_assert_uint_eq(n, SS_RULE_COUNT);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(rules[i].rule, (int)i);
        ck_assert_uint_eq(strlen(rules[i].id), 7);
        ck_assert(strncmp(rules[i].id, "SYNC", 4) == 0);
        for (size_t j = i + 1; j < n; j++) {
            ck_assert_str_ne(rules[i].id, rules[j].id);
            ck_assert_str_ne(rules[i].name, rules[j].name);
            ck_assert_int_lt(strcmp(rules[i].id, rules[j].id), 0);
        }
    }
}
END_TEST

START_TEST(test_find_by_id_and_name)
{
    const ss_rule *a = ss_rules_find("SYNC201");
    const ss_rule *b = ss_rules_find("pageable-async-copy");
    const ss_rule *c = ss_rules_find("sync201");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_eq(a, b);
    ck_assert_ptr_eq(a, c);
    ck_assert_int_eq(a->rule, SS_RULE_PAGEABLE_ASYNC_COPY);
    ck_assert_int_eq(a->severity, SS_SEV_WARNING);
    ck_assert_ptr_null(ss_rules_find("SYNC999"));
    ck_assert_ptr_eq(ss_rules_find("Pageable-Async-Copy"), a); /* names in any case too */
    ck_assert_ptr_eq(ss_rules_find("SCALAR-READBACK"), ss_rules_find("SYNC301"));
    ck_assert_ptr_null(ss_rules_find("pageable_async_copy"));
    ck_assert_ptr_null(ss_rules_find(NULL));
    ck_assert_int_eq(ss_rules_find("SYNC501")->severity, SS_SEV_ERROR);
    ck_assert_int_eq(ss_rules_find("SYNC103")->severity, SS_SEV_NOTE);
    ck_assert_int_eq(ss_rules_find("launch-bound")->halves, SS_HALF_RUNTIME);
}
END_TEST

START_TEST(test_keys_suggest)
{
    size_t n, rule_count;
    const char *const *keys = ss_rules_keys(&n);
    const ss_rule *rules = ss_rules_all(&rule_count);
    ck_assert_uint_eq(n, 2 * rule_count);
    for (size_t i = 0; i < rule_count; i++) {
        ck_assert_str_eq(keys[2 * i], rules[i].id);
        ck_assert_str_eq(keys[2 * i + 1], rules[i].name);
    }
    ck_assert_str_eq(ss_suggest("pagable-async-copy", keys, n), "pageable-async-copy");
    ck_assert_str_eq(ss_suggest("SYNC2O1", keys, n), "SYNC201");
    ck_assert_str_eq(ss_suggest("SYNC310", keys, n), "SYNC301"); /* not SYNC101 */
    ck_assert_str_eq(ss_suggest("sync-in-lop", keys, n), "sync-in-loop");
    ck_assert_ptr_null(ss_suggest("SYNC999", keys, n));
    ck_assert_ptr_null(ss_suggest("legacy-default-stream", keys, n));
}
END_TEST

START_TEST(test_severity_parse)
{
    ss_severity s;
    ck_assert_int_eq(ss_severity_parse("Error", &s), 0);
    ck_assert_int_eq(s, SS_SEV_ERROR);
    ck_assert_int_eq(ss_severity_parse("note", &s), 0);
    ck_assert_int_eq(s, SS_SEV_NOTE);
    ck_assert_int_eq(ss_severity_parse("fatal", &s), -1);
    ck_assert_str_eq(ss_severity_name(SS_SEV_WARNING), "warning");
}
END_TEST

START_TEST(test_cost_column)
{
    /* Each cost's name, which the writers label time with. */
    static const struct {
        ss_cost cost;
        const char *name;
    } names[] = {
        {SS_COST_NONE, "none"},
        {SS_COST_HOST, "host"},
        {SS_COST_HOST_EXPLICIT, "host-explicit"},
        {SS_COST_GPU_HELD, "gpu-held"},
        {SS_COST_SAVING, "saving"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        ck_assert_str_eq(ss_cost_name(names[i].cost), names[i].name);
    /* Every rule's cost is one of them; one rule of each cost as the catalog states it. */
    size_t n;
    const ss_rule *rules = ss_rules_all(&n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(rules[i].cost <= SS_COST_SAVING, "%s: cost %d", rules[i].id,
                      (int)rules[i].cost);
    static const struct {
        const char *id;
        ss_cost cost;
    } examples[] = {
        {"SYNC101", SS_COST_GPU_HELD},      {"SYNC201", SS_COST_HOST},
        {"SYNC401", SS_COST_HOST_EXPLICIT}, {"SYNC501", SS_COST_NONE},
        {"SYNC502", SS_COST_SAVING},
    };
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        ck_assert_int_eq(ss_rules_find(examples[i].id)->cost, examples[i].cost);
}
END_TEST

/* The light mode's selection (ss_api_light): every row of cuda_api.def but the stream work a
 * launch-bound program makes by the million and capture begin/end, named here one by one. */
START_TEST(test_api_light)
{
    static const char *const left_out[] = {"cudaLaunchKernel",
                                           "cudaLaunchCooperativeKernel",
                                           "cudaLaunchKernelEx",
                                           "cudaLaunchKernelExC",
                                           "cudaLaunchHostFunc",
                                           "cudaGraphLaunch",
                                           "cudaMemPrefetchAsync",
                                           "cudaEventRecord",
                                           "cudaEventRecordWithFlags",
                                           "cudaStreamWaitEvent",
                                           "cudaStreamAttachMemAsync",
                                           "cudaStreamBeginCapture",
                                           "cudaStreamEndCapture",
                                           "cuLaunchKernel",
                                           "cuLaunchKernelEx",
                                           "cuLaunchCooperativeKernel",
                                           "cuMemPrefetchAsync",
                                           "cuStreamBeginCapture",
                                           "cuStreamEndCapture",
                                           "cuGraphLaunch",
                                           "cuEventRecord",
                                           "cuEventRecordWithFlags",
                                           "cuStreamWaitEvent"};
    size_t count, out = 0;
    const ss_api *rows = ss_api_all(&count);
    for (size_t i = 0; i < count; i++) {
        int listed = 0;
        for (size_t j = 0; j < sizeof left_out / sizeof left_out[0]; j++)
            listed |= strcmp(rows[i].name, left_out[j]) == 0;
        ck_assert_msg(ss_api_light(&rows[i]) == !listed, "%s: ss_api_light %d", rows[i].name,
                      ss_api_light(&rows[i]));
        out += listed;
    }
    ck_assert_uint_eq(out, sizeof left_out / sizeof left_out[0]);
    /* Rows that never block the host but belong to the families the mode follows. */
    ck_assert(ss_api_light(ss_api_find("cudaMallocAsync")));
    ck_assert(ss_api_light(ss_api_find("cudaMemsetAsync")));
    ck_assert(ss_api_light(ss_api_find("cudaStreamQuery")));
    ck_assert(ss_api_light(ss_api_find("cudaStreamCreateWithFlags")));
    /* cudaFreeArray (session 37): a free that synchronizes the device, which the mode follows. */
    const ss_api *free_array = ss_api_find("cudaFreeArray");
    ck_assert_ptr_nonnull(free_array);
    ck_assert_int_eq(free_array->klass, SS_CLASS_FREE);
    ck_assert_int_eq(free_array->sync, SS_SYNC_DEVICE);
    ck_assert(ss_api_light(free_array));
    /* Graph instantiation and upload, runtime and driver, under CUPTI's names too. */
    static const struct {
        const char *name, *row;
        ss_api_class klass;
    } graph[] = {
        {"cudaGraphInstantiate_v12000", "cudaGraphInstantiate", SS_CLASS_GRAPH_INSTANTIATE},
        {"cudaGraphInstantiateWithFlags_v11040", "cudaGraphInstantiateWithFlags",
         SS_CLASS_GRAPH_INSTANTIATE},
        {"cudaGraphInstantiateWithParams_ptsz_v12000", "cudaGraphInstantiateWithParams",
         SS_CLASS_GRAPH_INSTANTIATE},
        {"cudaGraphUpload_ptsz_v10000", "cudaGraphUpload", SS_CLASS_GRAPH_UPLOAD},
        {"cuGraphInstantiate_v2", "cuGraphInstantiate", SS_CLASS_GRAPH_INSTANTIATE},
        {"cuGraphInstantiateWithFlags", "cuGraphInstantiateWithFlags", SS_CLASS_GRAPH_INSTANTIATE},
        {"cuGraphInstantiateWithParams_ptsz", "cuGraphInstantiateWithParams",
         SS_CLASS_GRAPH_INSTANTIATE},
        {"cuGraphUpload", "cuGraphUpload", SS_CLASS_GRAPH_UPLOAD},
    };
    for (size_t i = 0; i < sizeof graph / sizeof graph[0]; i++) {
        const ss_api *g = ss_api_find(graph[i].name);
        ck_assert_msg(g != NULL, "%s: no row", graph[i].name);
        ck_assert_str_eq(g->name, graph[i].row);
        ck_assert_int_eq(g->klass, graph[i].klass);
        ck_assert_int_eq(g->sync, SS_SYNC_NEVER);
        ck_assert_int_eq(g->stream_arg, graph[i].klass == SS_CLASS_GRAPH_UPLOAD ? 1 : -1);
        ck_assert(ss_api_light(g));
        ck_assert(!ss_api_enqueues(g));
    }
    ck_assert_str_eq(ss_api_class_name(SS_CLASS_GRAPH_INSTANTIATE), "graph-instantiate");
    ck_assert_str_eq(ss_api_class_name(SS_CLASS_GRAPH_UPLOAD), "graph-upload");
}
END_TEST

START_TEST(test_api_table)
{
    const ss_api *a = ss_api_find("cudaMemcpyAsync");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->stream_arg, 4);
    ck_assert_int_eq(a->stream_opt, 1);
    ck_assert_int_eq(a->kind_arg, 3);
    ck_assert_int_eq(a->sync, SS_SYNC_PAGEABLE);
    ck_assert(ss_api_enqueues(a));
    ck_assert_ptr_eq(ss_api_find("cudaMemcpyAsync_v3020"), a);
    ck_assert_ptr_eq(ss_api_find("cudaMemcpyAsync_ptsz"), a);
    ck_assert_ptr_eq(ss_api_find("cudaMemcpyAsync_v7000_ptsz"), a);
    ck_assert_ptr_eq(ss_api_find("cuMemcpyHtoD_v2"), ss_api_find("cuMemcpyHtoD"));
    ck_assert_ptr_null(ss_api_find("cudaMemcpyAsyncX"));
    /* Names outside the table, renamed the same way (CUDA 13's cuda.h). */
    ck_assert(ss_api_name_is("cuEventElapsedTime_v2", "cuEventElapsedTime"));
    ck_assert(ss_api_name_is("cuEventElapsedTime", "cuEventElapsedTime"));
    ck_assert(!ss_api_name_is("cuEventElapsedTime_v2", "cuEventElapsed"));
    ck_assert(!ss_api_name_is("cuEventElapsedTimeX", "cuEventElapsedTime"));
    ck_assert(!ss_api_name_is("cuEventElapsedTime_vx", "cuEventElapsedTime"));
    ck_assert_ptr_null(ss_api_find("cudaGetDevice"));
    const ss_api *m = ss_api_find("cudaMemcpy");
    ck_assert_int_eq(m->sync, SS_SYNC_ALWAYS);
    ck_assert(!ss_api_enqueues(m));
    ck_assert(!ss_api_enqueues(ss_api_find("cudaMalloc")));
    ck_assert(ss_api_enqueues(ss_api_find("cudaMallocAsync")));
    ck_assert(ss_api_enqueues(ss_api_find("cudaLaunchKernel")));
    ck_assert_int_eq(ss_api_find("cudaStreamCreateWithFlags")->flags_arg, 1);
}
END_TEST

/* The driver API's memory calls as CUDA 13's cuda.h names them (its '#define cuMemAllocPitch
 * cuMemAllocPitch_v2' and the per-thread '_ptds'/'_ptsz' forms): each finds the row of its
 * family, with the argument positions of the versioned prototype. */
START_TEST(test_api_driver_rows)
{
    static const struct {
        const char *name, *row;
        ss_api_class klass;
        ss_sync_class sync;
        int stream_arg, dst_arg, src_arg, size_arg;
        ss_copy_dir dir;
    } rows[] = {
        {"cuMemAllocPitch_v2", "cuMemAllocPitch", SS_CLASS_ALLOC, SS_SYNC_DEVICE, -1, 0, -1, -1,
         SS_DIR_NONE},
        {"cuMemHostRegister_v2", "cuMemHostRegister", SS_CLASS_HOST_REGISTER, SS_SYNC_DEVICE, -1, 0,
         -1, 1, SS_DIR_NONE},
        {"cuMemHostUnregister", "cuMemHostUnregister", SS_CLASS_HOST_UNREGISTER, SS_SYNC_DEVICE, -1,
         0, -1, -1, SS_DIR_NONE},
        {"cuMemHostAlloc", "cuMemHostAlloc", SS_CLASS_HOST_ALLOC, SS_SYNC_DEVICE, -1, 0, -1, 1,
         SS_DIR_NONE},
        {"cuMemAllocManaged", "cuMemAllocManaged", SS_CLASS_MANAGED_ALLOC, SS_SYNC_DEVICE, -1, 0,
         -1, 1, SS_DIR_NONE},
        {"cuMemAllocAsync_ptsz", "cuMemAllocAsync", SS_CLASS_ALLOC, SS_SYNC_NEVER, 2, 0, -1, 1,
         SS_DIR_NONE},
        {"cuMemFreeAsync", "cuMemFreeAsync", SS_CLASS_FREE, SS_SYNC_NEVER, 1, 0, -1, -1,
         SS_DIR_NONE},
        {"cuMemAllocFromPoolAsync", "cuMemAllocFromPoolAsync", SS_CLASS_ALLOC, SS_SYNC_NEVER, 3, 0,
         -1, 1, SS_DIR_NONE},
        /* CUDA 13: (devPtr, count, CUmemLocation location, flags, hStream). */
        {"cuMemPrefetchAsync_v2", "cuMemPrefetchAsync", SS_CLASS_PREFETCH, SS_SYNC_NEVER, 4, 0, -1,
         1, SS_DIR_NONE},
        {"cuMemPrefetchAsync_v2_ptsz", "cuMemPrefetchAsync", SS_CLASS_PREFETCH, SS_SYNC_NEVER, 4, 0,
         -1, 1, SS_DIR_NONE},
        {"cuMemcpy2D_v2", "cuMemcpy2D", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, -1, -1, -1, SS_DIR_KIND},
        {"cuMemcpy2DUnaligned_v2_ptds", "cuMemcpy2DUnaligned", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1,
         -1, -1, -1, SS_DIR_KIND},
        {"cuMemcpy3D_v2", "cuMemcpy3D", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, -1, -1, -1, SS_DIR_KIND},
        {"cuMemcpy2DAsync_v2", "cuMemcpy2DAsync", SS_CLASS_COPY, SS_SYNC_PAGEABLE, 1, -1, -1, -1,
         SS_DIR_KIND},
        {"cuMemcpy3DAsync_v2_ptsz", "cuMemcpy3DAsync", SS_CLASS_COPY, SS_SYNC_PAGEABLE, 1, -1, -1,
         -1, SS_DIR_KIND},
        {"cuMemcpyPeer", "cuMemcpyPeer", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 2, 4, SS_DIR_PEER},
        {"cuMemcpyPeerAsync_ptsz", "cuMemcpyPeerAsync", SS_CLASS_COPY, SS_SYNC_NEVER, 5, 0, 2, 4,
         SS_DIR_PEER},
        {"cuMemcpy3DPeer", "cuMemcpy3DPeer", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, -1, -1, -1,
         SS_DIR_PEER},
        {"cuMemcpy3DPeerAsync", "cuMemcpy3DPeerAsync", SS_CLASS_COPY, SS_SYNC_NEVER, 1, -1, -1, -1,
         SS_DIR_PEER},
        {"cuMemcpyHtoA_v2", "cuMemcpyHtoA", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 2, 3, SS_DIR_H2D},
        {"cuMemcpyAtoH_v2", "cuMemcpyAtoH", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 1, 3, SS_DIR_D2H},
        {"cuMemcpyHtoAAsync_v2", "cuMemcpyHtoAAsync", SS_CLASS_COPY, SS_SYNC_PAGEABLE, 4, 0, 2, 3,
         SS_DIR_H2D},
        {"cuMemcpyAtoHAsync_v2", "cuMemcpyAtoHAsync", SS_CLASS_COPY, SS_SYNC_PAGEABLE, 4, 0, 1, 3,
         SS_DIR_D2H},
        {"cuMemcpyDtoA_v2", "cuMemcpyDtoA", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 2, 3, SS_DIR_D2D},
        {"cuMemcpyAtoD_v2", "cuMemcpyAtoD", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 1, 3, SS_DIR_D2D},
        {"cuMemcpyAtoA_v2", "cuMemcpyAtoA", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 2, 4, SS_DIR_D2D},
        {"cuMemsetD16_v2", "cuMemsetD16", SS_CLASS_MEMSET, SS_SYNC_ALWAYS, -1, 0, -1, 2,
         SS_DIR_NONE},
        {"cuMemsetD2D8_v2_ptds", "cuMemsetD2D8", SS_CLASS_MEMSET, SS_SYNC_ALWAYS, -1, 0, -1, -1,
         SS_DIR_NONE},
        {"cuMemsetD2D16_v2", "cuMemsetD2D16", SS_CLASS_MEMSET, SS_SYNC_ALWAYS, -1, 0, -1, -1,
         SS_DIR_NONE},
        {"cuMemsetD2D32_v2", "cuMemsetD2D32", SS_CLASS_MEMSET, SS_SYNC_ALWAYS, -1, 0, -1, -1,
         SS_DIR_NONE},
        {"cuMemsetD16Async", "cuMemsetD16Async", SS_CLASS_MEMSET, SS_SYNC_NEVER, 3, 0, -1, 2,
         SS_DIR_NONE},
        {"cuMemsetD2D8Async_ptsz", "cuMemsetD2D8Async", SS_CLASS_MEMSET, SS_SYNC_NEVER, 5, 0, -1,
         -1, SS_DIR_NONE},
        {"cuMemsetD2D16Async", "cuMemsetD2D16Async", SS_CLASS_MEMSET, SS_SYNC_NEVER, 5, 0, -1, -1,
         SS_DIR_NONE},
        {"cuMemsetD2D32Async", "cuMemsetD2D32Async", SS_CLASS_MEMSET, SS_SYNC_NEVER, 5, 0, -1, -1,
         SS_DIR_NONE},
        /* Event records, stream waits and stream creators (CUDA 13's cuda.h: cuEventRecord(hEvent,
         * hStream), cuStreamWaitEvent(hStream, hEvent, Flags), cuStreamCreateWithPriority(phStream,
         * flags, priority), cuGreenCtxStreamCreate(phStream, greenCtx, flags, priority)). */
        {"cuEventRecord_ptsz", "cuEventRecord", SS_CLASS_EVENT_RECORD, SS_SYNC_NEVER, 1, -1, -1, -1,
         SS_DIR_NONE},
        {"cuEventRecordWithFlags", "cuEventRecordWithFlags", SS_CLASS_EVENT_RECORD, SS_SYNC_NEVER,
         1, -1, -1, -1, SS_DIR_NONE},
        {"cuStreamWaitEvent_ptsz", "cuStreamWaitEvent", SS_CLASS_STREAM_WAIT, SS_SYNC_NEVER, 0, -1,
         -1, -1, SS_DIR_NONE},
        {"cuStreamCreateWithPriority", "cuStreamCreateWithPriority", SS_CLASS_STREAM_CREATE,
         SS_SYNC_NEVER, -1, 0, -1, -1, SS_DIR_NONE},
        {"cuGreenCtxStreamCreate", "cuGreenCtxStreamCreate", SS_CLASS_STREAM_CREATE, SS_SYNC_NEVER,
         -1, 0, -1, -1, SS_DIR_NONE},
        /* The rows that were there, under their versioned names. */
        {"cuMemcpyDtoH_v2", "cuMemcpyDtoH", SS_CLASS_COPY, SS_SYNC_ALWAYS, -1, 0, 1, 2, SS_DIR_D2H},
        {"cuMemcpyHtoDAsync_v2_ptsz", "cuMemcpyHtoDAsync", SS_CLASS_COPY, SS_SYNC_PAGEABLE, 3, 0, 1,
         2, SS_DIR_H2D},
        {"cuMemsetD32_v2", "cuMemsetD32", SS_CLASS_MEMSET, SS_SYNC_ALWAYS, -1, 0, -1, 2,
         SS_DIR_NONE},
        {"cuMemAllocHost_v2", "cuMemAllocHost", SS_CLASS_HOST_ALLOC, SS_SYNC_DEVICE, -1, 0, -1, 1,
         SS_DIR_NONE},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const ss_api *a = ss_api_find(rows[i].name);
        ck_assert_msg(a != NULL, "%s: no row", rows[i].name);
        ck_assert_str_eq(a->name, rows[i].row);
        ck_assert_int_eq(a->domain, SS_DOMAIN_DRV);
        ck_assert_msg(a->klass == rows[i].klass && a->sync == rows[i].sync &&
                          a->stream_arg == rows[i].stream_arg && a->dst_arg == rows[i].dst_arg &&
                          a->src_arg == rows[i].src_arg && a->size_arg == rows[i].size_arg &&
                          a->dir == rows[i].dir,
                      "%s: class %d sync %d stream %d dst %d src %d size %d dir %d", rows[i].name,
                      a->klass, a->sync, a->stream_arg, a->dst_arg, a->src_arg, a->size_arg,
                      a->dir);
        ck_assert_int_eq(a->stream_opt, 0);
        ck_assert_int_eq(a->kind_arg, -1);
    }
    ck_assert_int_eq(ss_api_find("cuEventRecordWithFlags_ptsz")->flags_arg, 2);
    ck_assert_int_eq(ss_api_find("cuStreamWaitEvent")->flags_arg, 2);
    ck_assert_int_eq(ss_api_find("cuStreamCreateWithPriority")->flags_arg, 1);
    ck_assert_int_eq(ss_api_find("cuGreenCtxStreamCreate")->flags_arg, 2);
}
END_TEST

/* The runtime's copies to, from and between CUDA arrays and its 3D copies between devices, with
 * the argument positions of CUDA 13's cuda_runtime_api.h (the deprecated 1D array copies are
 * still declared there): the array is the dst or src argument, a 2D copy has no byte count,
 * the copies between arrays default to cudaMemcpyDeviceToDevice (kind still at its position). */
START_TEST(test_api_array_rows)
{
    static const struct {
        const char *name;
        ss_sync_class sync;
        int stream_arg, stream_opt, dst_arg, src_arg, size_arg, kind_arg;
        ss_copy_dir dir;
    } rows[] = {
        {"cudaMemcpy2DToArray", SS_SYNC_ALWAYS, -1, 0, 0, 3, -1, 7, SS_DIR_KIND},
        {"cudaMemcpy2DFromArray", SS_SYNC_ALWAYS, -1, 0, 0, 2, -1, 7, SS_DIR_KIND},
        {"cudaMemcpy2DArrayToArray", SS_SYNC_ALWAYS, -1, 0, 0, 3, -1, 8, SS_DIR_KIND},
        {"cudaMemcpyToArray", SS_SYNC_ALWAYS, -1, 0, 0, 3, 4, 5, SS_DIR_KIND},
        {"cudaMemcpyFromArray", SS_SYNC_ALWAYS, -1, 0, 0, 1, 4, 5, SS_DIR_KIND},
        {"cudaMemcpyArrayToArray", SS_SYNC_ALWAYS, -1, 0, 0, 3, 6, 7, SS_DIR_KIND},
        {"cudaMemcpy2DToArrayAsync", SS_SYNC_PAGEABLE, 8, 1, 0, 3, -1, 7, SS_DIR_KIND},
        {"cudaMemcpy2DFromArrayAsync_ptsz", SS_SYNC_PAGEABLE, 8, 1, 0, 2, -1, 7, SS_DIR_KIND},
        {"cudaMemcpyToArrayAsync", SS_SYNC_PAGEABLE, 6, 1, 0, 3, 4, 5, SS_DIR_KIND},
        {"cudaMemcpyFromArrayAsync", SS_SYNC_PAGEABLE, 6, 1, 0, 1, 4, 5, SS_DIR_KIND},
        {"cudaMemcpy3DPeer_ptds", SS_SYNC_ALWAYS, -1, 0, -1, -1, -1, -1, SS_DIR_PEER},
        {"cudaMemcpy3DPeerAsync", SS_SYNC_NEVER, 1, 1, -1, -1, -1, -1, SS_DIR_PEER},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const ss_api *a = ss_api_find(rows[i].name);
        ck_assert_msg(a != NULL, "%s: no row", rows[i].name);
        ck_assert_int_eq(a->domain, SS_DOMAIN_RT);
        ck_assert_int_eq(a->klass, SS_CLASS_COPY);
        ck_assert_msg(a->sync == rows[i].sync && a->stream_arg == rows[i].stream_arg &&
                          a->stream_opt == rows[i].stream_opt && a->dst_arg == rows[i].dst_arg &&
                          a->src_arg == rows[i].src_arg && a->size_arg == rows[i].size_arg &&
                          a->kind_arg == rows[i].kind_arg && a->dir == rows[i].dir,
                      "%s: sync %d stream %d/%d dst %d src %d size %d kind %d dir %d", rows[i].name,
                      a->sync, a->stream_arg, a->stream_opt, a->dst_arg, a->src_arg, a->size_arg,
                      a->kind_arg, a->dir);
        ck_assert_int_eq(ss_api_light(a), 1);
        ck_assert_int_eq(ss_api_enqueues(a), rows[i].sync != SS_SYNC_ALWAYS);
    }
}
END_TEST

START_TEST(test_compile_frames)
{
    /* XLA's autotuner and profiler, demangled as the symbolizer writes them. */
    ck_assert_int_eq(ss_compile_frame("xla::Autotuner::GetTunedConfig(xla::HloInstruction "
                                      "const&)",
                                      NULL, 0),
                     1);
    ck_assert_int_eq(
        ss_compile_frame("stream_executor::RedzoneAllocator::CheckRedzones()", "x.cc", 0), 1);
    /* A prefix only: the same name elsewhere in a function is not compilation. */
    ck_assert_int_eq(ss_compile_frame("my::xla::Autotuner::Run()", NULL, 0), 0);
    /* The stream's own copy, shared by autotuning and the program's readbacks, is not. */
    ck_assert_int_eq(ss_compile_frame("stream_executor::gpu::CudaStream::Memcpy(void*, "
                                      "stream_executor::DeviceAddressBase const&, unsigned long)",
                                      NULL, 0),
                     0);
    /* Python rows match Python frames by file, never native frames. */
    ck_assert_int_eq(ss_compile_frame("backend_compile_and_load",
                                      "/opt/venv/lib/python3.12/site-packages/jax/_src/"
                                      "compiler.py",
                                      1),
                     1);
    ck_assert_int_eq(ss_compile_frame(NULL,
                                      "/usr/lib/python3/dist-packages/torch/_inductor/"
                                      "select_algorithm.py",
                                      1),
                     1);
    ck_assert_int_eq(ss_compile_frame(NULL, "/opt/venv/site-packages/jax/_src/compiler.py", 0), 0);
    ck_assert_int_eq(ss_compile_frame(NULL, "/home/me/train.py", 1), 0);
    ck_assert_int_eq(ss_compile_frame(NULL, NULL, 1), 0);
}
END_TEST

START_TEST(test_api_rows_sane)
{
    size_t n;
    const ss_api *apis = ss_api_all(&n);
    ck_assert_uint_eq(n, SS_API_COUNT);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(apis[i].api, (int)i);
        ck_assert_ptr_eq(ss_api_find(apis[i].name), &apis[i]);
        /* A stream that may be omitted is always the last argument of its API. */
        if (apis[i].stream_opt)
            ck_assert_int_ge(apis[i].stream_arg, 1);
        if (apis[i].klass == SS_CLASS_COPY)
            ck_assert_int_ne(apis[i].dir, SS_DIR_NONE);
        else
            ck_assert_int_eq(apis[i].dir, SS_DIR_NONE);
    }
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *catalog = tcase_create("catalog");
    tcase_add_test(catalog, test_rule_ids_unique_and_ordered);
    tcase_add_test(catalog, test_find_by_id_and_name);
    tcase_add_test(catalog, test_keys_suggest);
    tcase_add_test(catalog, test_severity_parse);
    tcase_add_test(catalog, test_cost_column);
    suite_add_tcase(s, catalog);
    TCase *api = tcase_create("api-table");
    tcase_add_test(api, test_api_table);
    tcase_add_test(api, test_api_light);
    tcase_add_test(api, test_api_rows_sane);
    tcase_add_test(api, test_api_driver_rows);
    tcase_add_test(api, test_api_array_rows);
    tcase_add_test(api, test_compile_frames);
    suite_add_tcase(s, api);
    return s;
}

SS_CHECK_MAIN(rules_suite)
