/* naive.cu: times a kernel with the host clock around its launch and no synchronization.
 * A launch only enqueues the kernel, so the figure printed is the enqueue cost, not the
 * kernel's run time; the wait shows up in the next call that needs the result.
 * Usage: naive [million elements] [iterations per element] */
#include "../common.h"

#include <math.h>

/* 'iters' rounds of a fused multiply-add on 'v' (fmaf rounds once, so host and GPU agree). */
static __host__ __device__ inline float rounds(float v, int iters)
{
    for (int k = 0; k < iters; k++) {
        v = fmaf(v, 0.999f, 0.001f);
    }
    return v;
}

/* x[i] = rounds(x[i], iters). */
static __global__ void busy(float *x, size_t n, int iters)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = rounds(x[i], iters);
    }
}

int main(int argc, char **argv)
{
    size_t n = (size_t)arg_or(argc, argv, 1, 16) * 1000000;
    int iters = (int)arg_or(argc, argv, 2, 20000);
    float *h = (float *)malloc(n * sizeof(float));
    float *d = NULL;
    double t0, launch_ms, copy_ms;
    int ok = 1;
    if (h == NULL) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        h[i] = (float)(i % 1000) / 1000.0f;
    }
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));

    /* Load the kernel now, so that the launch below is not charged for loading it. */
    {
        cudaFuncAttributes attributes;
        CHECK(cudaFuncGetAttributes(&attributes, busy));
    }
    t0 = now_ms();
    busy<<<(unsigned)((n + 255) / 256), 256>>>(d, n, iters); // expect: SYNC101
    launch_ms = now_ms() - t0;
    CHECK(cudaGetLastError());
    printf("kernel time (host clock around the launch): %.3f ms\n", launch_ms);

    t0 = now_ms();
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    copy_ms = now_ms() - t0;
    printf("the copy back that followed took %.3f ms: it waited for the kernel\n", copy_ms);

    for (size_t i = 0; i < n; i += 65537) {
        ok = ok && h[i] == rounds((float)(i % 1000) / 1000.0f, iters);
    }
    printf("%s\n", ok ? "ok" : "FAILED");
    CHECK(cudaFree(d));
    free(h);
    return ok ? 0 : 1;
}
