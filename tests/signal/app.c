/* app.c: the observed program of the signal tests (run_signal.py): makes "CUDA calls" through
 * the fake CUPTI that libsyncscope.so loaded (SYNCSCOPE_CUPTI_PATH), writes to stdout, and
 * ends as its argument says. Usage: app MODE, MODE one of
 *   exit     two calls, returns 0
 *   term     two calls, then SIGTERM to itself (int: SIGINT)
 *   early    SIGTERM to itself before any call
 *   handler  its own SIGTERM handler, which prints a line and calls exit(5); then SIGTERM
 *   malloc   one call, then allocates and frees in a loop until a second thread sends the
 *            main thread SIGTERM
 *   fork     one call, fork; the child makes one call and sends itself SIGTERM; the parent
 *            prints how the child ended and returns 0
 * Each line it prints is flushed at once. "flusher threads: N" counts the threads named
 * "syncscope" (libsyncscope.so's flusher). */
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int (*fake_call)(const char *name);

static void say(const char *line)
{
    fputs(line, stdout);
    fflush(stdout);
}

/* Finds fake_cupti_call in the fake CUPTI that the interposer loaded; exits 2 without it. */
static void find_fake(void)
{
    const char *path = getenv("SYNCSCOPE_CUPTI_PATH");
    void *fake = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (fake != NULL)
        *(void **)&fake_call = dlsym(fake, "fake_cupti_call");
    if (fake_call == NULL) {
        fprintf(stderr, "app: the fake CUPTI is not loaded (SYNCSCOPE_CUPTI_PATH, LD_PRELOAD)\n");
        exit(2);
    }
}

static void call(const char *name)
{
    if (fake_call(name) != 0) {
        fprintf(stderr, "app: fake_cupti_call(%s) failed\n", name);
        exit(2);
    }
}

static int flusher_threads(void)
{
    DIR *tasks = opendir("/proc/self/task");
    int count = 0;
    struct dirent *d;
    while (tasks != NULL && (d = readdir(tasks)) != NULL) {
        char path[300], comm[64] = "";
        if (d->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", d->d_name);
        FILE *f = fopen(path, "r");
        if (f != NULL && fgets(comm, sizeof comm, f) != NULL && strcmp(comm, "syncscope\n") == 0)
            count++;
        if (f != NULL)
            fclose(f);
    }
    if (tasks != NULL)
        closedir(tasks);
    return count;
}

static void say_flushers(const char *when)
{
    printf("%s: flusher threads: %d\n", when, flusher_threads());
    fflush(stdout);
}

static void on_sigterm(int signo)
{
    static const char line[] = "handler: SIGTERM, exit(5)\n";
    (void)signo;
    if (write(STDOUT_FILENO, line, sizeof line - 1) < 0)
        _exit(6);
    exit(5);
}

static atomic_int looping;
static pthread_t main_thread;

static void *send_sigterm(void *unused)
{
    (void)unused;
    struct timespec pause = {0, 20000000};
    while (!atomic_load(&looping))
        nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    pthread_kill(main_thread, SIGTERM);
    return NULL;
}

/* Allocates and frees blocks too large for the per-thread cache and small enough for the heap
 * (the allocator takes its arena lock for each) until the process ends. */
static void malloc_loop(void)
{
    void *blocks[64] = {0};
    unsigned seed = 12345;
    atomic_store(&looping, 1);
    for (;;) {
        seed = seed * 1103515245u + 12345u;
        unsigned slot = (seed >> 16) % 64;
        size_t size = 4096 + (seed >> 8) % (120u << 10);
        free(blocks[slot]);
        blocks[slot] = malloc(size);
        if (blocks[slot] != NULL)
            memset(blocks[slot], (int)slot, 64);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    printf("app: %s\n", mode);
    fflush(stdout);
    if (strcmp(mode, "early") == 0) {
        kill(getpid(), SIGTERM);
        sleep(10);
        say("app: not reached\n");
        return 1;
    }
    find_fake();
    if (strcmp(mode, "handler") == 0) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_sigterm;
        sigemptyset(&action.sa_mask);
        sigaction(SIGTERM, &action, NULL);
    }
    say_flushers("before");
    call("cudaDeviceSynchronize_v3020");
    say_flushers("after");
    if (strcmp(mode, "malloc") == 0) {
        main_thread = pthread_self();
        pthread_t sender;
        if (pthread_create(&sender, NULL, send_sigterm, NULL) != 0)
            return 2;
        say("app: malloc loop\n");
        malloc_loop();
    }
    if (strcmp(mode, "fork") == 0) {
        pid_t child = fork();
        if (child == 0) {
            say_flushers("child before");
            call("cudaDeviceSynchronize_v3020");
            say_flushers("child after");
            kill(getpid(), SIGTERM);
            sleep(10);
            _exit(1);
        }
        int status = 0;
        if (child < 0 || waitpid(child, &status, 0) != child)
            return 2;
        printf("app: child %s %d\n", WIFSIGNALED(status) ? "died of signal" : "exited",
               WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        fflush(stdout);
        return 0;
    }
    call("cudaStreamSynchronize_v3020");
    if (strcmp(mode, "exit") == 0) {
        say("app: end\n");
        return 0;
    }
    int signo = strcmp(mode, "int") == 0 ? SIGINT : SIGTERM;
    printf("app: raising %s\n", signo == SIGINT ? "SIGINT" : "SIGTERM");
    fflush(stdout);
    kill(getpid(), signo);
    sleep(10);
    say("app: not reached\n");
    return 1;
}
