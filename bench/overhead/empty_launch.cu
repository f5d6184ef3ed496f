/* empty_launch.cu: the launch-bound extreme: N launches of an empty kernel on one stream,
 * timed with a host clock around the launch loop and the final synchronization.
 * Usage: empty_launch [launches (200000)]
 * Prints "bench: ns_per_launch VALUE LAUNCHES". */
#include "bench_common.h"

#define WARMUP_LAUNCHES 2000

/* Does nothing: the cost measured is the launch itself. */
static __global__ void empty(void)
{
}

int main(int argc, char **argv)
{
    long launches = arg_or(argc, argv, 1, 200000);
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    /* Untimed: loads the kernel and lets any tool set up its buffers. */
    for (int i = 0; i < WARMUP_LAUNCHES; i++) {
        empty<<<1, 1, 0, stream>>>();
    }
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(stream));

    double t0 = now_ns();
    for (long i = 0; i < launches; i++) {
        empty<<<1, 1, 0, stream>>>();
    }
    CHECK(cudaStreamSynchronize(stream));
    double elapsed = now_ns() - t0;
    CHECK(cudaGetLastError());

    printf("%ld empty-kernel launches on one stream: %.1f ms, %.1f ns per launch\n", launches,
           elapsed / 1e6, elapsed / (double)launches);
    bench_result("ns_per_launch", elapsed / (double)launches, (unsigned long long)launches);
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
