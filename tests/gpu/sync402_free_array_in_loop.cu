/* sync402_free_array_in_loop.cu: a CUDA array made, filled, read through a texture by a kernel
 * and freed every round of a loop that launches work on a non-blocking stream: cudaFreeArray
 * waits for the whole device (the 300 us kernel) each time, as cudaFree does (SYNC402, three
 * times). cudaMallocArray waits for nothing (docs/studies/validation.md, 2026-12-06), and the
 * copy into the array comes when nothing is pending. */
#include "gpu_common.h"

#define WIDTH 256
#define HEIGHT 64

/* Adds the array's texels, read through the texture 'tex', into counters[1]. */
static __global__ void sum_texture_kernel(cudaTextureObject_t tex, unsigned *counters)
{
    unsigned sum = 0;
    for (int y = threadIdx.x; y < HEIGHT; y += blockDim.x) {
        for (int x = 0; x < WIDTH; x++) {
            sum += (unsigned)tex2D<float>(tex, x + 0.5f, y + 0.5f);
        }
    }
    atomicAdd(&counters[1], sum);
}

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    float *texels = NULL;
    CHECK(cudaMallocHost(&texels, WIDTH * HEIGHT * sizeof(float)));
    for (int i = 0; i < WIDTH * HEIGHT; i++) {
        texels[i] = (float)(i % 3);
    }
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();

    for (int round = 0; round < 3; round++) {
        unsigned long long start;
        cudaArray_t array = NULL;
        CHECK(cudaMallocArray(&array, &desc, WIDTH, HEIGHT));
        CHECK(cudaMemcpy2DToArray(array, 0, 0, texels, WIDTH * sizeof(float),
                                  WIDTH * sizeof(float), HEIGHT, cudaMemcpyHostToDevice));
        struct cudaResourceDesc res = {};
        res.resType = cudaResourceTypeArray;
        res.res.array.array = array;
        struct cudaTextureDesc tex_desc = {};
        tex_desc.readMode = cudaReadModeElementType;
        tex_desc.filterMode = cudaFilterModePoint;
        cudaTextureObject_t tex = 0;
        CHECK(cudaCreateTextureObject(&tex, &res, &tex_desc, NULL));
        sum_texture_kernel<<<1, 64, 0, s>>>(tex, counters);
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        CHECK(cudaDestroyTextureObject(tex));
        start = ss_now_ns();
        CHECK(cudaFreeArray(array)); /* syncscope: SYNC402 */
        ss_note_blocked("cudaFreeArray", start);
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, 0, used, 1);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(texels));
    return 0;
}
