/* capture_cupti.c: the capture library's CUPTI: found and opened with dlopen (one already
 * loaded, SYNCSCOPE_CUPTI_PATH, CUDA_HOME, /usr/local/cuda, the loader's search), its functions
 * resolved, and the subscription to the callbacks of the argument table (args.c). */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_int.h"

const char *capture_cupti_error(CUptiResult r)
{
    const char *s = NULL;
    if (proc.cupti.fn.cuptiGetResultString == NULL ||
        proc.cupti.fn.cuptiGetResultString(r, &s) != 0 || s == NULL)
        return "unknown CUPTI error";
    return s;
}

static void *try_open(const char *path, int flags)
{
    void *h = dlopen(path, flags);
    if (h != NULL) {
        size_t n = strlen(path);
        if (n >= sizeof proc.cupti.path)
            n = sizeof proc.cupti.path - 1;
        memcpy(proc.cupti.path, path, n);
        proc.cupti.path[n] = '\0';
    }
    return h;
}

/* Tries 'dir'/'name' for the usual names. */
static void *try_dir(const char *dir, const char *sub)
{
    static const char *const names[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s%s/%s", dir, sub, names[i]);
        if (n <= 0 || (size_t)n >= sizeof path || access(path, R_OK) != 0)
            continue;
        void *h = try_open(path, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
    }
    return NULL;
}

/* Finds libcupti: one already loaded (e.g. by PyTorch), SYNCSCOPE_CUPTI_PATH (a file or a
 * folder), CUDA_HOME/CUDA_PATH, /usr/local/cuda, then the loader's own search. */
static void *open_cupti(void)
{
    static const char *const loaded[] = {"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
    for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++) {
        void *h = try_open(loaded[i], RTLD_NOW | RTLD_NOLOAD);
        if (h != NULL)
            return h;
    }
    const char *own = proc.config.cupti_path;
    if (own[0] != '\0') {
        void *h = try_dir(own, "");
        if (h == NULL && access(own, R_OK) == 0)
            h = try_open(own, RTLD_NOW | RTLD_LOCAL);
        return h; /* an explicit choice is not second-guessed */
    }
    static const char *const homes[] = {"CUDA_HOME", "CUDA_PATH"};
    static const char *const subs[] = {"/lib64", "/extras/CUPTI/lib64", "/lib"};
    for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++) {
        const char *home = getenv(homes[i]);
        if (home == NULL || *home == '\0')
            continue;
        for (size_t j = 0; j < sizeof subs / sizeof subs[0]; j++) {
            void *h = try_dir(home, subs[j]);
            if (h != NULL)
                return h;
        }
    }
    for (size_t j = 0; j < sizeof subs / sizeof subs[0]; j++) {
        void *h = try_dir("/usr/local/cuda", subs[j]);
        if (h != NULL)
            return h;
    }
    for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++) {
        void *h = try_open(loaded[i], RTLD_NOW | RTLD_LOCAL);
        if (h != NULL)
            return h;
    }
    return NULL;
}

