// free_array_in_loop.cu: cudaFreeArray waits for the whole device, as cudaFree does (measured,
// docs/studies/validation.md 2026-12-06): SYNC402 in a loop that enqueues work, and through the
// unit's call graph, with a fix that makes the array once (CUDA arrays have no stream-ordered
// allocator). cudaMallocArray waits for nothing and is not reported.
// expect-hint: make the array once before the loop and reuse it
#include <cuda_runtime.h>

// Stands for a kernel that reads the array through the texture object (tex2D).
__global__ void sample(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)(tex + i);
}

// The texture object of an array ('res' names it).
static cudaTextureObject_t texture_of(const cudaResourceDesc *res, const cudaTextureDesc *desc)
{
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, res, desc, NULL);
    return tex;
}

// In the loop itself.
void per_round(const cudaChannelFormatDesc *fmt, const cudaResourceDesc *res,
               const cudaTextureDesc *desc, float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++) {
        cudaArray_t array = nullptr;
        cudaMallocArray(&array, fmt, n, 1);
        cudaTextureObject_t tex = texture_of(res, desc);
        sample<<<(n + 255) / 256, 256, 0, s>>>(tex, out, n);
        cudaDestroyTextureObject(tex);
        cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
    }
}

// In a function the loop calls.
static void one_pass(const cudaChannelFormatDesc *fmt, const cudaResourceDesc *res,
                     const cudaTextureDesc *desc, float *out, int n, cudaStream_t s)
{
    cudaArray_t array = nullptr;
    cudaMallocArray(&array, fmt, n, 1);
    cudaTextureObject_t tex = texture_of(res, desc);
    sample<<<(n + 255) / 256, 256, 0, s>>>(tex, out, n);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(array); // expect: SYNC402 expect-severity: warning
}

void passes(const cudaChannelFormatDesc *fmt, const cudaResourceDesc *res,
            const cudaTextureDesc *desc, float *out, int n, int rounds, cudaStream_t s)
{
    for (int r = 0; r < rounds; r++)
        one_pass(fmt, res, desc, out, n, s);
}
