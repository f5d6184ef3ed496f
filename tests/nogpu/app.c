/* app.c: a tiny program for the no-GPU interposer test: writes to stdout and stderr, makes
 * CUDA calls when built with nvcc (SS_WITH_CUDA), and ends as its argument says. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef SS_WITH_CUDA
#include <cuda_runtime.h>
#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    printf("app start %s\n", mode);
    fprintf(stderr, "app stderr line\n");
#ifdef SS_WITH_CUDA
    int count = -1;
    errno = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    printf("cudaGetDeviceCount -> %d (%s), count %d, errno %d\n", (int)rc, cudaGetErrorName(rc),
           count, errno);
    void *p = NULL;
    rc = cudaMalloc(&p, 1024);
    printf("cudaMalloc -> %d\n", (int)rc);
#endif
    errno = 0;
    FILE *f = fopen("/nonexistent/syncscope-test", "r");
    printf("fopen %s errno %d\n", f == NULL ? "failed" : "worked", errno);
    fflush(stdout);
    if (strcmp(mode, "exit3") == 0)
        exit(3);
    if (strcmp(mode, "term") == 0) {
        kill(getpid(), SIGTERM);
        sleep(5);
        printf("not reached\n");
    }
    printf("app end\n");
    return 0;
}
