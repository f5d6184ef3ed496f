/* args.c: the one table of where syncscope takes each CUDA call's arguments from, built on
 * CUPTI's generated parameter structs so that offsets are the compiler's, never guessed. */
#include "args.h"

#include <cupti.h> /* types only: cbid enums and the generated parameter structs */
#include <string.h>

#include "evlog.h"
#include "rules.h"

/* A field of the parameter struct of callback 'fn'. */
#define FIELD(fn, f)                                                                               \
    {                                                                                              \
        (int16_t) offsetof(fn##_params, f), -1, (uint8_t)sizeof(((fn##_params *)0)->f)             \
    }
/* Field 'sf' of the struct of type 'stype' that field 'f' of 'fn's parameters points to. */
#define DEREF(fn, f, stype, sf)                                                                    \
    {                                                                                              \
        (int16_t) offsetof(fn##_params, f), (int16_t)offsetof(stype, sf),                          \
            (uint8_t)sizeof(((stype *)0)->sf)                                                      \
    }

/* clang-format off */
#define RT(api, fn, pt, args) \
    {#fn, CUPTI_RUNTIME_TRACE_CBID_##fn, SS_API_##api, SS_DOMAIN_RUNTIME, pt, args(fn)}
#define DRV(api, fn, pt, args) \
    {#fn, CUPTI_DRIVER_TRACE_CBID_##fn, SS_API_##api, SS_DOMAIN_DRIVER, pt, args(fn)}
/* clang-format on */

/* Pointer sets (SS_EV_ARGS): a driver launch's function and parameters, a copy's or memset's
 * destination and source, an allocation's address (written through its first argument), a
 * freed pointer. */
#define P_LAUNCH(fn)                                                                               \
    .pointers = SS_ARGS_LAUNCH, .function = FIELD(fn, f), .kernel_params = FIELD(fn, kernelParams)
#define P_LAUNCH_EXTRA(fn) P_LAUNCH(fn), .extra = FIELD(fn, extra)
#define P_COPY(fn) .pointers = SS_ARGS_COPY, .dst = FIELD(fn, dst), .src = FIELD(fn, src)
#define P_SET(fn) .pointers = SS_ARGS_COPY, .dst = FIELD(fn, devPtr)
#define P_DRV_COPY(fn, d, s) .pointers = SS_ARGS_COPY, .dst = FIELD(fn, d), .src = FIELD(fn, s)
#define P_DRV_SET(fn) .pointers = SS_ARGS_COPY, .dst = FIELD(fn, dstDevice)
#define P_ALLOC(fn, f) .pointers = SS_ARGS_ALLOC, .dst = DEREF_PTR(fn, f)
#define P_FREE(fn, f) .pointers = SS_ARGS_FREE, .dst = FIELD(fn, f)
#define P_EVENT(fn, f) .pointers = SS_ARGS_EVENT, .dst = FIELD(fn, f)
/* A 3D copy's pointers, in its parameter struct (NULL for a CUDA array). */
#define P_COPY3D(fn)                                                                               \
    .pointers = SS_ARGS_COPY, .dst = DEREF(fn, p, struct cudaMemcpy3DParms, dstPtr.ptr),           \
    .src = DEREF(fn, p, struct cudaMemcpy3DParms, srcPtr.ptr)
/* The pointer that field 'f' (a pointer to a pointer) points to. */
#define DEREF_PTR(fn, f)                                                                           \
    {                                                                                              \
        (int16_t) offsetof(fn##_params, f), 0, (uint8_t)sizeof(void *)                             \
    }

/* Argument sets, one per parameter shape. A_NONE: the call is timed, no argument needed. */
#define A_NONE(fn) .stream = {0, -1, 0}
#define A_STREAM(fn) .stream = FIELD(fn, stream)
#define A_HSTREAM(fn) .stream = FIELD(fn, hStream)
#define A_RT_CONFIG(fn) .stream = DEREF(fn, config, cudaLaunchConfig_t, stream)
#define A_DRV_CONFIG(fn) .stream = DEREF(fn, config, CUlaunchConfig, hStream)
#define A_COPY_ASYNC(fn)                                                                           \
    .stream = FIELD(fn, stream), .bytes = FIELD(fn, count), .kind = FIELD(fn, kind)
#define A_COPY(fn) .bytes = FIELD(fn, count), .kind = FIELD(fn, kind)
#define A_COPY2D_ASYNC(fn)                                                                         \
    .stream = FIELD(fn, stream), .bytes = FIELD(fn, width), .bytes2 = FIELD(fn, height),           \
    .kind = FIELD(fn, kind)
#define A_COPY2D(fn) .bytes = FIELD(fn, width), .bytes2 = FIELD(fn, height), .kind = FIELD(fn, kind)
#define A_COPY3D_ASYNC(fn)                                                                         \
    .stream = FIELD(fn, stream), .kind = DEREF(fn, p, struct cudaMemcpy3DParms, kind)
#define A_COPY3D(fn) .kind = DEREF(fn, p, struct cudaMemcpy3DParms, kind)
#define A_PEER_ASYNC(fn) .stream = FIELD(fn, stream), .bytes = FIELD(fn, count)
#define A_COUNT(fn) .bytes = FIELD(fn, count)
#define A_SET_ASYNC(fn) .stream = FIELD(fn, stream), .bytes = FIELD(fn, count)
#define A_SET2D_ASYNC(fn)                                                                          \
    .stream = FIELD(fn, stream), .bytes = FIELD(fn, width), .bytes2 = FIELD(fn, height)
#define A_SET2D(fn) .bytes = FIELD(fn, width), .bytes2 = FIELD(fn, height)
#define A_ALLOC_ASYNC(fn) .stream = FIELD(fn, hStream), .bytes = FIELD(fn, size)
#define A_POOL_ASYNC(fn) .stream = FIELD(fn, stream), .bytes = FIELD(fn, size)
#define A_STREAM_FLAGS(fn) .stream = FIELD(fn, stream), .flags = FIELD(fn, flags)
#define A_ATTACH(fn)                                                                               \
    .stream = FIELD(fn, stream), .bytes = FIELD(fn, length), .flags = FIELD(fn, flags)
#define A_SIZE(fn) .bytes = FIELD(fn, size)
#define A_SIZE_FLAGS(fn) .bytes = FIELD(fn, size), .flags = FIELD(fn, flags)
/* Pinned host memory: allocated (its address written through 'f'), registered or freed at 'f'. */
#define A_MALLOC_HOST(fn) A_SIZE(fn), .host = DEREF_PTR(fn, ptr)
#define A_HOST_ALLOC(fn) A_SIZE_FLAGS(fn), .host = DEREF_PTR(fn, pHost)
#define A_HOST_REGISTER(fn) A_SIZE_FLAGS(fn), .host = FIELD(fn, ptr)
#define A_HOST_FREE(fn) A_NONE(fn), .host = FIELD(fn, ptr)
#define A_DRV_HOST_ALLOC(fn) A_DRV_ALLOC(fn), .host = DEREF_PTR(fn, pp)
#define A_DRV_HOST_ALLOC_FLAGS(fn) A_DRV_SIZE_FLAGS(fn), .host = DEREF_PTR(fn, pp)
#define A_DRV_HOST_REGISTER(fn) A_DRV_SIZE_FLAGS(fn), .host = FIELD(fn, p)
#define A_DRV_HOST_FREE(fn) A_NONE(fn), .host = FIELD(fn, p)
#define A_PITCH(fn) .bytes = FIELD(fn, width), .bytes2 = FIELD(fn, height)
#define A_CREATE(fn) .out_stream = FIELD(fn, pStream)
#define A_CREATE_FLAGS(fn) .out_stream = FIELD(fn, pStream), .flags = FIELD(fn, flags)
#define A_CREATE_PRIO(fn)                                                                          \
    .out_stream = FIELD(fn, pStream), .flags = FIELD(fn, flags), .priority = FIELD(fn, priority)
#define A_CAPTURE(fn) .stream = FIELD(fn, stream), .flags = FIELD(fn, mode)
#define A_DRV_BYTES(fn) .bytes = FIELD(fn, ByteCount)
#define A_DRV_BYTES_ASYNC(fn) .stream = FIELD(fn, hStream), .bytes = FIELD(fn, ByteCount)
#define A_DRV_SET(fn) .bytes = FIELD(fn, N)
#define A_DRV_SET_ASYNC(fn) .stream = FIELD(fn, hStream), .bytes = FIELD(fn, N)
#define A_DRV_ALLOC(fn) .bytes = FIELD(fn, bytesize)
#define A_DRV_CREATE(fn) .out_stream = FIELD(fn, phStream), .flags = FIELD(fn, Flags)
#define A_DRV_CAPTURE(fn) .stream = FIELD(fn, hStream), .flags = FIELD(fn, mode)
#define A_DRV_LAUNCH(fn) A_HSTREAM(fn), P_LAUNCH_EXTRA(fn)
#define A_DRV_LAUNCH_EX(fn) A_DRV_CONFIG(fn), P_LAUNCH_EXTRA(fn)
#define A_DRV_LAUNCH_COOP(fn) A_HSTREAM(fn), P_LAUNCH(fn)
#define A_COPY_ASYNC_P(fn) A_COPY_ASYNC(fn), P_COPY(fn)
#define A_COPY_P(fn) A_COPY(fn), P_COPY(fn)
#define A_COPY2D_ASYNC_P(fn) A_COPY2D_ASYNC(fn), P_COPY(fn)
#define A_COPY2D_P(fn) A_COPY2D(fn), P_COPY(fn)
#define A_COPY3D_ASYNC_P(fn) A_COPY3D_ASYNC(fn), P_COPY3D(fn)
#define A_COPY3D_P(fn) A_COPY3D(fn), P_COPY3D(fn)
#define A_EVENT_RECORD_P(fn) A_STREAM(fn), P_EVENT(fn, event)
#define A_EVENT_RECORD_FLAGS_P(fn) A_STREAM_FLAGS(fn), P_EVENT(fn, event)
#define A_EVENT_SYNC_P(fn) A_NONE(fn), P_EVENT(fn, event)
#define A_DRV_EVENT_SYNC_P(fn) A_NONE(fn), P_EVENT(fn, hEvent)
#define A_SET_ASYNC_P(fn) A_SET_ASYNC(fn), P_SET(fn)
#define A_COUNT_SET(fn) A_COUNT(fn), P_SET(fn)
#define A_SIZE_ALLOC(fn) A_SIZE(fn), P_ALLOC(fn, devPtr)
#define A_MANAGED_ALLOC(fn) A_SIZE_FLAGS(fn), P_ALLOC(fn, devPtr)
#define A_ALLOC_ASYNC_P(fn) A_ALLOC_ASYNC(fn), P_ALLOC(fn, devPtr)
#define A_POOL_ASYNC_P(fn) A_POOL_ASYNC(fn), P_ALLOC(fn, ptr)
#define A_FREE(fn) P_FREE(fn, devPtr)
#define A_FREE_ASYNC(fn) A_HSTREAM(fn), P_FREE(fn, devPtr)
#define A_DRV_ALLOC_P(fn) A_DRV_ALLOC(fn), P_ALLOC(fn, dptr)
#define A_DRV_FREE(fn) P_FREE(fn, dptr)
#define A_DRV_DTOH(fn) A_DRV_BYTES(fn), P_DRV_COPY(fn, dstHost, srcDevice)
#define A_DRV_DTOH_ASYNC(fn) A_DRV_BYTES_ASYNC(fn), P_DRV_COPY(fn, dstHost, srcDevice)
#define A_DRV_HTOD(fn) A_DRV_BYTES(fn), P_DRV_COPY(fn, dstDevice, srcHost)
#define A_DRV_HTOD_ASYNC(fn) A_DRV_BYTES_ASYNC(fn), P_DRV_COPY(fn, dstDevice, srcHost)
#define A_DRV_DTOD(fn) A_DRV_BYTES(fn), P_DRV_COPY(fn, dstDevice, srcDevice)
#define A_DRV_DTOD_ASYNC(fn) A_DRV_BYTES_ASYNC(fn), P_DRV_COPY(fn, dstDevice, srcDevice)
#define A_DRV_ANY(fn) A_DRV_BYTES(fn), P_DRV_COPY(fn, dst, src)
#define A_DRV_ANY_ASYNC(fn) A_DRV_BYTES_ASYNC(fn), P_DRV_COPY(fn, dst, src)
#define A_DRV_SET_P(fn) A_DRV_SET(fn), P_DRV_SET(fn)
#define A_DRV_SET_ASYNC_P(fn) A_DRV_SET_ASYNC(fn), P_DRV_SET(fn)
#define A_DRV_PITCH(fn) .bytes = FIELD(fn, WidthInBytes), .bytes2 = FIELD(fn, Height)
#define A_DRV_SIZE_FLAGS(fn) .bytes = FIELD(fn, bytesize), .flags = FIELD(fn, Flags)
#define A_DRV_MANAGED_ALLOC(fn)                                                                    \
    .bytes = FIELD(fn, bytesize), .flags = FIELD(fn, flags), P_ALLOC(fn, dptr)
#define A_DRV_ALLOC_ASYNC_P(fn) A_HSTREAM(fn), A_DRV_ALLOC(fn), P_ALLOC(fn, dptr)
#define A_DRV_FREE_ASYNC(fn) A_HSTREAM(fn), P_FREE(fn, dptr)
#define A_DRV_PREFETCH(fn) A_HSTREAM(fn), .bytes = FIELD(fn, count)
#define A_DRV_CREATE_PRIO(fn)                                                                      \
    .out_stream = FIELD(fn, phStream), .flags = FIELD(fn, flags), .priority = FIELD(fn, priority)
#define A_DRV_EVENT_RECORD_P(fn) A_HSTREAM(fn), P_EVENT(fn, hEvent)
#define A_DRV_EVENT_RECORD_FLAGS_P(fn) A_DRV_EVENT_RECORD_P(fn), .flags = FIELD(fn, flags)
#define A_DRV_STREAM_WAIT(fn) A_HSTREAM(fn), .flags = FIELD(fn, Flags)

static const ss_args_spec table[] = {
    /* clang-format off */
    /* Kernel launches and other stream work. */
    RT(cudaLaunchKernel, cudaLaunchKernel_v7000, 0, A_STREAM),
    RT(cudaLaunchKernel, cudaLaunchKernel_ptsz_v7000, 1, A_STREAM),
    RT(cudaLaunchCooperativeKernel, cudaLaunchCooperativeKernel_v9000, 0, A_STREAM),
    RT(cudaLaunchCooperativeKernel, cudaLaunchCooperativeKernel_ptsz_v9000, 1, A_STREAM),
    RT(cudaLaunchKernelExC, cudaLaunchKernelExC_v11060, 0, A_RT_CONFIG),
    RT(cudaLaunchKernelExC, cudaLaunchKernelExC_ptsz_v11060, 1, A_RT_CONFIG),
    RT(cudaLaunchHostFunc, cudaLaunchHostFunc_v10000, 0, A_STREAM),
    RT(cudaLaunchHostFunc, cudaLaunchHostFunc_ptsz_v10000, 1, A_STREAM),
    RT(cudaGraphLaunch, cudaGraphLaunch_v10000, 0, A_STREAM),
    RT(cudaGraphLaunch, cudaGraphLaunch_ptsz_v10000, 1, A_STREAM),

    /* Asynchronous copies and memsets. */
    RT(cudaMemcpyAsync, cudaMemcpyAsync_v3020, 0, A_COPY_ASYNC_P),
    RT(cudaMemcpyAsync, cudaMemcpyAsync_ptsz_v7000, 1, A_COPY_ASYNC_P),
    RT(cudaMemcpy2DAsync, cudaMemcpy2DAsync_v3020, 0, A_COPY2D_ASYNC_P),
    RT(cudaMemcpy2DAsync, cudaMemcpy2DAsync_ptsz_v7000, 1, A_COPY2D_ASYNC_P),
    RT(cudaMemcpy3DAsync, cudaMemcpy3DAsync_v3020, 0, A_COPY3D_ASYNC_P),
    RT(cudaMemcpy3DAsync, cudaMemcpy3DAsync_ptsz_v7000, 1, A_COPY3D_ASYNC_P),
    RT(cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync_v3020, 0, A_COPY_ASYNC),
    RT(cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync_ptsz_v7000, 1, A_COPY_ASYNC),
    RT(cudaMemcpyFromSymbolAsync, cudaMemcpyFromSymbolAsync_v3020, 0, A_COPY_ASYNC),
    RT(cudaMemcpyFromSymbolAsync, cudaMemcpyFromSymbolAsync_ptsz_v7000, 1, A_COPY_ASYNC),
    RT(cudaMemcpyPeerAsync, cudaMemcpyPeerAsync_v4000, 0, A_PEER_ASYNC),
    RT(cudaMemcpy3DPeerAsync, cudaMemcpy3DPeerAsync_v4000, 0, A_STREAM),
    RT(cudaMemcpy3DPeerAsync, cudaMemcpy3DPeerAsync_ptsz_v7000, 1, A_STREAM),
    RT(cudaMemsetAsync, cudaMemsetAsync_v3020, 0, A_SET_ASYNC_P),
    RT(cudaMemsetAsync, cudaMemsetAsync_ptsz_v7000, 1, A_SET_ASYNC_P),
    RT(cudaMemset2DAsync, cudaMemset2DAsync_v3020, 0, A_SET2D_ASYNC),
    RT(cudaMemset2DAsync, cudaMemset2DAsync_ptsz_v7000, 1, A_SET2D_ASYNC),
    RT(cudaMemset3DAsync, cudaMemset3DAsync_v3020, 0, A_STREAM),
    RT(cudaMemset3DAsync, cudaMemset3DAsync_ptsz_v7000, 1, A_STREAM),
    RT(cudaMemPrefetchAsync, cudaMemPrefetchAsync_v12020, 0, A_SET_ASYNC),
    RT(cudaMemPrefetchAsync, cudaMemPrefetchAsync_ptsz_v12020, 1, A_SET_ASYNC),
    RT(cudaMallocAsync, cudaMallocAsync_v11020, 0, A_ALLOC_ASYNC_P),
    RT(cudaMallocAsync, cudaMallocAsync_ptsz_v11020, 1, A_ALLOC_ASYNC_P),
    RT(cudaFreeAsync, cudaFreeAsync_v11020, 0, A_FREE_ASYNC),
    RT(cudaFreeAsync, cudaFreeAsync_ptsz_v11020, 1, A_FREE_ASYNC),
    RT(cudaMallocFromPoolAsync, cudaMallocFromPoolAsync_v11020, 0, A_POOL_ASYNC_P),
    RT(cudaMallocFromPoolAsync, cudaMallocFromPoolAsync_ptsz_v11020, 1, A_POOL_ASYNC_P),
    RT(cudaEventRecord, cudaEventRecord_v3020, 0, A_EVENT_RECORD_P),
    RT(cudaEventRecord, cudaEventRecord_ptsz_v7000, 1, A_EVENT_RECORD_P),
    RT(cudaEventRecordWithFlags, cudaEventRecordWithFlags_v11010, 0, A_EVENT_RECORD_FLAGS_P),
    RT(cudaEventRecordWithFlags, cudaEventRecordWithFlags_ptsz_v11010, 1, A_EVENT_RECORD_FLAGS_P),
    RT(cudaStreamWaitEvent, cudaStreamWaitEvent_v3020, 0, A_STREAM_FLAGS),
    RT(cudaStreamWaitEvent, cudaStreamWaitEvent_ptsz_v7000, 1, A_STREAM_FLAGS),
    RT(cudaStreamAttachMemAsync, cudaStreamAttachMemAsync_v6000, 0, A_ATTACH),
    RT(cudaStreamAttachMemAsync, cudaStreamAttachMemAsync_ptsz_v7000, 1, A_ATTACH),

    /* Synchronous copies and memsets. */
    RT(cudaMemcpy, cudaMemcpy_v3020, 0, A_COPY_P),
    RT(cudaMemcpy, cudaMemcpy_ptds_v7000, 1, A_COPY_P),
    RT(cudaMemcpy2D, cudaMemcpy2D_v3020, 0, A_COPY2D_P),
    RT(cudaMemcpy2D, cudaMemcpy2D_ptds_v7000, 1, A_COPY2D_P),
    RT(cudaMemcpy3D, cudaMemcpy3D_v3020, 0, A_COPY3D_P),
    RT(cudaMemcpy3D, cudaMemcpy3D_ptds_v7000, 1, A_COPY3D_P),
    RT(cudaMemcpyToSymbol, cudaMemcpyToSymbol_v3020, 0, A_COPY),
    RT(cudaMemcpyToSymbol, cudaMemcpyToSymbol_ptds_v7000, 1, A_COPY),
    RT(cudaMemcpyFromSymbol, cudaMemcpyFromSymbol_v3020, 0, A_COPY),
    RT(cudaMemcpyFromSymbol, cudaMemcpyFromSymbol_ptds_v7000, 1, A_COPY),
    RT(cudaMemcpyPeer, cudaMemcpyPeer_v4000, 0, A_COUNT),
    RT(cudaMemcpy3DPeer, cudaMemcpy3DPeer_v4000, 0, A_NONE),
    RT(cudaMemcpy3DPeer, cudaMemcpy3DPeer_ptds_v7000, 1, A_NONE),
    RT(cudaMemset, cudaMemset_v3020, 0, A_COUNT_SET),
    RT(cudaMemset, cudaMemset_ptds_v7000, 1, A_COUNT_SET),
    RT(cudaMemset2D, cudaMemset2D_v3020, 0, A_SET2D),
    RT(cudaMemset2D, cudaMemset2D_ptds_v7000, 1, A_SET2D),
    RT(cudaMemset3D, cudaMemset3D_v3020, 0, A_NONE),
    RT(cudaMemset3D, cudaMemset3D_ptds_v7000, 1, A_NONE),

    /* Copies to, from and between CUDA arrays: an array is no pointer of the program's, so no
     * pointer set is taken. */
    RT(cudaMemcpy2DToArray, cudaMemcpy2DToArray_v3020, 0, A_COPY2D),
    RT(cudaMemcpy2DToArray, cudaMemcpy2DToArray_ptds_v7000, 1, A_COPY2D),
    RT(cudaMemcpy2DFromArray, cudaMemcpy2DFromArray_v3020, 0, A_COPY2D),
    RT(cudaMemcpy2DFromArray, cudaMemcpy2DFromArray_ptds_v7000, 1, A_COPY2D),
    RT(cudaMemcpy2DArrayToArray, cudaMemcpy2DArrayToArray_v3020, 0, A_COPY2D),
    RT(cudaMemcpy2DArrayToArray, cudaMemcpy2DArrayToArray_ptds_v7000, 1, A_COPY2D),
    RT(cudaMemcpyToArray, cudaMemcpyToArray_v3020, 0, A_COPY),
    RT(cudaMemcpyToArray, cudaMemcpyToArray_ptds_v7000, 1, A_COPY),
    RT(cudaMemcpyFromArray, cudaMemcpyFromArray_v3020, 0, A_COPY),
    RT(cudaMemcpyFromArray, cudaMemcpyFromArray_ptds_v7000, 1, A_COPY),
    RT(cudaMemcpyArrayToArray, cudaMemcpyArrayToArray_v3020, 0, A_COPY),
    RT(cudaMemcpyArrayToArray, cudaMemcpyArrayToArray_ptds_v7000, 1, A_COPY),
    RT(cudaMemcpy2DToArrayAsync, cudaMemcpy2DToArrayAsync_v3020, 0, A_COPY2D_ASYNC),
    RT(cudaMemcpy2DToArrayAsync, cudaMemcpy2DToArrayAsync_ptsz_v7000, 1, A_COPY2D_ASYNC),
    RT(cudaMemcpy2DFromArrayAsync, cudaMemcpy2DFromArrayAsync_v3020, 0, A_COPY2D_ASYNC),
    RT(cudaMemcpy2DFromArrayAsync, cudaMemcpy2DFromArrayAsync_ptsz_v7000, 1, A_COPY2D_ASYNC),
    RT(cudaMemcpyToArrayAsync, cudaMemcpyToArrayAsync_v3020, 0, A_COPY_ASYNC),
    RT(cudaMemcpyToArrayAsync, cudaMemcpyToArrayAsync_ptsz_v7000, 1, A_COPY_ASYNC),
    RT(cudaMemcpyFromArrayAsync, cudaMemcpyFromArrayAsync_v3020, 0, A_COPY_ASYNC),
    RT(cudaMemcpyFromArrayAsync, cudaMemcpyFromArrayAsync_ptsz_v7000, 1, A_COPY_ASYNC),

    /* Allocation and registration. */
    RT(cudaMalloc, cudaMalloc_v3020, 0, A_SIZE_ALLOC),
    RT(cudaMallocPitch, cudaMallocPitch_v3020, 0, A_PITCH),
    RT(cudaFree, cudaFree_v3020, 0, A_FREE),
    RT(cudaFreeArray, cudaFreeArray_v3020, 0, A_NONE),
    RT(cudaMallocHost, cudaMallocHost_v3020, 0, A_MALLOC_HOST),
    RT(cudaHostAlloc, cudaHostAlloc_v3020, 0, A_HOST_ALLOC),
    RT(cudaFreeHost, cudaFreeHost_v3020, 0, A_HOST_FREE),
    RT(cudaMallocManaged, cudaMallocManaged_v6000, 0, A_MANAGED_ALLOC),
    RT(cudaHostRegister, cudaHostRegister_v4000, 0, A_HOST_REGISTER),
    RT(cudaHostUnregister, cudaHostUnregister_v4000, 0, A_HOST_FREE),
    RT(cudaDeviceSetLimit, cudaDeviceSetLimit_v3020, 0, A_NONE),
    RT(cudaDeviceReset, cudaDeviceReset_v3020, 0, A_NONE),

    /* Explicit synchronization and queries. */
    RT(cudaDeviceSynchronize, cudaDeviceSynchronize_v3020, 0, A_NONE),
    RT(cudaStreamSynchronize, cudaStreamSynchronize_v3020, 0, A_STREAM),
    RT(cudaStreamSynchronize, cudaStreamSynchronize_ptsz_v7000, 1, A_STREAM),
    RT(cudaEventSynchronize, cudaEventSynchronize_v3020, 0, A_EVENT_SYNC_P),
    RT(cudaStreamQuery, cudaStreamQuery_v3020, 0, A_STREAM),
    RT(cudaStreamQuery, cudaStreamQuery_ptsz_v7000, 1, A_STREAM),
    RT(cudaEventQuery, cudaEventQuery_v3020, 0, A_NONE),

    /* Streams and graph capture. */
    RT(cudaStreamCreate, cudaStreamCreate_v3020, 0, A_CREATE),
    RT(cudaStreamCreateWithFlags, cudaStreamCreateWithFlags_v5000, 0, A_CREATE_FLAGS),
    RT(cudaStreamCreateWithPriority, cudaStreamCreateWithPriority_v5050, 0, A_CREATE_PRIO),
    RT(cudaStreamBeginCapture, cudaStreamBeginCapture_v10000, 0, A_CAPTURE),
    RT(cudaStreamBeginCapture, cudaStreamBeginCapture_ptsz_v10000, 1, A_CAPTURE),
    RT(cudaStreamEndCapture, cudaStreamEndCapture_v10000, 0, A_STREAM),
    RT(cudaStreamEndCapture, cudaStreamEndCapture_ptsz_v10000, 1, A_STREAM),

    /* Graph instantiation and upload. */
    RT(cudaGraphInstantiate, cudaGraphInstantiate_v10000, 0, A_NONE),
    RT(cudaGraphInstantiate, cudaGraphInstantiate_v12000, 0, A_NONE),
    RT(cudaGraphInstantiateWithFlags, cudaGraphInstantiateWithFlags_v11040, 0, A_NONE),
    RT(cudaGraphInstantiateWithParams, cudaGraphInstantiateWithParams_v12000, 0, A_NONE),
    RT(cudaGraphInstantiateWithParams, cudaGraphInstantiateWithParams_ptsz_v12000, 1, A_NONE),
    RT(cudaGraphUpload, cudaGraphUpload_v10000, 0, A_STREAM),
    RT(cudaGraphUpload, cudaGraphUpload_ptsz_v10000, 1, A_STREAM),

    /* Driver API (current, 64-bit variants; the CUDA 3.x ones are not taken). */
    DRV(cuLaunchKernel, cuLaunchKernel, 0, A_DRV_LAUNCH),
    DRV(cuLaunchKernel, cuLaunchKernel_ptsz, 1, A_DRV_LAUNCH),
    DRV(cuLaunchKernelEx, cuLaunchKernelEx, 0, A_DRV_LAUNCH_EX),
    DRV(cuLaunchKernelEx, cuLaunchKernelEx_ptsz, 1, A_DRV_LAUNCH_EX),
    DRV(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel, 0, A_DRV_LAUNCH_COOP),
    DRV(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel_ptsz, 1, A_DRV_LAUNCH_COOP),
    DRV(cuMemcpyHtoD, cuMemcpyHtoD_v2, 0, A_DRV_HTOD),
    DRV(cuMemcpyHtoD, cuMemcpyHtoD_v2_ptds, 1, A_DRV_HTOD),
    DRV(cuMemcpyDtoH, cuMemcpyDtoH_v2, 0, A_DRV_DTOH),
    DRV(cuMemcpyDtoH, cuMemcpyDtoH_v2_ptds, 1, A_DRV_DTOH),
    DRV(cuMemcpyDtoD, cuMemcpyDtoD_v2, 0, A_DRV_DTOD),
    DRV(cuMemcpyDtoD, cuMemcpyDtoD_v2_ptds, 1, A_DRV_DTOD),
    DRV(cuMemcpy, cuMemcpy, 0, A_DRV_ANY),
    DRV(cuMemcpy, cuMemcpy_ptds, 1, A_DRV_ANY),
    DRV(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2, 0, A_DRV_HTOD_ASYNC),
    DRV(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2_ptsz, 1, A_DRV_HTOD_ASYNC),
    DRV(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2, 0, A_DRV_DTOH_ASYNC),
    DRV(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2_ptsz, 1, A_DRV_DTOH_ASYNC),
    DRV(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2, 0, A_DRV_DTOD_ASYNC),
    DRV(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2_ptsz, 1, A_DRV_DTOD_ASYNC),
    DRV(cuMemcpyAsync, cuMemcpyAsync, 0, A_DRV_ANY_ASYNC),
    DRV(cuMemcpyAsync, cuMemcpyAsync_ptsz, 1, A_DRV_ANY_ASYNC),
    DRV(cuMemsetD8, cuMemsetD8_v2, 0, A_DRV_SET_P),
    DRV(cuMemsetD8, cuMemsetD8_v2_ptds, 1, A_DRV_SET_P),
    DRV(cuMemsetD32, cuMemsetD32_v2, 0, A_DRV_SET_P),
    DRV(cuMemsetD32, cuMemsetD32_v2_ptds, 1, A_DRV_SET_P),
    DRV(cuMemsetD8Async, cuMemsetD8Async, 0, A_DRV_SET_ASYNC_P),
    DRV(cuMemsetD8Async, cuMemsetD8Async_ptsz, 1, A_DRV_SET_ASYNC_P),
    DRV(cuMemsetD32Async, cuMemsetD32Async, 0, A_DRV_SET_ASYNC_P),
    DRV(cuMemsetD32Async, cuMemsetD32Async_ptsz, 1, A_DRV_SET_ASYNC_P),
    DRV(cuMemAlloc, cuMemAlloc_v2, 0, A_DRV_ALLOC_P),
    DRV(cuMemFree, cuMemFree_v2, 0, A_DRV_FREE),
    DRV(cuMemAllocHost, cuMemAllocHost_v2, 0, A_DRV_HOST_ALLOC),
    DRV(cuMemFreeHost, cuMemFreeHost, 0, A_DRV_HOST_FREE),
    DRV(cuCtxSynchronize, cuCtxSynchronize, 0, A_NONE),
    DRV(cuCtxSynchronize, cuCtxSynchronize_v2, 0, A_NONE),
    DRV(cuStreamSynchronize, cuStreamSynchronize, 0, A_HSTREAM),
    DRV(cuStreamSynchronize, cuStreamSynchronize_ptsz, 1, A_HSTREAM),
    DRV(cuEventSynchronize, cuEventSynchronize, 0, A_DRV_EVENT_SYNC_P),
    DRV(cuStreamCreate, cuStreamCreate, 0, A_DRV_CREATE),
    DRV(cuStreamCreateWithPriority, cuStreamCreateWithPriority, 0, A_DRV_CREATE_PRIO),
    DRV(cuGreenCtxStreamCreate, cuGreenCtxStreamCreate, 0, A_DRV_CREATE_PRIO),
    DRV(cuEventRecord, cuEventRecord, 0, A_DRV_EVENT_RECORD_P),
    DRV(cuEventRecord, cuEventRecord_ptsz, 1, A_DRV_EVENT_RECORD_P),
    DRV(cuEventRecordWithFlags, cuEventRecordWithFlags, 0, A_DRV_EVENT_RECORD_FLAGS_P),
    DRV(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz, 1, A_DRV_EVENT_RECORD_FLAGS_P),
    DRV(cuStreamWaitEvent, cuStreamWaitEvent, 0, A_DRV_STREAM_WAIT),
    DRV(cuStreamWaitEvent, cuStreamWaitEvent_ptsz, 1, A_DRV_STREAM_WAIT),
    DRV(cuStreamBeginCapture, cuStreamBeginCapture_v2, 0, A_DRV_CAPTURE),
    DRV(cuStreamBeginCapture, cuStreamBeginCapture_v2_ptsz, 1, A_DRV_CAPTURE),
    DRV(cuStreamEndCapture, cuStreamEndCapture, 0, A_HSTREAM),
    DRV(cuStreamEndCapture, cuStreamEndCapture_ptsz, 1, A_HSTREAM),
    DRV(cuGraphLaunch, cuGraphLaunch, 0, A_HSTREAM),
    DRV(cuGraphLaunch, cuGraphLaunch_ptsz, 1, A_HSTREAM),
    DRV(cuGraphInstantiate, cuGraphInstantiate, 0, A_NONE),
    DRV(cuGraphInstantiate, cuGraphInstantiate_v2, 0, A_NONE),
    DRV(cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags, 0, A_NONE),
    DRV(cuGraphInstantiateWithParams, cuGraphInstantiateWithParams, 0, A_NONE),
    DRV(cuGraphInstantiateWithParams, cuGraphInstantiateWithParams_ptsz, 1, A_NONE),
    DRV(cuGraphUpload, cuGraphUpload, 0, A_HSTREAM),
    DRV(cuGraphUpload, cuGraphUpload_ptsz, 1, A_HSTREAM),

    /* Driver API, the rest of the memory families (rules/cuda_api.def's last rows): the
     * versioned names CUDA 13's cuda.h calls. The 2D and 3D copies' sizes and memory types
     * are in their parameter structs, not taken; a 2D memset's width counts elements. */
    DRV(cuMemAllocPitch, cuMemAllocPitch_v2, 0, A_DRV_PITCH),
    DRV(cuMemHostAlloc, cuMemHostAlloc, 0, A_DRV_HOST_ALLOC_FLAGS),
    DRV(cuMemAllocManaged, cuMemAllocManaged, 0, A_DRV_MANAGED_ALLOC),
    DRV(cuMemHostRegister, cuMemHostRegister_v2, 0, A_DRV_HOST_REGISTER),
    DRV(cuMemHostUnregister, cuMemHostUnregister, 0, A_DRV_HOST_FREE),
    DRV(cuMemAllocAsync, cuMemAllocAsync, 0, A_DRV_ALLOC_ASYNC_P),
    DRV(cuMemAllocAsync, cuMemAllocAsync_ptsz, 1, A_DRV_ALLOC_ASYNC_P),
    DRV(cuMemFreeAsync, cuMemFreeAsync, 0, A_DRV_FREE_ASYNC),
    DRV(cuMemFreeAsync, cuMemFreeAsync_ptsz, 1, A_DRV_FREE_ASYNC),
    DRV(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync, 0, A_DRV_ALLOC_ASYNC_P),
    DRV(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz, 1, A_DRV_ALLOC_ASYNC_P),
    DRV(cuMemPrefetchAsync, cuMemPrefetchAsync_v2, 0, A_DRV_PREFETCH),
    DRV(cuMemPrefetchAsync, cuMemPrefetchAsync_v2_ptsz, 1, A_DRV_PREFETCH),
    DRV(cuMemcpy2D, cuMemcpy2D_v2, 0, A_NONE),
    DRV(cuMemcpy2D, cuMemcpy2D_v2_ptds, 1, A_NONE),
    DRV(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2, 0, A_NONE),
    DRV(cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2_ptds, 1, A_NONE),
    DRV(cuMemcpy3D, cuMemcpy3D_v2, 0, A_NONE),
    DRV(cuMemcpy3D, cuMemcpy3D_v2_ptds, 1, A_NONE),
    DRV(cuMemcpy2DAsync, cuMemcpy2DAsync_v2, 0, A_HSTREAM),
    DRV(cuMemcpy2DAsync, cuMemcpy2DAsync_v2_ptsz, 1, A_HSTREAM),
    DRV(cuMemcpy3DAsync, cuMemcpy3DAsync_v2, 0, A_HSTREAM),
    DRV(cuMemcpy3DAsync, cuMemcpy3DAsync_v2_ptsz, 1, A_HSTREAM),
    DRV(cuMemcpyPeer, cuMemcpyPeer, 0, A_DRV_BYTES),
    DRV(cuMemcpyPeer, cuMemcpyPeer_ptds, 1, A_DRV_BYTES),
    DRV(cuMemcpyPeerAsync, cuMemcpyPeerAsync, 0, A_DRV_BYTES_ASYNC),
    DRV(cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz, 1, A_DRV_BYTES_ASYNC),
    DRV(cuMemcpy3DPeer, cuMemcpy3DPeer, 0, A_NONE),
    DRV(cuMemcpy3DPeer, cuMemcpy3DPeer_ptds, 1, A_NONE),
    DRV(cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync, 0, A_HSTREAM),
    DRV(cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync_ptsz, 1, A_HSTREAM),
    DRV(cuMemcpyHtoA, cuMemcpyHtoA_v2, 0, A_DRV_BYTES),
    DRV(cuMemcpyHtoA, cuMemcpyHtoA_v2_ptds, 1, A_DRV_BYTES),
    DRV(cuMemcpyAtoH, cuMemcpyAtoH_v2, 0, A_DRV_BYTES),
    DRV(cuMemcpyAtoH, cuMemcpyAtoH_v2_ptds, 1, A_DRV_BYTES),
    DRV(cuMemcpyDtoA, cuMemcpyDtoA_v2, 0, A_DRV_BYTES),
    DRV(cuMemcpyDtoA, cuMemcpyDtoA_v2_ptds, 1, A_DRV_BYTES),
    DRV(cuMemcpyAtoD, cuMemcpyAtoD_v2, 0, A_DRV_BYTES),
    DRV(cuMemcpyAtoD, cuMemcpyAtoD_v2_ptds, 1, A_DRV_BYTES),
    DRV(cuMemcpyAtoA, cuMemcpyAtoA_v2, 0, A_DRV_BYTES),
    DRV(cuMemcpyAtoA, cuMemcpyAtoA_v2_ptds, 1, A_DRV_BYTES),
    DRV(cuMemcpyHtoAAsync, cuMemcpyHtoAAsync_v2, 0, A_DRV_BYTES_ASYNC),
    DRV(cuMemcpyHtoAAsync, cuMemcpyHtoAAsync_v2_ptsz, 1, A_DRV_BYTES_ASYNC),
    DRV(cuMemcpyAtoHAsync, cuMemcpyAtoHAsync_v2, 0, A_DRV_BYTES_ASYNC),
    DRV(cuMemcpyAtoHAsync, cuMemcpyAtoHAsync_v2_ptsz, 1, A_DRV_BYTES_ASYNC),
    DRV(cuMemsetD16, cuMemsetD16_v2, 0, A_DRV_SET_P),
    DRV(cuMemsetD16, cuMemsetD16_v2_ptds, 1, A_DRV_SET_P),
    DRV(cuMemsetD2D8, cuMemsetD2D8_v2, 0, A_NONE),
    DRV(cuMemsetD2D8, cuMemsetD2D8_v2_ptds, 1, A_NONE),
    DRV(cuMemsetD2D16, cuMemsetD2D16_v2, 0, A_NONE),
    DRV(cuMemsetD2D16, cuMemsetD2D16_v2_ptds, 1, A_NONE),
    DRV(cuMemsetD2D32, cuMemsetD2D32_v2, 0, A_NONE),
    DRV(cuMemsetD2D32, cuMemsetD2D32_v2_ptds, 1, A_NONE),
    DRV(cuMemsetD16Async, cuMemsetD16Async, 0, A_DRV_SET_ASYNC_P),
    DRV(cuMemsetD16Async, cuMemsetD16Async_ptsz, 1, A_DRV_SET_ASYNC_P),
    DRV(cuMemsetD2D8Async, cuMemsetD2D8Async, 0, A_HSTREAM),
    DRV(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz, 1, A_HSTREAM),
    DRV(cuMemsetD2D16Async, cuMemsetD2D16Async, 0, A_HSTREAM),
    DRV(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz, 1, A_HSTREAM),
    DRV(cuMemsetD2D32Async, cuMemsetD2D32Async, 0, A_HSTREAM),
    DRV(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz, 1, A_HSTREAM),
    /* clang-format on */
};

static const ss_args_absent absent[] = {
    {"cudaLaunchKernelEx", "a C++ template over cudaLaunchKernelExC, which CUPTI reports"},
    {"cudaThreadSynchronize", "removed from the CUDA 13 runtime this library is built against; a "
                              "row for lint, which declares it for code written for CUDA 12"},
    {NULL, NULL},
};

const ss_args_spec *ss_args_table(size_t *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

const ss_args_absent *ss_args_without_callback(void)
{
    return absent;
}

uint64_t ss_args_read(const void *params, const ss_arg_ref *ref, int *present)
{
    *present = 0;
    if (params == NULL || ref->size == 0 || ref->size > 8)
        return 0;
    const unsigned char *base = (const unsigned char *)params + ref->offset;
    if (ref->deref >= 0) {
        const unsigned char *target;
        memcpy(&target, base, sizeof target);
        if (target == NULL)
            return 0;
        base = target + ref->deref;
    }
    uint64_t value = 0;
    /* Little-endian: the low bytes of 'value' take the field (x86-64 and aarch64). */
    memcpy(&value, base, ref->size);
    *present = 1;
    return value;
}
