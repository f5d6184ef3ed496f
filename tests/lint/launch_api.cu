// launch_api.cu: SYNC101 for the launch APIs, graph launches and host functions.
#include <cuda_runtime.h>

__global__ void body(int *p) { p[threadIdx.x] = 1; }

static void CUDART_CB on_host(void *data) { (void)data; }

void api_launches(int *p, cudaGraphExec_t graph, cudaStream_t s)
{
    void *args[] = {&p};
    cudaLaunchKernel((const void *)body, dim3(1), dim3(32), args, 0, 0); // expect: SYNC101
    cudaLaunchKernel((const void *)body, dim3(1), dim3(32), args); // expect: SYNC101
    cudaLaunchKernel((const void *)body, dim3(1), dim3(32), args, 0, s);
    cudaLaunchCooperativeKernel((const void *)body, dim3(1), dim3(32), args, 0, // expect: SYNC101
                                cudaStreamLegacy);
    cudaLaunchCooperativeKernel((const void *)body, dim3(1), dim3(32), args, 0, s);
    cudaGraphLaunch(graph, 0); // expect: SYNC101
    cudaGraphLaunch(graph, s);
    cudaLaunchHostFunc(nullptr, on_host, nullptr); // expect: SYNC101
    cudaLaunchHostFunc(s, on_host, nullptr);
}

void launch_ex(int *p, cudaStream_t s)
{
    cudaLaunchConfig_t zeroed = {};
    zeroed.gridDim = dim3(1);
    zeroed.blockDim = dim3(32);
    cudaLaunchKernelEx(&zeroed, body, p); // expect: SYNC101

    cudaLaunchConfig_t on_zero;
    on_zero.gridDim = dim3(1);
    on_zero.blockDim = dim3(32);
    on_zero.dynamicSmemBytes = 0;
    on_zero.stream = 0;
    on_zero.attrs = nullptr;
    on_zero.numAttrs = 0;
    cudaLaunchKernelEx(&on_zero, body, p); // expect: SYNC101

    cudaLaunchConfig_t on_stream = {};
    on_stream.gridDim = dim3(1);
    on_stream.blockDim = dim3(32);
    on_stream.stream = s;
    cudaLaunchKernelEx(&on_stream, body, p);

    cudaLaunchConfig_t positional = {dim3(1), dim3(32), 0, s, nullptr, 0};
    cudaLaunchKernelEx(&positional, body, p);
}

void launch_ex_param(const cudaLaunchConfig_t *config, int *p)
{
    cudaLaunchKernelEx(config, body, p);
}
