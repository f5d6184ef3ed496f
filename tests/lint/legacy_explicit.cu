// legacy_explicit.cu: work put on the legacy default stream by naming it (cudaStreamLegacy,
// also through a variable) asks for the legacy stream's ordering on purpose (a no-op kernel
// that orders every blocking stream, or every thread's per-thread stream, without blocking the
// host): a note that says so. The same launch without a stream, in a unit that uses other
// streams, stays a warning.
#include <cuda_runtime.h>

__global__ void noop() {}

__global__ void step(float *d) { d[threadIdx.x] += 1.0f; }

void order_all_streams()
{
    noop<<<1, 1, 0, cudaStreamLegacy>>>(); // expect: SYNC101 expect-severity: note expect-message: deliberate: the program names the legacy stream ('cudaStreamLegacy'), whose ordering with the other streams it asks for
}

void order_then_clear(float *d, size_t n)
{
    cudaStream_t legacy = cudaStreamLegacy;
    cudaMemsetAsync(d, 0, n, legacy); // expect: SYNC102 expect-severity: note expect-message: deliberate: the program names the legacy stream ('cudaStreamLegacy')
}

void run(float *d, int steps)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamDefault); // expect: SYNC103 expect-severity: note
    for (int i = 0; i < steps; i++)
        step<<<1, 32, 0, s>>>(d);
    step<<<1, 32>>>(d); // expect: SYNC101 expect-severity: note expect-message: convention:
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
