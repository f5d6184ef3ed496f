// teardown_by_name.cu: a loop of a function whose name says it tears down (a word that starts
// with finalize, cleanup, teardown, shutdown or destroy; 'cleanUp' and 'shutDown' too) runs when
// the program or a communicator is torn down, as a destructor's does: what it reaches is
// teardown, a note (NCCL's ncclRmaCeFinalize -> ncclCommWindowDeregister). The same function
// called from the loop of a function named otherwise stays a warning.
#include <cuda_runtime.h>

__global__ void clear(int *p) { p[threadIdx.x] = 0; }

void windowDeregister(int *win)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    clear<<<1, 32, 0, s>>>(win);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at teardown_by_name.cu:21 runs while it tears down: 'rmaFinalize' tears down (its name says so)
    cudaStreamDestroy(s);
}

void rmaFinalize(int **wins, int n)
{
    for (int i = 0; i < n; i++)
        windowDeregister(wins[i]);
}

void pool_cleanUp(int *bufs, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        clear<<<1, 32, 0, s>>>(bufs + 32 * i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at line 27 runs while it tears down: 'pool_cleanUp' tears down (its name says so)
    }
}

void step(int *bufs, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        clear<<<1, 32, 0, s>>>(bufs + 32 * i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}
