// drained_copy_queued.cu: a synchronous copy within the device (cudaMemcpyDeviceToDevice) or
// between devices (cudaMemcpyPeer) returns before it runs, as CUDA's API synchronization
// behavior says, so it is queued work: a device-wide wait after it waits for it, and is no
// "drained" note even right after another wait (a note at 6b05f6f, which counted no synchronous
// copy as queued). Host code between two waits, or a copy within the host, queues nothing: the
// second one is drained; a copy within the device is work also four calls down.
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
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaDeviceSynchronize' at drained_copy_queued.cu:35 drained it
    }
}

// A copy within the host queues nothing: the wait after it stays drained.
void host_copy(float *d, float *a, const float *b, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(a, b, 64, cudaMemcpyHostToHost); // expect: SYNC202 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here
    }
}

// A copy within the device four calls down, past the calls the flow follows: still work.
static void level4(float *d, float *prev) { cudaMemcpy(prev, d, 64, cudaMemcpyDeviceToDevice); }
static void level3(float *d, float *prev) { level4(d, prev); }
static void level2(float *d, float *prev) { level3(d, prev); }
static void level1(float *d, float *prev) { level2(d, prev); }

void deep(float *d, float *prev, int iters)
{
    for (int i = 0; i < iters; i++) {
        fill<<<1, 32>>>(d); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        level1(d, prev);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
}
