/* lifecycle_thread_exit.cu: reads back one flag (SYNC301), then a worker thread calls exit(3)
 * while the main thread is busy in a loop of CUDA calls (memsets and queries on a non-blocking
 * stream, none of which can become a finding). The exit status is the worker's 3. */
#include "gpu_common.h"

#include <pthread.h>

/* The worker: lets the main thread's loop run for 100 ms, then ends the process. */
static void *exit_later(void *arg)
{
    struct timespec pause = {0, 100000000};
    (void)arg;
    nanosleep(&pause, NULL);
    exit(3);
    return NULL;
}

int main(void)
{
    unsigned *counters = ss_counters_alloc();
    unsigned *d = counters; /* the flag is counters[0] */
    unsigned *scratch = NULL;
    unsigned flag = 0;
    unsigned long long start;
    cudaStream_t s;
    pthread_t worker;
    CHECK(cudaMalloc(&scratch, sizeof(unsigned)));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */
    ss_note_blocked("4-byte cudaMemcpy DtoH", start);
    printf("readback %u\n", flag);
    printf("worker calls exit(3)\n");
    fflush(stdout);

    if (pthread_create(&worker, NULL, exit_later, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    /* Results are ignored on purpose: once exit() has begun on the worker, the runtime may
     * refuse calls (cudaErrorCudartUnloading), and this thread must not end the process. */
    start = ss_now_ns();
    for (unsigned i = 0; ss_now_ns() - start < 30000000000ull; i++) {
        (void)cudaMemsetAsync(scratch, (int)(i & 0xffu), sizeof(unsigned), s);
        (void)cudaStreamQuery(s);
    }
    printf("the worker's exit(3) did not end the program\n");
    return 1;
}
