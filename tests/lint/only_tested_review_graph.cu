// only_tested_review_graph.cu: a graph holds the one value only where its graph, executable graph
// and node go to no call but those that capture, add a memcpy, kernel or memset node, instantiate,
// update, launch or destroy (no 1D memcpy or child graph node, no function of the program, no
// 'exec = spare;', no node's parameters set on the executable graph), where no function of the
// program is called inside the capture, and where nothing else the host may read (another graph
// launch, a copy to the host) is queued on the stream since the previous wait; a launch of an
// executable graph that is no variable ('theirs[k % 2]') is none.
#include <cuda_runtime.h>
#include <cstdio>

#ifndef CUDART_VERSION // lint's own declarations, without a toolkit, do not build graphs
typedef struct CUgraphNode_st *cudaGraphNode_t;
enum cudaGraphExecUpdateResult { cudaGraphExecUpdateSuccess, cudaGraphExecUpdateError };
struct cudaGraphExecUpdateResultInfo {
    cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode, errorFromNode;
};
static inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return {w, h, d}; }
extern "C" {
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemcpy3DParms *params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t n, void *dst,
                                     const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                       const cudaGraphNode_t *deps, size_t n, cudaGraph_t child);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo *info);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               cudaMemcpyKind kind);
}
#endif

__global__ void jacobi(const float *x, double *sum) { *sum = x[threadIdx.x]; }

void add_download(cudaGraph_t graph, double *h_x, const double *d_x, size_t n);

