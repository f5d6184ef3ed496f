// legacy_other_branch_switch.cu: legacy_other_branch.cu's shape with a 'switch': the streams
// are created only in one case, the legacy work runs in another, each case ends in a 'break',
// and a wait for the whole device follows the switch: a note that names the case.
#include <cuda_runtime.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }

void run_steps(float *x, int tmax, int mode)
{
    switch (mode) {
    case 0:
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: note expect-message: no other stream exists on this path: the streams of 'run_steps' ('s') are created only in the case at line 17 of the 'switch' at line 12; the wait for the whole device at legacy_other_branch_switch.cu:29 drains this work
        break;
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
