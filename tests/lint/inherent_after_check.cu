// inherent_after_check.cu: a readback whose value the host needs at once stays "inherent" when
// an assertion, a check or a log line (a macro or a call named so, that queues no device work),
// or a declaration that only names an element, stands between the copy and the statement that
// uses the value: they cost the host nothing the wait could overlap. The value may be a member
// of the object ('&axis' in a method). Still warnings: a check that queues device work between,
// another host call or a declaration that calls a function between, and a use four statements
// later.
#include <assert.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define APP_ASSERT(x)                                                                          \
    {                                                                                          \
        int res = (x);                                                                         \
        if (!res) {                                                                            \
            printf("assertion failed at %s:%d\n", __FILE__, __LINE__);                         \
            abort();                                                                           \
        }                                                                                      \
    }
#define APP_LOG(...) printf(__VA_ARGS__)
#define APP_CHECK(call)                                                                        \
    do {                                                                                       \
        if ((call) != cudaSuccess)                                                             \
            abort();                                                                           \
    } while (0)

__global__ void gather(const float *in, float *out, int axis, int n)
{
    out[threadIdx.x] = in[(threadIdx.x + axis) % n];
}

struct Tensor {
    const int *data;
    int dims;
};

static void refresh(const Tensor *t) { printf("%d\n", t->dims); }
static int count_dims(const Tensor *t) { return t->dims; }

struct Gather {
    int axis = 0;
    void run(Tensor **inputs, const float *in, float *out, cudaStream_t s);
    void run_memset(Tensor **inputs, const float *in, float *out, cudaStream_t s);
    void run_refreshed(Tensor **inputs, const float *in, float *out, cudaStream_t s);
};

void Gather::run(Tensor **inputs, const float *in, float *out, cudaStream_t s)
{
    cudaMemcpy(&axis, inputs[1]->data, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 53 branches on it)
    Tensor *first = inputs[0];
    APP_ASSERT(axis > -first->dims && axis < first->dims);
    if (axis < 0)
        axis += first->dims;
    gather<<<1, 32, 0, s>>>(in, out, axis, first->dims);
}

void Gather::run_memset(Tensor **inputs, const float *in, float *out, cudaStream_t s)
{
    cudaMemcpy(&axis, inputs[1]->data, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    APP_CHECK(cudaMemsetAsync(out, 0, 32 * sizeof(float), s));
    if (axis < 0)
        axis += inputs[0]->dims;
    gather<<<1, 32, 0, s>>>(in, out, axis, inputs[0]->dims);
}

void Gather::run_refreshed(Tensor **inputs, const float *in, float *out, cudaStream_t s)
{
    cudaMemcpy(&axis, inputs[1]->data, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    refresh(inputs[0]);
    if (axis < 0)
        axis += inputs[0]->dims;
    gather<<<1, 32, 0, s>>>(in, out, axis, inputs[0]->dims);
}

float *fetch(const int *d_count)
{
    int n = 0;
    cudaMemcpy(&n, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: inherent: the next statement needs the value (line 82 sizes an allocation with it)
    APP_LOG("read the count\n");
    assert(n >= 0);
    float *h = (float *)malloc(n * sizeof(float));
    return h;
}

float *fetch_counted(const int *d_count, const Tensor *t)
{
    int n = 0;
    cudaMemcpy(&n, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    int dims = count_dims(t);
    float *h = (float *)malloc(n * dims * sizeof(float));
    return h;
}

float *fetch_late(const int *d_count)
{
    int n = 0;
    cudaMemcpy(&n, d_count, sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: how often it runs is not shown
    APP_LOG("read the count\n");
    APP_LOG("allocating\n");
    assert(n >= 0);
    APP_LOG("now\n");
    float *h = (float *)malloc(n * sizeof(float));
    return h;
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
