// peak.cu: a search whose every bin allocates scratch buffers, reduces into them, reads the
// result back synchronously on the legacy stream and frees them. The unit creates no stream.
#include <cuda_runtime.h>

__global__ void reduce(const float *in, float *out, int n)
{
    if (threadIdx.x == 0 && n > 0)
        out[blockIdx.x] = in[0];
}

static float peak(const float *d_mag, int n, float *host)
{
    float *d_max, *d_sum;
    cudaMalloc(&d_max, 64 * sizeof(float));
    cudaMalloc(&d_sum, 64 * sizeof(float));
    reduce<<<64, 256>>>(d_mag, d_max, n);
    cudaMemcpy(host, d_max, 64 * sizeof(float), cudaMemcpyDeviceToHost);
    float best = host[0];
    cudaFree(d_max);
    cudaFree(d_sum);
    return best;
}

void search(const float *d_mag, int n, int bins, float *host)
{
    for (int b = 0; b < bins; b++) {
        reduce<<<1, 1>>>(d_mag, host, n);
        host[b] = peak(d_mag, n, host);
    }
}
