// small_symbol_upload.cu: an upload into a __constant__ (or __device__) array whose size is a
// count (ASTRA's per-projection angle tables, held-out-28's shape CA) cannot run past the
// array's end: where the whole array is at most 64 KiB the copy is small, staged at once, and a
// note on every iteration too. A larger __device__ array, a plain device pointer, the
// synchronous cudaMemcpyToSymbol (which waits for the work before it: SYNC202) and a readback
// from a symbol into pageable memory keep what they had.
#include <cuda_runtime.h>
#include <vector>

static const unsigned max_angles = 2560;
__constant__ float angle_table[max_angles];
__device__ float big_table[32768];

__global__ void project(float *out, unsigned n)
{
    unsigned i = threadIdx.x;
    if (i < n)
        out[i] += angle_table[i] + big_table[i];
}

void sweep(float *d_out, float *d_plain, const float *angles, unsigned n, int steps)
{
    std::vector<float> buf(32768);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (int it = 0; it < steps; it++) {
        for (unsigned i = 0; i < n; ++i)
            buf[i] = angles[i] * (float)it;
        cudaMemcpyToSymbolAsync(angle_table, &buf[0], n * sizeof(float), 0, cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: note expect-message: small: a copy of at most 10240 bytes (the size of 'angle_table', which the copy cannot exceed; 'n * sizeof(float)')
        cudaMemcpyToSymbolAsync(big_table, &buf[0], n * sizeof(float), 0, cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        cudaMemcpyAsync(d_plain, &buf[0], n * sizeof(float), cudaMemcpyHostToDevice, s); // expect: SYNC201 expect-severity: warning
        project<<<1, 256, 0, s>>>(d_out, n);
        cudaMemcpyToSymbol(angle_table, &buf[0], n * sizeof(float)); // expect: SYNC202 expect-severity: warning
        cudaMemcpyFromSymbolAsync(&buf[0], angle_table, n * sizeof(float), 0, cudaMemcpyDeviceToHost, s); // expect: SYNC201 expect-severity: warning
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}
