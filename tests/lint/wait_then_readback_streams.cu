// wait_then_readback_streams.cu: wait_then_readback.cu's shape in a unit that creates its
// streams blocking. A synchronous copy on the legacy stream then waits for the work of every
// stream before it, so a wait for the whole device, or for one of those streams, right before
// it adds no stall of its own: notes. A readback on another stream than the legacy one (an
// asynchronous copy on the unit's stream, which waits for that stream only) keeps the warning.
#include <cuda_runtime.h>

__global__ void sweep(unsigned *labels, unsigned *changed, unsigned n)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && labels[v] > 0) {
        labels[v]--;
        *changed = 1;
    }
}

unsigned streamed(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256, 0, s>>>(d_labels, d_count, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: the next device call, 'cudaMemcpy' at line 26, a synchronous copy from the device, waits for the same work: it returns only once all the work queued before it is done (a copy on the legacy stream waits for the work of the unit's other streams: it creates them blocking)
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += got;
    }
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256, 0, s>>>(d_labels, d_count, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: the next device call, 'cudaMemcpy' at line 33
        unsigned got = 0;
        cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        total += got;
    }
    cudaStreamDestroy(s);
    return total;
}

// The readback is an asynchronous copy into a local on another stream of the unit: it waits
// for that stream's work only, not for the kernel on the first.
unsigned other_stream(unsigned *d_labels, unsigned *d_count, unsigned n, int rounds)
{
    cudaStream_t s, t;
    cudaStreamCreate(&s); // expect: SYNC103
    cudaStreamCreate(&t); // expect: SYNC103
    unsigned total = 0;
    for (int r = 0; r < rounds; r++) {
        sweep<<<(n + 255) / 256, 256, 0, s>>>(d_labels, d_count, n);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        unsigned got = 0;
        cudaMemcpyAsync(&got, d_count, sizeof got, cudaMemcpyDeviceToHost, t); // expect: SYNC201
        total += got;
    }
    cudaStreamDestroy(s);
    cudaStreamDestroy(t);
    return total;
}
