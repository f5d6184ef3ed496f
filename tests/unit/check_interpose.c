/* check_interpose.c: the interposer's pure logic: the CUPTI argument table against
 * cuda_api.def, output names, ranks, settings, the budgeted per-thread storage and the
 * threads' site caches. */
#include "args.h"
#include "check_main.h"
#include "interpose.h"
#include "log.h"
#include "report.h"
#include "rules.h"
#include "sitecache.h"
#include "store.h"

#include <cupti.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const ss_args_spec *spec_named(const char *name)
{
    size_t n;
    const ss_args_spec *t = ss_args_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t[i].cupti_name, name) == 0)
            return &t[i];
    }
    return NULL;
}

static int is_absent(const char *api)
{
    for (const ss_args_absent *a = ss_args_without_callback(); a->api != NULL; a++) {
        if (strcmp(a->api, api) == 0)
            return 1;
    }
    return 0;
}

START_TEST(test_every_api_row_is_mapped)
{
    size_t napi, nspec;
    const ss_api *apis = ss_api_all(&napi);
    const ss_args_spec *specs = ss_args_table(&nspec);
    for (size_t r = 0; r < napi; r++) {
        const ss_api *row = &apis[r];
        size_t found = 0;
        for (size_t i = 0; i < nspec; i++) {
            const ss_args_spec *s = &specs[i];
            if (s->api != row->api)
                continue;
            found++;
            /* Every argument the table declares is taken from the callback. */
            if (row->stream_arg >= 0)
                ck_assert_msg(s->stream.size == 8, "%s: no stream", s->cupti_name);
            if (row->size_arg >= 0)
                ck_assert_msg(s->bytes.size == 8, "%s: no byte count", s->cupti_name);
            if (row->kind_arg >= 0)
                ck_assert_msg(s->kind.size == 4, "%s: no copy kind", s->cupti_name);
            if (row->flags_arg >= 0)
                ck_assert_msg(s->flags.size == 4, "%s: no flags", s->cupti_name);
            if (row->klass == SS_CLASS_STREAM_CREATE)
                ck_assert_msg(s->out_stream.size == 8, "%s: no stream out", s->cupti_name);
            ck_assert_int_eq(s->domain,
                             row->domain == SS_DOMAIN_RT ? SS_DOMAIN_RUNTIME : SS_DOMAIN_DRIVER);
        }
        if (is_absent(row->name))
            ck_assert_msg(found == 0, "%s is listed without a callback but mapped", row->name);
        else
            ck_assert_msg(found > 0, "%s has no CUPTI mapping", row->name);
    }
}
END_TEST

START_TEST(test_spec_names_cbids_and_variants)
{
    size_t nspec;
    const ss_args_spec *specs = ss_args_table(&nspec);
    ck_assert_uint_eq(nspec, 239);
    for (size_t i = 0; i < nspec; i++) {
        const ss_args_spec *s = &specs[i];
        /* The CUPTI name, stripped of its version and per-thread suffixes, is the row. */
        const ss_api *row = ss_api_find(s->cupti_name);
        ck_assert_msg(row != NULL && row->api == s->api, "%s maps to the wrong row", s->cupti_name);
        int per_thread = strstr(s->cupti_name, "_ptsz") || strstr(s->cupti_name, "_ptds");
        ck_assert_int_eq(s->per_thread, per_thread);
        ck_assert_uint_gt(s->cbid, 0);
        for (size_t j = i + 1; j < nspec; j++) {
            ck_assert_msg(!(specs[j].domain == s->domain && specs[j].cbid == s->cbid),
                          "%s and %s share a cbid", s->cupti_name, specs[j].cupti_name);
        }
    }
    for (const ss_args_absent *a = ss_args_without_callback(); a->api != NULL; a++) {
        ck_assert_ptr_nonnull(ss_api_find(a->api));
        ck_assert_ptr_nonnull(a->reason);
    }
    ck_assert_uint_eq(spec_named("cudaMemcpyAsync_ptsz_v7000")->cbid,
                      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000);
    ck_assert_uint_eq(spec_named("cuMemcpyHtoD_v2")->cbid, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2);
    /* cudaFreeArray (session 37): a free of the device-wide class, its array not a pointer. */
    const ss_args_spec *free_array = spec_named("cudaFreeArray_v3020");
    ck_assert_ptr_nonnull(free_array);
    ck_assert_uint_eq(free_array->cbid, CUPTI_RUNTIME_TRACE_CBID_cudaFreeArray_v3020);
    ck_assert_int_eq(free_array->api, SS_API_cudaFreeArray);
    ck_assert_uint_eq(free_array->pointers, 0);
    /* The CUDA 3.x driver variants (32-bit pointers) are not taken. */
    ck_assert_ptr_null(spec_named("cuMemcpyHtoD"));
}
END_TEST

