// drained_copy_queued.cu: a synchronous copy within the device (cudaMemcpyDeviceToDevice) or
// between devices (cudaMemcpyPeer) returns before it runs, as CUDA's API synchronization
// behavior says, so it is queued work: a device-wide wait after it waits for it, and is no
// "drained" note even right after another wait (a note at 6b05f6f, which counted no synchronous
// copy as queued). Host code between two waits queues nothing: the second one is drained.
#include <cuda_runtime.h>

__global__ void fill(float *x) { x[threadIdx.x] = 1.0f; }

void within(float *d, float *prev, size_t n, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(prev, d, n * sizeof(float), cudaMemcpyDeviceToDevice);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void between_devices(float *d, float *other, size_t n, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpyPeer(other, 1, d, 0, n * sizeof(float));
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}

void host_between(float *d, float *h, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        h[i] = (float)i;
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_copy_queued.cu:34 drained it
    }
}
