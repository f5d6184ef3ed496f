// inherent_pinned_rebound.cu: a kernel writes mapped pinned host memory on a stream, the host
// waits for that stream and sizes the next launch with what the kernel wrote: inherent (a
// note) only where the stream's name still names the kernel's stream at the wait; a warning
// where it is assigned between ('s = other;') or its index changes ('i = 1 - i;' before
// 'st[i]'), as for a copy's wait. At 7eaa5fc lines 32 and 42 were notes.
#include <cuda_runtime.h>

__global__ void search(unsigned *out) { out[0] = 1; }

struct Engine {
    unsigned *pinned, *d_alias;
    cudaStream_t s, other, st[2];
    int i;
    int Kept();
    int Reassigned();
    int Indexed();
};

int Engine::Kept()
{
    search<<<64, 256, 0, s>>>(d_alias);
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the kernel launched at line 21
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_alias);
    return 1;
}

int Engine::Reassigned()
{
    search<<<64, 256, 0, s>>>(d_alias);
    s = other;
    cudaStreamSynchronize(s); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_alias);
    return 1;
}

int Engine::Indexed()
{
    search<<<64, 256, 0, st[i]>>>(d_alias);
    i = 1 - i;
    cudaStreamSynchronize(st[i]); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, st[i]>>>(d_alias);
    return 1;
}

int main()
{
    Engine e;
    e.i = 0;
    cudaStreamCreateWithFlags(&e.s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&e.other, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&e.st[0], cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&e.st[1], cudaStreamNonBlocking);
    cudaHostAlloc((void **)&e.pinned, 4096, cudaHostAllocMapped);
    cudaHostGetDevicePointer((void **)&e.d_alias, e.pinned, 0);
    for (int k = 0; k < 1000; k++)
        if (!e.Kept() || !e.Reassigned() || !e.Indexed())
            break;
    return 0;
}