START_TEST(test_args_read_from_params)
{
    int present;
    cudaMemcpyAsync_v3020_params copy = {(void *)0x10, (const void *)0x20, 1234,
                                         cudaMemcpyDeviceToHost, (cudaStream_t)0x5000};
    const ss_args_spec *s = spec_named("cudaMemcpyAsync_v3020");
    ck_assert_uint_eq(ss_args_read(&copy, &s->stream, &present), 0x5000);
    ck_assert_int_eq(present, 1);
    ck_assert_uint_eq(ss_args_read(&copy, &s->bytes, &present), 1234);
    ck_assert_uint_eq(ss_args_read(&copy, &s->kind, &present), cudaMemcpyDeviceToHost);
    ck_assert_uint_eq(ss_args_read(&copy, &s->flags, &present), 0);
    ck_assert_int_eq(present, 0);

    cudaMemcpy2DAsync_v3020_params copy2d = {
        NULL, 512, NULL, 512, 100, 7, cudaMemcpyHostToDevice, (cudaStream_t)2};
    s = spec_named("cudaMemcpy2DAsync_ptsz_v7000");
    ck_assert_uint_eq(ss_args_read(&copy2d, &s->bytes, &present) *
                          ss_args_read(&copy2d, &s->bytes2, &present),
                      700);
    ck_assert_uint_eq(ss_args_read(&copy2d, &s->stream, &present), 2);

    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    config.stream = (cudaStream_t)0x77;
    cudaLaunchKernelExC_v11060_params launch = {&config, NULL, NULL};
    s = spec_named("cudaLaunchKernelExC_v11060");
    ck_assert_uint_eq(ss_args_read(&launch, &s->stream, &present), 0x77);
    ck_assert_int_eq(present, 1);
    launch.config = NULL;
    ck_assert_uint_eq(ss_args_read(&launch, &s->stream, &present), 0);
    ck_assert_int_eq(present, 0);

    cudaStream_t created = (cudaStream_t)0xabc;
    cudaStreamCreateWithPriority_v5050_params create = {&created, cudaStreamNonBlocking, -3};
    s = spec_named("cudaStreamCreateWithPriority_v5050");
    ck_assert_uint_eq(ss_args_read(&create, &s->out_stream, &present), (uintptr_t)&created);
    ck_assert_uint_eq(ss_args_read(&create, &s->flags, &present), cudaStreamNonBlocking);
    ck_assert_int_eq((int32_t)ss_args_read(&create, &s->priority, &present), -3);

    /* A copy to a CUDA array: sizes and kind, no pointer set (the array is no pointer). */
    cudaMemcpy2DToArray_ptds_v7000_params to_array = {NULL, 0,  0, (const void *)0x50,
                                                      256,  64, 8, cudaMemcpyHostToDevice};
    s = spec_named("cudaMemcpy2DToArray_ptds_v7000");
    ck_assert_uint_eq(ss_args_read(&to_array, &s->bytes, &present) *
                          ss_args_read(&to_array, &s->bytes2, &present),
                      512);
    ck_assert_uint_eq(ss_args_read(&to_array, &s->kind, &present), cudaMemcpyHostToDevice);
    ck_assert_int_eq(s->pointers, 0);
    cudaMemcpyFromArrayAsync_ptsz_v7000_params from_array = {
        (void *)0x60, NULL, 0, 0, 4096, cudaMemcpyDeviceToHost, (cudaStream_t)0x61};
    s = spec_named("cudaMemcpyFromArrayAsync_ptsz_v7000");
    ck_assert_uint_eq(ss_args_read(&from_array, &s->bytes, &present), 4096);
    ck_assert_uint_eq(ss_args_read(&from_array, &s->stream, &present), 0x61);
    ck_assert_int_eq(s->per_thread, 1);

    /* The driver's event record (its event in the pointer set) and stream creators. */
    cuEventRecord_ptsz_params record = {(CUevent)0x70, (CUstream)0x71};
    s = spec_named("cuEventRecord_ptsz");
    ck_assert_uint_eq(ss_args_read(&record, &s->stream, &present), 0x71);
    ck_assert_uint_eq(ss_args_read(&record, &s->dst, &present), 0x70);
    CUstream made = (CUstream)0xdef;
    cuStreamCreateWithPriority_params prio = {&made, CU_STREAM_NON_BLOCKING, -2};
    s = spec_named("cuStreamCreateWithPriority");
    ck_assert_uint_eq(ss_args_read(&prio, &s->out_stream, &present), (uintptr_t)&made);
    ck_assert_uint_eq(ss_args_read(&prio, &s->flags, &present), CU_STREAM_NON_BLOCKING);
    ck_assert_int_eq((int32_t)ss_args_read(&prio, &s->priority, &present), -2);
    cuGreenCtxStreamCreate_params green = {&made, NULL, CU_STREAM_NON_BLOCKING, 1};
    s = spec_named("cuGreenCtxStreamCreate");
    ck_assert_uint_eq(ss_args_read(&green, &s->flags, &present), CU_STREAM_NON_BLOCKING);
    ck_assert_int_eq((int32_t)ss_args_read(&green, &s->priority, &present), 1);

    cuMemcpyDtoHAsync_v2_params drv = {(void *)0x30, 0x40, 99, (CUstream)0x900};
    s = spec_named("cuMemcpyDtoHAsync_v2_ptsz");
    ck_assert_uint_eq(ss_args_read(&drv, &s->bytes, &present), 99);
    ck_assert_uint_eq(ss_args_read(&drv, &s->stream, &present), 0x900);
    ck_assert_int_eq(s->per_thread, 1);
    ck_assert_uint_eq(ss_args_read(NULL, &s->stream, &present), 0);
    ck_assert_int_eq(present, 0);
}
END_TEST

