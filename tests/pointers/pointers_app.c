/* pointers_app.c: the observed program of the pointer capture test (run_pointers.py): makes
 * allocations, launches, copies and frees through the fake CUPTI of tests/signal with real
 * CUPTI parameter structs, and answers cuFuncGetParamInfo for its made-up kernels as the
 * driver would (the interposer finds it with dlsym: the program exports it). Prints the
 * address of its host buffer, which a copy names. */
#include <cupti.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Made-up device allocations (the fake driver hands them out). */
#define BASE1 UINT64_C(0x7f0000000000)
#define BASE2 UINT64_C(0x7f0000100000)
#define EVENT 0xE1u /* an event handle */
/* Made-up kernels: four parameters (a pointer, an int, a 24-byte struct holding a pointer, a
 * pointer); 40 parameters; none; nine pointers. */
#define KERNEL_MIXED 0x1000u
#define KERNEL_WIDE 0x2000u
#define KERNEL_EMPTY 0x3000u
#define KERNEL_NINE 0x4000u
/* A CUkernel (what the runtime launches since CUDA 12): cuFuncGetParamInfo refuses the handle,
 * cuKernelGetParamInfo gives two pointers. */
#define KERNEL_HANDLE 0x5000u

typedef struct mixed_struct {
    int n;
    uint64_t pointer;
    long m;
} mixed_struct;

/* cuFuncGetParamInfo of the made-up kernels: CUDA_SUCCESS, or CUDA_ERROR_INVALID_VALUE past
 * the last parameter. */
