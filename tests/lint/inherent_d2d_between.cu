// inherent_d2d_between.cu: a value read back asynchronously, then a device-wide wait and a
// launch the value sizes: the wait and the readback are inherent (notes) only where nothing
// between queues device work: a launch between, or a synchronous copy within the device
// (cudaMemcpy device to device, cudaMemcpyPeer: queued on the legacy stream, the device-wide
// wait waits for it too, and it is device work that does not need the value), keeps the
// warnings. At 7eaa5fc lines 27, 29 and 38 were notes.
#include <cuda_runtime.h>

__global__ void search(unsigned *out) { out[0] = 1; }

unsigned *d_out, *d_big, *d_big2, *pinned;
cudaStream_t s;

int Kept()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: note
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: note expect-message: inherent: it waits for the value read back at line 17
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int CopyBetween()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    cudaMemcpy(d_big2, d_big, 1 << 28, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int PeerBetween()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    cudaMemcpyPeer(d_big2, 0, d_big, 0, 1 << 28);
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int LaunchBetween()
{
    search<<<64, 256, 0, s>>>(d_out);
    cudaMemcpyAsync(pinned, d_out, 4, cudaMemcpyDeviceToHost, s); // expect: SYNC301 expect-severity: warning expect-no-message: inherent:
    search<<<64, 256>>>(d_big); // expect: SYNC101
    cudaDeviceSynchronize(); // expect: SYNC401 expect-severity: warning expect-no-message: inherent:
    unsigned n = pinned[0];
    search<<<n, 256, 0, s>>>(d_out);
    return 1;
}

int main()
{
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&d_out, 4096);
    cudaMalloc(&d_big, 1 << 28);
    cudaMalloc(&d_big2, 1 << 28);
    cudaHostAlloc((void **)&pinned, 4096, cudaHostAllocDefault);
    for (int i = 0; i < 1000; i++)
        if (!Kept() || !CopyBetween() || !PeerBetween() || !LaunchBetween())
            break;
    return 0;
}
