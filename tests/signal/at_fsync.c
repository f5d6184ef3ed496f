/* at_fsync.c: preloaded before libsyncscope.so by run_signal.py, a stand-in for a signal that
 * lands while syncscope writes its outputs: the first fsync() of the process (the finisher
 * syncs each output before naming it) sends the process the signal SS_TEST_SIGNAL_AT_FSYNC
 * names ("INT", "TERM" or "KILL"), waits up to 2 s for it to be taken, then syncs as asked.
 * Unset: fsync() only. */
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int fsync(int fd)
{
    static atomic_int sent;
    const char *name = getenv("SS_TEST_SIGNAL_AT_FSYNC");
    if (name != NULL && !atomic_exchange(&sent, 1)) {
        int signo = strcmp(name, "KILL") == 0  ? SIGKILL
                    : strcmp(name, "INT") == 0 ? SIGINT
                                               : SIGTERM;
        kill(getpid(), signo);
        /* The signal goes to the process: where the syncing thread blocks it, another thread
         * takes it, at the scheduler's pace. Hold the sync until it has (the program ends
         * there, or not, which is what the cases check), so that a loaded machine cannot let
         * the write finish first. */
        struct timespec start, now;
        clock_gettime(CLOCK_MONOTONIC, &start);
        do {
            struct timespec step = {0, 10 * 1000 * 1000};
            nanosleep(&step, NULL);
            clock_gettime(CLOCK_MONOTONIC, &now);
        } while (signo != SIGKILL && now.tv_sec - start.tv_sec < 2);
    }
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return real != NULL ? real(fd) : 0;
}
