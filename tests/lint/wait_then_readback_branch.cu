// wait_then_readback_branch.cu: a wait followed by a branch, one way of which reads the same
// work back. Held-out-15's shape Y makes a wait a note only where the next device call, run
// whenever the wait runs, is a readback that waits for the same work; here some way on from the
// wait does not wait for that work again, so the wait stays a warning on every such way
// (session 31, held-out-21's GPUJPEG `gpujpeg_decoder.c:385`). Where the function returns
// finished device data to its caller, nothing later in view waits for that work: the wait is
// the stall, and handing the caller the stream (or an event) instead is a change that removes
// it. A launch before the readback in one branch, a way that neither reads back nor returns,
// and a way that queues work after the branch keep it too. 'both_ways' shows the limit: both
// branches reading back would make a sound note, which lint does not follow either.
// 'decode_into' is held-out-21's stream: one handed in, which keeps Y's warning unbranched.
#include <cuda_runtime.h>

__global__ void decode_tile(unsigned char *pixels, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pixels[i] = (unsigned char)(i & 0xff);
}

__global__ void blend(unsigned char *pixels, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pixels[i] = (unsigned char)(pixels[i] / 2);
}

// The decoder's two outputs: host memory filled by a synchronous copy, or the device buffer
// itself, handed to the caller finished. The caller's next launch on the same stream would be
// ordered after this work without the wait. (Y makes the same wait a note where the copy's
// statement comes next, unbranched.)
static unsigned char *decode_frame(unsigned char *d_pixels, unsigned char *h_pixels, int to_host,
                                   unsigned n)
{
    decode_tile<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
    cudaStreamSynchronize(0); // expect: SYNC401 expect-severity: warning
    if (to_host) {
        cudaMemcpy(h_pixels, d_pixels, n, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
        return h_pixels;
    }
    return d_pixels;
}

void play(unsigned char *d_pixels, unsigned char *h_pixels, int to_host, unsigned n, int frames)
{
    for (int f = 0; f < frames; f++) {
        unsigned char *out = decode_frame(d_pixels, h_pixels, to_host, n);
        if (!to_host)
            blend<<<(n + 255) / 256, 256>>>(out, n); // expect: SYNC101 expect-severity: note
    }
}

// One branch launches before its readback: the wait lets the host queue that launch only once
// the first kernel is done, and the device idles meanwhile.
unsigned launch_in_branch(unsigned char *d_pixels, unsigned n, int frames)
{
    unsigned total = 0;
    for (int f = 0; f < frames; f++) {
        decode_tile<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned char first = 0;
        if (f % 2) {
            blend<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
            cudaMemcpy(&first, d_pixels, 1, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: warning
        } else {
            cudaMemcpy(&first, d_pixels, 1, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        }
        total += first;
    }
    return total;
}

// One branch reads back, the other only counts on the host: on most frames nothing waits for
// the kernel again before the next launch.
unsigned one_way_only(unsigned char *d_pixels, unsigned n, int frames)
{
    unsigned total = 0;
    for (int f = 0; f < frames; f++) {
        decode_tile<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned char first = 0;
        if (f % 8 == 0)
            cudaMemcpy(&first, d_pixels, 1, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        else
            total += 1;
        total += first;
    }
    return total;
}

// The way that skips the readback queues more work before the function returns: the wait is
// not the function's last device act there, and the host queues that work only once the first
// kernel is done.
static void finish_frame(unsigned char *d_pixels, unsigned char *h_pixels, int to_host,
                         unsigned n)
{
    decode_tile<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
    if (to_host) {
        cudaMemcpy(h_pixels, d_pixels, n, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: note
        return;
    }
    blend<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
}

void finish_all(unsigned char *d_pixels, unsigned char *h_pixels, int to_host, unsigned n,
                int frames)
{
    for (int f = 0; f < frames; f++)
        finish_frame(d_pixels, h_pixels, to_host, n);
}

// The limit: both branches read back the same work at once, so removing the wait would gain
// nothing; lint follows no branch after a wait and keeps the warning.
unsigned both_ways(unsigned char *d_pixels, unsigned char *d_other, unsigned n, int frames)
{
    unsigned total = 0;
    for (int f = 0; f < frames; f++) {
        decode_tile<<<(n + 255) / 256, 256>>>(d_pixels, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        unsigned char first = 0;
        if (f % 2)
            cudaMemcpy(&first, d_pixels, 1, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        else
            cudaMemcpy(&first, d_other, 1, cudaMemcpyDeviceToHost); // expect: SYNC301 expect-severity: note
        total += first;
    }
    return total;
}

// Held-out-21's stream, without the branch: the decoder waits for a stream its creator handed
// in (a library's user may pass a non-blocking one), and a synchronous copy on the legacy stream
// need not wait for that stream's work: Y does not make the wait a note even where the readback
// follows it unbranched.
struct decoder {
    cudaStream_t stream;
    unsigned char *d_pixels;
};

void decode_into(struct decoder *dec, unsigned char *h_pixels, unsigned n, int frames)
{
    for (int f = 0; f < frames; f++) {
        decode_tile<<<(n + 255) / 256, 256, 0, dec->stream>>>(dec->d_pixels, n);
        cudaStreamSynchronize(dec->stream); // expect: SYNC401 expect-severity: warning
        cudaMemcpy(h_pixels, dec->d_pixels, n, cudaMemcpyDeviceToHost); // expect: SYNC202 expect-severity: warning
    }
}