static int resolve_cupti(const char **missing)
{
#define RESOLVE(name)                                                                              \
    proc.cupti.fn.name = (__typeof__(&name))dlsym(proc.cupti.handle, #name);                       \
    if (proc.cupti.fn.name == NULL) {                                                              \
        *missing = #name;                                                                          \
        return -1;                                                                                 \
    }
    CUPTI_FUNCTIONS(RESOLVE)
#undef RESOLVE
    return 0;
}

int capture_probe_skips_domain(CUpti_CallbackDomain domain)
{
    return (proc.bench_probe == PROBE_NOOP_RUNTIME && domain == CUPTI_CB_DOMAIN_DRIVER_API) ||
           (proc.bench_probe == PROBE_NOOP_DRIVER && domain == CUPTI_CB_DOMAIN_RUNTIME_API);
}

static int enable_callbacks(void)
{
    size_t count;
    const ss_args_spec *specs = ss_args_table(&count);
    int enabled = 0;
    for (size_t i = 0; i < count; i++) {
        const ss_args_spec *s = &specs[i];
        CUpti_CallbackDomain domain = s->domain == SS_DOMAIN_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
                                                                     : CUPTI_CB_DOMAIN_DRIVER_API;
        size_t limit = s->domain == SS_DOMAIN_RUNTIME ? CUPTI_RUNTIME_TRACE_CBID_SIZE
                                                      : CUPTI_DRIVER_TRACE_CBID_SIZE;
        const char *name = NULL;
        /* The cbid comes from CUPTI's headers; the library that is loaded must agree on
         * its name, or the parameter layout cannot be trusted. */
        if (s->cbid >= limit || capture_probe_skips_domain(domain) ||
            proc.cupti.fn.cuptiGetCallbackName(domain, s->cbid, &name) != CUPTI_SUCCESS ||
            name == NULL || strcmp(name, s->cupti_name) != 0)
            continue;
        /* The light mode subscribes to the calls that can block the host only; the others'
         * rows are kept for the full windows of the sampled mode (capture_cupti_set_rows). */
        int light_only = proc.light && !ss_api_light(&proc.api_rows[s->api]);
        if (!light_only && proc.cupti.fn.cuptiEnableCallback(1, proc.cupti.subscriber, domain,
                                                             s->cbid) != CUPTI_SUCCESS)
            continue;
        if (s->domain == SS_DOMAIN_RUNTIME)
            proc.cupti.runtime_specs[s->cbid] = s;
        else
            proc.cupti.driver_specs[s->cbid] = s;
        enabled += !light_only;
    }
    return enabled;
}

static void set_row(int on, int light_rows, CUpti_CallbackDomain domain, size_t cbid,
                    const ss_args_spec *s)
{
    if (s != NULL && (ss_api_light(&proc.api_rows[s->api]) != 0) == (light_rows != 0))
        proc.cupti.fn.cuptiEnableCallback(on != 0, proc.cupti.subscriber, domain,
                                          (CUpti_CallbackId)cbid);
}

void capture_cupti_set_rows(int on, int light_rows)
{
    for (size_t cbid = 0; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++)
        set_row(on, light_rows, CUPTI_CB_DOMAIN_RUNTIME_API, cbid, proc.cupti.runtime_specs[cbid]);
    for (size_t cbid = 0; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; cbid++)
        set_row(on, light_rows, CUPTI_CB_DOMAIN_DRIVER_API, cbid, proc.cupti.driver_specs[cbid]);
}

/* The runtime calls libsyncscope_cudart.so wraps (wrap_cudart.def), by CUPTI callback id: at
 * the wrappers' levels only these rows are disabled in CUPTI, so a light row without a
 * wrapper stays called back. */
static const unsigned char wrapped[CUPTI_RUNTIME_TRACE_CBID_SIZE] = {
#define WRAP(symbol, cb, decl, args) [CUPTI_RUNTIME_TRACE_CBID_##cb] = 1,
#define WRAP0(symbol, cb) [CUPTI_RUNTIME_TRACE_CBID_##cb] = 1,
#include "wrap_cudart.def"
#undef WRAP
#undef WRAP0
};

/* Whether a light row of 'domain' (a runtime row 'is_wrapped' or not) is enabled in CUPTI at
 * SYNCSCOPE_LIGHT_PROBE=switch's level 'level' (enum probe_level). */
static int row_on_at(int level, CUpti_CallbackDomain domain, int is_wrapped)
{
    if (level == LEVEL_OFF)
        return 0;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        return level != LEVEL_WRAP_ONLY;
    return !(is_wrapped && (level == LEVEL_WRAP || level == LEVEL_WRAP_ONLY));
}

void capture_cupti_switch_rows(int was, int level)
{
    for (size_t cbid = 0; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++) {
        int before = row_on_at(was, CUPTI_CB_DOMAIN_RUNTIME_API, wrapped[cbid]);
        int after = row_on_at(level, CUPTI_CB_DOMAIN_RUNTIME_API, wrapped[cbid]);
        if (before != after)
            set_row(after, 1, CUPTI_CB_DOMAIN_RUNTIME_API, cbid, proc.cupti.runtime_specs[cbid]);
    }
    int before = row_on_at(was, CUPTI_CB_DOMAIN_DRIVER_API, 0);
    int after = row_on_at(level, CUPTI_CB_DOMAIN_DRIVER_API, 0);
    for (size_t cbid = 0; before != after && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; cbid++)
        set_row(after, 1, CUPTI_CB_DOMAIN_DRIVER_API, cbid, proc.cupti.driver_specs[cbid]);
}

void capture_cupti_unload(void)
{
    if (proc.cupti.subscriber != NULL)
        proc.cupti.fn.cuptiUnsubscribe(proc.cupti.subscriber);
    proc.cupti.subscriber = NULL;
    if (proc.cupti.handle != NULL)
        dlclose(proc.cupti.handle);
    proc.cupti.handle = NULL;
}

int capture_cupti_load(void)
{
    proc.cupti.handle = open_cupti();
    if (proc.cupti.handle == NULL) {
        capture_say("no CUPTI library found (set %s to libcupti.so or its folder); the program "
                    "runs unobserved",
                    SS_ENV_CUPTI_PATH);
        return -1;
    }
    const char *missing = NULL;
    if (resolve_cupti(&missing) < 0) {
        capture_say("%s lacks %s; the program runs unobserved", proc.cupti.path, missing);
        capture_cupti_unload();
        return -1;
    }
    return 0;
}

int capture_cupti_subscribe(CUpti_CallbackFunc callback)
{
    CUptiResult r = proc.cupti.fn.cuptiSubscribe(&proc.cupti.subscriber, callback, NULL);
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        proc.cupti.subscriber = NULL;
        capture_say("another CUPTI client is already subscribed; the program runs unobserved");
        capture_cupti_unload();
        return -1;
    }
    if (r != CUPTI_SUCCESS) {
        capture_say("CUPTI cannot start here (%s: no usable GPU or driver?); the program runs "
                    "unobserved",
                    capture_cupti_error(r));
        proc.cupti.subscriber = NULL;
        capture_cupti_unload();
        return -1;
    }
    if (proc.bench_probe == PROBE_SUBSCRIBE)
        return 0;
    if (enable_callbacks() == 0) {
        capture_say("%s names none of the CUDA calls syncscope knows; the program runs unobserved",
                    proc.cupti.path);
        capture_cupti_unload();
        return -1;
    }
    r = proc.cupti.fn.cuptiEnableCallback(1, proc.cupti.subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                          CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (r != CUPTI_SUCCESS) {
        capture_say("cuptiEnableCallback failed (%s); the program runs unobserved",
                    capture_cupti_error(r));
        capture_cupti_unload();
        return -1;
    }
    return 0;
}
