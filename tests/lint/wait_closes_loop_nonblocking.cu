// wait_closes_loop_nonblocking.cu: wait_closes_loop.cu's shape in a unit that creates a
// non-blocking stream. A synchronous copy does not wait for that stream's work, so a closing
// wait whose next iteration opens with the upload keeps its warning; where the next iteration
// opens with a wait for the whole device, which waits for every stream as the closing one does,
// the closing wait is a note.
#include <cuda_runtime.h>

__global__ void relax(const unsigned *piece, unsigned len, unsigned *flags)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        flags[piece[i]] = 0;
}

void pieces(unsigned *d_piece, const unsigned *h_all, unsigned *d_flags, unsigned *d_count,
            unsigned cap, unsigned count)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaMemsetAsync(d_count, 0, sizeof(unsigned), side);
    for (unsigned p = 0; p < count; p++) {
        cudaMemcpy(d_piece, h_all + p * cap, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC202
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    cudaDeviceSynchronize();
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        cudaMemcpy(d_piece, h_all + p * cap, cap * sizeof(unsigned), cudaMemcpyHostToDevice); // expect: SYNC202
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: drained anyway: every way on from here waits for the same work at once: on the next iteration, past the loop's increment and condition, 'cudaDeviceSynchronize' at line 28, a wait for the whole device; when the loop ends, 'cudaDeviceSynchronize' at line 33, a wait for the whole device
    }
    cudaDeviceSynchronize();
    cudaStreamDestroy(side);
}
