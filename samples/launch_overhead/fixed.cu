/* fixed.cu: the same 50 kernels captured once into a CUDA graph and replayed each iteration
 * with one cudaGraphLaunch: the host submits one graph instead of 50 kernels, and the GPU
 * runs the kernels back to back.
 * Usage: fixed [iterations] */
#include "../common.h"

#define KERNELS 50
#define ELEMENTS 256

/* Adds 1 to each of the ELEMENTS counters. */
static __global__ void step(unsigned *counters)
{
    counters[threadIdx.x] += 1;
}

int main(int argc, char **argv)
{
    int iterations = (int)arg_or(argc, argv, 1, 1000);
    unsigned *d = NULL, *h = NULL;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    double t0 = 0, host_ms;
    float gpu_ms = 0;
    int ok = 1;
    CHECK(cudaMalloc(&d, ELEMENTS * sizeof(unsigned)));
    CHECK(cudaMallocHost(&h, ELEMENTS * sizeof(unsigned)));
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaMemsetAsync(d, 0, ELEMENTS * sizeof(unsigned), stream));

    /* Capture one iteration; nothing runs yet. */
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < KERNELS; k++) {
        step<<<1, ELEMENTS, 0, stream>>>(d);
    }
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    /* One untimed replay first: it uploads the graph. */
    for (int i = 0; i <= iterations; i++) {
        if (i == 1) {
            CHECK(cudaEventRecord(start, stream));
            t0 = now_ms();
        }
        CHECK(cudaGraphLaunch(exec, stream));
    }
    host_ms = now_ms() - t0;
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaMemcpyAsync(h, d, ELEMENTS * sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaEventElapsedTime(&gpu_ms, start, stop));

    printf("%d kernels replayed as one graph, %d iterations\n", KERNELS, iterations);
    printf("host submission: %.2f us per iteration\n", 1e3 * host_ms / iterations);
    printf("GPU time:        %.2f us per iteration\n", 1e3 * gpu_ms / iterations);
    for (int e = 0; e < ELEMENTS; e++) {
        ok = ok && h[e] == (unsigned)((iterations + 1) * KERNELS);
    }
    printf("%s\n", ok ? "ok" : "FAILED");
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    return ok ? 0 : 1;
}
