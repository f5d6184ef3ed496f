// Functions that main.cpp's loop runs on every iteration, each reading a hit count back and
// waiting for it on one stream (instant-ngp's Testbed::render_volume).
#include <cuda_runtime.h>

__global__ void gather(unsigned n, unsigned *hits) { hits[threadIdx.x % n] = 1; }
__global__ void shade(unsigned n, float *rays) { rays[threadIdx.x % n] = 0.f; }

static float *g_rays = nullptr;
static unsigned *g_hits = nullptr;
static cudaStream_t g_stream = nullptr;
static bool g_ground_truth = false;

// Each branch of the 'if' on another value sizes its first device work with the count.
void render()
{
    gather<<<64, 256, 0, g_stream>>>(4096, g_hits);
    unsigned n = 4096;
    cudaMemcpyAsync(&n, g_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, g_stream);
    cudaStreamSynchronize(g_stream);
    if (g_ground_truth) {
        shade<<<(n + 255) / 256, 256, 0, g_stream>>>(n, g_rays);
    } else {
        cudaMallocAsync(&g_rays, n * sizeof(float), g_stream);
        shade<<<(n + 255) / 256, 256, 0, g_stream>>>(n, g_rays);
    }
}

// The count is only a kernel's argument: nothing on the host needs it.
void render_argument()
{
    gather<<<64, 256, 0, g_stream>>>(4096, g_hits);
    unsigned n = 4096;
    cudaMemcpyAsync(&n, g_hits, sizeof(unsigned), cudaMemcpyDeviceToHost, g_stream);
    cudaStreamSynchronize(g_stream);
    shade<<<64, 256, 0, g_stream>>>(n, g_rays);
}

bool frame(int i)
{
    render();
    render_argument();
    return i < 1000;
}
