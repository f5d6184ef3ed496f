// staging_loop.cu: a loop that streams a buffer between the device and a file through two
// pinned halves: the copy into one half overlaps the host's write of the other, the wait lets
// them swap. Its wait is a note that says so. Without the swap, or with a kernel in the loop,
// the wait stays a warning.
#include <cuda_runtime.h>
#include <stdio.h>
#include <utility>

__global__ void scale(char *p, size_t n) { p[threadIdx.x % n] *= 2; }

void save(FILE *out, const char *src, size_t bytes, size_t chunk, cudaStream_t s)
{
    char *pinned;
    cudaMallocHost(&pinned, 2 * chunk);
    char *filling = pinned, *writing = pinned + chunk;
    size_t pending = 0;
    for (size_t done = 0; done < bytes; done += chunk) {
        size_t n = bytes - done < chunk ? bytes - done : chunk;
        cudaMemcpyAsync(filling, src + done, n, cudaMemcpyDeviceToHost, s);
        fwrite(writing, 1, pending, out);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: staging: the loop's only device work is copying through two buffers that take turns (the copy at line 19 overlaps 'fwrite' at line 20, and line 22 swaps the buffers): the wait is what lets them
        std::swap(filling, writing);
        pending = n;
    }
    fwrite(writing, 1, pending, out);
    cudaFreeHost(pinned);
}

void load(char *dst, FILE *in, size_t bytes, size_t chunk, cudaStream_t s)
{
    char *pinned;
    cudaMallocHost(&pinned, chunk);
    for (size_t done = 0; done < bytes; done += chunk) {
        size_t n = fread(pinned, 1, chunk, in);
        cudaMemcpyAsync(dst + done, pinned, n, cudaMemcpyHostToDevice, s);
        fflush(stdout);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
    cudaFreeHost(pinned);
}

void save_scaled(FILE *out, char *src, size_t bytes, size_t chunk, cudaStream_t s)
{
    char *pinned;
    cudaMallocHost(&pinned, 2 * chunk);
    char *filling = pinned, *writing = pinned + chunk;
    for (size_t done = 0; done < bytes; done += chunk) {
        scale<<<1, 32, 0, s>>>(src + done, chunk);
        cudaMemcpyAsync(filling, src + done, chunk, cudaMemcpyDeviceToHost, s);
        fwrite(writing, 1, chunk, out);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
        std::swap(filling, writing);
    }
    cudaFreeHost(pinned);
}
