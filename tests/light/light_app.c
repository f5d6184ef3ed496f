/* light_app.c: the observed program of the light mode test (run_light.py): makes CUDA calls
 * through the fake CUPTI of tests/signal, each lasting as long as a call that blocks, and
 * answers the light mode's two driver questions as a driver would: cuPointerGetAttributes
 * (a pinned and a device range; any other address is unknown to the driver, pageable) and
 * cuStreamQuery (busy for as many answers as the program asks before a call). With arguments,
 * it calls each named CUPTI callback instead and prints whether the interposer subscribed to
 * it ("NAME yes" or "NAME no"); the argument "@subscriber" prints whether the interposer holds
 * CUPTI's subscription ("@subscriber yes": the program's own cuptiSubscribe is refused). */
#include <cupti.h>

#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_driver.h"

/* A device allocation the fake driver does not know (it calls it pageable): only the light
 * mode's memory of its cudaMalloc makes it device memory. */
#define ALLOCATED_BASE UINT64_C(0x7d0000000000)
/* Pinned host memory the fake driver does not know (it calls it pageable): only the light
 * mode's memory of its cudaHostAlloc makes it pinned. */
#define HOST_ALLOC_BASE UINT64_C(0x7c0000000000)

/* busy_answers (fake_driver.h) counts only for 'busy_stream', when it is set. */
static CUstream busy_stream;

/* The destroyed-stream case (LIGHT_APP_DESTROYED): the stream another thread destroys during a
 * device-wide call, and how often the driver was asked about it after its destruction; the
 * stream that stays, and how often it was asked. */
#define DESTROYED_STREAM ((CUstream)(uintptr_t)0x5000)
#define KEPT_STREAM ((CUstream)(uintptr_t)0x6000)
#define RELEASED_LATER_STREAM ((CUstream)(uintptr_t)0x7000)
static int destroyed, asked_destroyed, asked_kept, released_later, asked_released_later;
/* How many questions the driver was asked (LIGHT_APP_QUESTIONS prints it). */
static int questions;
/* LIGHT_APP_QUESTION_NS: how long each question takes, as a real driver's does (0: at once). */
static long question_ns;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spends question_ns, spinning. */
static void answer_takes(void)
{
    if (question_ns <= 0)
        return;
    uint64_t until = now_ns() + (uint64_t)question_ns;
    while (now_ns() < until) {
    }
}

__attribute__((visibility("default"))) CUresult CUDAAPI cuStreamQuery(CUstream stream)
{
    questions++;
    answer_takes();
    asked_destroyed += destroyed && stream == DESTROYED_STREAM;
    asked_released_later += released_later && stream == RELEASED_LATER_STREAM;
    asked_kept += stream == KEPT_STREAM;
    if (busy_stream != NULL && stream != busy_stream)
        return CUDA_SUCCESS;
    return fake_busy_answer();
}

__attribute__((visibility("default"))) CUresult CUDAAPI cuPointerGetAttributes(
    unsigned int count, CUpointer_attribute *attributes, void **data, CUdeviceptr pointer)
{
    questions++;
    answer_takes();
    fake_memory_answer(count, attributes, data, pointer);
    return CUDA_SUCCESS;
}

static int (*fake_call)(const char *name, void *params, const char *nested, void *nested_params);
static void (*fake_call_ns)(long ns);
static int (*fake_stream)(int created, uint64_t handle);
static void (*fake_during)(void (*fn)(void));
static int (*fake_destroy)(uint64_t handle, int resource);

/* Another thread's cudaStreamDestroy, made inside a call: cuStreamDestroy_v2's callbacks and
 * CUPTI's "destroy starting" resource callback, after which the driver frees the stream. */
static void destroy_stream(void)
{
    fake_destroy((uint64_t)(uintptr_t)DESTROYED_STREAM, 1);
    destroyed = 1;
}

/* Makes CUDA call 'name' with 'params', lasting 'ns' from its entry to its exit, while
 * cuStreamQuery answers "busy" 'busy' more times. A macro, so that the call's site is the line
 * that names it. */
#define CALL(name, params, ns, busy)                                                               \
    do {                                                                                           \
        fake_call_ns(ns);                                                                          \
        busy_answers = (busy);                                                                     \
        if (fake_call((name), (params), NULL, NULL) != 0) {                                        \
            fprintf(stderr, "light_app: fake_cupti_call_with(%s) failed\n", (name));               \
            exit(2);                                                                               \
        }                                                                                          \
        busy_answers = 0;                                                                          \
    } while (0)

/* CALL with driver call 'inner' and 'inner_params' made inside it, as the runtime makes its
 * driver calls (CUPTI calls back for both). */
