// capture.cu: SYNC501 (capture-unsafe calls between cudaStreamBeginCapture and
// cudaStreamEndCapture) along straight-line code and branches, by capture mode.
#include <cuda_runtime.h>

__global__ void k(float *x) { x[threadIdx.x] = 0.0f; }

void straight_line(float *d, float *h, cudaStream_t s, cudaEvent_t e, cudaGraph_t *g)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 32, 0, s>>>(d);
    cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost); // expect: SYNC501, SYNC202
    cudaStreamSynchronize(s); // expect: SYNC501
    cudaDeviceSynchronize(); // expect: SYNC501
    cudaEventSynchronize(e); // expect: SYNC501
    cudaStreamQuery(s); // expect: SYNC501
    cudaEventQuery(e); // expect: SYNC501
    cudaMemset(d, 0, 128); // expect: SYNC501
    float *t = nullptr;
    cudaMalloc(&t, 128); // expect: SYNC501
    cudaFree(t); // expect: SYNC501
    cudaMallocHost(&t, 128); // expect: SYNC501
    k<<<1, 32>>>(d); // expect: SYNC501, SYNC101
    cudaMemsetAsync(d, 0, 128, 0); // expect: SYNC501, SYNC102
    cudaMemcpyAsync(h, d, 128, cudaMemcpyDeviceToHost, s);
    cudaStreamEndCapture(s, g);
    /* After EndCapture: nothing is reported. */
    cudaStreamSynchronize(s);
    cudaMalloc(&t, 128);
}

void branches(float *d, bool check, cudaStream_t s, cudaGraph_t *g)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 32, 0, s>>>(d);
    if (check) {
        cudaStreamSynchronize(s); // expect: SYNC501
    } else {
        float *t = nullptr;
        cudaMalloc(&t, 64); // expect: SYNC501
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        cudaStreamEndCapture(s, g);
        cudaDeviceSynchronize(); /* the capture has ended on this path */
        return;
    }
    cudaDeviceSynchronize(); // expect: SYNC501
    cudaStreamEndCapture(s, g);
    cudaDeviceSynchronize();
}

void conditional_capture(float *d, bool use_graph, cudaStream_t s, cudaGraph_t *g)
{
    if (use_graph)
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 32, 0, s>>>(d);
    cudaStreamSynchronize(s); // expect: SYNC501
    if (use_graph)
        cudaStreamEndCapture(s, g);
    cudaStreamSynchronize(s);
}

void thread_local_mode(float *d, cudaStream_t s, cudaGraph_t *g)
{
    /* Thread-local mode forbids the same calls in the capturing thread. */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    float *t = nullptr;
    cudaMalloc(&t, 64); // expect: SYNC501
    k<<<1, 32, 0, s>>>(t);
    cudaStreamSynchronize(s); // expect: SYNC501
    cudaStreamEndCapture(s, g);
}

void relaxed_mode(float *d, float *h, cudaStream_t s, cudaGraph_t *g)
{
    /* Relaxed mode allows allocation and legacy-stream work; waiting still fails. */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    float *t = nullptr;
    cudaMalloc(&t, 64);
    k<<<1, 32, 0, s>>>(t);
    cudaFree(t);
    cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost); // expect: SYNC501, SYNC202
    cudaStreamSynchronize(s); // expect: SYNC501
    cudaStreamEndCapture(s, g);
}

void other_stream_ended(float *d, cudaStream_t s, cudaStream_t t, cudaGraph_t *g)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaStreamEndCapture(t, g); /* another stream: s is still capturing */
    cudaStreamSynchronize(s); // expect: SYNC501
    cudaStreamEndCapture(s, g);
}

/* Not reported: the unsafe calls come before the capture and after its end. */
void outside_capture(float *d, cudaStream_t s, cudaGraph_t *g)
{
    float *t = nullptr;
    cudaMalloc(&t, 64);
    cudaStreamSynchronize(s);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    k<<<1, 32, 0, s>>>(t);
    cudaStreamEndCapture(s, g);
    cudaStreamSynchronize(s);
    cudaFree(t);
}
