/* empty_launch.cu: the launch-bound extreme: N launches of an empty kernel on one stream,
 * timed with a host clock around the launch loop and the final synchronization.
 * Usage: empty_launch [launches (200000)] [mixed]
 * "mixed" launches, in turn, eight different kernels with long template names and a
 * 256-byte argument, as framework code does (a tool's cost per launch may depend on both).
 * The launches are timed in BLOCKS blocks (each ending with a synchronization); the result is
 * the median block's time per launch, which a burst of noise from other processes on the
 * machine moves less than the total.
 * Prints "bench: ns_per_launch VALUE LAUNCHES". */
#include "bench_common.h"

#include <string.h>

#define WARMUP_LAUNCHES 2000
#define BLOCKS 20

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Does nothing: the cost measured is the launch itself. */
static __global__ void empty(void)
{
}

/* A 256-byte by-value argument, like a framework's tensor descriptors. */
struct wide_args {
    long long values[32];
};

namespace framework_like_namespace
{
template <int Variant, typename Scalar, typename Accumulator>
__global__ void elementwise_kernel_with_a_long_templated_name(wide_args args)
{
    (void)args;
}
} /* namespace framework_like_namespace */

#define MIXED_KERNELS 8

/* Launches kernel number `which` (0..MIXED_KERNELS-1) of the mixed set. */
static void launch_mixed(int which, cudaStream_t stream, const wide_args &args)
{
    using namespace framework_like_namespace;
    switch (which) {
    case 0:
        elementwise_kernel_with_a_long_templated_name<0, float, double><<<1, 1, 0, stream>>>(args);
        break;
    case 1:
        elementwise_kernel_with_a_long_templated_name<1, float, float><<<1, 1, 0, stream>>>(args);
        break;
    case 2:
        elementwise_kernel_with_a_long_templated_name<2, double, double><<<1, 1, 0, stream>>>(args);
        break;
    case 3:
        elementwise_kernel_with_a_long_templated_name<3, int, long long><<<1, 1, 0, stream>>>(args);
        break;
    case 4:
        elementwise_kernel_with_a_long_templated_name<4, short, int><<<1, 1, 0, stream>>>(args);
        break;
    case 5:
        elementwise_kernel_with_a_long_templated_name<5, char, int><<<1, 1, 0, stream>>>(args);
        break;
    case 6:
        elementwise_kernel_with_a_long_templated_name<6, unsigned, float>
            <<<1, 1, 0, stream>>>(args);
        break;
    default:
        elementwise_kernel_with_a_long_templated_name<7, float, unsigned>
            <<<1, 1, 0, stream>>>(args);
        break;
    }
}

/* One launch of the chosen shape. */
static void launch_one(int mixed, long i, cudaStream_t stream, const wide_args &args)
{
    if (mixed)
        launch_mixed((int)(i % MIXED_KERNELS), stream, args);
    else
        empty<<<1, 1, 0, stream>>>();
}

int main(int argc, char **argv)
{
    long launches = arg_or(argc, argv, 1, 200000);
    if (launches < BLOCKS) {
        fprintf(stderr, "empty_launch: launches must be at least %d (one per timed block)\n",
                BLOCKS);
        return 2;
    }
    int mixed = argc > 2 && strcmp(argv[2], "mixed") == 0;
    if (argc > 2 && !mixed) {
        fprintf(stderr, "empty_launch: the second argument can only be 'mixed'\n");
        return 2;
    }
    wide_args args;
    memset(&args, 0, sizeof args);
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    /* Untimed: loads the kernel and lets any tool set up its buffers. */
    for (int i = 0; i < WARMUP_LAUNCHES; i++) {
        launch_one(mixed, i, stream, args);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(stream));

    double per_block[BLOCKS];
    double elapsed = 0;
    long done = 0;
    for (int b = 0; b < BLOCKS; b++) {
        long block = launches / BLOCKS + (b < launches % BLOCKS ? 1 : 0);
        double t0 = now_ns();
        for (long i = 0; i < block; i++) {
            launch_one(mixed, done + i, stream, args);
        }
        CHECK(cudaStreamSynchronize(stream));
        double spent = now_ns() - t0;
        elapsed += spent;
        done += block;
        per_block[b] = block > 0 ? spent / (double)block : 0;
    }
    CHECK(cudaGetLastError());
    qsort(per_block, BLOCKS, sizeof per_block[0], compare_doubles);
    double median = (per_block[BLOCKS / 2 - 1] + per_block[BLOCKS / 2]) / 2;

    printf("%ld %s launches on one stream: %.1f ms, %.1f ns per launch (median of %d blocks: "
           "%.1f)\n",
           launches, mixed ? "mixed-kernel" : "empty-kernel", elapsed / 1e6,
           elapsed / (double)launches, BLOCKS, median);
    bench_result("ns_per_launch", median, (unsigned long long)launches);
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