START_TEST(test_expand_output_names)
{
    char out[64];
    ck_assert_int_eq(
        ss_interpose_expand("ss-%p-%h-%r-%%-%x.json", 4242, "node1", 3, out, sizeof out), 0);
    ck_assert_str_eq(out, "ss-4242-node1-3-%-%x.json");
    ck_assert_int_eq(ss_interpose_expand("r%r", 1, "h", -1, out, sizeof out), 0);
    ck_assert_str_eq(out, "r0");
    ck_assert_int_eq(ss_interpose_expand("end%", 1, "h", 0, out, sizeof out), 0);
    ck_assert_str_eq(out, "end%");
    ck_assert_int_eq(ss_interpose_expand("%p", 123456, "h", 0, out, 7), 0);
    ck_assert_str_eq(out, "123456");
    ck_assert_int_eq(ss_interpose_expand("%p", 123456, "h", 0, out, 6), -1);
    ck_assert_int_eq(ss_interpose_expand("", 1, "h", 0, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
}
END_TEST

static void clear_rank_variables(void)
{
    static const char *const names[] = SS_RANK_VARIABLES;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unsetenv(names[i]);
}

START_TEST(test_rank_variables)
{
    clear_rank_variables();
    ck_assert_int_eq(ss_interpose_rank(), -1);
    setenv("LOCAL_RANK", "3", 1); /* the last resort: a global rank wins over it */
    ck_assert_int_eq(ss_interpose_rank(), 3);
    setenv("RANK", "7", 1);
    ck_assert_int_eq(ss_interpose_rank(), 7);
    setenv("SLURM_PROCID", "5", 1);
    ck_assert_int_eq(ss_interpose_rank(), 5);
    setenv("PMI_RANK", "x", 1); /* not an integer: skipped */
    ck_assert_int_eq(ss_interpose_rank(), 5);
    setenv("PMI_RANK", "2", 1);
    ck_assert_int_eq(ss_interpose_rank(), 2);
    setenv("OMPI_COMM_WORLD_RANK", "0", 1);
    ck_assert_int_eq(ss_interpose_rank(), 0);
    clear_rank_variables();
}
END_TEST

START_TEST(test_parse_sizes)
{
    uint64_t v;
    ck_assert_int_eq(ss_interpose_parse_size("256M", &v), 0);
    ck_assert_uint_eq(v, 268435456u);
    ck_assert_int_eq(ss_interpose_parse_size("2g", &v), 0);
    ck_assert_uint_eq(v, 2147483648u);
    ck_assert_int_eq(ss_interpose_parse_size("64KiB", &v), 0);
    ck_assert_uint_eq(v, 65536);
    ck_assert_int_eq(ss_interpose_parse_size("16B", &v), 0);
    ck_assert_uint_eq(v, 16);
    ck_assert_int_eq(ss_interpose_parse_size("12", &v), 0);
    ck_assert_uint_eq(v, 12);
    ck_assert_int_eq(ss_interpose_parse_size("1.5G", &v), -1);
    ck_assert_int_eq(ss_interpose_parse_size("M", &v), -1);
    ck_assert_int_eq(ss_interpose_parse_size("", &v), -1);
    ck_assert_int_eq(ss_interpose_parse_size("5X", &v), -1);
    ck_assert_int_eq(ss_interpose_parse_size("99999999999999999999", &v), -1);
    ck_assert_int_eq(ss_interpose_parse_size("17179869184T", &v), -1);
    ck_assert_int_eq(ss_interpose_parse_uint("007", &v), 0);
    ck_assert_uint_eq(v, 7);
    ck_assert_int_eq(ss_interpose_parse_uint("-1", &v), -1);
}
END_TEST

START_TEST(test_config_from_environment)
{
    static const char *const vars[] = {
        SS_ENV_OUTPUT,         SS_ENV_FORMAT,         SS_ENV_SARIF,           SS_ENV_TRACE,
        SS_ENV_CHROME_TRACE,   SS_ENV_MAX_MEMORY,     SS_ENV_KERNEL_ACTIVITY, SS_ENV_MIN_BLOCKED_US,
        SS_ENV_READBACK_BYTES, SS_ENV_SLACK_US,       SS_ENV_STACK_MIN_US,    SS_ENV_CUPTI_PATH,
        SS_ENV_QUIET,          SS_ENV_SIGNAL_FLUSH_MS};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    ss_interpose_config c;
    char err[256] = "";
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.output, "syncscope-%p.json");
    ck_assert_str_eq(c.format, "json");
    ck_assert_uint_eq(c.max_memory, 256u << 20);
    ck_assert_uint_eq(c.stack_min_ns, 100000);
    ck_assert_int_eq(c.kernel_activity, 1);
    ck_assert_str_eq(c.trace, "");
    ck_assert_int_eq(c.sync_records, 0);
    ck_assert_uint_eq(c.signal_flush_ms, 10000);

    setenv(SS_ENV_FORMAT, "SARIF", 1);
    setenv(SS_ENV_MAX_MEMORY, "1G", 1);
    setenv(SS_ENV_KERNEL_ACTIVITY, "0", 1);
    setenv(SS_ENV_MIN_BLOCKED_US, "250", 1);
    setenv(SS_ENV_TRACE, "run-%p.trace", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.format, "sarif");
    ck_assert_uint_eq(c.max_memory, 1u << 30);
    ck_assert_int_eq(c.kernel_activity, 0);
    ck_assert_uint_eq(c.min_blocked_ns, 250000);
    ck_assert_str_eq(c.trace, "run-%p.trace");
    ck_assert_int_eq(c.sync_records, 1);
    unsetenv(SS_ENV_TRACE);
    setenv(SS_ENV_CHROME_TRACE, "run.json", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.sync_records, 1);
    unsetenv(SS_ENV_CHROME_TRACE);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_int_eq(c.sync_records, 0);

    setenv(SS_ENV_MAX_MEMORY, "1M", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "SYNCSCOPE_MAX_MEMORY='1M' is not a size of at least 4M (e.g. 256M, 2G)");
    unsetenv(SS_ENV_MAX_MEMORY);
    setenv(SS_ENV_FORMAT, "HTML", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.format, "html");
    setenv(SS_ENV_FORMAT, "xml", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), -1);
    char *formats = ss_format_names(SS_FORMAT_FOR_RUN, ", ");
    char *refusal = ss_xasprintf("SYNCSCOPE_FORMAT='xml' is not one of %s", formats);
    ck_assert_str_eq(err, refusal);
    free(refusal);
    free(formats);
    setenv(SS_ENV_FORMAT, "gitlab", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_str_eq(c.format, "gitlab");
    unsetenv(SS_ENV_FORMAT);
    setenv(SS_ENV_KERNEL_ACTIVITY, "maybe", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "SYNCSCOPE_KERNEL_ACTIVITY='maybe' is not 0 or 1");
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
}
END_TEST

/* SYNCSCOPE_SIGNAL_FLUSH_MS: how long a SIGINT/SIGTERM waits for the outputs; 0 turns the
 * handler off; more than an hour or anything but digits is refused with a message. */
START_TEST(test_config_signal_flush)
{
    ss_interpose_config c;
    char err[256] = "";
    setenv(SS_ENV_SIGNAL_FLUSH_MS, "0", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_uint_eq(c.signal_flush_ms, 0);
    setenv(SS_ENV_SIGNAL_FLUSH_MS, "2500", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_uint_eq(c.signal_flush_ms, 2500);
    setenv(SS_ENV_SIGNAL_FLUSH_MS, "3600000", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_uint_eq(c.signal_flush_ms, 3600000);
    setenv(SS_ENV_SIGNAL_FLUSH_MS, "", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), 0);
    ck_assert_uint_eq(c.signal_flush_ms, 10000);
    setenv(SS_ENV_SIGNAL_FLUSH_MS, "3600001", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), -1);
    ck_assert_str_eq(err, "SYNCSCOPE_SIGNAL_FLUSH_MS='3600001' is not a number of milliseconds "
                          "from 0 to 3600000");
    setenv(SS_ENV_SIGNAL_FLUSH_MS, "2s", 1);
    ck_assert_int_eq(ss_interpose_config_load(&c, err, sizeof err), -1);
    ck_assert_str_eq(err,
                     "SYNCSCOPE_SIGNAL_FLUSH_MS='2s' is not a number of milliseconds from 0 to "
                     "3600000");
    unsetenv(SS_ENV_SIGNAL_FLUSH_MS);
}
END_TEST

START_TEST(test_memory_cap_drops_and_counts)
{
    static ss_store store;
    ss_store_init(&store, 4u << 20);
    ss_thread_store *t = ss_store_add_thread(&store);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->index, 1);
    uint64_t kept = 0, dropped = 0;
    for (int i = 0; i < 100000; i++) {
        ss_event *e = ss_evbuf_reserve(&t->events, &store.budget);
        if (e == NULL) {
            dropped++;
            continue;
        }
        ck_assert_uint_eq(e->type, 0); /* slots come zeroed */
        e->type = SS_EV_API;
        e->u.api.enter_ns = (uint64_t)i;
        kept++;
    }
    ck_assert_uint_gt(kept, 0);
    ck_assert_uint_gt(dropped, 0);
    ck_assert_uint_eq(kept + dropped, 100000);
    ck_assert_uint_eq(atomic_load(&store.budget.dropped_events), dropped);
    ck_assert_uint_eq(ss_evbuf_count(&t->events), kept);
    /* Past the first refused chunk no chunk is asked for: with the mark set, a budget that
     * has room gives none either, and 'used' stays where it was. */
    ck_assert_int_eq(atomic_load(&store.budget.events_full), 1);
    static ss_store roomy;
    ss_store_init(&roomy, 4u << 20);
    ss_thread_store *r = ss_store_add_thread(&roomy);
    ck_assert_ptr_nonnull(r);
    uint64_t used = ss_budget_used(&roomy.budget);
    atomic_store(&roomy.budget.events_full, 1);
    ck_assert_ptr_null(ss_evbuf_reserve(&r->events, &roomy.budget));
    ck_assert_uint_eq(ss_budget_used(&roomy.budget), used);
    ck_assert_uint_eq(atomic_load(&roomy.budget.dropped_events), 1);
    ck_assert_uint_le(ss_budget_used(&store.budget), 4u << 20);
    /* Whole chunks only: what is kept is a multiple of the chunk size. */
    ck_assert_uint_eq(kept % SS_CHUNK_EVENTS, 0);
    /* Events keep their order across chunks. */
    uint64_t expect = 0;
    for (ss_chunk *c = atomic_load(&t->events.head); c != NULL; c = c->next) {
        for (uint32_t i = 0; i < atomic_load(&c->count); i++)
            ck_assert_uint_eq(c->events[i].u.api.enter_ns, expect++);
    }
    ck_assert_uint_eq(expect, kept);
}
END_TEST

START_TEST(test_stacks_deduplicated)
{
    static ss_store store;
    ss_store_init(&store, 64u << 20);
    ss_thread_store *t = ss_store_add_thread(&store);
    uint64_t a[3] = {0x1000, 0x2000, 0x3000}, b[3] = {0x1000, 0x2000, 0x3001};
    uint32_t ia = ss_stack_intern(&t->stacks, &store.budget, a, 3);
    uint32_t ib = ss_stack_intern(&t->stacks, &store.budget, b, 3);
    ck_assert_uint_eq(ia, 1);
    ck_assert_uint_eq(ib, 2);
    ck_assert_uint_eq(ss_stack_intern(&t->stacks, &store.budget, a, 3), 1);
    ck_assert_uint_eq(ss_stack_intern(&t->stacks, &store.budget, a, 2), 3);
    const ss_stack_entry *e = ss_stack_get(&t->stacks, 2);
    ck_assert_uint_eq(e->depth, 3);
    ck_assert_uint_eq(e->pcs[2], 0x3001);
    ck_assert_ptr_null(ss_stack_get(&t->stacks, 4));
    uint64_t deep[SS_STACK_DEPTH + 10];
    for (size_t i = 0; i < SS_STACK_DEPTH + 10; i++)
        deep[i] = 0x5000 + i;
    uint32_t id = ss_stack_intern(&t->stacks, &store.budget, deep, SS_STACK_DEPTH + 10);
    ck_assert_uint_eq(ss_stack_get(&t->stacks, id)->depth, SS_STACK_DEPTH);
    /* Past SS_STACK_MAX distinct stacks, new ones are dropped and counted. */
    uint64_t pc[1];
    uint32_t last = 0;
    for (uint32_t i = 0; i < SS_STACK_MAX + 10; i++) {
        pc[0] = 0x100000 + i;
        last = ss_stack_intern(&t->stacks, &store.budget, pc, 1);
    }
    ck_assert_uint_eq(last, 0);
    ck_assert_uint_eq(atomic_load(&store.budget.dropped_stacks),
                      14); /* 4 stacks were there already */
}
END_TEST

START_TEST(test_kernel_names)
{
    static ss_store store;
    ss_store_init(&store, 64u << 20);
    char first[] = "_Z4spinPfi";
    uint32_t a = ss_name_intern(&store.names, &store.budget, (uintptr_t)first, first);
    uint32_t b = ss_name_intern(&store.names, &store.budget, 0x1234, "other");
    ck_assert_uint_eq(a, 1);
    ck_assert_uint_eq(b, 2);
    first[0] = 'X'; /* the table keeps its own copy */
    ck_assert_uint_eq(ss_name_intern(&store.names, &store.budget, (uintptr_t)first, first), 1);
    ck_assert_str_eq(ss_name_get(&store.names, 1), "_Z4spinPfi");
    ck_assert_ptr_null(ss_name_get(&store.names, 3));
}
END_TEST

static ss_store shared_store;

static void *writer(void *arg)
{
    (void)arg;
    ss_thread_store *t = ss_store_add_thread(&shared_store);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < 5000; i++) {
        ss_event *e = ss_evbuf_reserve(&t->events, &shared_store.budget);
        if (e != NULL) {
            e->type = SS_EV_API;
            e->u.api.thread = t->index;
        }
    }
    return t;
}

