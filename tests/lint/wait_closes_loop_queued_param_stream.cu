// wait_closes_loop_queued_param_stream.cu: a loop whose body opens and closes with a device-wide
// wait, its kernel on a stream the caller passes in, and whose way out queues a kernel on the
// legacy stream before a wait for all. The unit creates one stream, blocking, but the stream
// passed in may be non-blocking: the legacy-stream kernel on the way out may then run beside the
// loop's last kernel, so the closing wait is needed (shape AM's way out is not taken): a warning.
#include <cuda_runtime.h>

__global__ void clear_flags(unsigned *flags, unsigned n)
{
    if (threadIdx.x < n)
        flags[threadIdx.x] = 0;
}

__global__ void gather(const unsigned *flags, unsigned *dst) { dst[threadIdx.x] = flags[threadIdx.x]; }

void make_own(cudaStream_t *own) { cudaStreamCreate(own); } // expect: SYNC103

void rounds_on(cudaStream_t given, unsigned *flags, unsigned *dst, unsigned n, unsigned rounds)
{
    for (unsigned r = 0; r < rounds; r++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        clear_flags<<<1, 128, 0, given>>>(flags, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    gather<<<1, 128>>>(flags, dst); // expect: SYNC101
    cudaDeviceSynchronize();
}
