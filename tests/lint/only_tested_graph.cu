// only_tested_graph.cu: a loop that launches a CUDA graph holding a copy of one value to the
// host, waits for the graph's stream and tests the value (cuda-samples' Jacobi and CG): the wait
// (SYNC401), and a copy captured in the loop (SYNC301, SYNC201), are inherent as written, a note
// that names the copy. The graph's copy is captured between cudaStreamBeginCapture and
// cudaStreamEndCapture, or added with cudaGraphAddMemcpyNode whose parameters' dstPtr is
// make_cudaPitchedPtr(&x, ...). Still warnings: a graph that also copies a buffer to the host, a
// wait on another stream than the launch's, a node that copies more than one value, a value the
// host also sums.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>

#ifndef CUDART_VERSION // lint's own declarations, without a toolkit, do not build graphs
typedef struct CUgraphNode_st *cudaGraphNode_t;
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim, blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams, **extra;
};
enum cudaGraphExecUpdateResult { cudaGraphExecUpdateSuccess, cudaGraphExecUpdateError };
struct cudaGraphExecUpdateResultInfo {
    cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode, errorFromNode;
};
static inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return {w, h, d}; }
extern "C" {
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   const cudaKernelNodeParams *params);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n,
                                   const cudaMemcpy3DParms *params);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo *info);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
}
#endif

__global__ void jacobi(const float *x, double *sum) { *sum = x[threadIdx.x]; }

// A memcpy node into '&sum', made before the loop (Jacobi's cudaGraphExecKernelNodeSetParams form).
double node_form(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t kernel, copy;
    cudaGraphCreate(&graph, 0);
    cudaKernelNodeParams kp = {0};
    void *args[2] = {(void *)&x, (void *)&d_sum};
    kp.func = (void *)jacobi;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    cudaGraphAddKernelNode(&kernel, graph, NULL, 0, &kp);
    cudaMemcpy3DParms cp = {0};
    cp.srcPtr = make_cudaPitchedPtr(d_sum, sizeof(double), 1, 1);
    cp.dstPtr = make_cudaPitchedPtr(&sum, sizeof(double), 1, 1);
    cp.extent = make_cudaExtent(sizeof(double), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cudaGraphAddMemcpyNode(&copy, graph, &kernel, 1, &cp);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for the graph launched at line 68, which reads the value back (line 62); the host tests it to decide what runs next (line 70 branches on it) and reads it after the loop (line 73); to remove the stall, test it every N iterations or on the device
        if (sum <= tol)
            break;
    }
    return sum;
}

// The same node copying a buffer of 'n' values: not one value.
void node_buffer(const float *x, double *d_sum, double *h_sums, int n, int max_iter, cudaStream_t s)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphNode_t copy;
    cudaGraphCreate(&graph, 0);
    cudaMemcpy3DParms cp = {0};
    cp.srcPtr = make_cudaPitchedPtr(d_sum, n * sizeof(double), n, 1);
    cp.dstPtr = make_cudaPitchedPtr(h_sums, n * sizeof(double), n, 1);
    cp.extent = make_cudaExtent(n * sizeof(double), 1, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cudaGraphAddMemcpyNode(&copy, graph, NULL, 0, &cp);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (h_sums[0] <= 0.0)
            break;
    }
}

