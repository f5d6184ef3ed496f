// wait_then_readback_checker_nonblocking.cu: the checking call of wait_then_readback_checker.cu
// in a unit that creates a non-blocking stream. A synchronous copy on the legacy stream does not
// wait for that stream's work, so where the kernel runs there the wait for the whole device is
// what waits for it, and stays a warning; on the legacy stream's own work it is a note.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void decay(float *levels, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        levels[i] *= 0.9f;
}

inline void halt_on_error(int line)
{
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "line %d: %s\n", line, cudaGetErrorString(status));
        exit(EXIT_FAILURE);
    }
}

void fade(float *d_levels, float *h_levels, int n, int steps)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    for (int s = 0; s < steps; s++) {
        decay<<<(n + 255) / 256, 256, 0, side>>>(d_levels, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        halt_on_error(__LINE__);
        cudaMemcpy(h_levels, d_levels, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note expect-message: drained
    }
    cudaStreamDestroy(side);
}

void fade_legacy(float *d_levels, float *h_levels, int n, int steps)
{
    for (int s = 0; s < steps; s++) {
        decay<<<(n + 255) / 256, 256>>>(d_levels, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 44, a synchronous copy from the device, waits for the same work: it returns only once the work queued before it on the legacy default stream is done
        halt_on_error(__LINE__);
        cudaMemcpy(h_levels, d_levels, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}
