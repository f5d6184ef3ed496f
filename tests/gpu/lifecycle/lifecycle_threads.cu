/* lifecycle_threads.cu: 32 host threads, each with its own non-blocking stream: a kernel, one
 * 4 MiB cudaMemcpyAsync from pageable (malloc) memory behind it (SYNC201, 32 times at one
 * line), more kernels, then a wait by event polling. Every allocation happens in the main
 * thread before the workers start and is freed after they have finished. */
#include "gpu_common.h"

#include <pthread.h>
#include <string.h>

#define THREADS 32
#define BYTES (4u << 20)
#define WORDS (BYTES / sizeof(unsigned))

/* What one worker thread uses; all of it is allocated by main. */
typedef struct {
    unsigned *counters;
    int slot;
    unsigned *device;
    unsigned *host; /* pageable */
} worker_args;

static void *run_worker(void *arg)
{
    worker_args *w = (worker_args *)arg;
    unsigned *dst = w->device;
    const unsigned *src = w->host;
    cudaStream_t s;
    unsigned long long start;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    spin_kernel<<<1, 1, 0, s>>>(w->counters, w->slot, 200000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaMemcpyAsync(dst, src, BYTES, cudaMemcpyHostToDevice, s)); /* syncscope: SYNC201 */
    ss_note_blocked("pageable 4 MiB cudaMemcpyAsync HtoD", start);
    add_kernel<<<64, 256, 0, s>>>(w->device, WORDS, 1u);
    add_kernel<<<64, 256, 0, s>>>(w->device, WORDS, 1u);
    CHECK(cudaGetLastError());
    ss_wait(s);
    CHECK(cudaStreamDestroy(s));
    return NULL;
}

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    worker_args args[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        args[i].counters = counters;
        args[i].slot = i;
        args[i].host = (unsigned *)malloc(BYTES);
        if (args[i].host == NULL) {
            fprintf(stderr, "out of host memory\n");
            return 1;
        }
        for (size_t j = 0; j < WORDS; j++) {
            args[i].host[j] = (unsigned)(j % 1000u);
        }
        CHECK(cudaMalloc(&args[i].device, BYTES));
    }
    for (int i = 0; i < THREADS; i++) {
        if (pthread_create(&threads[i], NULL, run_worker, &args[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
    }
    /* Check one word per thread (each copied value plus 2). Nothing is pending any more. */
    unsigned long long checksum = 0;
    for (int i = 0; i < THREADS; i++) {
        unsigned word = 0;
        CHECK(cudaMemcpy(&word, args[i].device + 999, sizeof(word), cudaMemcpyDeviceToHost));
        checksum += word;
        CHECK(cudaFree(args[i].device));
        free(args[i].host);
    }
    const cudaStream_t used[] = {0};
    ss_finish(counters, checksum, used, 1);
    return 0;
}
