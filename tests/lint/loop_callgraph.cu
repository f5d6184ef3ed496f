// loop_callgraph.cu: the loop rules across the functions of one translation unit: a call in a
// function called (directly or through others) from a loop that enqueues device work is in
// that loop, and work in a function the loop calls makes the loop one that enqueues work.
#include <cuda_runtime.h>

__global__ void infer_kernel(float *x) { x[threadIdx.x] *= 2.0f; }
__global__ void post_kernel(float *x) { x[threadIdx.x] += 1.0f; }

// A small launch wrapper that synchronizes its stream: called from a per-task loop.
static void launch_task(float *d, cudaStream_t s)
{
    post_kernel<<<1, 32, 0, s>>>(d);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-message: in 'launch_task()' called from the loop at loop_callgraph.cu:18
}

void run_tasks(float **tasks, int n, cudaStream_t s)
{
    for (int t = 0; t < n; t++)
        launch_task(tasks[t], s);
}

// The frame's GPU work is queued in another function; the frame loop allocates and frees.
static void infer(float *d, cudaStream_t s)
{
    infer_kernel<<<1, 32, 0, s>>>(d);
}

static float *scratch_for(size_t n)
{
    float *p = nullptr;
    cudaMallocManaged(&p, n); // expect: SYNC402 expect-message: in 'scratch_for()' called from 'prepare_frame()' called from the loop at loop_callgraph.cu:42
    return p;
}

static float *prepare_frame(size_t n)
{
    return scratch_for(n);
}

void frames(float *d, int count, cudaStream_t s)
{
    for (int f = 0; f < count; f++) {
        float *tmp = prepare_frame(256);
        infer(d, s);
        cudaFree(tmp); // expect: SYNC402 expect-message: (kernel 'infer_kernel' is launched at line 25, through 'infer()')
    }
}

// A synchronous copy and a readback in a function called from a loop that launches kernels.
static void fetch(float *h, const float *d, int *count, const int *d_count)
{
    cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-message: in 'fetch()' called from the loop at loop_callgraph.cu:58
    cudaMemcpy(count, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-message: in every iteration
}

void pipeline(float *h, float *d, int *count, int *d_count, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        infer_kernel<<<1, 32, 0, s>>>(d);
        fetch(h, d, count, d_count);
    }
}

// Called only outside loops, and from a loop without device work: nothing.
static void settle(cudaStream_t s)
{
    cudaStreamSynchronize(s);
}

void no_loop_work(cudaStream_t s, int n)
{
    settle(s);
    for (int i = 0; i < n; i++)
        settle(s);
}
