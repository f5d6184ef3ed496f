// drained_upload.cu: in a unit whose streams are all blocking, a synchronous copy drains the
// device for a device-wide wait after it. A copy to the device waits for all work before it
// starts, but from pageable memory it returns once its data is staged, so the end of its own
// transfer may still be queued: the wait's note says so (at 6b05f6f it said "nothing queued"
// for both). A copy to the host returns when it is done.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void k(float *p) { p[0] = 1; }

int main()
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    float *d, *h = (float *)malloc(1 << 20);
    cudaMalloc(&d, 1 << 20);
    for (int i = 0; i < 100; i++) {
        k<<<1, 1, 0, s>>>(d);
        cudaMemcpy(d, h, 1 << 20, cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here but, from pageable memory, the end of that copy's own transfer: 'cudaMemcpy' at drained_upload.cu:19 drained it (a synchronous copy, which waits for all work before it starts: the unit creates its streams blocking)
    }
    for (int i = 0; i < 100; i++) {
        k<<<1, 1, 0, s>>>(d);
        cudaMemcpy(h, d, 1 << 20, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained: the device has nothing queued here: 'cudaMemcpy' at drained_upload.cu:24 drained it (a synchronous copy, which waits for all work: the unit creates its streams blocking)
    }
    return 0;
}
