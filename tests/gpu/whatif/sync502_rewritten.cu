/* sync502_rewritten.cu: sync502_written.cu the way SYNC502's hint says: the step's kernels are
 * captured once into a CUDA graph, replayed with one cudaGraphLaunch per step; the host's own
 * work between steps stays.
 * Usage: sync502_rewritten [steps] [warm-up] [host us per step] [kernels per step] */
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
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    double start = 0;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaMemsetAsync(d, 0, sizeof h, stream));
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < kernels; k++)
        bump<<<1, 256, 0, stream>>>(d);
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < warmup + steps; i++) {
        if (i == warmup) {
            CHECK(cudaStreamSynchronize(stream));
            start = now_us();
        }
        CHECK(cudaGraphLaunch(exec, stream));
        host_work(host_us, NULL, 0, (unsigned)i);
    }
    CHECK(cudaStreamSynchronize(stream));
    report(start, steps, warmup);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("value %u\nok\n", h[0]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    return 0;
}
