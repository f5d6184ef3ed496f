/* stream_race.cu: streams destroyed on one thread while another synchronizes the whole device
 * (docs/run.md, "Modes": what the light mode asks the driver about live streams). A destroyer
 * thread creates a non-blocking stream, gives it a short kernel and destroys it at once, its
 * work still pending, ROUNDS times; meanwhile the main thread alternates cudaDeviceSynchronize
 * and a 4-byte synchronous cudaMemcpy, the device-wide calls at whose entry and exit the light
 * mode asks the driver about every live stream. Prints "rounds N" and the kernels' count, the
 * same bare and observed (stream_race.py compares them). On the H200 (driver 580.159.04) a
 * cuStreamQuery of a stream after cudaStreamDestroy returned, its work still pending, ended
 * the process with SIGSEGV: a question about a destroyed stream is a crash, not an error. */
#include "gpu_common.h"

#include <pthread.h>

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

int main(void)
{
    counters = ss_counters_alloc();
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
