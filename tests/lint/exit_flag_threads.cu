// exit_flag_threads.cu: the flag rule of exit_flag_direct.cu where another host thread may queue
// work (session 46's review): a unit that starts a thread (std::thread here) may have work on
// another stream whenever the loop runs, which the drained flow does not see, so a wait for the
// whole device there also waits for it, and stays a warning; a wait for the launch's own stream
// is a note all the same.
#include <cuda_runtime.h>
#include <thread>

__global__ void relax(int *level, int *flag, int depth, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && level[i] == depth) {
        level[i] = depth + 1;
        *flag = 1;
    }
}

__global__ void side(int *work) { work[threadIdx.x] += 1; }

static int device_levels(int *d_level, int n)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256>>>(d_level, flag, depth, n); // expect: SYNC101 expect-severity: note
        cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth;
}

static int stream_levels(int *d_level, int n, cudaStream_t stream)
{
    int *flag;
    cudaMallocManaged(&flag, sizeof(int));
    int depth = 0;
    int changed = 1;
    while (changed) {
        *flag = 0;
        relax<<<(n + 255) / 256, 256, 0, stream>>>(d_level, flag, depth, n);
        cudaStreamSynchronize(stream); // expect: SYNC401 expect-severity: note expect-message: inherent as written: it waits for kernel 'relax' launched at line 45, which writes 'flag', managed memory that the host reads directly (line 47); the loop only tests it
        changed = *flag;
        depth++;
    }
    cudaFree(flag);
    return depth;
}

int run(int *d_level, int n, int *d_work, int frames, cudaStream_t stream)
{
    cudaStream_t other;
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    std::thread background([=] {
        for (int f = 0; f < frames; f++)
            side<<<1, 32, 0, other>>>(d_work);
        cudaStreamSynchronize(other);
    });
    int depth = device_levels(d_level, n) + stream_levels(d_level, n, stream);
    background.join();
    cudaStreamDestroy(other);
    return depth;
}
