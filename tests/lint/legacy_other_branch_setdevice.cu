// legacy_other_branch_setdevice.cu: the wait for the whole device runs on another device than
// the stream's. A unit that calls cudaSetDevice, cuCtxSetCurrent or cuCtxPushCurrent keeps the
// warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }

void run_steps(float *x, int tmax, bool coop)
{
    if (coop) {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    } else {
        cudaStream_t s;
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++)
            step1<<<1, 32, 0, s>>>(x, t);
        cudaStreamDestroy(s);
        cudaSetDevice(1);
    }
    cudaDeviceSynchronize();
    cudaSetDevice(0);
}
