/* fork_child.cu: forks before any CUDA call; the child and then the parent each run a kernel
 * and copy its result back. Under syncscope both must finish exactly as without it, and each
 * process writes its own output. */
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

static __global__ void add_one(int *v)
{
    *v += 1;
}

static int work(const char *who)
{
    int *d = nullptr, h = 41;
    if (cudaMalloc(&d, sizeof h) != cudaSuccess)
        return 1;
    cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
    add_one<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("%s %d\n", who, h);
    fflush(stdout);
    return h == 42 ? 0 : 1;
}

int main()
{
    pid_t child = fork();
    if (child < 0)
        return 2;
    if (child == 0)
        _exit(work("child"));
    int status = 0;
    waitpid(child, &status, 0);
    int rc = work("parent");
    return rc != 0 ? rc : (WIFEXITED(status) ? WEXITSTATUS(status) : 3);
}
