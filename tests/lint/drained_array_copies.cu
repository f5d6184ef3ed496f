// drained_array_copies.cu: the copies to, from and between CUDA arrays and the 3D copy between
// devices are in the API table. A copy within the device (between arrays; cudaMemcpyDeviceToDevice
// by default) or between devices returns before it runs: queued work, so the wait after it is
// no "drained" note even right after another wait. A copy from an array to the host waits for all
// work where the unit's streams block: the wait after it is drained. An asynchronous copy to an
// array from pageable memory blocks (SYNC201), and one on the legacy stream is SYNC102.
#include <cuda_runtime.h>
#include <stdlib.h>
__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }
static cudaStream_t s;
void make() { cudaStreamCreate(&s); } // expect: SYNC103 expect-severity: note

void between_arrays(float *d, cudaArray_t a, cudaArray_t b, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, 256, 256); // expect: SYNC102 expect-severity: note expect-message: 'cudaMemcpy2DArrayToArray' in 'between_arrays' copies device to device ('b')
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void between_arrays_1d(float *d, cudaArray_t a, cudaArray_t b, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, 1024, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void peer_3d(float *d, const cudaMemcpy3DPeerParms *p, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy3DPeer(p);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void from_array(float *d, cudaArray_const_t a, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32, 0, s>>>(d);
        cudaMemcpy2DFromArray(h, 1024, a, 0, 0, 1024, 256, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning expect-message: synchronous copy 'cudaMemcpy2DFromArray'
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy2DFromArray' at drained_array_copies.cu:47 drained it
    }
}

void to_array_async(cudaArray_t a, size_t n)
{
    float *staging = (float *)malloc(n * sizeof(float));
    cudaMemcpy2DToArrayAsync(a, 0, 0, staging, n * sizeof(float), n * sizeof(float), 1, // expect: SYNC201 expect-severity: note expect-message: 'cudaMemcpy2DToArrayAsync' in 'to_array_async' copies from pageable memory
                             cudaMemcpyHostToDevice, s);
    cudaMemcpy3DPeerAsync(NULL); // expect: SYNC102 expect-severity: note expect-message: 'cudaMemcpy3DPeerAsync' in 'to_array_async' has no stream argument
    free(staging);
}

// Since session 32 a warning whose call is in no loop that lint sees ends as the note "how often
// it runs is not shown" (docs/lint.md, "Warning or note", item 5): such a case that stays a
// warning above is that note here, asserted by its words (no other reason for a note applies).