// 1: one node into &sum plus a 1D memcpy node of a buffer to the host
double node_plus_1d(const float *x, double *d_sum, double *h_x, const double *d_x, size_t n,
                    float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t copy, buf;
    cudaGraphCreate(&graph, 0);
    cudaMemcpy3DParms cp = {0};
    cp.srcPtr = make_cudaPitchedPtr(d_sum, sizeof(double), 1, 1);
    cp.dstPtr = make_cudaPitchedPtr(&sum, sizeof(double), 1, 1);
    cp.extent = make_cudaExtent(sizeof(double), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cudaGraphAddMemcpyNode(&copy, graph, NULL, 0, &cp);
    cudaGraphAddMemcpyNode1D(&buf, graph, NULL, 0, h_x, d_x, n * sizeof(double),
                             cudaMemcpyDeviceToHost);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 2: one node into &sum plus a buffer download node added by a helper
double node_plus_helper(const float *x, double *d_sum, double *h_x, const double *d_x, size_t n,
                        float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t copy;
    cudaGraphCreate(&graph, 0);
    cudaMemcpy3DParms cp = {0};
    cp.srcPtr = make_cudaPitchedPtr(d_sum, sizeof(double), 1, 1);
    cp.dstPtr = make_cudaPitchedPtr(&sum, sizeof(double), 1, 1);
    cp.extent = make_cudaExtent(sizeof(double), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cudaGraphAddMemcpyNode(&copy, graph, NULL, 0, &cp);
    add_download(graph, h_x, d_x, n);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

void download(double *h_x, const double *d_x, size_t n, cudaStream_t s);

// 3: captured: sum plus a buffer copy queued by a helper during the capture
double capture_helper(const float *x, double *d_sum, double *h_x, const double *d_x, size_t n,
                      float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    download(h_x, d_x, n, s);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 4: captured sum plus a child graph (built elsewhere) that downloads a buffer
double capture_child(const float *x, double *d_sum, cudaGraph_t downloads, float tol,
                     int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t child;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphAddChildGraphNode(&child, graph, NULL, 0, downloads);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 5: two graphs launched on the stream before the wait; the first downloads a buffer
double two_launches(const float *x, double *d_sum, double *h_x, const double *d_x, size_t n,
                    float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph, g2;
    cudaGraphExec_t exec, e2;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(h_x, d_x, n * sizeof(double), cudaMemcpyDeviceToHost, s);
    cudaStreamEndCapture(s, &g2);
    cudaGraphInstantiate(&e2, g2, 0);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(e2, s);
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
        printf("%f\n", h_x[0]);
    }
    return sum;
}

// 6: the node's destination changed on the executable graph to a buffer
double node_reset(const float *x, double *d_sum, double *h_x, size_t n, float tol, int max_iter,
                  cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t copy;
    cudaGraphCreate(&graph, 0);
    cudaMemcpy3DParms cp = {0};
    cp.srcPtr = make_cudaPitchedPtr(d_sum, sizeof(double), 1, 1);
    cp.dstPtr = make_cudaPitchedPtr(&sum, sizeof(double), 1, 1);
    cp.extent = make_cudaExtent(sizeof(double), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cudaGraphAddMemcpyNode(&copy, graph, NULL, 0, &cp);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphExecMemcpyNodeSetParams1D(exec, copy, h_x, d_sum, n * sizeof(double),
                                       cudaMemcpyDeviceToHost);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol || h_x[0] > 1.0)
            break;
    }
    return sum;
}

// 7: device-wide wait after the launch
double device_wait(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 8: the test in a for condition
double for_test(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s)
{
    double sum = 1.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter && sum > tol; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
    }
    return sum;
}

// 9: a metric: the graph's value only counted
int graph_metric(const float *x, double *d_sum, int rounds, cudaStream_t s)
{
    double sum = 0.0;
    int bad = 0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    printf("before the loop %f\n", sum);
    for (int k = 0; k < rounds; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum > 1e3)
            bad++;
    }
    return bad;
}

// 1: exec updated with a different graph
double update_other(const float *x, double *d_sum, double *h_x, const double *d_x, size_t n,
                    float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph, other;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(h_x, d_x, n * sizeof(double), cudaMemcpyDeviceToHost, s);
    cudaStreamEndCapture(s, &other);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphExecUpdateResultInfo info;
    cudaGraphExecUpdate(exec, other, &info);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 2: exec given by the caller
double given_exec(cudaGraphExec_t exec, double &sum, float tol, int max_iter, cudaStream_t s)
{
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 3: exec assigned from another exec after instantiation
double exec_assigned(const float *x, double *d_sum, cudaGraphExec_t spare, float tol,
                     int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        if (k == 10)
            exec = spare;
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 4: two captures into the same graph variable? second capture adds a buffer
double graph_passed(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s,
                    void (*extend)(cudaGraph_t))
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    extend(graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 5: a kernel queued in between the launch and the wait on the same stream, calling nothing?
// an event wait instead of the stream
double event_wait(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s,
                  cudaEvent_t e)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaEventRecord(e, s);
        cudaEventSynchronize(e); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 6: copy captured in the loop, value tested and printed, launched on another stream than the
// wait
double capture_loop_other(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s,
                          cudaStream_t t)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    for (int k = 0; k < max_iter; k++) {
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        jacobi<<<1, 64, 0, s>>>(x, d_sum);
        cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: warning expect-no-message: inherent as written
        cudaStreamEndCapture(s, &graph);
        cudaGraphInstantiate(&exec, graph, 0);
        cudaGraphLaunch(exec, t);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// 1: the launched executable is the caller's, one of ours is instantiated into an array element
double other_exec(const float *x, double *d_sum, const cudaGraphExec_t *theirs, float tol,
                  int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t mine[1];
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: inherent as written
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&mine[0], graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(theirs[k % 2], s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent as written
        if (sum <= tol)
            break;
    }
    return sum;
}

// A function that calls the toolkit more than sixteen times: the capture's calls are all looked
// at (cuda-samples' CG), the wait a note.
double many_calls(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec = NULL;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    jacobi<<<1, 64, 0, s>>>(x, d_sum);
    cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: graph launched
    cudaStreamEndCapture(s, &graph);
    if (exec == NULL)
        cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for the graph launched at line 427, which reads the value back (line 422); the host tests it to decide what runs next (line 429 branches on it) and reads it after the loop (line 432)
        if (sum <= tol)
            break;
    }
    return sum;
}

