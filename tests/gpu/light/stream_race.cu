/* stream_race.cu: streams destroyed on one thread while another synchronizes the whole device
 * (docs/run.md, "Modes": the light mode's known race). A destroyer thread creates a
 * non-blocking stream, gives it a short kernel and destroys it at once, its work still
 * pending, ROUNDS times; meanwhile the main thread alternates cudaDeviceSynchronize and a
 * 4-byte synchronous cudaMemcpy, the device-wide calls at whose entry and exit the light mode
 * asks the driver about every live stream. Prints "rounds N" and the kernels' count, the same
 * bare and observed (stream_race.py compares them).
 *
 * With the argument "query" it asks the driver (cuStreamQuery) about a stream after
 * cudaStreamDestroy returned, with its work still pending and once complete, and whether the
 * next stream created gets the same handle: what a query that lost the race would get. */
#include "gpu_common.h"

#include <cuda.h>
#include <pthread.h>
#include <string.h>

#define ROUNDS 3000
#define KERNEL_NS 20000ull

static unsigned *counters;
static volatile int destroyer_done;

static void *destroy_streams(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        cudaStream_t s;
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        spin_kernel<<<1, 1, 0, s>>>(counters, 0, KERNEL_NS);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamDestroy(s)); /* the kernel still pending: released when it completes */
    }
    __atomic_store_n(&destroyer_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static const char *result_name(CUresult r)
{
    const char *name = NULL;
    return cuGetErrorName(r, &name) == CUDA_SUCCESS && name != NULL ? name : "unknown";
}

/* The driver's answers about a destroyed stream's handle. */
static int query_destroyed(void)
{
    cudaStream_t s, next;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    spin_kernel<<<1, 1, 0, s>>>(counters, 0, 50000000ull); /* 50 ms */
    CHECK(cudaGetLastError());
    CHECK(cudaStreamDestroy(s));
    printf("query pending after destroy: %s\n", result_name(cuStreamQuery((CUstream)s)));
    fflush(stdout);
    CHECK(cudaDeviceSynchronize());
    printf("query complete after destroy: %s\n", result_name(cuStreamQuery((CUstream)s)));
    fflush(stdout);
    CHECK(cudaStreamCreateWithFlags(&next, cudaStreamNonBlocking));
    printf("next stream reuses the handle: %s\n", next == s ? "yes" : "no");
    printf("query reused or freed handle: %s\n", result_name(cuStreamQuery((CUstream)s)));
    CHECK(cudaStreamDestroy(next));
    return 0;
}

int main(int argc, char **argv)
{
    counters = ss_counters_alloc();
    if (argc > 1 && strcmp(argv[1], "query") == 0)
        return query_destroyed();
    unsigned *device;
    unsigned host = 0;
    CHECK(cudaMalloc(&device, sizeof host));
    CHECK(cudaMemset(device, 0, sizeof host));
    pthread_t destroyer;
    if (pthread_create(&destroyer, NULL, destroy_streams, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    while (!__atomic_load_n(&destroyer_done, __ATOMIC_ACQUIRE)) {
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&host, device, sizeof host, cudaMemcpyDeviceToHost));
    }
    pthread_join(destroyer, NULL);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(device));
    printf("rounds %d\n", ROUNDS);
    ss_finish(counters, 0, NULL, 0); /* "result 3000": every kernel ran */
    return 0;
}
