// timed_step.cu: a loop that reads a clock is a benchmark, and its waits are how each
// measurement ends (notes), only when timing is what it does: outside the region it times (from
// the first event record, timer start or clock read to the last clock read) a benchmark does
// bookkeeping, or an API call of its own such as a cache flush. A program's main loop that
// times one step of its work but evaluates or samples around it is no benchmark: the waits of
// the step stay warnings, and so does the wait for the step's end event.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void update(float *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        w[i] *= 0.5f;
}

__global__ void reduce(const float *w, float *out, int n) { out[0] = w[0] + (float)n; }

struct Model {
    float *w;
    float *norm;
    int n;
    cudaStream_t s;
};

// One optimizer step: the norm is read back to scale the update, and the step ends with a
// wait for its stream.
static float step_norm(Model *m)
{
    reduce<<<1, 1, 0, m->s>>>(m->w, m->norm, m->n);
    float h = 0.0f;
    cudaMemcpy(&h, m->norm, sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning expect-message: in every iteration the host stalls until all queued work has produced it; not a benchmark: the loop times lines 58 to 64, and outside them runs more of the program's device work ('evaluate()' at line 57)
    return h;
}

static void step_update(Model *m, float scale)
{
    update<<<(m->n + 255) / 256, 256, 0, m->s>>>(m->w, m->n);
    if (scale > 1.0f)
        update<<<(m->n + 255) / 256, 256, 0, m->s>>>(m->w, m->n);
    cudaStreamSynchronize(m->s); // expect: SYNC401 expect-severity: warning expect-message: in 'step_update()' called from the loop at timed_step.cu:55
}

// Evaluation, run every tenth step outside the timed region.
static void evaluate(Model *m)
{
    reduce<<<1, 1, 0, m->s>>>(m->w, m->norm, m->n);
}

void train(Model *m, int steps)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int it = 0; it < steps; it++) {
        if (it % 10 == 0)
            evaluate(m);
        cudaEventRecord(start, m->s);
        float scale = step_norm(m);
        step_update(m, scale);
        cudaEventRecord(stop, m->s);
        cudaEventSynchronize(stop); // expect: SYNC401 expect-severity: warning expect-message: the GPU drains and idles while the host catches up; not a benchmark: the loop times lines 58 to 64
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, start, stop);
        printf("step %d: %.3f ms\n", it, ms);
    }
}

// A benchmark: before its timed region only a cache flush (an API call), after it the
// bookkeeping. Its wait is how each measurement ends.
float bench(float *w, float *flush, size_t flush_bytes, int n, int reps, cudaStream_t s)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    float total = 0.0f;
    for (int i = 0; i < reps; i++) {
        cudaMemsetAsync(flush, 0, flush_bytes, s);
        cudaEventRecord(start, s);
        update<<<(n + 255) / 256, 256, 0, s>>>(w, n);
        cudaEventRecord(stop, s);
        cudaEventSynchronize(stop); // expect: SYNC401 expect-severity: note expect-message: the loop times its iterations ('cudaEventElapsedTime' at line 84): the wait is part of a measurement
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, start, stop);
        total += ms;
        printf("rep %d: %.3f ms\n", i, ms);
    }
    return total / (float)reps;
}
