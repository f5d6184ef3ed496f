/* pieces_pair.cu: a program that moves a batch once, in pieces, as the cuBLAS batched samples
 * do (each matrix of the batch uploaded from its own std::vector in a loop whose only device
 * work is these copies, a batched compute, each result downloaded once, one wait), for lint's
 * note "once: the loop ... copies a different piece on each iteration ..., one transfer in
 * pieces, made once" (docs/lint.md, "One transfer in pieces"). FORM 1, as written: pageable
 * pieces and cudaMemcpyAsync (staged: each call blocks the host). FORM 2, rewritten as the
 * warning it used to be said ("copy through a pinned buffer"): each piece pinned with
 * cudaMallocHost, the pageable data copied into it, the copies asynchronous, the pinned
 * buffers freed at the end. FORM 3: the program rewritten to make its data in pinned memory
 * from the start (no pageable copy at all; allocation and free still paid).
 * Usage: pieces_pair FORM [pieces] [MiB a piece] [compute rounds]
 * Prints: "pieces: <us> us transfer, <us> us total, checksum <value>", the transfer being the
 * time from the first upload call to the end of the program's work on the host (allocation,
 * fill, copies, compute, downloads, the wait, frees: everything the forms do differently). */
#include "whatif_common.h"

#include <stdlib.h>
#include <string.h>
#include <vector>

static __global__ void scale(float *a, size_t n, int rounds)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    for (int r = 0; r < rounds; r++)
        x = x * 0.999f + 0.001f;
    a[i] = x;
}

static void check(cudaError_t e)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int form = argc > 1 ? atoi(argv[1]) : 1;
    int pieces = argc > 2 ? atoi(argv[2]) : 8;
    size_t mib = argc > 3 ? (size_t)atoi(argv[3]) : 16;
    int rounds = argc > 4 ? atoi(argv[4]) : 64;
    size_t n = mib * 1024 * 1024 / sizeof(float);
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    std::vector<float *> dev(pieces);
    for (int i = 0; i < pieces; i++)
        check(cudaMalloc(&dev[i], n * sizeof(float)));
    /* The program's data, made on the host (pageable, as the samples' std::vectors). */
    std::vector<std::vector<float>> host(form == 3 ? 0 : pieces);
    for (int i = 0; form != 3 && i < pieces; i++)
        host[i].assign(n, 1.0f + (float)i);
    check(cudaDeviceSynchronize());
    double t0 = now_us();
    std::vector<float *> pinned(form == 1 ? 0 : pieces);
    for (int i = 0; i < pieces; i++) {
        const float *src = form == 1 ? host[i].data() : NULL;
        if (form != 1) {
            check(cudaMallocHost(&pinned[i], n * sizeof(float)));
            if (form == 2)
                memcpy(pinned[i], host[i].data(), n * sizeof(float));
            else
                for (size_t k = 0; k < n; k++)
                    pinned[i][k] = 1.0f + (float)i;
            src = pinned[i];
        }
        check(cudaMemcpyAsync(dev[i], src, n * sizeof(float), cudaMemcpyHostToDevice, s));
    }
    for (int i = 0; i < pieces; i++)
        scale<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(dev[i], n, rounds);
    for (int i = 0; i < pieces; i++) {
        float *dst = form == 1 ? host[i].data() : pinned[i];
        check(cudaMemcpyAsync(dst, dev[i], n * sizeof(float), cudaMemcpyDeviceToHost, s));
    }
    check(cudaStreamSynchronize(s));
    double sum = 0;
    for (int i = 0; i < pieces; i++)
        sum += form == 1 ? host[i][n / 2] : pinned[i][n / 2];
    for (int i = 0; form != 1 && i < pieces; i++)
        check(cudaFreeHost(pinned[i]));
    double t1 = now_us();
    for (int i = 0; i < pieces; i++)
        check(cudaFree(dev[i]));
    check(cudaStreamDestroy(s));
    printf("pieces: %.0f us transfer, %.0f us total, checksum %.4f\n", t1 - t0, now_us() - t0,
           sum);
    return 0;
}
