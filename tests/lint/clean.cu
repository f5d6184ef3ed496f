// clean.cu: a pipeline that uses its own non-blocking streams: no finding.
#include <cuda_runtime.h>

__global__ void stage(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= 2.0f;
}

int pipeline(float *host, float *device, int n, int chunks)
{
    cudaStream_t streams[2];
    for (int i = 0; i < 2; i++)
        cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
    int per = n / chunks;
    for (int c = 0; c < chunks; c++) {
        cudaStream_t s = streams[c % 2];
        cudaMemcpyAsync(device + c * per, host + c * per, per * sizeof(float),
                        cudaMemcpyHostToDevice, s);
        stage<<<(per + 255) / 256, 256, 0, s>>>(device + c * per, per);
        cudaMemcpyAsync(host + c * per, device + c * per, per * sizeof(float),
                        cudaMemcpyDeviceToHost, s);
    }
    for (int i = 0; i < 2; i++) {
        cudaStreamSynchronize(streams[i]);
        cudaStreamDestroy(streams[i]);
    }
    return 0;
}
