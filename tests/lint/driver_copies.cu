// driver_copies.cu: the driver API's copies under the copy rules, as their runtime twins are:
// SYNC201 for an asynchronous copy from or into pageable memory (pinned with cuMemAllocHost or
// cuMemHostRegister it is fine), SYNC202 for a synchronous copy that blocks the host in a loop
// that launches or in a function that uses a stream, SYNC301 for one value read back, and
// SYNC102 for a synchronous device-to-device copy or memset in a unit with a blocking stream.
// The 2D and 3D copies name their host sides in a parameters struct (srcHost, dstHost).
// cuda.h renames most of them (cuMemcpyDtoH is cuMemcpyDtoH_v2): the messages name them as
// written.
#include <cuda.h>
#include <stdlib.h>
#include <vector>

void upload_pageable(CUdeviceptr d, size_t n, CUstream s)
{
    float *h = (float *)malloc(n * sizeof(float));
    cuMemcpyHtoDAsync(d, h, n * sizeof(float), s); // expect: SYNC201 expect-message: host buffer 'h' comes from malloc() at line 15: 'cuMemcpyHtoDAsync' in 'upload_pageable' copies from pageable memory
    std::vector<float> out(n);
    cuMemcpyDtoHAsync(out.data(), d, n * sizeof(float), s); // expect: SYNC201 expect-message: 'cuMemcpyDtoHAsync' in 'upload_pageable' copies into pageable memory
    char line[64];
    cuMemcpyAtoHAsync(line, (CUarray)0, 0, sizeof line, s); // expect: SYNC201 expect-message: 'cuMemcpyAtoHAsync'
    cuMemcpyAsync(d, (CUdeviceptr)h, n, s); // expect: SYNC201 expect-message: 'cuMemcpyAsync' in 'upload_pageable' copies from pageable memory
    cuStreamSynchronize(s);
    free(h);
}

// Pinned by the driver's own calls: nothing to report.
void upload_pinned(CUdeviceptr d, size_t n, CUstream s)
{
    void *p = NULL;
    cuMemAllocHost(&p, n);
    cuMemcpyHtoDAsync(d, p, n, s);
    void *q = NULL;
    cuMemHostAlloc(&q, n, 0);
    cuMemcpyDtoHAsync(q, d, n, s);
    float *r = (float *)malloc(n);
    cuMemHostRegister(r, n, 0);
    cuMemcpyDtoHAsync(r, d, n, s);
    cuMemcpyAsync((CUdeviceptr)p, d, n, s);
    cuStreamSynchronize(s);
}

// A synchronous copy in a loop that launches: each iteration drains the device.
void step_loop(CUfunction f, void **params, CUdeviceptr d, float *h, int n, int steps, CUstream s)
{
    for (int i = 0; i < steps; i++) {
        cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
        cuMemcpyDtoH(h, d, n * sizeof(float)); // expect: SYNC202 expect-message: synchronous copy 'cuMemcpyDtoH' inside the loop at line 45, which launches 'cuLaunchKernel'
        cuMemcpyHtoD(d, h, n * sizeof(float)); // expect: SYNC202 expect-message: synchronous copy 'cuMemcpyHtoD'
    }
}

// In a function that uses a stream; one value read back is SYNC301 instead.
float fetch(CUfunction f, void **params, CUdeviceptr d, float *h, int n, CUstream s)
{
    cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
    cuMemcpyDtoH(h, d, n * sizeof(float)); // expect: SYNC202 expect-message: synchronous copy 'cuMemcpyDtoH' in 'fetch', which also uses stream 's'
    float v = 0.0f;
    cuMemcpyDtoH(&v, d, sizeof(float)); // expect: SYNC301 expect-message: 'cuMemcpyDtoH'
    h[0] = v;
    return 0.0f;
}

// Device to device and a memset of device memory: the host is not blocked, but the legacy
// stream serializes with the blocking stream this unit creates.
void device_side(CUdeviceptr a, CUdeviceptr b, size_t n)
{
    CUstream blocking;
    cuStreamCreate(&blocking, 0); // expect: SYNC103
    CUdeviceptr scratch = 0;
    cuMemAlloc(&scratch, n);
    cuMemcpyDtoD(a, b, n); // expect: SYNC102 expect-message: 'cuMemcpyDtoD' in 'device_side' copies device to device ('a')
    cuMemsetD32(scratch, 0, n / 4); // expect: SYNC102 expect-message: 'cuMemsetD32' in 'device_side' sets device memory
    CUdeviceptr more = 0;
    cuMemAlloc(&more, n);
    cuMemcpy(more, scratch, n); // expect: SYNC102 expect-message: 'cuMemcpy' in 'device_side' copies device to device
    cuMemFree(more);
    cuMemFree(scratch);
}

// The host side in the parameters struct, where the memory type does not say otherwise.
void copy_rows(CUdeviceptr d, size_t pitch, size_t rows, CUstream s)
{
    char *h = (char *)malloc(pitch * rows);
    CUDA_MEMCPY2D up = {};
    up.srcMemoryType = CU_MEMORYTYPE_HOST;
    up.srcHost = h;
    up.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    up.dstDevice = d;
    cuMemcpy2DAsync(&up, s); // expect: SYNC201 expect-message: host buffer 'h' comes from malloc() at line 83: 'cuMemcpy2DAsync' in 'copy_rows' copies from pageable memory
    CUDA_MEMCPY3D down = {};
    down.dstHost = h;
    cuMemcpy3DAsync(&down, s); // expect: SYNC201 expect-message: 'cuMemcpy3DAsync' in 'copy_rows' copies into pageable memory
    CUDA_MEMCPY2D unused = {};
    unused.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    unused.srcHost = h;
    unused.srcDevice = d;
    cuMemcpy2DAsync(&unused, s);
    cuStreamSynchronize(s);
}
