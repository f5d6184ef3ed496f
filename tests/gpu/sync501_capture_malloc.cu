/* sync501_capture_malloc.cu: a cudaMalloc between cudaStreamBeginCapture (global mode) and
 * cudaStreamEndCapture: the call is refused and the capture is invalidated, so no graph comes
 * out (SYNC501 at the cudaMalloc). The program then runs the work without a graph. */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *scratch = NULL;
    cudaStream_t s;
    cudaGraph_t graph = NULL;
    cudaError_t alloc_err, end_err;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    spin_kernel<<<1, 1, 0, s>>>(counters, 0, 100000);
    alloc_err = cudaMalloc(&scratch, 1u << 20); /* syncscope: SYNC501 */
    end_err = cudaStreamEndCapture(s, &graph);
    printf("cudaMalloc during capture: %s\n", cudaGetErrorName(alloc_err));
    printf("cudaStreamEndCapture: %s, graph %s\n", cudaGetErrorName(end_err),
           graph == NULL ? "none" : "made");
    (void)cudaGetLastError();
    if (graph != NULL) {
        CHECK(cudaGraphDestroy(graph));
    }
    if (alloc_err == cudaSuccess) {
        CHECK(cudaFree(scratch));
    }

    spin_kernel<<<1, 1, 0, s>>>(counters, 0, 100000);
    CHECK(cudaGetLastError());
    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
