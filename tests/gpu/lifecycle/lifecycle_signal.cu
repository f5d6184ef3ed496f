/* lifecycle_signal.cu: a program that reads back one flag (SYNC301), queues more work and then
 * ends by a signal: SIGTERM or SIGINT left at their default action (it dies of the signal), or
 * SIGTERM caught by a handler of its own that prints a line and calls exit(5). With "malloc"
 * the main thread allocates and frees in a loop until a second thread sends it SIGTERM, so the
 * signal lands while it is inside the allocator (holding its lock, most of the time). With
 * "exit" it ends normally instead. Usage: lifecycle_signal term|int|handler|malloc|exit */
#include "gpu_common.h"

#include <pthread.h>
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

static pthread_t main_thread;
static volatile sig_atomic_t looping;

/* Sends the main thread SIGTERM 20 ms after its allocation loop started. */
static void *send_sigterm(void *unused)
{
    struct timespec pause = {0, 20000000};
    (void)unused;
    while (!looping) {
        nanosleep(&pause, NULL);
    }
    nanosleep(&pause, NULL);
    pthread_kill(main_thread, SIGTERM);
    return NULL;
}

/* Allocates and frees blocks too large for the allocator's per-thread cache and small enough
 * for its heap (each takes the arena lock), until the process ends. */
static void malloc_loop(void)
{
    void *blocks[64] = {0};
    unsigned seed = 12345;
    looping = 1;
    for (;;) {
        seed = seed * 1103515245u + 12345u;
        unsigned slot = (seed >> 16) % 64;
        size_t size = 4096 + (seed >> 8) % (120u << 10);
        free(blocks[slot]);
        blocks[slot] = malloc(size);
        if (blocks[slot] != NULL) {
            memset(blocks[slot], (int)slot, 64);
        }
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int signo;
    if (strcmp(mode, "term") == 0 || strcmp(mode, "handler") == 0 ||
        strcmp(mode, "malloc") == 0) {
        signo = SIGTERM;
    } else if (strcmp(mode, "int") == 0) {
        signo = SIGINT;
    } else if (strcmp(mode, "exit") == 0) {
        signo = 0;
    } else {
        fprintf(stderr, "usage: %s term|int|handler|malloc|exit\n", argv[0]);
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
    if (strcmp(mode, "malloc") == 0) {
        pthread_t sender;
        printf("raising SIGTERM in a malloc loop\n");
        fflush(stdout);
        main_thread = pthread_self();
        if (pthread_create(&sender, NULL, send_sigterm, NULL) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 2;
        }
        malloc_loop();
    }
    printf("raising %s\n", signo == SIGTERM ? "SIGTERM" : "SIGINT");
    fflush(stdout);
    kill(getpid(), signo);
    /* Not reached when the signal ends the program; a handler that returned would get here. */
    sleep(10);
    printf("the signal did not end the program\n");
    return 1;
}
