/* lifecycle_thread_exit.cu: a worker thread launches a kernel, reads back one flag (SYNC301)
 * and then calls exit(3) while the main thread waits for it in pthread_join. The exit status
 * is the worker's 3, and syncscope's results are written from the worker's exit.
 * (While exit() runs, the CUDA runtime tears itself down: a thread still calling CUDA at that
 * moment may crash, with or without syncscope, so the main thread makes no CUDA call then.) */
#include "gpu_common.h"

#include <pthread.h>

static unsigned *counters;

/* The worker: the readback, then the end of the process. */
static void *read_then_exit(void *arg)
{
    unsigned flag = 0;
    unsigned long long start;
    (void)arg;
    /* The first launch of a kernel loads its module and returns only when the kernel may have
     * finished: a first, empty launch, then 20 ms of work the readback must wait for. */
    spin_kernel<<<1, 1>>>(counters, 1, 0);
    spin_kernel<<<1, 1>>>(counters, 0, 20000000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaMemcpy(&flag, counters, 4, cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */
    ss_note_blocked("4-byte cudaMemcpy DtoH", start);
    printf("readback %u\n", flag);
    printf("worker calls exit(3)\n");
    fflush(stdout);
    exit(3);
    return NULL;
}

int main(void)
{
    pthread_t worker;
    counters = ss_counters_alloc();
    if (pthread_create(&worker, NULL, read_then_exit, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    pthread_join(worker, NULL);
    printf("the worker's exit(3) did not end the program\n");
    return 1;
}
