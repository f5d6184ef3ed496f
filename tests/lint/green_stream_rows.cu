// green_stream_rows.cu: as driver_stream_rows.cu, with the non-blocking stream of a green context
// (cuGreenCtxStreamCreate).
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void slow(float *d) { d[threadIdx.x] += 1.0f; }
static cudaStream_t a, b;
void make(CUgreenCtx g)
{
    cudaStreamCreate(&a); // expect: SYNC103 expect-severity: note
    cuGreenCtxStreamCreate(&b, g, CU_STREAM_NON_BLOCKING, 0);
}
float after_copy(float *d, int iters)
{
    float h = 0;
    for (int i = 0; i < iters; i++) {
        slow<<<1, 32, 0, b>>>(d);
        cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained anyway
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    return h;
}
