// lazy_allocation.cu: buffers allocated on the first call, under a test that they are not
// allocated yet ('if (m->acts == NULL) { cudaMalloc(&m->acts, ...); }'), in a function called
// from the training loop: the allocations run once, notes. The same allocations without the
// test run on every step: warnings; so does a guard on an object declared inside the loop.
#include <cuda_runtime.h>
#include <stddef.h>

struct Model {
    float *acts;
    float *host_losses;
    int *targets;
};

__global__ void forward_kernel(float *acts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acts[i] += 1.0f;
}

float *alloc_activations(size_t n)
{
    float *memory;
    cudaMalloc((void **)&memory, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: lazy: every call from a loop runs only while the buffer is unset (lazy_allocation.cu:30 tests 'acts' and the branch sets it)
    return memory;
}

void forward(Model *m, int n, cudaStream_t s)
{
    if (m->acts == NULL) {
        m->acts = alloc_activations((size_t)n);
        cudaMalloc((void **)&m->targets, n * sizeof(int)); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while the buffer is unset (line 30 tests 'acts' and the branch sets it)
        cudaMallocHost((void **)&m->host_losses, n * sizeof(float)); // expect: SYNC402 expect-severity: note
    }
    forward_kernel<<<(n + 255) / 256, 256, 0, s>>>(m->acts, n);
}

void forward_fresh(Model *m, int n, cudaStream_t s)
{
    cudaMalloc((void **)&m->targets, n * sizeof(int)); // expect: SYNC402 expect-severity: warning
    forward_kernel<<<(n + 255) / 256, 256, 0, s>>>(m->acts, n);
    cudaFree(m->targets); // expect: SYNC402 expect-severity: warning
}

void train(Model *m, int n, int steps, cudaStream_t s)
{
    for (int step = 0; step < steps; step++) {
        forward(m, n, s);
        forward_fresh(m, n, s);
    }
}

// The guard inside the loop itself: a model declared before the loop keeps its buffer from one
// iteration to the next (a note); one declared in the loop is new on every iteration, its
// buffer unset each time (a warning).
void train_inline(int n, int steps, cudaStream_t s)
{
    Model kept = {};
    for (int step = 0; step < steps; step++) {
        if (kept.acts == NULL)
            cudaMalloc((void **)&kept.acts, n * sizeof(float)); // expect: SYNC402 expect-severity: note expect-message: lazy: it runs only while the buffer is unset
        Model fresh = {};
        if (fresh.acts == NULL)
            cudaMalloc((void **)&fresh.acts, n * sizeof(float)); // expect: SYNC402 expect-severity: warning
        forward_kernel<<<(n + 255) / 256, 256, 0, s>>>(kept.acts, n);
        forward_kernel<<<(n + 255) / 256, 256, 0, s>>>(fresh.acts, n);
    }
}
