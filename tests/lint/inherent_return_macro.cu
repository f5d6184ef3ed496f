// inherent_return_macro.cu: a copy into a pageable local or container that the function then
// returns is inherent (the caller needs the data; the host waits for it anyway), also when the
// copy is written inside an error-checking macro of the 'do { ... } while (0)' shape, or is the
// last statement of an 'if' block that the return follows.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <vector>

#define VERIFY(call)                                                                             \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess)                                                                   \
            abort();                                                                             \
    } while (0)

float value_at(const float *d, size_t i, cudaStream_t s)
{
    float v;
    VERIFY(cudaMemcpyAsync(&v, d + i, sizeof(float), cudaMemcpyDeviceToHost, s)); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement needs the value (line 20 returns it)
    return v;
}

std::vector<float> download(const float *d, size_t n, cudaStream_t s)
{
    std::vector<float> h(n);
    if (n > 0) {
        cudaMemcpyAsync(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: note expect-message: inherent: the next statement needs the value (line 29 returns it)
    }
    return h;
}
