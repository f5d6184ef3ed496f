// wait_then_readback_param_stream.cu: the unit creates one stream, blocking, but the loop's
// kernel runs on a stream its caller passes in (another unit's, non-blocking perhaps). A
// synchronous copy on the legacy stream need not wait for that stream's work, so neither the
// stream wait nor the device-wide wait before the readback is made again by it (shape Y is not
// demoted): both stay warnings (after the device-wide wait the readback stays its "drained"
// note, as before shape Y).
#include <cuda_runtime.h>

__global__ void decay(unsigned *vals, unsigned *hit, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && vals[i] > 0) {
        vals[i]--;
        *hit = 1;
    }
}

void make_own(cudaStream_t *own) { cudaStreamCreate(own); } // expect: SYNC103

unsigned on_given_stream(cudaStream_t given, unsigned *d_vals, unsigned *d_hit, unsigned n, int steps)
{
    unsigned sum = 0;
    for (int k = 0; k < steps; k++) {
        decay<<<1, 128, 0, given>>>(d_vals, d_hit, n);
        cudaStreamSynchronize(given); // expect: SYNC401 expect-severity: warning
        unsigned hit = 0;
        cudaMemcpy(&hit, d_hit, sizeof hit, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        sum += hit;
    }
    return sum;
}

unsigned device_wait_given(cudaStream_t given, unsigned *d_vals, unsigned *d_hit, unsigned n, int steps)
{
    unsigned sum = 0;
    for (int k = 0; k < steps; k++) {
        decay<<<1, 128, 0, given>>>(d_vals, d_hit, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned hit = 0;
        cudaMemcpy(&hit, d_hit, sizeof hit, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        sum += hit;
    }
    return sum;
}
