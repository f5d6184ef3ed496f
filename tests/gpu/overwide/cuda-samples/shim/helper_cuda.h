/* helper_cuda.h: the few helpers of cuda-samples' Common/helper_cuda.h that simpleHyperQ and
 * simpleMultiCopy call, written for syncscope's tests so that the two samples build without
 * the samples' Common folder. */
#ifndef SS_SHIM_HELPER_CUDA_H
#define SS_SHIM_HELPER_CUDA_H

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include "helper_string.h"

/* Exits 1 with the call's text when it fails. Hides control flow. */
#define checkCudaErrors(call)                                                                      \
    do {                                                                                           \
        cudaError_t shim_err_ = (call);                                                            \
        if (shim_err_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                          \
                    cudaGetErrorName(shim_err_));                                                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Cores per multiprocessor; 128 for the architectures not listed (as the samples' table
 * ends). */
static inline int _ConvertSMVer2Cores(int major, int minor)
{
    if (major == 9 || (major == 8 && minor == 0))
        return major == 9 ? 128 : 64;
    return 128;
}

static inline int gpuDeviceInit(int device)
{
    return cudaSetDevice(device) == cudaSuccess ? device : -1;
}

static inline int gpuGetMaxGflopsDeviceId(void)
{
    return 0;
}

/* Device 0 (or device=N on the command line), made current. */
static inline int findCudaDevice(int argc, const char **argv)
{
    int device = 0;
    if (checkCmdLineFlag(argc, argv, "device"))
        device = getCmdLineArgumentInt(argc, argv, "device");
    checkCudaErrors(cudaSetDevice(device));
    return device;
}

#endif
