/* sync201_clean.cu: the fixed form of sync201_pageable_async.cu: the same copies from and to
 * pinned (cudaMallocHost) memory return at once; the host reads the results after one
 * synchronization at the end. */
#include "gpu_common.h"

#define BYTES (16u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *in = NULL;
    unsigned *out[2] = {NULL, NULL};
    unsigned *dev = NULL;
    unsigned long long checksum = 0;
    cudaStream_t s;
    CHECK(cudaMallocHost(&in, BYTES));
    CHECK(cudaMallocHost(&out[0], BYTES));
    CHECK(cudaMallocHost(&out[1], BYTES));
    for (size_t i = 0; i < WORDS; i++) {
        in[i] = (unsigned)(i % 1000u);
    }
    CHECK(cudaMalloc(&dev, BYTES));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpyAsync(dev, in, BYTES, cudaMemcpyHostToDevice, s));
        ss_note_blocked("pinned HtoD cudaMemcpyAsync", start);
    }
    add_kernel<<<256, 256, 0, s>>>(dev, WORDS, 1u);
    CHECK(cudaGetLastError());
    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        spin_kernel<<<1, 1, 0, s>>>(counters, 1, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpyAsync(out[round], dev, BYTES, cudaMemcpyDeviceToHost, s));
        ss_note_blocked("pinned DtoH cudaMemcpyAsync", start);
    }

    ss_wait(s);
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < WORDS; i += 4096) {
            checksum += out[round][i];
        }
    }
    const cudaStream_t used[] = {s};
    ss_finish(counters, checksum, used, 1);
    CHECK(cudaFree(dev));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(in));
    CHECK(cudaFreeHost(out[0]));
    CHECK(cudaFreeHost(out[1]));
    return 0;
}
