/* nvtx_app.c: the observed program of the NVTX test (run_nvtx.py): NVTX ranges of every form
 * syncscope records (push/pop with an ASCII, a wide and a registered message, a domain's
 * push/pop, start/end with a wide message) around "CUDA calls" made through the fake CUPTI
 * (tests/signal/fake_cupti.c), with NVTX's own header-only implementation, as a program
 * built with the CUDA toolkit's NVTX has. Prints what each NVTX call returned, one line each,
 * so that the runner sees the values a tool gives (depths, ids, handles) or NVTX's no-tool
 * values. Usage: nvtx_app [nocuda] (nocuda: no fake CUPTI is loaded; NVTX calls only). */
#include <nvtx3/nvToolsExt.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int (*fake_call)(const char *name);

static void call(const char *name)
{
    if (fake_call != NULL && fake_call(name) != 0) {
        fprintf(stderr, "nvtx_app: fake_cupti_call(%s) failed\n", name);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "nocuda") != 0) {
        const char *path = getenv("SYNCSCOPE_CUPTI_PATH");
        void *fake = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
        if (fake != NULL)
            *(void **)&fake_call = dlsym(fake, "fake_cupti_call");
        if (fake_call == NULL) {
            fprintf(stderr, "nvtx_app: the fake CUPTI is not loaded\n");
            return 2;
        }
    }
    const char *injection = getenv("NVTX_INJECTION64_PATH");
    const char *base = injection != NULL ? strrchr(injection, '/') : NULL;
    printf("injection: %s\n", injection == NULL ? "(unset)" : base != NULL ? base + 1 : injection);
    printf("push outer: %d\n", nvtxRangePushA("outer"));
    call("cudaDeviceSynchronize_v3020");
    printf("push wide: %d\n", nvtxRangePushW(L"wide \u00e9"));

    nvtxDomainHandle_t domain = nvtxDomainCreateA("app");
    nvtxStringHandle_t step = nvtxDomainRegisterStringA(domain, "step");
    printf("registered: %s\n", step != NULL ? "handle" : "NULL");
    nvtxEventAttributes_t attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = step;
    printf("push step: %d\n", nvtxDomainRangePushEx(domain, &attributes));
    call("cudaDeviceSynchronize_v3020");
    printf("pop step: %d\n", nvtxDomainRangePop(domain));
    printf("pop wide: %d\n", nvtxRangePop());
    printf("pop outer: %d\n", nvtxRangePop());
    printf("pop extra: %d\n", nvtxRangePop());

    nvtxRangeId_t whole = nvtxRangeStartW(L"whole");
    nvtxRangeId_t other = nvtxRangeStartA("other");
    printf("started: %s\n", whole != 0 && other != 0 && whole != other ? "two ids" : "no ids");
    call("cudaDeviceSynchronize_v3020");
    nvtxRangeEnd(other);
    nvtxRangeEnd(whole);
    nvtxDomainDestroy(domain);
    printf("nvtx_app: end\n");
    return 0;
}
