// pageable_macro_arg.cu: SYNC201 through error-checking macros: pointer arithmetic written
// inside a macro's argument ('CHECK(cudaMemcpyAsync(d, h + 1, ...))') is read as written, and
// does not hide the buffer from the copies after it; an operator that comes from a macro's
// body is not mistaken for the ',' between its arguments.
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess)                                                               \
            abort();                                                                           \
    } while (0)
#define SET(lhs, rhs) lhs = rhs

void per_batch(float *d, size_t n, size_t batches, cudaStream_t s)
{
    float *h = (float *)malloc(batches * n * sizeof(float));
    CHECK(cudaMemcpyAsync(d, h + n, n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201
    cudaMemcpyAsync(d, h + n, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
    CHECK(cudaMemcpyAsync(h + 2 * n, d, n * sizeof(float), cudaMemcpyDeviceToHost, s)); // expect: SYNC201
    free(h);
}

void advanced_in_macro(float *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(2 * n * sizeof(float));
    CHECK(cudaMemcpyAsync(d, h += n, n * sizeof(float), cudaMemcpyHostToDevice, s)); // expect: SYNC201
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201
}

void replaced_through_macro(float *d, float *pinned, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    SET(h, pinned); /* 'h , pinned' in the text: the '=' of the body replaces the buffer */
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    free(h);
}
