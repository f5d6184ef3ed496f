// teardown_reclaim.cu: a function whose name has a word that starts with reclaim or deinit
// ('DeInit' too: teardown, not the set-up word 'Init') gives back what set-up took, as finalize
// and cleanup do: its loop runs while it tears down, and what the loop reaches is a note (NCCL's
// commReclaim -> commCleanup -> ncclDevrFinalize, its wait two calls down). Names with free or
// release are not taken: per-step code frees and releases (a pool's blocks): warnings.
#include <cuda_runtime.h>

__global__ void zero(int *p) { p[threadIdx.x] = 0; }

void devrFinalize(int *table)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    zero<<<1, 32, 0, s>>>(table);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at teardown_reclaim.cu:28 runs while it tears down: 'commReclaim' tears down (its name says so)
    cudaStreamDestroy(s);
}

void commCleanup(int *table) { devrFinalize(table); }

struct Comm {
    int *table;
    Comm *next;
};

void commReclaim(Comm *head)
{
    for (Comm *c = head; c; c = c->next)
        commCleanup(c->table);
}

void lanes_deinit(int *lanes, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        zero<<<1, 32, 0, s>>>(lanes + 32 * i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at line 34 runs while it tears down: 'lanes_deinit' tears down (its name says so)
    }
}

void free_blocks(int *blocks, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        zero<<<1, 32, 0, s>>>(blocks + 32 * i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void releaseBatch(int *blocks, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        zero<<<1, 32, 0, s>>>(blocks + 32 * i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning
    }
}

void lanesDeInit(int *lanes, cudaStream_t s, int n)
{
    for (int i = 0; i < n; i++) {
        zero<<<1, 32, 0, s>>>(lanes + 32 * i);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: teardown: the loop at line 58 runs while it tears down: 'lanesDeInit' tears down (its name says so)
    }
}
