// exit_flag_ptds.cu: the flag rule of exit_flag_direct.cu in a unit compiled with the per-thread
// default stream (session 46's review): a wait for the whole device waits for every host thread's
// default stream, not this thread's alone, and stays a warning; the wait for this thread's
// stream (cudaStreamPerThread) is a note.
// lint-args: -DCUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime.h>

__global__ void relax(int *level, int *flag, int depth, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && level[i] == depth) {
        level[i] = depth + 1;
        *flag = 1;
    }
}

int device_levels(int *d_level, int n)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256>>>(d_level, flag, depth, n);
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth;
}

int own_levels(int *d_level, int n)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(d_level, flag, depth, n);
        cudaStreamSynchronize(cudaStreamPerThread); // expect: SYNC401 expect-severity: note expect-message: which writes 'flag', managed memory that the host reads directly (line 44); the loop only tests it
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth;
}
