/* fake_cupti.c: a stand-in for libcupti on machines without a GPU, so that libsyncscope.so
 * subscribes, records calls and runs its end-of-run path as it does under CUDA. The test
 * program makes "CUDA calls" with fake_cupti_call(), which runs the subscriber's callbacks as
 * CUPTI would around the named call. FAKE_CUPTI_FLUSH chooses what cuptiActivityFlushAll
 * (the first thing the end of the run does) does:
 *   unset   returns at once
 *   hang    never returns
 *   signal  sends SIGTERM to the process, waits 200 ms, returns
 *   second  sends SIGINT to the process, then never returns */
#include <cupti.h>

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "evlog.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

static struct CUpti_Subscriber_st *subscriber_handle;
static CUpti_CallbackFunc subscriber;
static void *subscriber_data;
static uint32_t correlation;
static unsigned char runtime_enabled[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static unsigned char driver_enabled[CUPTI_DRIVER_TRACE_CBID_SIZE];
static int context_created_enabled;
static int stream_resources; /* 1: stream created enabled, 2: stream destroy starting */

/* The argument table of the interposer: the names CUPTI gives its callbacks. */
static const ss_args_spec *find_spec(CUpti_CallbackDomain domain, uint32_t cbid, const char *name)
{
    size_t count;
    const ss_args_spec *specs = ss_args_table(&count);
    for (size_t i = 0; i < count; i++) {
        int same_domain =
            (specs[i].domain == SS_DOMAIN_RUNTIME) == (domain == CUPTI_CB_DOMAIN_RUNTIME_API);
        if (name != NULL ? strcmp(specs[i].cupti_name, name) == 0
                         : same_domain && specs[i].cbid == cbid)
            return &specs[i];
    }
    return NULL;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *subscriber_out,
                                                CUpti_CallbackFunc callback, void *userdata)
{
    static char handle;
    if (subscriber != NULL)
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    subscriber = callback;
    subscriber_data = userdata;
    subscriber_handle = (struct CUpti_Subscriber_st *)(void *)&handle;
    *subscriber_out = subscriber_handle;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle handle)
{
    (void)handle;
    subscriber = NULL;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle handle,
                                                     CUpti_CallbackDomain domain,
                                                     CUpti_CallbackId cbid)
{
    (void)handle;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
        runtime_enabled[cbid] = enable != 0;
    else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
        driver_enabled[cbid] = enable != 0;
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        context_created_enabled = enable != 0;
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
             (cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED ||
              cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING)) {
        int bit = cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED ? 1 : 2;
        stream_resources = enable ? stream_resources | bit : stream_resources & ~bit;
    }
    return CUPTI_SUCCESS;
}

/* A stream's destruction, which the light mode takes outside the argument table. */
#define DESTROY_CBID CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2

