// drained_maybe.cu: a device-wide wait after a synchronous copy to the host that runs only on
// some ways: the right operand of '&&', an arm of '?:', a helper called on the right of '&&'.
// The copy drains nothing for sure, so each wait stays a warning; the same copy run whenever its
// statement runs drains the device (the unit's streams block): a note. Review 22's M6.
#include <cuda_runtime.h>
__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }
static cudaStream_t s;
void make() { cudaStreamCreate(&s); } // expect: SYNC103 expect-severity: note
static bool read_back(float *h, float *d)
{
    return cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) == cudaSuccess; // expect: SYNC301 expect-severity: warning
}
void short_circuit(float *d, float *h, int iters, bool verbose)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        (void)(verbose && cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) == cudaSuccess); // expect: SYNC301 expect-severity: note expect-message: drained anyway
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
void ternary(float *d, float *h, int iters, bool verbose)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaError_t e = verbose ? cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) : cudaSuccess; // expect: SYNC301 expect-severity: note expect-message: drained anyway
        (void)e;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
void helper_maybe(float *d, float *h, int iters, bool verbose)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        (void)(verbose && read_back(h, d));
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
void always(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        (void)(cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) == cudaSuccess); // expect: SYNC301 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_maybe.cu:42 drained it
    }
}
