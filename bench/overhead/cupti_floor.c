/* cupti_floor.c: the least a CUPTI-based tool pays, loaded with LD_PRELOAD: it enables the
 * interposer's activity kinds and throws every record away. */
#include <cupti.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set to 1 to also receive every runtime API callback (with an empty handler). */
#define FLOOR_ENV_CALLBACKS "SYNCSCOPE_BENCH_FLOOR_CALLBACKS"
/* Set to 1 to print the number of records seen at exit (proof that the floor was active). */
#define FLOOR_ENV_VERBOSE "SYNCSCOPE_BENCH_FLOOR_VERBOSE"
/* A comma-separated subset of "kernel,memcpy,memset,sync" to enable only those kinds (to
 * find which kind costs what); unset: "kernel,memcpy,memset", the kinds the interposer
 * enables by default (it adds "sync" only when it writes a trace). */
#define FLOOR_ENV_KINDS "SYNCSCOPE_BENCH_FLOOR_KINDS"

/* The interposer's activity buffer size, so both pay the same number of buffer hand-offs. */
#define FLOOR_BUFFER_SIZE (512u << 10)
#define FLOOR_BUFFER_ALIGN 8

static CUpti_SubscriberHandle floor_subscriber;
static unsigned long long floor_records;
static unsigned long long floor_buffers;

static int env_is_on(const char *name)
{
    const char *value = getenv(name);
    return value != NULL && *value != '\0' && strcmp(value, "0") != 0;
}

static const char *const floor_kind_words[] = {"kernel", "memcpy", "memset", "sync"};
#define FLOOR_KIND_COUNT (sizeof floor_kind_words / sizeof floor_kind_words[0])
#define FLOOR_DEFAULT_KINDS "kernel,memcpy,memset"

/* Marks in chosen[] the kinds FLOOR_ENV_KINDS names (FLOOR_DEFAULT_KINDS when it is unset).
 * Returns 0, or -1 after saying which word is not a kind. */
static int choose_kinds(int chosen[FLOOR_KIND_COUNT])
{
    const char *list = getenv(FLOOR_ENV_KINDS);
    if (list == NULL)
        list = FLOOR_DEFAULT_KINDS;
    for (size_t k = 0; k < FLOOR_KIND_COUNT; k++)
        chosen[k] = 0;
    for (const char *p = list; *p != '\0';) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < FLOOR_KIND_COUNT &&
               !(strlen(floor_kind_words[k]) == n && strncmp(p, floor_kind_words[k], n) == 0))
            k++;
        if (k == FLOOR_KIND_COUNT) {
            fprintf(stderr, "cupti_floor: %s: '%.*s' is not one of kernel, memcpy, memset, sync\n",
                    FLOOR_ENV_KINDS, (int)n, p);
            return -1;
        }
        chosen[k] = 1;
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* The subscriber's callback: does nothing; the domain is enabled only on request. */
static void CUPTIAPI on_api(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                            const void *cbdata)
{
    (void)userdata;
    (void)domain;
    (void)cbid;
    (void)cbdata;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(FLOOR_BUFFER_ALIGN, FLOOR_BUFFER_SIZE);
    *size = *buffer != NULL ? FLOOR_BUFFER_SIZE : 0;
    *max_records = 0;
}

/* Counts the records (a pointer walk, the least any consumer does) and frees the buffer. */
static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
                                      size_t size, size_t valid_size)
{
    CUpti_Activity *record = NULL;
    unsigned long long count = 0;
    (void)context;
    (void)stream_id;
    (void)size;
    while (valid_size > 0 &&
           cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
        count++;
    }
    __atomic_fetch_add(&floor_records, count, __ATOMIC_RELAXED);
    __atomic_fetch_add(&floor_buffers, 1, __ATOMIC_RELAXED);
    free(buffer);
}

static void floor_finish(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (env_is_on(FLOOR_ENV_VERBOSE)) {
        fprintf(stderr, "cupti_floor: %llu records in %llu buffers\n",
                __atomic_load_n(&floor_records, __ATOMIC_RELAXED),
                __atomic_load_n(&floor_buffers, __ATOMIC_RELAXED));
    }
}

__attribute__((constructor)) static void floor_start(void)
{
    /* In the order of floor_kind_words. */
    static const CUpti_ActivityKind kinds[FLOOR_KIND_COUNT] = {
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION};
    int chosen[FLOOR_KIND_COUNT];
    const char *failed = NULL;
    if (choose_kinds(chosen) < 0) {
        fprintf(stderr, "cupti_floor: the program runs without it\n");
        return;
    }
    if (cuptiSubscribe(&floor_subscriber, (CUpti_CallbackFunc)on_api, NULL) != CUPTI_SUCCESS) {
        failed = "cuptiSubscribe";
    } else if (env_is_on(FLOOR_ENV_CALLBACKS) &&
               cuptiEnableDomain(1, floor_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) !=
                   CUPTI_SUCCESS) {
        failed = "cuptiEnableDomain";
    } else if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) !=
               CUPTI_SUCCESS) {
        failed = "cuptiActivityRegisterCallbacks";
    }
    for (size_t i = 0; failed == NULL && i < FLOOR_KIND_COUNT; i++) {
        if (!chosen[i])
            continue;
        if (cuptiActivityEnable(kinds[i]) != CUPTI_SUCCESS)
            failed = "cuptiActivityEnable";
    }
    if (failed != NULL) {
        fprintf(stderr, "cupti_floor: %s failed; the program runs without it\n", failed);
        return;
    }
    atexit(floor_finish);
}
