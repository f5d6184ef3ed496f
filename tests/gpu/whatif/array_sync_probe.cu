/* array_sync_probe.cu: whether cudaMallocArray, cudaFreeArray, cudaMalloc3DArray and cudaFree
 * wait for work queued on the device (as lint's rule table must know: docs/lint.md). Each call
 * is made while a kernel of about 'ms' milliseconds runs on a non-blocking stream, then on the
 * legacy stream, and its own time is printed:
 *   probe CALL STREAM us
 * A call that waits for the device returns after about the kernel's time; one that does not, at
 * once. Usage: array_sync_probe [ms] */
#include "whatif_common.h"

static __global__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

typedef enum { MALLOC_ARRAY, FREE_ARRAY, MALLOC_3D_ARRAY, FREE_PLAIN } probe_call;
static const char *const names[] = {"cudaMallocArray", "cudaFreeArray", "cudaMalloc3DArray",
                                    "cudaFree"};

static double probe(probe_call call, cudaStream_t s, long long cycles)
{
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t arr = NULL;
    void *plain = NULL;
    if (call == FREE_ARRAY)
        CHECK(cudaMallocArray(&arr, &desc, 1024, 1024));
    if (call == FREE_PLAIN)
        CHECK(cudaMalloc(&plain, 1 << 20));
    CHECK(cudaDeviceSynchronize());
    spin<<<1, 1, 0, s>>>(cycles);
    double start = now_us();
    switch (call) {
    case MALLOC_ARRAY:
        CHECK(cudaMallocArray(&arr, &desc, 1024, 1024));
        break;
    case FREE_ARRAY:
        CHECK(cudaFreeArray(arr));
        arr = NULL;
        break;
    case MALLOC_3D_ARRAY:
        CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(256, 256, 16)));
        break;
    case FREE_PLAIN:
        CHECK(cudaFree(plain));
        break;
    }
    double us = now_us() - start;
    CHECK(cudaDeviceSynchronize());
    if (arr != NULL)
        CHECK(cudaFreeArray(arr));
    return us;
}

int main(int argc, char **argv)
{
    int ms = (int)arg_or(argc, argv, 1, 20);
    int rate_khz = 0;
    cudaStream_t s;
    CHECK(cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0));
    long long cycles = (long long)rate_khz * ms;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    spin<<<1, 1, 0, s>>>(1000);
    CHECK(cudaDeviceSynchronize());
    for (int call = MALLOC_ARRAY; call <= FREE_PLAIN; call++) {
        printf("probe %s non-blocking %.0f\n", names[call], probe((probe_call)call, s, cycles));
        printf("probe %s legacy %.0f\n", names[call], probe((probe_call)call, 0, cycles));
    }
    printf("kernel %d ms\nok\n", ms);
    return 0;
}
