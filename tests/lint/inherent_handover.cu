// inherent_handover.cu: a copy to the host into a buffer the function hands to its caller (an
// out parameter, also through a pointer or reference taken from it, or a local it returns),
// with no device work after it in the function but more such copies: the caller needs the data,
// and the host waits for it anyway, a note. A copy followed by a launch, or in a loop that also
// launches, stays a warning.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        if ((call) != cudaSuccess)                                                               \
            abort();                                                                             \
    } while (0)

__global__ void fill(float *d, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = 1.0f;
}

template <typename T> void copy_to_vector(std::vector<T> *dst, const T *src, cudaStream_t s)
{
    CHECK(cudaMemcpyAsync(dst->data(), src, dst->size() * sizeof(T), cudaMemcpyDeviceToHost, s)); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (through the parameter 'dst')
}

template void copy_to_vector<float>(std::vector<float> *, const float *, cudaStream_t);

void download_halves(std::vector<char> *out, const char *d_a, size_t na, const char *d_b,
                     size_t nb, cudaStream_t s)
{
    out->resize(na + nb);
    if (na > 0)
        CHECK(cudaMemcpyAsync(out->data(), d_a, na, cudaMemcpyDefault, s)); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (through the parameter 'out')
    if (nb > 0) {
        char *tail = out->data() + na;
        CHECK(cudaMemcpyAsync(tail, d_b, nb, cudaMemcpyDefault, s)); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (through the parameter 'out')
    }
}

struct HostColumns {
    std::vector<std::vector<int>> columns;
};

void download_columns(const int *const *d_columns, const size_t *sizes, int count,
                      HostColumns &out, cudaStream_t s)
{
    out.columns.clear();
    for (int c = 0; c < count; c++) {
        out.columns.emplace_back();
        auto &column = out.columns.back();
        column.resize(sizes[c]);
        cudaMemcpyAsync(column.data(), d_columns[c], sizes[c] * sizeof(int), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (through the parameter 'out')
    }
}

void count_values(size_t n); // another unit's: host work, neither a check nor a log line

std::vector<float> snapshot(const float *d, size_t n, cudaStream_t s)
{
    std::vector<float> h(n);
    cudaMemcpyAsync(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the function hands the data to its caller (it returns 'h' at line 66)
    count_values(n);
    return h;
}

void download_then_refill(std::vector<float> *dst, float *d, size_t n, cudaStream_t s)
{
    cudaMemcpyAsync(dst->data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: how often it runs is not shown
    fill<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(d, n);
}

void download_each_batch(std::vector<float> *dst, float *d, size_t n, int batches,
                         cudaStream_t s)
{
    for (int b = 0; b < batches; b++) {
        fill<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(d, n);
        cudaMemcpyAsync(dst->data() + b * n, d, n * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning
    }
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
