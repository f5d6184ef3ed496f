// driver_api_v2.cu: driver API calls that cuda.h renames by macro (CUDA 13: cuEventElapsedTime
// is cuEventElapsedTime_v2, cuMemAlloc cuMemAlloc_v2): a loop timed with cuEventElapsedTime is
// a benchmark, and the renamed calls keep their rules and are named as written.
#include <cuda.h>

// A driver-API benchmark: the wait is how each measurement ends.
float bench(CUfunction f, void **params, CUstream s, CUevent start, CUevent stop, int n)
{
    float total = 0.0f;
    for (int i = 0; i < n; i++) {
        cuEventRecord(start, s);
        cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
        cuEventRecord(stop, s);
        cuEventSynchronize(stop); // expect: SYNC401 expect-severity: note expect-message: the loop times its iterations ('cuEventElapsedTime' at line 16): the wait is part of a measurement
        float ms = 0.0f;
        cuEventElapsedTime(&ms, start, stop);
        total += ms;
    }
    return total;
}

// The same loop without the clock: the wait is a warning.
void untimed(CUfunction f, void **params, CUstream s, CUevent stop, int n)
{
    for (int i = 0; i < n; i++) {
        cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
        cuEventRecord(stop, s);
        cuEventSynchronize(stop); // expect: SYNC401 expect-severity: warning expect-message: 'cuEventSynchronize'
    }
}

// Renamed calls keep their rows: an allocation and a free every iteration.
void per_step(CUfunction f, void **params, CUstream s, int n)
{
    for (int i = 0; i < n; i++) {
        CUdeviceptr scratch;
        cuMemAlloc(&scratch, 256); // expect: SYNC402 expect-message: 'cuMemAlloc'
        cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
        cuMemFree(scratch); // expect: SYNC402 expect-message: 'cuMemFree'
    }
}
