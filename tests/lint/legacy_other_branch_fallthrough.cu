// legacy_other_branch_fallthrough.cu: legacy_other_branch_switch.cu, but the legacy work's case
// has no 'break': it falls through into the streams' case, whose work is queued after it and
// before the wait, so the legacy work stays a warning.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }

void run_steps(float *x, int tmax, int mode)
{
    switch (mode) {
    case 0:
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
    case 1:
    case 2: {
        cudaStream_t s;
        cudaStreamCreate(&s); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, s>>>(x, t);
            step2<<<1, 32, 0, s>>>(x, t);
        }
        cudaStreamDestroy(s);
        break;
    }
    }
    cudaDeviceSynchronize();
}
