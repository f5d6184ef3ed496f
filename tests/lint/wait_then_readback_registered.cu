// wait_then_readback_registered.cu: a device-wide wait before an asynchronous copy into a static
// array that the unit pins elsewhere with cudaHostRegister. The copy into registered memory
// returns at once, before the kernel is done: the wait is what orders the data, so it is not
// made again by the copy (shape Y is not demoted): a warning.
#include <cuda_runtime.h>

__global__ void decay(unsigned *vals, unsigned *hit, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && vals[i] > 0) {
        vals[i]--;
        *hit = 1;
    }
}

static unsigned g_hits[8];

void pin_hits() { cudaHostRegister(g_hits, sizeof g_hits, cudaHostRegisterDefault); }

unsigned poll_registered(unsigned *d_vals, unsigned *d_hit, unsigned n, int steps)
{
    unsigned sum = 0;
    for (int k = 0; k < steps; k++) {
        decay<<<1, 128>>>(d_vals, d_hit, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpyAsync(g_hits, d_hit, sizeof(unsigned), cudaMemcpyDeviceToHost); // expect: SYNC102, SYNC201
        sum += (unsigned)k;
    }
    return sum;
}
