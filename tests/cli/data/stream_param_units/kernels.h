// kernels.h: the solver's device steps, each on a stream that defaults to the legacy one.
#include <cuda_runtime.h>

void AddDelta(float *ar, unsigned n, cudaStream_t stm = NULL);
void Scale(float *ar, unsigned n, cudaStream_t stm);
void Clear(float *ar, unsigned n, cudaStream_t stm = NULL);
void Step(float *ar, unsigned n, cudaStream_t spare = NULL);

struct Params {
    float *ar;
    unsigned n;
    cudaStream_t stm;
    Params(float *a, unsigned count, cudaStream_t s) : ar(a), n(count), stm(s)
    {
    }
};
void Forces(const Params &p);
