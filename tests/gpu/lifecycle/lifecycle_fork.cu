/* lifecycle_fork.cu: forks before any CUDA call. The child runs a kernel, reads back one flag
 * and returns from main (so exit handlers run); the parent waits for it, then does the same on
 * its own (SYNC301). Under syncscope each process writes its own output (%p). */
#include "gpu_common.h"

#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    pid_t child;
    int status = 0;
    unsigned long long start;
    fflush(stdout);
    child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) {
        unsigned *counters = ss_counters_alloc();
        unsigned *d = counters; /* the flag is counters[0] */
        unsigned flag = 0;
        fprintf(stderr, "fork: child pid %ld\n", (long)getpid());
        spin_kernel<<<1, 1>>>(counters, 0, 500000);
        CHECK(cudaGetLastError());
        start = ss_now_ns();
        /* The child's readback: lifecycle_fork.child.expect, .child.light.expect say what. */
        CHECK(cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */
        ss_note_blocked("child: 4-byte cudaMemcpy DtoH", start);
        printf("child readback %u\n", flag);
        const cudaStream_t used[] = {0};
        ss_finish(counters, flag, used, 1);
        return 0;
    }
    if (waitpid(child, &status, 0) != child) {
        perror("waitpid");
        return 2;
    }
    printf("child %s %d\n", WIFEXITED(status) ? "exited" : "died of signal",
           WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    fflush(stdout);

    unsigned *counters = ss_counters_alloc();
    unsigned *d = counters; /* the flag is counters[0] */
    unsigned flag = 0;
    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */
    ss_note_blocked("parent: 4-byte cudaMemcpy DtoH", start);
    printf("parent readback %u\n", flag);
    const cudaStream_t used[] = {0};
    ss_finish(counters, flag, used, 1);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