__attribute__((visibility("default"))) CUresult CUDAAPI cuFuncGetParamInfo(CUfunction function,
                                                                           size_t index,
                                                                           size_t *offset,
                                                                           size_t *size)
{
    static const size_t mixed_offset[] = {0, 8, 16, 40}, mixed_size[] = {8, 4, 24, 8};
    switch ((uintptr_t)function) {
    case KERNEL_MIXED:
        if (index >= 4)
            return CUDA_ERROR_INVALID_VALUE;
        *offset = mixed_offset[index];
        *size = mixed_size[index];
        return CUDA_SUCCESS;
    case KERNEL_HANDLE:
        return CUDA_ERROR_INVALID_HANDLE;
    case KERNEL_WIDE:
    case KERNEL_NINE:
        if (index >= ((uintptr_t)function == KERNEL_WIDE ? 40u : 9u))
            return CUDA_ERROR_INVALID_VALUE;
        *offset = 8 * index;
        *size = 8;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* cuKernelGetParamInfo: the CUkernel's two pointers; any other handle is refused. */
__attribute__((visibility("default"))) CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel,
                                                                             size_t index,
                                                                             size_t *offset,
                                                                             size_t *size)
{
    if ((uintptr_t)kernel != KERNEL_HANDLE)
        return CUDA_ERROR_INVALID_HANDLE;
    if (index >= 2)
        return CUDA_ERROR_INVALID_VALUE;
    *offset = 8 * index;
    *size = 8;
    return CUDA_SUCCESS;
}

static int (*fake_call)(const char *name, void *params, const char *nested, void *nested_params);

static void call(const char *name, void *params, const char *nested, void *nested_params)
{
    if (fake_call(name, params, nested, nested_params) != 0) {
        fprintf(stderr, "pointers_app: fake_cupti_call_with(%s) failed\n", name);
        exit(2);
    }
}

static void launch(uintptr_t kernel, void **params, void **extra)
{
    cuLaunchKernel_params p;
    memset(&p, 0, sizeof p);
    p.f = (CUfunction)kernel;
    p.kernelParams = params;
    p.extra = extra;
    call("cuLaunchKernel", &p, NULL, NULL);
}

int main(void)
{
    const char *path = getenv("SYNCSCOPE_CUPTI_PATH");
    void *fake = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (fake != NULL)
        *(void **)&fake_call = dlsym(fake, "fake_cupti_call_with");
    if (fake_call == NULL) {
        fprintf(stderr, "pointers_app: the fake CUPTI is not loaded\n");
        return 2;
    }
    static unsigned char host[64];
    printf("host buffer: %llu\n", (unsigned long long)(uintptr_t)host);

    void *slot1 = (void *)(uintptr_t)BASE1, *slot2 = (void *)(uintptr_t)BASE2;
    cudaMalloc_v3020_params m1 = {&slot1, 4096}, m2 = {&slot2, 8192};
    call("cudaMalloc_v3020", &m1, NULL, NULL);
    call("cudaMalloc_v3020", &m2, NULL, NULL);

    /* A runtime launch whose driver launch names the parameters. */
    uint64_t a0 = BASE1 + 16, a3 = 0x1234;
    int a1 = 7;
    mixed_struct a2;
    memset(&a2, 0, sizeof a2); /* the padding too: every word is read */
    a2.n = 3;
    a2.pointer = BASE2 + 8;
    a2.m = 5;
    void *args[] = {&a0, &a1, &a2, &a3};
    cudaLaunchKernel_v7000_params rt;
    memset(&rt, 0, sizeof rt);
    rt.args = args;
    cuLaunchKernel_params drv;
    memset(&drv, 0, sizeof drv);
    drv.f = (CUfunction)(uintptr_t)KERNEL_MIXED;
    drv.kernelParams = args;
    call("cudaLaunchKernel_v7000", &rt, "cuLaunchKernel", &drv);

    /* A driver launch with its parameters in one buffer ('extra'). */
    unsigned char buffer[48];
    uint64_t first = BASE2, last = BASE1 + 4095;
    mixed_struct none;
    memset(&none, 0, sizeof none);
    none.n = 1;
    none.m = 2;
    memset(buffer, 0, sizeof buffer);
    memcpy(buffer, &first, 8);
    memcpy(buffer + 8, &a1, 4);
    memcpy(buffer + 16, &none, sizeof none);
    memcpy(buffer + 40, &last, 8);
    size_t buffer_size = sizeof buffer;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &buffer_size, CU_LAUNCH_PARAM_END};
    launch(KERNEL_MIXED, NULL, extra);

    /* Unknown (more parameters than kept), none, and more pointers than kept. */
    uint64_t wide[40], nine[9];
    void *wide_args[40], *nine_args[9];
    for (int i = 0; i < 40; i++) {
        wide[i] = BASE1 + (uint64_t)i;
        wide_args[i] = &wide[i];
    }
    for (int i = 0; i < 9; i++) {
        nine[i] = BASE2 + (uint64_t)i;
        nine_args[i] = &nine[i];
    }
    launch(KERNEL_WIDE, wide_args, NULL);
    launch(KERNEL_EMPTY, NULL, NULL);
    launch(KERNEL_NINE, nine_args, NULL);
    uint64_t handle_first = BASE1 + 64, handle_second = 0x99;
    void *handle_args[] = {&handle_first, &handle_second};
    launch(KERNEL_HANDLE, handle_args, NULL);

    /* A runtime launch whose driver call never comes: no pointers recorded. */
    call("cudaLaunchKernel_v7000", &rt, NULL, NULL);

    cudaMemcpy_v3020_params copy = {host, (const void *)(uintptr_t)BASE1, 64,
                                    cudaMemcpyDeviceToHost};
    call("cudaMemcpy_v3020", &copy, NULL, NULL);
    cudaMemsetAsync_v3020_params set;
    memset(&set, 0, sizeof set);
    set.devPtr = (void *)(uintptr_t)BASE2;
    set.count = 16;
    call("cudaMemsetAsync_v3020", &set, NULL, NULL);
    /* An event recorded and waited for: its handle. A 2D and a 3D readback: their pointers. */
    cudaEventRecord_v3020_params record = {.event = (cudaEvent_t)(uintptr_t)EVENT};
    call("cudaEventRecord_v3020", &record, NULL, NULL);
    cudaEventSynchronize_v3020_params wait = {.event = (cudaEvent_t)(uintptr_t)EVENT};
    call("cudaEventSynchronize_v3020", &wait, NULL, NULL);
    cudaMemcpy2D_v3020_params copy2d = {.dst = host,
                                        .dpitch = 16,
                                        .src = (const void *)(uintptr_t)(BASE2 + 32),
                                        .spitch = 16,
                                        .width = 16,
                                        .height = 2,
                                        .kind = cudaMemcpyDeviceToHost};
    call("cudaMemcpy2D_v3020", &copy2d, NULL, NULL);
    struct cudaMemcpy3DParms parms;
    memset(&parms, 0, sizeof parms);
    parms.srcPtr.ptr = (void *)(uintptr_t)(BASE1 + 128);
    parms.dstPtr.ptr = host;
    parms.kind = cudaMemcpyDeviceToHost;
    cudaMemcpy3D_v3020_params copy3d = {.p = &parms};
    call("cudaMemcpy3D_v3020", &copy3d, NULL, NULL);
    cudaFree_v3020_params release = {(void *)(uintptr_t)BASE1};
    call("cudaFree_v3020", &release, NULL, NULL);
    printf("pointers_app: end\n");
    return 0;
}