// Captured in the loop, instantiated or updated, launched and waited for (Jacobi's
// cudaGraphExecUpdate form): the copy and the wait are notes.
double capture_form(const float *x, double *d_sum, float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec = NULL;
    for (int k = 0; k < max_iter; k++) {
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        cudaMemsetAsync(d_sum, 0, sizeof(double), s);
        jacobi<<<1, 64, 0, s>>>(x, d_sum);
        cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: note expect-message: inherent as written: the graph launched at line 122 reads it back; the host tests it to decide what runs next (line 124 branches on it) and reads it after the loop (line 127); to remove the stall, test it every N iterations or on the device
        cudaStreamEndCapture(s, &graph);
        if (exec == NULL) {
            cudaGraphInstantiate(&exec, graph, 0);
        } else {
            cudaGraphExecUpdateResultInfo info;
            cudaGraphExecUpdate(exec, graph, &info);
            if (info.result != cudaGraphExecUpdateSuccess) {
                cudaGraphExecDestroy(exec);
                printf("k = %d graph update failed\n", k);
                cudaGraphInstantiate(&exec, graph, 0);
            }
        }
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for the graph launched at line 122, which reads the value back (line 109); the host tests it to decide what runs next (line 124 branches on it) and reads it after the loop (line 127); to remove the stall, test it every N iterations or on the device
        if (sum <= tol)
            break;
    }
    return sum;
}

// The same capture also copies a buffer to the host: the wait serves it too.
double capture_buffer(const float *x, double *d_sum, double *h_x, const double *d_x, size_t n,
                      float tol, int max_iter, cudaStream_t s)
{
    double sum = 0.0;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    for (int k = 0; k < max_iter; k++) {
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        jacobi<<<1, 64, 0, s>>>(x, d_sum);
        cudaMemcpyAsync(h_x, d_x, n * sizeof(double), cudaMemcpyDeviceToHost, s);
        cudaMemcpyAsync(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s); // expect: SYNC201, SYNC301 expect-severity: warning
        cudaStreamEndCapture(s, &graph);
        cudaGraphInstantiate(&exec, graph, 0);
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        if (sum <= tol)
            break;
    }
    return sum;
}

// Captured once on one stream, launched on another in a while loop that tests the value and
// prints its square root (cuda-samples' CG).
void cg(const float *x, float *d_r1, float tol, int max_iter, cudaStream_t s1, cudaStream_t sg)
{
    float r1 = 1.f;
    int k = 1;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    cudaMemsetAsync(d_r1, 0, sizeof(float), s1);
    cudaMemcpyAsync((float *)&r1, d_r1, sizeof(float), cudaMemcpyDeviceToHost, s1); // expect: SYNC201, SYNC301
    cudaStreamEndCapture(s1, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    while (r1 > tol * tol && k <= max_iter) {
        cudaGraphLaunch(exec, sg);
        cudaStreamSynchronize(sg); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for the graph launched at line 166, which reads the value back (line 162); the loop tests it to decide whether to go on (line 165, the loop's condition) and prints it (line 168); to remove the stall, test and print it every N iterations or on the device
        printf("iteration = %3d, residual = %e\n", k, sqrt(r1));
        k++;
    }
}

// The wait is for another stream than the launch's.
void cg_other_stream(float *d_r1, float tol, int max_iter, cudaStream_t s1, cudaStream_t sg)
{
    float r1 = 1.f;
    int k = 1;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(&r1, d_r1, sizeof(float), cudaMemcpyDeviceToHost, s1); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: graph launched
    cudaStreamEndCapture(s1, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    while (r1 > tol && k <= max_iter) {
        cudaGraphLaunch(exec, sg);
        cudaStreamSynchronize(s1); // expect: SYNC401 expect-severity: warning
        k++;
    }
}

// The value also summed on the host.
float cg_summed(float *d_r1, float tol, int max_iter, cudaStream_t sg)
{
    float r1 = 1.f, total = 0.f;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(sg, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(&r1, d_r1, sizeof(float), cudaMemcpyDeviceToHost, sg); // expect: SYNC201, SYNC301 expect-severity: note expect-no-message: graph launched
    cudaStreamEndCapture(sg, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < max_iter; k++) {
        cudaGraphLaunch(exec, sg);
        cudaStreamSynchronize(sg); // expect: SYNC401 expect-severity: warning
        if (r1 < tol)
            break;
        total += r1;
    }
    return total;
}

void make_stream(cudaStream_t *s) { cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