START_TEST(test_threads_register_concurrently)
{
    ss_store_init(&shared_store, 256u << 20);
    pthread_t threads[32];
    for (int i = 0; i < 32; i++)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, writer, NULL), 0);
    for (int i = 0; i < 32; i++)
        pthread_join(threads[i], NULL);
    ck_assert_uint_eq(atomic_load(&shared_store.thread_count), 32);
    unsigned seen[33] = {0};
    size_t listed = 0;
    for (ss_thread_store *t = atomic_load(&shared_store.threads); t != NULL; t = t->next) {
        ck_assert(t->index >= 1 && t->index <= 32);
        seen[t->index]++;
        listed++;
        ck_assert_uint_eq(ss_evbuf_count(&t->events), 5000);
        for (ss_chunk *c = atomic_load(&t->events.head); c != NULL; c = c->next) {
            for (uint32_t i = 0; i < atomic_load(&c->count); i++)
                ck_assert_uint_eq(c->events[i].u.api.thread, t->index);
        }
    }
    ck_assert_uint_eq(listed, 32);
    for (int i = 1; i <= 32; i++)
        ck_assert_uint_eq(seen[i], 1);
    ck_assert_uint_eq(atomic_load(&shared_store.budget.dropped_events), 0);
}
END_TEST

/* A key of the set that ('hash', 'sp', 'call') choose, told apart by 'check' alone. */
static ss_site_key site_key(uint64_t hash, uint64_t check, uint64_t sp, uint64_t call)
{
    return (ss_site_key){hash, check, sp, call};
}