FAKE_EXPORT CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid,
                                                      const char **name)
{
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == DESTROY_CBID) {
        *name = "cuStreamDestroy_v2";
        return CUPTI_SUCCESS;
    }
    const ss_args_spec *spec = find_spec(domain, cbid, NULL);
    if (spec == NULL)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *name = spec->cupti_name;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t *timestamp)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *timestamp = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiGetStreamIdEx(CUcontext context, CUstream stream,
                                                    uint8_t per_thread, uint32_t *stream_id)
{
    (void)context;
    (void)stream;
    (void)per_thread;
    *stream_id = 7;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext context, uint32_t *device)
{
    (void)context;
    *device = 0;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiGetContextId(CUcontext context, uint32_t *id)
{
    (void)context;
    *id = 1;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char **text)
{
    *text = result == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "CUPTI_ERROR (fake)";
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind)
{
    (void)kind;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind)
{
    (void)kind;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(
    CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed)
{
    (void)requested;
    (void)completed;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid_size,
                                                            CUpti_Activity **record)
{
    (void)buffer;
    (void)valid_size;
    (void)record;
    return CUPTI_ERROR_MAX_LIMIT_REACHED;
}

/* Sleeps 'ms' milliseconds, whatever interrupts it. */
static void sleep_ms(long ms)
{
    struct timespec left = {ms / 1000, ms % 1000 * 1000000L};
    while (nanosleep(&left, &left) != 0) {
    }
}

FAKE_EXPORT CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    const char *mode = getenv("FAKE_CUPTI_FLUSH");
    if (mode == NULL || *mode == '\0')
        return CUPTI_SUCCESS;
    if (strcmp(mode, "signal") == 0) {
        kill(getpid(), SIGTERM);
        sleep_ms(200);
        return CUPTI_SUCCESS;
    }
    if (strcmp(mode, "second") == 0)
        kill(getpid(), SIGINT);
    for (;;)
        sleep_ms(1000);
}

/* The enabled spec of callback 'name' (runtime or driver), or NULL. */
static const ss_args_spec *enabled_spec(const char *name)
{
    const ss_args_spec *spec = find_spec(CUPTI_CB_DOMAIN_RUNTIME_API, 0, name);
    if (spec == NULL || subscriber == NULL)
        return NULL;
    if (spec->domain == SS_DOMAIN_RUNTIME)
        return runtime_enabled[spec->cbid] ? spec : NULL;
    return driver_enabled[spec->cbid] ? spec : NULL;
}

/* Runs one side (enter or exit) of call 'spec' with 'data'. */
static void call_site(const ss_args_spec *spec, CUpti_CallbackData *data,
                      CUpti_ApiCallbackSite site)
{
    data->callbackSite = site;
    subscriber(subscriber_data,
               spec->domain == SS_DOMAIN_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
                                                 : CUPTI_CB_DOMAIN_DRIVER_API,
               spec->cbid, data);
}

/* How long each call lasts from its entry to its exit (fake_cupti_set_call_ns): 0, at once. */
static long call_ns;
/* What runs inside the next call, between its entry and exit callbacks (once), as another
 * thread's work during a call that blocks (fake_cupti_set_during). */
static void (*during_call)(void);

static void sleep_ns(long ns)
{
    struct timespec left = {ns / 1000000000L, ns % 1000000000L};
    while (nanosleep(&left, &left) != 0) {
    }
}

/* Makes every later call last 'ns' nanoseconds between its entry and its exit callbacks, as
 * a call that blocks the host does (0: none). */
FAKE_EXPORT void fake_cupti_set_call_ns(long ns);
FAKE_EXPORT void fake_cupti_set_call_ns(long ns)
{
    call_ns = ns;
}

/* Makes 'fn' run once inside the next call, between its entry and its exit callbacks. */
FAKE_EXPORT void fake_cupti_set_during(void (*fn)(void));
FAKE_EXPORT void fake_cupti_set_during(void (*fn)(void))
{
    during_call = fn;
}

/* Tells the subscriber, as CUPTI's resource callbacks do, that stream 'handle' was created
 * ('created' 1) or is about to be destroyed (0). Returns 0, or -1 when nobody subscribed to
 * both stream resource callbacks. */
FAKE_EXPORT int fake_cupti_stream(int created, uint64_t handle);
FAKE_EXPORT int fake_cupti_stream(int created, uint64_t handle)
{
    if (subscriber == NULL || stream_resources != 3)
        return -1;
    CUpti_ResourceData resource;
    memset(&resource, 0, sizeof resource);
    resource.resourceHandle.stream = (CUstream)(uintptr_t)handle;
    subscriber(subscriber_data, CUPTI_CB_DOMAIN_RESOURCE,
               created ? CUPTI_CBID_RESOURCE_STREAM_CREATED
                       : CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING,
               &resource);
    return 0;
}

/* Destroys stream 'handle' as cuStreamDestroy_v2 does: its API callbacks around it and, when
 * 'resource' is 1, the "destroy starting" resource callback inside (0: the driver releases the
 * stream later, its work still pending). Returns 0, or -1 when nobody subscribed to the
 * destroy's API callback. */
FAKE_EXPORT int fake_cupti_destroy_stream(uint64_t handle, int resource);
FAKE_EXPORT int fake_cupti_destroy_stream(uint64_t handle, int resource)
{
    if (subscriber == NULL || !driver_enabled[DESTROY_CBID])
        return -1;
    uint64_t params[1] = {handle};
    int32_t result = 0;
    uint64_t correlation_data = 0;
    CUpti_CallbackData data;
    memset(&data, 0, sizeof data);
    data.functionName = "cuStreamDestroy_v2";
    data.functionParams = params;
    data.functionReturnValue = &result;
    data.correlationData = &correlation_data;
    data.correlationId = ++correlation;
    data.callbackSite = CUPTI_API_ENTER;
    subscriber(subscriber_data, CUPTI_CB_DOMAIN_DRIVER_API, DESTROY_CBID, &data);
    if (resource && fake_cupti_stream(0, handle) != 0)
        return -1;
    data.callbackSite = CUPTI_API_EXIT;
    subscriber(subscriber_data, CUPTI_CB_DOMAIN_DRIVER_API, DESTROY_CBID, &data);
    return 0;
}

/* Tells the subscriber that the process's context was created. */
static void announce_context(void)
{
    CUpti_ResourceData resource;
    memset(&resource, 0, sizeof resource);
    subscriber(subscriber_data, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
               &resource);
}

/* The result the next call returns to its exit callback (fake_cupti_set_result); 0 after it. */
static int32_t next_result;

/* Makes the next fake_cupti_call_with's call return 'result' (a cudaError_t or CUresult) to
 * its exit callback, as the runtime's call that failed does. */
FAKE_EXPORT void fake_cupti_set_result(int32_t result);
FAKE_EXPORT void fake_cupti_set_result(int32_t result)
{
    next_result = result;
}

/* Tells the subscriber that the process's context was created, as the driver's resource
 * callback does whatever API callbacks are enabled (once; fake_cupti_call_with's first call
 * does it too). Returns 0, or -1 when nobody subscribed to it. */
static int context_announced;
FAKE_EXPORT int fake_cupti_context(void);
FAKE_EXPORT int fake_cupti_context(void)
{
    if (subscriber == NULL || !context_created_enabled)
        return -1;
    if (!context_announced)
        announce_context();
    context_announced = 1;
    return 0;
}

/* Runs the subscriber's callbacks around the CUDA call 'name' (a CUPTI callback name such as
 * "cudaDeviceSynchronize_v3020" or "cuLaunchKernel") with the parameter struct 'params' (NULL:
 * zeros), as CUPTI would; when 'nested' is not NULL, the driver call of that name with
 * 'nested_params' is made inside it, as the runtime makes its driver calls. The first call
 * also announces a context, as the first CUDA call of a process does (before its entry, or
 * inside it with FAKE_CUPTI_CONTEXT_INSIDE). Returns 0, or -1 when a
 * name is unknown or nobody subscribed to it. */
FAKE_EXPORT int fake_cupti_call_with(const char *name, void *params, const char *nested,
                                     void *nested_params);
FAKE_EXPORT int fake_cupti_call_with(const char *name, void *params, const char *nested,
                                     void *nested_params)
{
    static char fake_context;
    const ss_args_spec *spec = enabled_spec(name);
    const ss_args_spec *inner = nested != NULL ? enabled_spec(nested) : NULL;
    if (spec == NULL || (nested != NULL && inner == NULL))
        return -1;
    /* FAKE_CUPTI_CONTEXT_INSIDE set: the context is created inside the first call, between
     * its entry and exit callbacks, as the runtime's lazy initialization does. */
    int inside = getenv("FAKE_CUPTI_CONTEXT_INSIDE") != NULL;
    int announce = !context_announced && context_created_enabled;
    if (announce && !inside)
        announce_context();
    context_announced = 1;
    uint64_t zeros[64];
    memset(zeros, 0, sizeof zeros);
    int32_t result = next_result;
    next_result = 0;
    uint64_t correlation_data = 0, inner_data = 0;
    CUpti_CallbackData data, inner_call;
    memset(&data, 0, sizeof data);
    data.functionName = name;
    data.functionParams = params != NULL ? params : zeros;
    data.functionReturnValue = &result;
    data.correlationData = &correlation_data;
    data.correlationId = ++correlation;
    data.context = params != NULL ? (CUcontext)(void *)&fake_context : NULL;
    call_site(spec, &data, CUPTI_API_ENTER);
    if (announce && inside)
        announce_context();
    if (call_ns > 0)
        sleep_ns(call_ns);
    if (during_call != NULL) {
        void (*fn)(void) = during_call;
        during_call = NULL;
        fn();
    }
    if (inner != NULL) {
        inner_call = data;
        inner_call.functionName = nested;
        inner_call.functionParams = nested_params;
        inner_call.correlationData = &inner_data;
        inner_call.correlationId = ++correlation;
        call_site(inner, &inner_call, CUPTI_API_ENTER);
        call_site(inner, &inner_call, CUPTI_API_EXIT);
    }
    call_site(spec, &data, CUPTI_API_EXIT);
    return 0;
}

/* fake_cupti_call_with('name') with zeroed parameters and nothing nested. */
FAKE_EXPORT int fake_cupti_call(const char *name);
FAKE_EXPORT int fake_cupti_call(const char *name)
{
    const ss_args_spec *spec = find_spec(CUPTI_CB_DOMAIN_RUNTIME_API, 0, name);
    if (spec == NULL || spec->domain != SS_DOMAIN_RUNTIME)
        return -1;
    return fake_cupti_call_with(name, NULL, NULL, NULL);
}
