// device_sync_in_loop.cu: SYNC402 (device-wide synchronizing calls in a loop that enqueues
// device work) for every loop kind and through a local lambda; cases that are not reported.
#include <cuda_runtime.h>

#include <vector>

__global__ void fill(float *x, int n) { x[threadIdx.x % n] = 1.0f; }

void for_loop(int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        float *d = nullptr;
        cudaMalloc(&d, n * sizeof(float)); // expect: SYNC402
        fill<<<1, 32, 0, s>>>(d, n);
        cudaFree(d); // expect: SYNC402
    }
}

void while_loop(float *h, int n, cudaStream_t s)
{
    int i = 0;
    while (i++ < n) {
        float *pinned = nullptr;
        cudaMallocHost(&pinned, n * sizeof(float)); // expect: SYNC402
        cudaMemcpyAsync(pinned, h, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaFreeHost(pinned); // expect: SYNC402
    }
}

void do_loop(float *h, int n, cudaStream_t s, float *d)
{
    int i = 0;
    do {
        cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault); // expect: SYNC402
        cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
        cudaHostUnregister(h); // expect: SYNC402
    } while (++i < n);
}

void range_for(std::vector<float *> &buffers, int n, cudaStream_t s)
{
    for (float *b : buffers) {
        cudaDeviceSetLimit(cudaLimitStackSize, 4096); // expect: SYNC402
        fill<<<1, 32, 0, s>>>(b, n);
    }
}

void through_lambda(int n, cudaStream_t s)
{
    auto one = [&]() {
        float *d = nullptr;
        cudaMalloc(&d, sizeof(float)); // expect: SYNC402
        fill<<<1, 1, 0, s>>>(d, 1);
    };
    for (int i = 0; i < n; i++)
        one();
}

/* Not reported: allocation outside the loop, or a stream-ordered allocator in it. */
void allocate_once(int n, cudaStream_t s)
{
    float *d = nullptr;
    cudaMalloc(&d, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        float *t = nullptr;
        cudaMallocAsync((void **)&t, sizeof(float), s);
        fill<<<1, 32, 0, s>>>(d, n);
        cudaFreeAsync(t, s);
    }
    cudaFree(d);
}

/* Not reported: the loop enqueues no device work. */
void setup(float **buffers, int n)
{
    for (int i = 0; i < n; i++)
        cudaMalloc(&buffers[i], 1024);
}