START_TEST(test_site_cache_hits_and_misses)
{
    static ss_site_cache cache;
    memset(&cache, 0, sizeof cache);
    ss_site_key k = site_key(11, 12, 0x7ffc0000, 3);
    ck_assert_uint_eq(ss_site_find(&cache, &k), 0);
    ss_site_remember(&cache, &k, 0); /* no stack: nothing remembered */
    ck_assert_uint_eq(ss_site_find(&cache, &k), 0);
    ss_site_remember(&cache, &k, 7);
    ck_assert_uint_eq(ss_site_find(&cache, &k), 7);
    ck_assert_uint_eq(ss_site_find(&cache, &k), 7);
    /* Any field apart is another site. */
    ss_site_key other[4] = {site_key(99, 12, 0x7ffc0000, 3), site_key(11, 99, 0x7ffc0000, 3),
                            site_key(11, 12, 0x7ffc0010, 3), site_key(11, 12, 0x7ffc0000, 4)};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(ss_site_find(&cache, &other[i]), 0);
    /* The same key again takes its slot over: one slot, the new stack. */
    ss_site_remember(&cache, &k, 8);
    ck_assert_uint_eq(ss_site_find(&cache, &k), 8);
    int filled = 0;
    for (size_t i = 0; i < SS_SITE_SETS * SS_SITE_WAYS; i++)
        filled += cache.slots[i].stack != 0;
    ck_assert_int_eq(filled, 1);
}
END_TEST

