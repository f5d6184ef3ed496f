#include "util.h"
#include <cstdio>

// What the arrays' textures are made of, set up once.
static const cudaChannelFormatDesc *format;
static const cudaResourceDesc *resource;
static const cudaTextureDesc *sampling;

bool check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        return false;
    }
    return true;
}

// ASTRA's createArrayAndTextureObject2D: the array made, a texture bound, the data copied in.
bool make_array(const float *data, cudaArray *&array, cudaTextureObject_t &tex, int n)
{
    array = 0;
    if (!check(cudaMallocArray(&array, format, n, 1), "malloc"))
        return false;
    tex = 0;
    if (!check(cudaCreateTextureObject(&tex, resource, sampling, NULL), "texture")) {
        cudaFreeArray(array);
        return false;
    }
    bool ok = check(cudaMemcpy2DToArray(array, 0, 0, data, n * sizeof(float), n * sizeof(float), 1,
                                        cudaMemcpyDeviceToDevice),
                    "copy");
    if (!ok) {
        cudaFreeArray(array);
        return false;
    }
    return true;
}

// Returns true without making the array for an empty volume.
bool make_array_early(const float *data, cudaArray *&array, int n)
{
    if (n == 0)
        return true;
    return check(cudaMallocArray(&array, format, n, 1), "malloc") && data != NULL;
}
