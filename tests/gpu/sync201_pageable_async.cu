/* sync201_pageable_async.cu: 16 MiB cudaMemcpyAsync to and from pageable (malloc) memory,
 * each behind a 300 us kernel on the same non-blocking stream: the calls hold the host
 * until the kernel has finished and the copy is done (SYNC201, twice per line). */
#include "gpu_common.h"

#include <string.h>

#define BYTES (16u << 20)
#define WORDS (BYTES / sizeof(unsigned))

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *in = (unsigned *)malloc(BYTES);  /* pageable */
    unsigned *out = (unsigned *)malloc(BYTES); /* pageable */
    unsigned *dev = NULL;
    unsigned long long checksum = 0;
    cudaStream_t s;
    if (in == NULL || out == NULL) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < WORDS; i++) {
        in[i] = (unsigned)(i % 1000u);
    }
    memset(out, 0, BYTES);
    CHECK(cudaMalloc(&dev, BYTES));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpyAsync(dev, in, BYTES, cudaMemcpyHostToDevice, s)); /* syncscope: SYNC201 */
        ss_note_blocked("pageable HtoD cudaMemcpyAsync", start);
    }
    add_kernel<<<256, 256, 0, s>>>(dev, WORDS, 1u);
    CHECK(cudaGetLastError());
    for (int round = 0; round < 2; round++) {
        unsigned long long start;
        spin_kernel<<<1, 1, 0, s>>>(counters, 1, 300000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        CHECK(cudaMemcpyAsync(out, dev, BYTES, cudaMemcpyDeviceToHost, s)); /* syncscope: SYNC201 */
        ss_note_blocked("pageable DtoH cudaMemcpyAsync", start);
        for (size_t i = 0; i < WORDS; i += 4096) {
            checksum += out[i];
        }
    }

    const cudaStream_t used[] = {s};
    ss_finish(counters, checksum, used, 1);
    CHECK(cudaFree(dev));
    CHECK(cudaStreamDestroy(s));
    free(in);
    free(out);
    return 0;
}
