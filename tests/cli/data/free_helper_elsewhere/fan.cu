#include "util.h"

__global__ void project(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += (float)(tex + i);
}

// ASTRA's FanFP_internal: the array from another unit's helper, tested; the wait, the free.
static bool forward_one(const float *volume, float *out, int n, cudaStream_t stream)
{
    cudaArray *array;
    cudaTextureObject_t tex;
    if (!make_array(volume, array, tex, n))
        return false;
    project<<<(n + 255) / 256, 256, 0, stream>>>(tex, out, n);
    bool ok = check(cudaStreamSynchronize(stream), "forward");
    cudaFreeArray(array);
    cudaDestroyTextureObject(tex);
    return ok;
}

// The helper may return true without making the array: the wait stays.
static bool forward_early(const float *volume, float *out, int n, cudaStream_t stream)
{
    cudaArray *array = 0;
    if (!make_array_early(volume, array, n))
        return false;
    project<<<(n + 255) / 256, 256, 0, stream>>>(0, out, n);
    bool ok = check(cudaStreamSynchronize(stream), "early");
    cudaFreeArray(array);
    return ok;
}

// The helper's result not tested: the wait stays.
static void forward_untested(const float *volume, float *out, int n, cudaStream_t stream)
{
    cudaArray *array;
    cudaTextureObject_t tex;
    make_array(volume, array, tex, n);
    project<<<(n + 255) / 256, 256, 0, stream>>>(tex, out, n);
    cudaStreamSynchronize(stream);
    cudaFreeArray(array);
}

void forward(const float *volume, float *out, int n, int angles, cudaStream_t stream)
{
    for (int a = 0; a < angles; a++) {
        forward_one(volume, out + a * n, n, stream);
        forward_early(volume, out + a * n, n, stream);
        forward_untested(volume, out + a * n, n, stream);
    }
}
