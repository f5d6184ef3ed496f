// wait_closes_loop_streams.cu: wait_closes_loop.cu's shape with waits for one stream (a blocking
// one the unit creates) around a 'do'-'while' loop's back edge. Lint follows only waits for the
// whole device there: the drained flow answers for the whole device, so the opening wait is no
// "drained" note, and the closing one keeps its warning too.
#include <cuda_runtime.h>

__global__ void relax(const unsigned *piece, unsigned len, unsigned *flags)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        flags[piece[i]] = 0;
}

void streamed(unsigned *d_piece, const unsigned *h_all, unsigned *d_flags, unsigned cap,
              unsigned count)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    unsigned p = 0;
    do {
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        cudaMemcpyAsync(d_piece, h_all + p, cap * sizeof(unsigned), cudaMemcpyHostToDevice, s);
        relax<<<(cap + 255) / 256, 256, 0, s>>>(d_piece, cap, d_flags);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        p += cap;
    } while (p < count);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
}

// Waits for the whole device, the next iteration opened by a synchronous upload on the legacy
// stream, which waits for the blocking stream's kernel too: the closing wait is a note.
void blocking_upload(unsigned *d_piece, const unsigned *h_all, unsigned *d_flags, unsigned cap,
                     unsigned count)
{
    cudaStream_t s;
    cudaStreamCreate(&s); // expect: SYNC103
    for (unsigned p = 0; p < count; p++) {
        cudaMemcpy(d_piece, h_all + p * cap, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC202 expect-severity: note
        relax<<<(cap + 255) / 256, 256, 0, s>>>(d_piece, cap, d_flags);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: every way on from here waits for the same work at once: on the next iteration, past the loop's increment and condition, 'cudaMemcpy' at line 39, a synchronous copy to the device, which waits for all work (on the legacy stream, which waits for the work of the unit's other streams: it creates them blocking); when the loop ends, 'cudaMemcpy' at line 43, a synchronous copy to the device
    }
    cudaMemcpy(d_piece, h_all, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC202
    cudaStreamDestroy(s);
}
