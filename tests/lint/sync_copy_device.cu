// sync_copy_device.cu: SYNC202 only for synchronous copies and memsets that block the host
// (CUDA's API synchronization behavior): device-to-device copies, peer copies and memsets
// of device memory return at once; memsets of pinned or managed memory do not.
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

void device_to_device(float *a, float *b, int n, cudaStream_t s)
{
    step<<<1, 32, 0, s>>>(a);
    cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpyPeer(b, 1, a, 0, n * sizeof(float));
    cudaMemcpy(a, b, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: SYNC202
}

void kind_in_a_variable(float *a, float *b, int n, cudaStream_t s, int back)
{
    step<<<1, 32, 0, s>>>(a);
    cudaMemcpyKind same = cudaMemcpyDeviceToDevice;
    cudaMemcpy(b, a, n * sizeof(float), same);
    cudaMemcpyKind either = back ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
    cudaMemcpy(b, a, n * sizeof(float), either); // expect: SYNC202
}

void default_kind(int n, int steps)
{
    float *a = nullptr, *b = nullptr, *h = nullptr;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMallocHost(&h, n * sizeof(float));
    for (int i = 0; i < steps; i++) {
        step<<<1, 32>>>(a); // expect: SYNC101
        cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDefault);
        cudaMemcpy(h, a, n * sizeof(float), cudaMemcpyDefault); // expect: SYNC202
    }
}

__device__ float d_table[16];

void symbols(float *d, cudaStream_t s)
{
    step<<<1, 32, 0, s>>>(d);
    cudaMemcpyToSymbol(d_table, d, sizeof(float), 0, cudaMemcpyDeviceToDevice);
    cudaMemcpyToSymbol(d_table, d, sizeof(float)); // expect: SYNC202
}

void memsets(int n, int steps)
{
    float *dev = nullptr, *pinned = nullptr, *managed = nullptr;
    cudaMalloc(&dev, n * sizeof(float));
    cudaMallocHost(&pinned, n * sizeof(float));
    cudaMallocManaged(&managed, n * sizeof(float));
    for (int i = 0; i < steps; i++) {
        step<<<1, 32>>>(dev); // expect: SYNC101
        cudaMemset(dev, 0, n * sizeof(float));
        cudaMemset(pinned, 0, n * sizeof(float)); // expect: SYNC202
        cudaMemset(managed, 0, n * sizeof(float)); // expect: SYNC202
    }
}

void three_d(cudaPitchedPtr from, cudaPitchedPtr to, cudaExtent extent, cudaStream_t s)
{
    step<<<1, 32, 0, s>>>((float *)to.ptr);
    cudaMemcpy3DParms within = {};
    within.srcPtr = from;
    within.dstPtr = to;
    within.extent = extent;
    within.kind = cudaMemcpyDeviceToDevice;
    cudaMemcpy3D(&within);
    cudaMemcpy3DParms out = {};
    out.srcPtr = from;
    out.dstPtr = to;
    out.extent = extent;
    out.kind = cudaMemcpyDeviceToHost;
    cudaMemcpy3D(&out); // expect: SYNC202
}