START_TEST(test_site_cache_evicts_least_recent)
{
    static ss_site_cache cache;
    memset(&cache, 0, sizeof cache);
    ss_site_key k[SS_SITE_WAYS + 2];
    for (int i = 0; i < SS_SITE_WAYS + 2; i++)
        k[i] = site_key(5, (uint64_t)i, 0x1000, 1); /* one set: 'check' does not choose it */
    for (int i = 0; i < SS_SITE_WAYS; i++)
        ss_site_remember(&cache, &k[i], (uint32_t)(i + 1));
    /* Found since: k[0] is no longer the least recent, k[1] is. */
    ck_assert_uint_eq(ss_site_find(&cache, &k[0]), 1);
    ss_site_remember(&cache, &k[SS_SITE_WAYS], 50);
    ck_assert_uint_eq(ss_site_find(&cache, &k[1]), 0);
    ck_assert_uint_eq(ss_site_find(&cache, &k[0]), 1);
    for (int i = 2; i < SS_SITE_WAYS; i++)
        ck_assert_uint_eq(ss_site_find(&cache, &k[i]), (uint32_t)(i + 1));
    ck_assert_uint_eq(ss_site_find(&cache, &k[SS_SITE_WAYS]), 50);
    /* Now k[0] is the least recent (found before the others). */
    ss_site_remember(&cache, &k[SS_SITE_WAYS + 1], 60);
    ck_assert_uint_eq(ss_site_find(&cache, &k[0]), 0);
    ck_assert_uint_eq(ss_site_find(&cache, &k[SS_SITE_WAYS + 1]), 60);
    ck_assert_uint_eq(ss_site_find(&cache, &k[SS_SITE_WAYS]), 50);
    /* Another set keeps its own: a key there is not evicted by this set's. */
    ss_site_key elsewhere = site_key(6, 0, 0x1000, 1);
    ss_site_remember(&cache, &elsewhere, 70);
    ss_site_remember(&cache, &k[1], 2);
    ck_assert_uint_eq(ss_site_find(&cache, &elsewhere), 70);
}
END_TEST

