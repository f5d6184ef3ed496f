/* sync502_written.cu: a step of many short kernels launched one by one, then the host's own
 * work (host_work) before the next step: the GPU waits for the launches inside a step and for
 * the host's own work between steps. SYNC502's pair: sync502_rewritten.cu.
 * Usage: sync502_written [steps] [warm-up] [host us per step] [kernels per step] */
#include "whatif_common.h"

static __global__ void bump(unsigned *d)
{
    d[threadIdx.x] = d[threadIdx.x] * 3u + 1u;
}

int main(int argc, char **argv)
{
    int steps = arg_or(argc, argv, 1, 2000), warmup = arg_or(argc, argv, 2, 20);
    int host_us = arg_or(argc, argv, 3, 20), kernels = arg_or(argc, argv, 4, 48);
    unsigned *d = NULL, h[256];
    cudaStream_t stream;
    double start = 0;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaMemsetAsync(d, 0, sizeof h, stream));
    for (int i = 0; i < warmup + steps; i++) {
        if (i == warmup) {
            CHECK(cudaStreamSynchronize(stream));
            start = now_us();
        }
        for (int k = 0; k < kernels; k++)
            bump<<<1, 256, 0, stream>>>(d);
        host_work(host_us, NULL, 0, (unsigned)i);
    }
    CHECK(cudaStreamSynchronize(stream));
    report(start, steps, warmup);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("value %u\nok\n", h[0]);
    return 0;
}
