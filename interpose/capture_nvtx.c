/* capture_nvtx.c: syncscope is the program's NVTX tool (docs/run.md, "Scopes"): NVTX loads this
 * library through NVTX_INJECTION64_PATH at the program's first NVTX call, and its range calls
 * become scope marks (capture_scopes.c). */
/* NVTX's declarations and its tool interface (the injection entry point and its tables);
 * NVTX_NO_IMPL: no implementation of NVTX itself. */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <dlfcn.h>
#include <stdlib.h>

#include "capture_int.h"

/* Push/pop depth of this thread's NVTX ranges: what nvtxRangePush and nvtxRangePop return. */
static __thread int tls_nvtx_depth __attribute__((tls_model("initial-exec")));

/* An NVTX call's mark (capture_scope_mark). */
static void nvtx_mark(uint8_t kind, uint64_t id, enum mark_name_form form, const void *what)
{
    capture_scope_mark(kind, SS_SCOPE_FROM_NVTX, id, form, what);
}

static int nvtx_pushed(void)
{
    return tls_nvtx_depth++;
}

static int nvtx_popped(void)
{
    if (tls_nvtx_depth == 0)
        return -1; /* a pop without a push: NVTX's error value */
    return --tls_nvtx_depth;
}

static nvtxRangeId_t nvtx_new_range_id(void)
{
    return atomic_fetch_add_explicit(&proc.scopes.nvtx_range_ids, 1, memory_order_relaxed) + 1;
}

static int NVTX_API nvtx_push_a(const char *message)
{
    nvtx_mark(SS_SCOPE_PUSH, 0, MARK_ASCII, message);
    return nvtx_pushed();
}

static int NVTX_API nvtx_push_w(const wchar_t *message)
{
    nvtx_mark(SS_SCOPE_PUSH, 0, MARK_WIDE, message);
    return nvtx_pushed();
}

static int NVTX_API nvtx_push_ex(const nvtxEventAttributes_t *attributes)
{
    nvtx_mark(SS_SCOPE_PUSH, 0, MARK_ATTRIBUTES, attributes);
    return nvtx_pushed();
}

static int NVTX_API nvtx_pop(void)
{
    nvtx_mark(SS_SCOPE_POP, 0, MARK_UNNAMED, NULL);
    return nvtx_popped();
}

static nvtxRangeId_t NVTX_API nvtx_start_a(const char *message)
{
    nvtxRangeId_t id = nvtx_new_range_id();
    nvtx_mark(SS_SCOPE_START, id, MARK_ASCII, message);
    return id;
}

static nvtxRangeId_t NVTX_API nvtx_start_w(const wchar_t *message)
{
    nvtxRangeId_t id = nvtx_new_range_id();
    nvtx_mark(SS_SCOPE_START, id, MARK_WIDE, message);
    return id;
}

static nvtxRangeId_t NVTX_API nvtx_start_ex(const nvtxEventAttributes_t *attributes)
{
    nvtxRangeId_t id = nvtx_new_range_id();
    nvtx_mark(SS_SCOPE_START, id, MARK_ATTRIBUTES, attributes);
    return id;
}

static void NVTX_API nvtx_end(nvtxRangeId_t id)
{
    nvtx_mark(SS_SCOPE_END, id, MARK_UNNAMED, NULL);
}

static int NVTX_API nvtx_domain_push_ex(nvtxDomainHandle_t domain,
                                        const nvtxEventAttributes_t *attributes)
{
    (void)domain;
    return nvtx_push_ex(attributes);
}

static int NVTX_API nvtx_domain_pop(nvtxDomainHandle_t domain)
{
    (void)domain;
    return nvtx_pop();
}

static nvtxRangeId_t NVTX_API nvtx_domain_start_ex(nvtxDomainHandle_t domain,
                                                   const nvtxEventAttributes_t *attributes)
{
    (void)domain;
    return nvtx_start_ex(attributes);
}

static void NVTX_API nvtx_domain_end(nvtxDomainHandle_t domain, nvtxRangeId_t id)
{
    (void)domain;
    nvtx_end(id);
}

/* A registered string's handle is its text's key in the range-name table (never NULL, the
 * same for the same text); the text is copied into the table now, when there is room. */
static nvtxStringHandle_t NVTX_API nvtx_register_a(nvtxDomainHandle_t domain, const char *string)
{
    (void)domain;
    if (string == NULL)
        return NULL;
    nvtx_mark(0, 0, MARK_REGISTER, string);
    return (nvtxStringHandle_t)(uintptr_t)capture_text_key(string);
}

/* What syncscope implements of NVTX's core and domain modules; NVTX makes the rest no-ops. */
static const struct nvtx_slot {
    NvtxCallbackModule module;
    unsigned id;
    NvtxFunctionPointer function;
} nvtx_slots[] = {
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)nvtx_push_a},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushW, (NvtxFunctionPointer)nvtx_push_w},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)nvtx_push_ex},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)nvtx_pop},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartA, (NvtxFunctionPointer)nvtx_start_a},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartW, (NvtxFunctionPointer)nvtx_start_w},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, (NvtxFunctionPointer)nvtx_start_ex},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeEnd, (NvtxFunctionPointer)nvtx_end},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx,
     (NvtxFunctionPointer)nvtx_domain_push_ex},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)nvtx_domain_pop},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx,
     (NvtxFunctionPointer)nvtx_domain_start_ex},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeEnd, (NvtxFunctionPointer)nvtx_domain_end},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA,
     (NvtxFunctionPointer)nvtx_register_a},
};

/* NVTX's tool entry point, called at a library's first NVTX call when NVTX_INJECTION64_PATH
 * names this library (capture_observe_nvtx): fills in the functions above. Returns 1, or 0 when
 * this process is not observed or the tables are not NVTX's (NVTX then leaves every call a no-op).
 */
SS_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    if (!atomic_load(&proc.active) || !proc.config.nvtx || get_export_table == NULL)
        return 0;
    const NvtxExportTableCallbacks *callbacks = get_export_table(NVTX_ETID_CALLBACKS);
    if (callbacks == NULL || callbacks->struct_size < sizeof *callbacks ||
        callbacks->GetModuleFunctionTable == NULL)
        return 0;
    for (size_t i = 0; i < sizeof nvtx_slots / sizeof nvtx_slots[0]; i++) {
        const struct nvtx_slot *slot = &nvtx_slots[i];
        NvtxFunctionTable table = NULL;
        unsigned int size = 0;
        if (callbacks->GetModuleFunctionTable(slot->module, &table, &size) == 0 || table == NULL)
            continue;
        if (slot->id < size && table[slot->id] != NULL)
            *table[slot->id] = slot->function;
    }
    return 1;
}

/* NVTX calls reach a tool only through the NVTX injection library the program loads at its
 * first NVTX call, named by NVTX_INJECTION64_PATH: this library, whose
 * InitializeInjectionNvtx2 records the ranges itself (no need for CUPTI's NVTX layer, and the
 * same on machines without a GPU). Set from the constructor, before the program runs, and
 * only when the program has not chosen an NVTX tool of its own. */
void capture_observe_nvtx(void)
{
    if (!proc.config.nvtx || !atomic_load(&proc.active))
        return;
    const char *chosen = getenv("NVTX_INJECTION64_PATH");
    if (chosen != NULL && *chosen != '\0')
        return;
    Dl_info info;
    if (dladdr((void *)InitializeInjectionNvtx2, &info) == 0 || info.dli_fname == NULL ||
        info.dli_fname[0] == '\0')
        return;
    setenv("NVTX_INJECTION64_PATH", info.dli_fname, 0);
}
