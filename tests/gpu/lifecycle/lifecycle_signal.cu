/* lifecycle_signal.cu: a program that reads back one flag (SYNC301), queues more work and then
 * ends by a signal: SIGTERM or SIGINT left at their default action (it dies of the signal), or
 * SIGTERM caught by a handler of its own that prints a line and calls exit(5). With "exit" it
 * ends normally instead. Usage: lifecycle_signal term|int|handler|exit */
#include "gpu_common.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The program's own SIGTERM handler: one line on stdout (write(2): async-signal-safe), then
 * exit(5), which runs the exit handlers (syncscope's among them). */
static void on_sigterm(int signo)
{
    static const char line[] = "handler: SIGTERM, exit(5)\n";
    (void)signo;
    if (write(STDOUT_FILENO, line, sizeof line - 1) < 0)
        _exit(6);
    exit(5);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int signo;
    if (strcmp(mode, "term") == 0 || strcmp(mode, "handler") == 0) {
        signo = SIGTERM;
    } else if (strcmp(mode, "int") == 0) {
        signo = SIGINT;
    } else if (strcmp(mode, "exit") == 0) {
        signo = 0;
    } else {
        fprintf(stderr, "usage: %s term|int|handler|exit\n", argv[0]);
        return 2;
    }
    if (strcmp(mode, "handler") == 0) {
        /* Installed after syncscope's constructor, so it replaces syncscope's handler. */
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_sigterm;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGTERM, &action, NULL) != 0) {
            perror("sigaction");
            return 2;
        }
    }

    unsigned *counters = ss_counters_alloc();
    unsigned *d = counters; /* the flag is counters[0] */
    unsigned flag = 0;
    unsigned long long start;
    spin_kernel<<<1, 1>>>(counters, 0, 500000);
    CHECK(cudaGetLastError());
    start = ss_now_ns();
    CHECK(cudaMemcpy(&flag, d, sizeof flag, cudaMemcpyDeviceToHost)); /* syncscope: SYNC301 */
    ss_note_blocked("4-byte cudaMemcpy DtoH", start);
    printf("readback %u\n", flag);

    if (signo == 0) {
        const cudaStream_t used[] = {0};
        ss_finish(counters, flag, used, 1);
        return 0;
    }
    /* Work still queued on the GPU (50 ms) when the signal arrives. */
    spin_kernel<<<1, 1>>>(counters, 1, 50000000ull);
    CHECK(cudaGetLastError());
    printf("raising %s\n", signo == SIGTERM ? "SIGTERM" : "SIGINT");
    fflush(stdout);
    kill(getpid(), signo);
    /* Not reached when the signal ends the program; a handler that returned would get here. */
    sleep(10);
    printf("the signal did not end the program\n");
    return 1;
}
