/* sync501_capture_memcpy.cu: a synchronous cudaMemcpy (legacy default stream) while a
 * blocking stream is being captured in global mode: the copy would have to wait for the
 * capturing stream, so it is refused and the capture is invalidated; no graph comes out
 * (SYNC501 at the cudaMemcpy). The program then runs the work without a graph. (Were the
 * captured stream non-blocking, the copy would not touch it: with the driver 580 on an H200
 * it then succeeded and the graph was made.) */
#include "gpu_common.h"

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *d = counters;
    unsigned host[SS_COUNTERS];
    cudaStream_t s;
    cudaGraph_t graph = NULL;
    cudaError_t copy_err, end_err;
    CHECK(cudaStreamCreate(&s));

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    spin_kernel<<<1, 1, 0, s>>>(counters, 0, 100000);
    copy_err = cudaMemcpy(host, d, sizeof(host), cudaMemcpyDeviceToHost); /* syncscope: SYNC501 */
    end_err = cudaStreamEndCapture(s, &graph);
    printf("cudaMemcpy during capture: %s\n", cudaGetErrorName(copy_err));
    printf("cudaStreamEndCapture: %s, graph %s\n", cudaGetErrorName(end_err),
           graph == NULL ? "none" : "made");
    (void)cudaGetLastError();
    if (graph != NULL) {
        CHECK(cudaGraphDestroy(graph));
    }

    spin_kernel<<<1, 1, 0, s>>>(counters, 0, 100000);
    CHECK(cudaGetLastError());
    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
