// wait_closes_loop_queued_virtual.cu: shape AM's way out through a virtual member function. The
// unit's own body of 'Finish::run' would queue a kernel and wait for all, but the call is
// virtual: an override in another unit may run instead and do anything, so the walk stops there
// and the loop's closing wait stays a warning.
#include <cuda_runtime.h>

__global__ void clear_flags(unsigned *flags, unsigned n)
{
    if (threadIdx.x < n)
        flags[threadIdx.x] = 0;
}

__global__ void gather(const unsigned *flags, unsigned *dst) { dst[threadIdx.x] = flags[threadIdx.x]; }

struct Finish {
    unsigned *flags, *dst;
    virtual void run();
};

void Finish::run()
{
    gather<<<1, 128>>>(flags, dst); // expect: SYNC101
    cudaDeviceSynchronize();
}

void rounds_then(Finish &fin, unsigned n, unsigned rounds)
{
    for (unsigned r = 0; r < rounds; r++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        clear_flags<<<1, 128>>>(fin.flags, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    fin.run();
}
