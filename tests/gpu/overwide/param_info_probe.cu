/* param_info_probe.cu: what the driver's parameter queries answer for a runtime kernel, as
 * device_run.sh records it next to the traces: cuFuncGetParamInfo and cuKernelGetParamInfo on
 * the CUfunction of cudaGetFuncBySymbol and on the CUkernel of cudaGetKernel, before and after
 * the kernel's first launch. Prints one line per query: handle, query, index, result, offset,
 * size. */
#include <cuda.h>
#include <cuda_runtime.h>

#include <stdio.h>

static __global__ void three(unsigned *out, int n, const unsigned *in)
{
    if (n > 0)
        out[0] = in[0];
}

static void ask(const char *what, void *handle)
{
    for (size_t i = 0; i < 4; i++) {
        size_t offset = 0, size = 0;
        CUresult f = cuFuncGetParamInfo((CUfunction)handle, i, &offset, &size);
        printf("%s cuFuncGetParamInfo %zu: %d offset %zu size %zu\n", what, i, (int)f, offset,
               size);
        offset = size = 0;
        CUresult k = cuKernelGetParamInfo((CUkernel)handle, i, &offset, &size);
        printf("%s cuKernelGetParamInfo %zu: %d offset %zu size %zu\n", what, i, (int)k, offset,
               size);
    }
}

int main(void)
{
    cudaFunction_t function = NULL;
    cudaKernel_t kernel = NULL;
    unsigned *buffer = NULL;
    if (cudaMalloc(&buffer, 64) != cudaSuccess)
        return 1;
    cudaError_t f = cudaGetFuncBySymbol(&function, (const void *)three);
    cudaError_t k = cudaGetKernel(&kernel, (const void *)three);
    printf("cudaGetFuncBySymbol %d, cudaGetKernel %d\n", (int)f, (int)k);
    ask("before-launch function", (void *)function);
    ask("before-launch kernel", (void *)kernel);
    three<<<1, 1>>>(buffer, 1, buffer + 1);
    cudaDeviceSynchronize();
    ask("after-launch function", (void *)function);
    ask("after-launch kernel", (void *)kernel);
    cudaFree(buffer);
    return 0;
}
