// wait_closes_loop_queued_nonblocking.cu: wait_closes_loop_queued.cu's way out in a unit that
// creates a non-blocking stream. Work on the legacy stream does not wait for that stream's, so
// work queued on the way out, on either stream, could overlap what the closing wait waits for:
// the closing wait keeps its warning, though a wait for the whole device follows. A way out
// that queues nothing before that wait, here through a function of the unit, makes it a note.
#include <cuda_runtime.h>

__global__ void relax(const unsigned *piece, unsigned len, unsigned *flags)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        flags[piece[i]] = 0;
}

static void settle()
{
    cudaDeviceSynchronize();
}

void pieces(unsigned *d_piece, unsigned *d_flags, unsigned cap, unsigned count)
{
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256, 0, side>>>(d_piece, cap, d_flags);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    relax<<<1, 1>>>(d_piece, 1, d_flags); // expect: SYNC101
    cudaDeviceSynchronize();
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256>>>(d_piece, cap, d_flags); // expect: SYNC101
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    }
    relax<<<1, 1, 0, side>>>(d_piece, 1, d_flags);
    cudaDeviceSynchronize();
    for (unsigned p = 0; p < count; p++) {
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note
        relax<<<(cap + 255) / 256, 256, 0, side>>>(d_piece, cap, d_flags);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: when the loop ends, in 'settle()' (called at line 43), 'cudaDeviceSynchronize' at line 17, a wait for the whole device; with no work queued between on either way
    }
    settle();
    cudaStreamDestroy(side);
}