START_TEST(test_site_key_mixes_in_order)
{
    ss_site_key a = ss_site_key_start(0x7000, 9), b = ss_site_key_start(0x7000, 9),
                c = ss_site_key_start(0x7000, 9);
    ss_site_key_mix(&a, 1);
    ss_site_key_mix(&a, 2);
    ss_site_key_mix(&b, 1);
    ss_site_key_mix(&b, 2);
    ss_site_key_mix(&c, 2);
    ss_site_key_mix(&c, 1);
    ck_assert(a.hash == b.hash && a.check == b.check && a.sp == 0x7000 && a.call == 9);
    ck_assert(a.hash != c.hash && a.check != c.check);
    ss_site_key_mix(&b, 0); /* one word more, even a zero, is another key */
    ck_assert(a.hash != b.hash && a.check != b.check);
}
END_TEST

/* Each thread's cache is its own (thread_state holds one): the same keys, each thread's
 * stacks. */
static void *site_cache_user(void *arg)
{
    static _Thread_local ss_site_cache cache;
    uint32_t base = (uint32_t)(uintptr_t)arg;
    for (uint64_t i = 0; i < 40; i++) {
        ss_site_key k = site_key(i * 977, i, 0x2000, 1);
        ss_site_remember(&cache, &k, base + (uint32_t)i);
    }
    uintptr_t wrong = 0;
    for (int round = 0; round < 1000; round++) {
        for (uint64_t i = 0; i < 40; i++) {
            ss_site_key k = site_key(i * 977, i, 0x2000, 1);
            uint32_t found = ss_site_find(&cache, &k);
            wrong += found != 0 && found != base + (uint32_t)i;
        }
    }
    return (void *)wrong;
}

