// wait_then_readback_nonblocking.cu: wait_then_readback.cu's shape in a unit that creates a
// non-blocking stream. A synchronous copy on the legacy stream does not wait for that stream's
// work, so a wait for it, or a wait for the whole device with work queued on it, keeps its
// warning before such a readback. Where only work on the legacy stream was queued since the
// device was drained (the loop's previous iteration), the copy waits for all of it: a note.
#include <cuda_runtime.h>

__global__ void sweep(unsigned *labels, unsigned *changed, unsigned n)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && labels[v] > 0) {
        labels[v]--;
        *changed = 1;
    }
}

unsigned side_stream(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256, 0, s>>>(d_labels, d_count, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += got;
    }
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256, 0, s>>>(d_labels, d_count, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note expect-message: drained
        total += got;
    }
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256>>>(d_labels, d_count, n); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: the next device call, 'cudaMemcpy' at line 40, a synchronous copy from the device, waits for the same work: it returns only once the work queued before it on the legacy default stream is done, and only statements that stay on the host run between them, and since this wait drained the device on the loop's previous iteration no work on another stream is queued on any way the unit reaches it
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += got;
    }
    cudaStreamDestroy(s);
    return total;
}
