/* sync501_clean.cu: the fixed form of the sync501 programs: everything is allocated before
 * the capture, only stream work is captured, and the graph is replayed twice. */
#include "gpu_common.h"

#define BYTES (1u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *scratch = NULL;
    cudaStream_t s;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    CHECK(cudaMalloc(&scratch, BYTES));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    spin_kernel<<<1, 1, 0, s>>>(counters, 0, 100000);
    fill_kernel<<<64, 256, 0, s>>>(scratch, WORDS, 3u);
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    printf("graph made\n");

    for (int replay = 0; replay < 2; replay++) {
        CHECK(cudaGraphLaunch(exec, s));
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(scratch));
    CHECK(cudaStreamDestroy(s));
    return 0;
}