START_TEST(test_site_caches_per_thread)
{
    pthread_t threads[4];
    for (uintptr_t i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, site_cache_user, (void *)(i * 1000)), 0);
    for (int i = 0; i < 4; i++) {
        void *wrong;
        pthread_join(threads[i], &wrong);
        ck_assert_ptr_null(wrong);
    }
}
END_TEST

static Suite *interpose_suite(void)
{
    Suite *s = suite_create("interpose");
    TCase *args = tcase_create("args");
    tcase_add_test(args, test_every_api_row_is_mapped);
    tcase_add_test(args, test_spec_names_cbids_and_variants);
    tcase_add_test(args, test_args_read_from_params);
    suite_add_tcase(s, args);
    TCase *config = tcase_create("config");
    tcase_add_test(config, test_expand_output_names);
    tcase_add_test(config, test_rank_variables);
    tcase_add_test(config, test_parse_sizes);
    tcase_add_test(config, test_config_from_environment);
    tcase_add_test(config, test_config_signal_flush);
    suite_add_tcase(s, config);
    TCase *store = tcase_create("store");
    tcase_add_test(store, test_memory_cap_drops_and_counts);
    tcase_add_test(store, test_stacks_deduplicated);
    tcase_add_test(store, test_kernel_names);
    tcase_add_test(store, test_threads_register_concurrently);
    suite_add_tcase(s, store);
    TCase *sites = tcase_create("site_cache");
    tcase_add_test(sites, test_site_cache_hits_and_misses);
    tcase_add_test(sites, test_site_cache_evicts_least_recent);
    tcase_add_test(sites, test_site_key_mixes_in_order);
    tcase_add_test(sites, test_site_caches_per_thread);
    suite_add_tcase(s, sites);
    return s;
}

SS_CHECK_MAIN(interpose_suite)