#define CALL_NESTED(name, params, inner, inner_params, busy)                                       \
    do {                                                                                           \
        fake_call_ns(0);                                                                           \
        busy_answers = (busy);                                                                     \
        if (fake_call((name), (params), (inner), (inner_params)) != 0) {                           \
            fprintf(stderr, "light_app: fake_cupti_call_with(%s) failed\n", (name));               \
            exit(2);                                                                               \
        }                                                                                          \
        busy_answers = 0;                                                                          \
    } while (0)

/* LIGHT_APP_SWITCH_OFF, under SYNCSCOPE_LIGHT_PROBE=switch: a pinned memset at each level
 * (events: how many events the capture recorded for it), and at level 3 whether CUPTI still
 * calls back for a memset, a synchronization and a stream's destruction (the stream destroyed
 * then must not be asked about by the device-wide call after the switch back; a kept one is).
 * Levels 0, 3, 1, 3, 0: leaving 3 for 1 and for 0 enables the callbacks again. Whether
 * syncscope's own time (syncscope_light_probe_own_ns, under SYNCSCOPE_TIMING) grew at each. */
static int switch_off(void)
{
    void (*level)(int) = NULL;
    uint64_t (*events)(void) = NULL, (*own)(void) = NULL;
    *(void **)&level = dlsym(RTLD_DEFAULT, "syncscope_light_probe_set");
    *(void **)&events = dlsym(RTLD_DEFAULT, "syncscope_light_probe_events");
    *(void **)&own = dlsym(RTLD_DEFAULT, "syncscope_light_probe_own_ns");
    if (level == NULL || events == NULL || own == NULL) {
        fprintf(stderr, "light_app: no syncscope_light_probe_set, _events or _own_ns\n");
        return 2;
    }
    uint64_t none[4] = {0}, got[5];
    int grew[5];
    CALL("cudaDeviceSynchronize_v3020", none, 0, 0); /* the context */
    fake_stream(1, (uint64_t)(uintptr_t)KEPT_STREAM);
    fake_stream(1, (uint64_t)(uintptr_t)DESTROYED_STREAM);
    cudaMemsetAsync_v3020_params set_pinned = {(void *)(uintptr_t)PINNED_BASE, 0, 4096, 0};
    static const int levels[5] = {0, 3, 1, 3, 0};
    int memset_off = 0, sync_off = 0, destroy_off = 0;
    for (int i = 0; i < 5; i++) {
        level(levels[i]);
        uint64_t before = events(), own_before = own();
        if (levels[i] == 3) {
            memset_off += fake_call("cudaMemsetAsync_v3020", &set_pinned, NULL, NULL) == 0;
            sync_off += fake_call("cudaDeviceSynchronize_v3020", none, NULL, NULL) == 0;
        } else
            CALL("cudaMemsetAsync_v3020", &set_pinned, 0, 0);
        if (i == 3) {
            destroy_off = fake_destroy((uint64_t)(uintptr_t)DESTROYED_STREAM, 1) == 0;
            destroyed = 1;
        }
        got[i] = events() - before;
        grew[i] = own() > own_before;
    }
    busy_stream = KEPT_STREAM;
    CALL("cudaDeviceSynchronize_v3020", none, 1000000, 1);
    printf("light_app: at level 3 CUPTI called back for %d memsets, %d synchronizations, %d "
           "stream destructions; events %llu %llu %llu %llu %llu; own time grew %d %d %d %d %d; "
           "after it the destroyed stream asked %d times, the kept one %d\n",
           memset_off, sync_off, destroy_off, (unsigned long long)got[0],
           (unsigned long long)got[1], (unsigned long long)got[2], (unsigned long long)got[3],
           (unsigned long long)got[4], grew[0], grew[1], grew[2], grew[3], grew[4], asked_destroyed,
           asked_kept);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = getenv("SYNCSCOPE_CUPTI_PATH");
    void *fake = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (fake != NULL) {
        *(void **)&fake_call = dlsym(fake, "fake_cupti_call_with");
        *(void **)&fake_call_ns = dlsym(fake, "fake_cupti_set_call_ns");
        *(void **)&fake_stream = dlsym(fake, "fake_cupti_stream");
        *(void **)&fake_during = dlsym(fake, "fake_cupti_set_during");
        *(void **)&fake_destroy = dlsym(fake, "fake_cupti_destroy_stream");
    }
    if (fake_call == NULL || fake_call_ns == NULL || fake_stream == NULL || fake_during == NULL ||
        fake_destroy == NULL) {
        fprintf(stderr, "light_app: the fake CUPTI is not loaded\n");
        return 2;
    }
    fake_call_ns(0);
    if (getenv("LIGHT_APP_SWITCH_OFF") != NULL)
        return switch_off();
    if (getenv("LIGHT_APP_WINDOW") != NULL) {
        /* The sampled mode: a window asked with SIGUSR2 (or by touching LIGHT_APP_TRIGGER)
         * opens the launches' callbacks for its ON time; 'before', 'during' and 'after' say
         * whether a launch was taken. */
        static const char *const when[] = {"before", "during", "after"};
        struct timespec step = {0, 200 * 1000000L};
        for (int i = 0; i < 3; i++) {
            const char *trigger = getenv("LIGHT_APP_TRIGGER");
            if (i == 1 && trigger != NULL) {
                /* The trigger file, which the flusher looks at once a second. */
                FILE *touched = fopen(trigger, "w");
                if (touched != NULL)
                    fclose(touched);
                struct timespec look = {1, 300 * 1000000L};
                nanosleep(&look, NULL);
            } else if (i == 1) {
                raise(SIGUSR2);
                nanosleep(&step, NULL);
            } else if (i == 2 && trigger != NULL) {
                struct timespec rest = {2, 500 * 1000000L};
                nanosleep(&rest, NULL);
            } else if (i == 2) {
                struct timespec rest = {1, 0};
                nanosleep(&rest, NULL);
            }
            uint64_t none[4] = {0};
            CALL("cudaDeviceSynchronize_v3020", none, 0, 0);
            printf("%s %s\n", when[i],
                   fake_call("cudaLaunchKernel_v7000", NULL, NULL, NULL) == 0 ? "yes" : "no");
        }
        return 0;
    }
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            if (strcmp(argv[i], "@subscriber") == 0) {
                CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
                *(void **)&subscribe = dlsym(fake, "cuptiSubscribe");
                CUpti_SubscriberHandle mine;
                printf("%s %s\n", argv[i],
                       subscribe(&mine, NULL, NULL) ==
                               CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                           ? "yes"
                           : "no");
                continue;
            }
            printf("%s %s\n", argv[i], fake_call(argv[i], NULL, NULL, NULL) == 0 ? "yes" : "no");
        }
        return 0;
    }
    if (getenv("LIGHT_APP_DESTROYED") != NULL) {
        /* A stream destroyed with its work pending, which the driver releases later ("destroy
         * starting" not yet called): no device-wide call may ask about it. A device-wide call
         * finds another stream pending at its entry, and another thread destroys it during
         * the call: the exit must not ask the driver about it again. A stream that stays is
         * asked at the entry of both calls and the exit of the second. */
        uint64_t none[4] = {0};
        CALL("cudaDeviceSynchronize_v3020", none, 0, 0); /* the context */
        if (fake_stream(1, (uint64_t)(uintptr_t)DESTROYED_STREAM) != 0 ||
            fake_stream(1, (uint64_t)(uintptr_t)KEPT_STREAM) != 0 ||
            fake_stream(1, (uint64_t)(uintptr_t)RELEASED_LATER_STREAM) != 0) {
            fprintf(stderr, "light_app: the stream resource callbacks are not subscribed\n");
            return 2;
        }
        if (fake_destroy((uint64_t)(uintptr_t)RELEASED_LATER_STREAM, 0) != 0) {
            fprintf(stderr, "light_app: cuStreamDestroy_v2 is not subscribed\n");
            return 2;
        }
        released_later = 1;
        busy_stream = DESTROYED_STREAM;
        fake_during(destroy_stream);
        CALL("cudaDeviceSynchronize_v3020", none, 1000000, 1);
        busy_stream = KEPT_STREAM;
        CALL("cudaDeviceSynchronize_v3020", none, 1000000, 1);
        printf("after their destruction: the stream destroyed during a call asked %d times, the "
               "stream released later %d times; kept stream asked %d times\n",
               asked_destroyed, asked_released_later, asked_kept);
        return 0;
    }
    if (getenv("LIGHT_APP_STREAMS") != NULL) {
        /* More streams made and destroyed over the run than the live streams' table has
         * slots: a device-wide call still asks about the one that lives. Then more streams
         * live at once than the table holds: device-wide calls are no longer asked about, even
         * after those streams are gone (one the table lacked might live). */
        uint64_t none[4] = {0};
        CALL("cudaDeviceSynchronize_v3020", none, 0, 0); /* the context */
        for (uint64_t i = 0; i < 600; i++) {
            uint64_t handle = UINT64_C(0x100000) + i * 0x100;
            if (fake_stream(1, handle) != 0 || fake_destroy(handle, 1) != 0) {
                fprintf(stderr, "light_app: the stream callbacks are not subscribed\n");
                return 2;
            }
        }
        fake_stream(1, (uint64_t)(uintptr_t)KEPT_STREAM);
        busy_stream = KEPT_STREAM;
        CALL("cudaDeviceSynchronize_v3020", none, 1000000, 1);
        int asked_made = asked_kept;
        for (uint64_t i = 0; i < 512; i++)
            fake_stream(1, UINT64_C(0x900000) + i * 0x100);
        for (uint64_t i = 0; i < 512; i++)
            fake_destroy(UINT64_C(0x900000) + i * 0x100, 1);
        asked_kept = 0;
        CALL("cudaDeviceSynchronize_v3020", none, 1000000, 1);
        printf("600 streams made and destroyed: the kept stream asked %d times; after 513 "
               "lived at once: %d times\n",
               asked_made, asked_kept);
        return 0;
    }
    if (getenv("LIGHT_APP_LEGACY_SYNC") != NULL) {
        /* A synchronization of the legacy stream asks about every live stream unless the
         * legacy stream itself is busy at its entry: then its answer at the exit decides
         * (waited), and when it is still busy there the call is as one not probed. With more
         * streams than a probe takes, nothing is asked at all. */
        uint64_t none[4] = {0};
        CALL("cudaDeviceSynchronize_v3020", none, 0, 0); /* the context */
        for (uint64_t i = 0; i < 3; i++) {
            if (fake_stream(1, UINT64_C(0x200000) + i * 0x100) != 0) {
                fprintf(stderr, "light_app: the stream callbacks are not subscribed\n");
                return 2;
            }
        }
        cudaStreamSynchronize_v3020_params legacy = {0};
        int asked[4];
        static const int busy[3] = {1, 0, 2};
        for (int i = 0; i < 3; i++) {
            asked[i] = questions;
            CALL("cudaStreamSynchronize_v3020", &legacy, 1000000, busy[i]);
            asked[i] = questions - asked[i];
        }
        for (uint64_t i = 0; i < 40; i++)
            fake_stream(1, UINT64_C(0x300000) + i * 0x100);
        asked[3] = questions;
        CALL("cudaStreamSynchronize_v3020", &legacy, 1000000, 1);
        asked[3] = questions - asked[3];
        printf("light_app: legacy synchronizations asked %d, %d and %d questions; with 43 "
               "streams %d\n",
               asked[0], asked[1], asked[2], asked[3]);
        return 0;
    }
    if (getenv("LIGHT_APP_MEMSETS") != NULL) {
        /* Asynchronous memsets of device memory cannot block the host: the light mode leaves
         * them out; those of pinned (or unknown) memory, and synchronous ones, it takes. */
        void *device = (void *)(uintptr_t)DEVICE_BASE, *pinned = (void *)(uintptr_t)PINNED_BASE;
        static unsigned char pageable[4096];
        void (*level)(int) = NULL;
        if (getenv("LIGHT_APP_SWITCH") != NULL) {
            /* SYNCSCOPE_LIGHT_PROBE=switch: a memset the mode would take, its callbacks
             * switched to returning at once, then switched back. */
            *(void **)&level = dlsym(RTLD_DEFAULT, "syncscope_light_probe_set");
            if (level == NULL) {
                fprintf(stderr, "light_app: no syncscope_light_probe_set\n");
                return 2;
            }
            level(1);
            cudaMemsetAsync_v3020_params set_pinned = {pinned, 0, 4096, 0};
            CALL("cudaMemsetAsync_v3020", &set_pinned, 0, 0);
            printf("light_app: switched off, the driver was asked %d times\n", questions);
            level(0);
        }
        cudaMemsetAsync_v3020_params set_device = {device, 0, 4096, 0};
        CALL("cudaMemsetAsync_v3020", &set_device, 0, 0);
        cudaMemsetAsync_v3020_params set_pinned = {pinned, 0, 4096, 0};
        CALL("cudaMemsetAsync_v3020", &set_pinned, 0, 0);
        cudaMemset_v3020_params set_device_sync = {device, 0, 4096};
        CALL("cudaMemset_v3020", &set_device_sync, 0, 0);
        cudaMemset_v3020_params set_pageable_sync = {pageable, 0, sizeof pageable};
        CALL("cudaMemset_v3020", &set_pageable_sync, 0, 0);
        cuMemsetD8Async_params set_device_driver = {(CUdeviceptr)DEVICE_BASE, 0, 4096, 0};
        CALL("cuMemsetD8Async", &set_device_driver, 0, 0);
        cudaMemcpyAsync_v3020_params copy = {device, pinned, 4096, cudaMemcpyHostToDevice, 0};
        CALL("cudaMemcpyAsync_v3020", &copy, 0, 0);
        /* A memset inside a device allocation the mode saw made is left out without a
         * question (under the switch probe's level 2, asked and taken); freed, it is asked
         * about and taken. */
        void *allocated = (void *)(uintptr_t)ALLOCATED_BASE;
        cudaMalloc_v3020_params make = {&allocated, 8192};
        CALL("cudaMalloc_v3020", &make, 0, 0);
        int asked = questions;
        if (level != NULL)
            level(2);
        cudaMemsetAsync_v3020_params set_allocated = {(char *)allocated + 4096, 0, 4096, 0};
        CALL("cudaMemsetAsync_v3020", &set_allocated, 0, 0);
        if (level != NULL)
            level(0);
        printf("light_app: a memset of an allocation asked %d questions\n", questions - asked);
        cudaFree_v3020_params release = {allocated};
        CALL("cudaFree_v3020", &release, 0, 0);
        asked = questions;
        CALL("cudaMemsetAsync_v3020", &set_allocated, 0, 0);
        printf("light_app: freed, %d\n", questions - asked);
        if (getenv("LIGHT_APP_QUESTIONS") != NULL)
            printf("light_app: the driver was asked %d times\n", questions);
        printf("light_app: done\n");
        return 0;
    }
    if (getenv("LIGHT_APP_COPIES") != NULL) {
        /* Asynchronous copies between device memory cannot block the host: the light mode
         * leaves them out (the next call says one came between); one in a cudaMalloc'ed
         * allocation (which the fake driver calls pageable) without a question. Device memory
         * copied with a kind that says device to host, and a readback into pinned memory, are
         * taken with a probe and a stack. */
        void *device = (void *)(uintptr_t)DEVICE_BASE, *pinned = (void *)(uintptr_t)PINNED_BASE;
        void *allocated = (void *)(uintptr_t)ALLOCATED_BASE;
        cudaMalloc_v3020_params make = {&allocated, 8192};
        CALL("cudaMalloc_v3020", &make, 0, 0);
        int asked = questions;
        cudaMemcpyAsync_v3020_params d2d = {(char *)device + 4096, device, 4096,
                                            cudaMemcpyDeviceToDevice, 0};
        CALL("cudaMemcpyAsync_v3020", &d2d, 0, 1);
        cudaMemcpyAsync_v3020_params inferred = {(char *)allocated + 4096, allocated, 4096,
                                                 cudaMemcpyDefault, 0};
        CALL("cudaMemcpyAsync_v3020", &inferred, 0, 1);
        printf("light_app: two device copies asked %d questions\n", questions - asked);
        cudaMemcpyAsync_v3020_params said_d2h = {(char *)device + 8, device, 4,
                                                 cudaMemcpyDeviceToHost, 0};
        CALL("cudaMemcpyAsync_v3020", &said_d2h, 0, 1);
        cudaMemcpyAsync_v3020_params readback = {pinned, device, 4, cudaMemcpyDeviceToHost, 0};
        CALL("cudaMemcpyAsync_v3020", &readback, 0, 1);
        /* A readback from the cudaMalloc'ed allocation into cudaHostAlloc'ed memory: both kinds
         * from the light mode's memory, no pointer question (the stream's two); after the
         * cudaFreeHost the driver is asked about the destination again (pageable to it). */
        void *host = (void *)(uintptr_t)HOST_ALLOC_BASE;
        cudaHostAlloc_v3020_params pin = {&host, 4096, 0};
        CALL("cudaHostAlloc_v3020", &pin, 0, 0);
        cudaMemcpyAsync_v3020_params into_pinned = {(char *)host + 8, allocated, 4,
                                                    cudaMemcpyDeviceToHost, 0};
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        int pinned_questions = questions - asked;
        cudaFreeHost_v3020_params unpin = {host};
        CALL("cudaFreeHost_v3020", &unpin, 0, 0);
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        printf("light_app: a readback into cudaHostAlloc'ed memory asked %d questions, %d after "
               "its cudaFreeHost\n",
               pinned_questions, questions - asked);
        /* The driver called the destination pageable: the same readback again asks about the
         * stream only. Any allocation makes the thread ask again: another cudaHostAlloc (which
         * takes the pinned memory's first slot), then a cudaHostRegister of the destination
         * (found in the second slot, pinned: no question), and after its cudaHostUnregister
         * the driver is asked again. */
        int asks[5];
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        asks[0] = questions - asked;
        void *other = (void *)(uintptr_t)(HOST_ALLOC_BASE + 0x100000);
        cudaHostAlloc_v3020_params pin_other = {&other, 4096, 0};
        CALL("cudaHostAlloc_v3020", &pin_other, 0, 0);
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        asks[1] = questions - asked;
        cudaHostRegister_v4000_params registered = {host, 4096, 0};
        CALL("cudaHostRegister_v4000", &registered, 0, 0);
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        asks[2] = questions - asked;
        cudaHostUnregister_v4000_params unregistered = {host};
        CALL("cudaHostUnregister_v4000", &unregistered, 0, 0);
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        asks[3] = questions - asked;
        asked = questions;
        CALL("cudaMemcpyAsync_v3020", &into_pinned, 0, 1);
        asks[4] = questions - asked;
        printf("light_app: the pageable readback again asked %d, after another cudaHostAlloc %d, "
               "registered %d, unregistered %d, then %d\n",
               asks[0], asks[1], asks[2], asks[3], asks[4]);
        printf("light_app: done\n");
        return 0;
    }
    if (getenv("LIGHT_APP_READBACK_SYNC") != NULL) {
        /* Readbacks (4 bytes from device memory into pinned memory) and the synchronizations
         * after them: one whose stream was idle, then its stream's synchronization (not asked
         * about: run_light.py readback_sync); one whose stream was busy; one followed by a
         * cudaMalloc before the synchronization; one followed by a synchronization of another
         * stream; one with a cudaMalloc inside it; one followed by a copy between device
         * memory; one with such a copy inside it; one followed by a memset of device memory.
         * Each synchronization blocks 2 ms. */
        const long ms = 1000000;
        void *device = (void *)(uintptr_t)DEVICE_BASE, *pinned = (void *)(uintptr_t)PINNED_BASE;
        cudaMemcpyAsync_v3020_params item = {pinned, device, 4, cudaMemcpyDeviceToHost, 0};
        cudaStreamSynchronize_v3020_params wait = {0};
        cudaStreamSynchronize_v3020_params other = {(cudaStream_t)KEPT_STREAM};
        void *slot = (void *)(uintptr_t)(DEVICE_BASE + 8192);
        cudaMalloc_v3020_params make = {&slot, 4096};
        int asked = questions;
        CALL("cudaMemcpyAsync_v3020", &item, 0, 0);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        int idle = questions - asked;
        CALL("cudaMemcpyAsync_v3020", &item, 0, 1);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        CALL("cudaMemcpyAsync_v3020", &item, 0, 0);
        CALL("cudaMalloc_v3020", &make, 0, 0);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        CALL("cudaMemcpyAsync_v3020", &item, 0, 0);
        CALL("cudaStreamSynchronize_v3020", &other, 2 * ms, 0);
        /* a recorded call (as a runtime call the runtime makes itself) inside the readback:
         * the synchronization is not the readback's next call */
        CALL_NESTED("cudaMemcpyAsync_v3020", &item, "cudaMalloc_v3020", &make, 0);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        /* a copy between device memory, which the light mode leaves out, between an idle
         * readback and the synchronization, then one inside an idle readback (a runtime call
         * the runtime makes itself): the synchronization is not the readback's next call */
        cudaMemcpyAsync_v3020_params d2d = {(char *)device + 4096, device, 4096,
                                            cudaMemcpyDeviceToDevice, 0};
        CALL("cudaMemcpyAsync_v3020", &item, 0, 0);
        CALL("cudaMemcpyAsync_v3020", &d2d, 0, 0);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        CALL_NESTED("cudaMemcpyAsync_v3020", &item, "cudaMemcpyAsync_v3020", &d2d, 0);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        /* an asynchronous memset of device memory, which the light mode leaves out too,
         * between an idle readback and the synchronization */
        cudaMemsetAsync_v3020_params clear = {device, 0, 4096, 0};
        CALL("cudaMemcpyAsync_v3020", &item, 0, 0);
        CALL("cudaMemsetAsync_v3020", &clear, 0, 0);
        CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 0);
        printf("light_app: an idle readback and its synchronization asked %d questions\n", idle);
        return 0;
    }
    if (getenv("LIGHT_APP_CAP") != NULL) {
        /* The memory cap (docs/run.md, "Cost and memory"): N iterations of a readback of 4 bytes
         * from device memory into a local variable (pageable) with work pending, the
         * synchronization of its stream and a device-wide synchronization, each lasting 30 us,
         * then one more readback and synchronization of its stream on lines of their own,
         * between two stream queries (the last one the thread's last call). Run under a cap that
         * keeps only part of them, the light mode counts the rest by kind. */
        long n = atol(getenv("LIGHT_APP_CAP"));
        uint64_t none[4] = {0};
        CALL("cudaDeviceSynchronize_v3020", none, 0, 0); /* the context */
        cudaStreamQuery_v3020_params query = {0};
        CALL("cudaStreamQuery_v3020", &query, 0, 0);
        float local = 0.0f;
        cudaMemcpyAsync_v3020_params readback = {&local, (void *)(uintptr_t)DEVICE_BASE, 4,
                                                 cudaMemcpyDeviceToHost, 0};
        cudaStreamSynchronize_v3020_params wait = {0};
        if (getenv("LIGHT_APP_CAP_IDLE") != NULL) {
            /* .item() with the GPU ahead: a readback into pinned memory and the synchronization
             * of its stream, nothing pending at either (each 5 us of the call's own). */
            readback.dst = (void *)(uintptr_t)PINNED_BASE;
            for (long i = 0; i < n; i++) {
                CALL("cudaMemcpyAsync_v3020", &readback, 5000, 0);
                CALL("cudaStreamSynchronize_v3020", &wait, 5000, 0);
            }
            CALL("cudaStreamQuery_v3020", &query, 0, 0);
            printf("light_app: %ld iterations\n", n);
            return 0;
        }
        if (getenv("LIGHT_APP_CAP_PHASES") != NULL) {
            /* Two phases: in the first half, a readback into pinned memory that returns at once
             * and the synchronization of its stream (30 us), which the detectors join to it;
             * in the second half the readback alone. */
            readback.dst = (void *)(uintptr_t)PINNED_BASE;
            for (long i = 0; i < n; i++) {
                CALL("cudaMemcpyAsync_v3020", &readback, 0, 1);
                if (i < n / 2)
                    CALL("cudaStreamSynchronize_v3020", &wait, 30000, 1);
                CALL("cudaStreamQuery_v3020", &query, 0, 0);
            }
            n = -n;
        }
        if (getenv("LIGHT_APP_CAP_NEXT") != NULL) {
            /* A readback into pinned memory that returns at once, the synchronization of its
             * stream (30 us, joined to it) and a device-wide one; in the last quarter, past the
             * cap, every 100th iteration a query instead of the device-wide synchronization:
             * those synchronizations and the readbacks after the queries are of kinds (by their
             * neighbours) no kept call had, their joined call of a kind kept before the cap. */
            readback.dst = (void *)(uintptr_t)PINNED_BASE;
            for (long i = 0; i < n; i++) {
                CALL("cudaMemcpyAsync_v3020", &readback, 0, 1);
                CALL("cudaStreamSynchronize_v3020", &wait, 30000, 1);
                if (i >= n - n / 4 && i % 100 == 99)
                    CALL("cudaStreamQuery_v3020", &query, 0, 0);
                else
                    CALL("cudaDeviceSynchronize_v3020", none, 30000, 1);
            }
            n = -n;
        }
        for (long i = 0; i < n; i++) {
            CALL("cudaMemcpyAsync_v3020", &readback, 30000, 1);
            CALL("cudaStreamSynchronize_v3020", &wait, 30000, 1);
            CALL("cudaDeviceSynchronize_v3020", none, 30000, 1);
        }
        n = n < 0 ? -n : n;
        if (getenv("LIGHT_APP_CAP_PHASES") == NULL && getenv("LIGHT_APP_CAP_NEXT") == NULL) {
            /* after the loop, calls of kinds the loop's are not (other lines): past the cap they
             * are judged by the first call of their kind */
            CALL("cudaMemcpyAsync_v3020", &readback, 30000, 1);
            CALL("cudaStreamSynchronize_v3020", &wait, 30000, 1);
        }
        CALL("cudaStreamQuery_v3020", &query, 0, 0);
        printf("light_app: %ld iterations\n", n);
        return 0;
    }
    if (getenv("LIGHT_APP_BENCH") != NULL) {
        /* The cost bench: N readbacks as PyTorch's .item() makes them, a 4-byte copy from a
         * cudaMalloc'ed allocation into cudaHostAlloc'ed memory (pinned to the fake driver
         * too) with work pending (or none), then cudaStreamSynchronize, each with the driver call
         * the runtime makes inside it; each driver question takes LIGHT_APP_QUESTION_NS. Prints the
         * wall time per readback. */
        long n = atol(getenv("LIGHT_APP_BENCH"));
        /* LIGHT_APP_BENCH_IDLE: the stream idle at each call's entry (the GPU ahead, as on the
         * H200 for GPT-2's generate()), else busy. */
        int busy = getenv("LIGHT_APP_BENCH_IDLE") != NULL ? 0 : 1;
        const char *q = getenv("LIGHT_APP_QUESTION_NS");
        question_ns = q != NULL ? atol(q) : 0;
        /* LIGHT_APP_BENCH_ALLOCATIONS: that many device allocations made first (a caching
         * allocator's segments: the light mode's table of them is searched in that order). */
        const char *allocations_env = getenv("LIGHT_APP_BENCH_ALLOCATIONS");
        long allocations = allocations_env != NULL ? atol(allocations_env) : 0;
        for (long k = 0; k < allocations; k++) {
            void *segment = (void *)(uintptr_t)(ALLOCATED_BASE + RANGE_BYTES * (uint64_t)(k + 1));
            cudaMalloc_v3020_params segment_make = {&segment, 4096};
            CALL("cudaMalloc_v3020", &segment_make, 0, 0);
        }
        void *allocated = (void *)(uintptr_t)ALLOCATED_BASE;
        cudaMalloc_v3020_params make = {&allocated, 8192};
        CALL("cudaMalloc_v3020", &make, 0, 0);
        /* LIGHT_APP_BENCH_DEVICE_COPIES: that many asynchronous copies from the readback's
         * allocation to another before each readback (GPT-2's generate() makes three per
         * readback), each with the runtime's driver call inside it. */
        const char *copies_env = getenv("LIGHT_APP_BENCH_DEVICE_COPIES");
        long copies = copies_env != NULL ? atol(copies_env) : 0;
        void *moved = (void *)(uintptr_t)(ALLOCATED_BASE + 65536);
        cudaMalloc_v3020_params make_moved = {&moved, 8192};
        if (copies > 0)
            CALL("cudaMalloc_v3020", &make_moved, 0, 0);
        void *host = (void *)(uintptr_t)PINNED_BASE;
        cudaHostAlloc_v3020_params pin = {&host, 4096, 0};
        CALL("cudaHostAlloc_v3020", &pin, 0, 0);
        /* LIGHT_APP_BENCH_PAGEABLE: the readback into a local variable, pageable memory (as
         * PyTorch's .item() makes it) instead of the cudaHostAlloc'ed memory. */
        float local = 0.0f;
        void *into = getenv("LIGHT_APP_BENCH_PAGEABLE") != NULL ? (void *)&local : host;
        cudaMemcpyAsync_v3020_params item = {into, allocated, 4, cudaMemcpyDeviceToHost, 0};
        cudaStreamSynchronize_v3020_params wait = {0};
        /* the driver calls the runtime makes inside them */
        cuMemcpyDtoHAsync_v2_params item_driver = {into, (CUdeviceptr)(uintptr_t)allocated, 4, 0};
        cuStreamSynchronize_params wait_driver = {0};
        cudaMemcpyAsync_v3020_params copy = {moved, allocated, 64, cudaMemcpyDeviceToDevice, 0};
        cuMemcpyDtoDAsync_v2_params copy_driver = {(CUdeviceptr)(uintptr_t)moved,
                                                   (CUdeviceptr)(uintptr_t)allocated, 64, 0};
        int asked = questions;
        uint64_t began = now_ns();
        for (long i = 0; i < n; i++) {
            for (long c = 0; c < copies; c++)
                CALL_NESTED("cudaMemcpyAsync_v3020", &copy, "cuMemcpyDtoDAsync_v2", &copy_driver,
                            0);
            CALL_NESTED("cudaMemcpyAsync_v3020", &item, "cuMemcpyDtoHAsync_v2", &item_driver, busy);
            CALL_NESTED("cudaStreamSynchronize_v3020", &wait, "cuStreamSynchronize", &wait_driver,
                        busy);
        }
        uint64_t spent = now_ns() - began;
        printf("light_app: %ld readbacks, %.2f us each, %.2f driver questions each\n", n,
               n > 0 ? (double)spent / 1000.0 / (double)n : 0.0,
               n > 0 ? (double)(questions - asked) / (double)n : 0.0);
        return 0;
    }
    if (getenv("LIGHT_APP_FIRST_MALLOC") != NULL) {
        /* The first call makes the context and takes long: nothing of the process's own was
         * pending, so it waited for nothing (no SYNC402). */
        void *slot = (void *)(uintptr_t)DEVICE_BASE;
        cudaMalloc_v3020_params first = {&slot, 4096};
        CALL("cudaMalloc_v3020", &first, 2000000, 0);
        printf("light_app: done\n");
        return 0;
    }
    static unsigned char pageable[1 << 20];
    void *device = (void *)(uintptr_t)DEVICE_BASE, *pinned = (void *)(uintptr_t)PINNED_BASE;
    const long ms = 1000000;

    cudaMemcpyAsync_v3020_params upload = {device, pageable, sizeof pageable,
                                           cudaMemcpyHostToDevice, 0};
    CALL("cudaMemcpyAsync_v3020", &upload, ms, 1); /* expect: SYNC201 */
    cudaMemcpyAsync_v3020_params readback = {pinned, device, 4, cudaMemcpyDeviceToHost, 0};
    CALL("cudaMemcpyAsync_v3020", &readback, 0, 100); /* expect: SYNC301 */
    cudaStreamSynchronize_v3020_params wait = {0};
    CALL("cudaStreamSynchronize_v3020", &wait, 2 * ms, 1);
    CALL("cudaDeviceSynchronize_v3020", &wait, ms, 1); /* expect: SYNC401 */
    cudaFree_v3020_params release = {device};
    CALL("cudaFree_v3020", &release, ms, 0); /* expect: SYNC402 latent */
    CALL("cudaFree_v3020", &release, ms, 1); /* expect: SYNC402 */
    /* The interval test: time for a line or two while the program runs. */
    const char *linger = getenv("LIGHT_APP_LINGER_MS");
    if (linger != NULL) {
        struct timespec rest = {atol(linger) / 1000, atol(linger) % 1000 * 1000000L};
        printf("lingering\n");
        fflush(stdout);
        nanosleep(&rest, NULL);
    }
    printf("light_app: done\n");
    return 0;
}
