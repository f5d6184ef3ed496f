// exit_flag_recovery.cu: the flag rule of exit_flag_direct.cu where the unit calls a toolkit
// function with the arguments of an older toolkit (CUDA 12's cudaMemPrefetchAsync(p, n, dev,
// stream), gone in CUDA 13): clang keeps the call it cannot resolve as an expression naming the
// function, and the memory given to it is given to the toolkit still (session 46, gpu_ext's
// breadth-first search, which prefetches its managed arrays so). A host function lint cannot
// resolve is not the toolkit's: no flag note (the function's parse error makes the wait an
// "unsure" note of its own).
#include <cuda_runtime.h>

__global__ void relax(int *level, int *flag, int depth, int n) // expect-error: no matching function for call to 'cudaMemPrefetchAsync'
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && level[i] == depth) {
        level[i] = depth + 1;
        *flag = 1;
    }
}

int prefetched_levels(int n, int dev, cudaStream_t stream)
{
    int *level, *flag;
    cudaMallocManaged(&level, sizeof(int) * n);
    cudaMallocManaged(&flag, sizeof(int));
    cudaMemPrefetchAsync(level, sizeof(int) * n, dev, 0);
    cudaMemPrefetchAsync(flag, sizeof(int), dev, 0);
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: which writes 'flag', managed memory that the host reads directly (line 32); the loop only tests it
        changed = *flag;
        depth++;
    }
    cudaFree(level);
    cudaFree(flag);
    return depth;
}

void keep(int *p, int tag);
void keep(float *p, int tag);

int kept_levels(int n, cudaStream_t stream)
{
    int *level, *flag;
    cudaMallocManaged(&level, sizeof(int) * n);
    cudaMallocManaged(&flag, sizeof(int));
    keep(flag, "tag"); // expect-error: no matching function for call to 'keep'
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-no-message: inherent as written
        changed = *flag;
        depth++;
    }
    cudaFree(level);
    cudaFree(flag);
    return depth;
}
