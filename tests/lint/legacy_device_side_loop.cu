// legacy_device_side_loop.cu: the severity of SYNC102 for the synchronous calls queued on the
// legacy stream without blocking the host (a device-to-device cudaMemcpy, a cudaMemset of
// device memory) follows the loop around them as a launch's does: the call itself is the
// loop's device work. A set-up loop gives a note that says why; a loop that runs per step gives
// a warning that names the loop. (Before, both were warnings that said nothing of the loop.)
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

void initBuffers(int levels)
{
    float *a = nullptr, *b = nullptr;
    cudaMalloc(&a, 64 * levels);
    cudaMalloc(&b, 64 * levels);
    for (int i = 0; i < levels; i++) {
        cudaMemcpy(a + 16 * i, b + 16 * i, 64, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: copies device to device ('a + 16 * i') without blocking the host, on the legacy default stream: it serializes with the blocking streams this unit creates (line 47); set-up: the loop at line 15 runs during set-up: 'initBuffers' sets up (its name says so)
        cudaMemset(a + 16 * i, 0, 64); // expect: SYNC102 expect-severity: note expect-message: set-up: the loop at line 15 runs during set-up
    }
}

void importLevels(int levels)
{
    float *a = nullptr, *b = nullptr;
    cudaMalloc(&a, 64 * levels);
    cudaMalloc(&b, 64 * levels);
    for (int i = 0; i < levels; i++)
        cudaMemcpy(a + 16 * i, b + 16 * i, 64, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: (line 47); it runs on every iteration of the loop at line 26, which enqueues device work
}

void frames(cudaStream_t s, int n)
{
    float *a = nullptr, *b = nullptr;
    cudaMalloc(&a, 64);
    cudaMalloc(&b, 64);
    for (int t = 0; t < n; t++) {
        step<<<1, 16, 0, s>>>(a);
        cudaMemcpy(b, a, 64, cudaMemcpyDeviceToDevice); // expect: SYNC102 expect-severity: note expect-message: (line 47); it runs on every iteration of the loop at line 35, which enqueues device work
        cudaMemset(a, 0, 64); // expect: SYNC102 expect-severity: note expect-message: it runs on every iteration of the loop at line 35
    }
    cudaFree(a);
    cudaFree(b);
}

int main(int argc, char **argv)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    initBuffers(argc);
    importLevels(argc);
    frames(s, argc * 100);
    return 0;
}
