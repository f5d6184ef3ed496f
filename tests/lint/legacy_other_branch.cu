// legacy_other_branch.cu: a function that runs its time steps either as one cooperative launch
// a step on the legacy stream or, on the other branch of the same 'if', on two streams it
// creates there (Altis' fdtd2d): on the cooperative path no stream exists, and the wait for the
// whole device after the 'if' drains each branch's work before the function returns, so the
// legacy-stream work there has nothing to serialize with: a note that says why. The other
// streams of the unit are locals of a function of the same shape. The launch on the legacy
// stream inside the streams' own branch stays a warning (the same branch: its streams are there).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void step(float *x, int t) { x[threadIdx.x] += t; }
__global__ void step1(float *x, int t) { x[threadIdx.x] *= t; }
__global__ void step2(float *x, int t) { x[threadIdx.x] -= t; }
__global__ void step3(float *x, int t) { x[threadIdx.x] += 2 * t; }

void run_steps(float *x, int tmax, bool coop)
{
    float *flags;
    cudaMalloc(&flags, 64);
    if (coop) {
        void *args[] = {&x, &tmax};
        for (int t = 0; t < tmax; t++) {
            cudaMemcpy(flags, x, 64, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: no other stream exists on this path
            cudaLaunchCooperativeKernel((void *)step, dim3(1), dim3(32), args); // expect: SYNC101 expect-severity: note expect-message: no other stream exists on this path: the streams of 'run_steps' ('s1', 's2') are created only in the 'else' branch (line 29) of the 'if' at line 21
            cudaMemsetAsync(x, 0, 4 * sizeof(float)); // expect: SYNC102 expect-severity: note expect-message: no other stream exists on this path
        }
        fprintf(stderr, "%s\n", cudaGetErrorString(cudaGetLastError())); // calls nothing back
    } else {
        cudaStream_t s1, s2;
        cudaStreamCreate(&s1); // expect: SYNC103 expect-severity: note
        cudaStreamCreate(&s2); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, s1>>>(x, t);
            step2<<<1, 32, 0, s2>>>(x, t);
            step1<<<1, 32, 0, s2>>>(x + 32, t);
            step2<<<1, 32, 0, s1>>>(x + 32, t);
            step3<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: warning
        }
        cudaStreamDestroy(s1);
        cudaStreamDestroy(s2);
    }
    cudaDeviceSynchronize();
    cudaFree(flags);
}

// The streams on the 'if' branch, the legacy work on the 'else' one; the wait in a checking
// macro's 'do { } while (0)', as the condition of its 'if'.
#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != cudaSuccess)                                                                 \
            abort();                                                                               \
    } while (0)

void run_steps_managed(float *x, int tmax, bool coop)
{
    if (!coop) {
        cudaStream_t s = nullptr;
        CHECK(cudaStreamCreate(&s)); // expect: SYNC103 expect-severity: note
        for (int t = 0; t < tmax; t++) {
            step1<<<1, 32, 0, s>>>(x, t);
            step2<<<1, 32, 0, s>>>(x, t);
        }
        cudaStreamDestroy(s);
    } else {
        for (int t = 0; t < tmax; t++)
            step<<<1, 32>>>(x, t); // expect: SYNC101 expect-severity: note expect-message: no other stream exists on this path: the streams of 'run_steps_managed' ('s') are created only in the first branch of the 'if' at line 57; the unit's other streams ('s1' of 'run_steps', 's2' of 'run_steps')
    }
    CHECK(cudaDeviceSynchronize());
}
