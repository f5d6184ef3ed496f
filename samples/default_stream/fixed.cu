/* fixed.cu: the same two streams, created non-blocking, and the bookkeeping kernel launched
 * on the first of them: nothing ties the streams together any more, so each runs its own
 * long and short steps back to back and the rounds overlap.
 * Usage: fixed [rounds] [long step us] [short step us] */
#include "../common.h"

#define WORKERS 32

/* Busy-waits 'ns' nanoseconds on the GPU's global timer, then counts the step in
 * counts[threadIdx.x]. */
static __global__ void step(unsigned *counts, unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
    counts[threadIdx.x] += 1;
}

/* Counts one round in rounds[threadIdx.x]. */
static __global__ void tally(unsigned *rounds)
{
    rounds[threadIdx.x] += 1;
}

int main(int argc, char **argv)
{
    int rounds = (int)arg_or(argc, argv, 1, 20);
    unsigned long long long_ns = (unsigned long long)arg_or(argc, argv, 2, 2000) * 1000;
    unsigned long long short_ns = (unsigned long long)arg_or(argc, argv, 3, 100) * 1000;
    unsigned *d = NULL, *h = NULL;
    cudaStream_t streams[2];
    cudaEvent_t zeroed, second_done;
    double start, total_ms;
    int ok = 1;
    CHECK(cudaMalloc(&d, 3 * WORKERS * sizeof(unsigned)));
    CHECK(cudaMallocHost(&h, 3 * WORKERS * sizeof(unsigned)));
    for (int s = 0; s < 2; s++) {
        CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    }
    CHECK(cudaEventCreateWithFlags(&zeroed, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&second_done, cudaEventDisableTiming));
    CHECK(cudaMemsetAsync(d, 0, 3 * WORKERS * sizeof(unsigned), streams[0]));
    CHECK(cudaEventRecord(zeroed, streams[0]));
    CHECK(cudaStreamWaitEvent(streams[1], zeroed, 0));

    start = now_ms();
    for (int r = 0; r < rounds; r++) {
        step<<<1, WORKERS, 0, streams[0]>>>(d, r % 2 == 0 ? long_ns : short_ns);
        step<<<1, WORKERS, 0, streams[1]>>>(d + WORKERS, r % 2 == 1 ? long_ns : short_ns);
        tally<<<1, WORKERS, 0, streams[0]>>>(d + 2 * WORKERS);
    }
    CHECK(cudaGetLastError());
    /* Read the counts back on the first stream once the second is done too; wait once. */
    CHECK(cudaEventRecord(second_done, streams[1]));
    CHECK(cudaStreamWaitEvent(streams[0], second_done, 0));
    CHECK(
        cudaMemcpyAsync(h, d, 3 * WORKERS * sizeof(unsigned), cudaMemcpyDeviceToHost, streams[0]));
    CHECK(cudaStreamSynchronize(streams[0]));
    total_ms = now_ms() - start;

    printf("%d rounds: %.3f ms (%.3f ms a round; a long step is %.3f ms)\n", rounds, total_ms,
           total_ms / rounds, long_ns / 1e6);
    for (int i = 0; i < 3 * WORKERS; i++) {
        ok = ok && h[i] == (unsigned)rounds;
    }
    printf("%s\n", ok ? "ok" : "FAILED");
    for (int s = 0; s < 2; s++) {
        CHECK(cudaStreamDestroy(streams[s]));
    }
    CHECK(cudaEventDestroy(zeroed));
    CHECK(cudaEventDestroy(second_done));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    return ok ? 0 : 1;
}
