/* free_sync_probe.cu: which frees and destroys wait for a 50 ms kernel already queued, as lint's
 * rule table and its "the free waits anyway" note must know (nvcc -O2 -arch=sm_90
 * free_sync_probe.cu; results in docs/studies/data/2026-12-07-free-probe.txt). */
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(long long cycles, float *out)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    if (out)
        out[0] = 1.0f;
}
__global__ void spin_tex(long long cycles, cudaTextureObject_t t, float *out)
{
    long long t0 = clock64();
    float s = 0;
    while (clock64() - t0 < cycles) {
        s += tex2D<float>(t, 0.5f, 0.5f);
    }
    out[0] = s;
}
static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
static long long cycles;
static float *scratch;
static void launch(cudaStream_t s)
{
    spin<<<1, 1, 0, s>>>(cycles, scratch);
}

int main()
{
    int clk = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cycles = (long long)clk * 50; // kHz * 50 ms
    cudaMalloc(&scratch, 64);
    cudaStream_t blocking, nonblocking;
    cudaStreamCreate(&blocking);
    cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking);
    cudaDeviceSynchronize();
    const char *names[] = {
        "cudaFree(nullptr) after kernel on blocking stream",
        "cudaFree(nullptr) after kernel on legacy stream",
        "cudaFree(nullptr) after kernel on non-blocking stream",
        "cudaFree(p) after kernel on non-blocking stream",
        "cudaFree(p) after kernel on blocking stream",
        "cudaFreeArray(a) after kernel on non-blocking stream",
        "cudaDestroyTextureObject(t) while a kernel on non-blocking stream reads it",
        "cudaFreeArray(a) after a kernel reading it through a texture (non-blocking)",
        "cudaStreamDestroy(own stream) after kernel on it",
        "cudaFreeHost(h) after kernel on non-blocking stream",
        "cudaFree(p) (p from cudaMallocAsync, synced) after kernel on non-blocking stream"};
    for (int c = 0; c < 11; ++c) {
        for (int rep = 0; rep < 3; ++rep) {
            void *p = nullptr;
            cudaArray_t a = nullptr;
            cudaTextureObject_t t = 0;
            cudaStream_t own = nullptr;
            void *h = nullptr;
            cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
            if (c == 3 || c == 4)
                cudaMalloc(&p, 1 << 20);
            if (c == 5 || c == 6 || c == 7) {
                cudaMallocArray(&a, &d, 64, 64);
                cudaResourceDesc rd = {};
                rd.resType = cudaResourceTypeArray;
                rd.res.array.array = a;
                cudaTextureDesc td = {};
                td.readMode = cudaReadModeElementType;
                cudaCreateTextureObject(&t, &rd, &td, nullptr);
            }
            if (c == 8)
                cudaStreamCreate(&own);
            if (c == 9)
                cudaMallocHost(&h, 1 << 20);
            if (c == 10) {
                cudaMallocAsync(&p, 1 << 20, nonblocking);
                cudaStreamSynchronize(nonblocking);
            }
            cudaDeviceSynchronize();
            switch (c) {
            case 0:
            case 4:
                launch(blocking);
                break;
            case 1:
                launch(0);
                break;
            case 8:
                launch(own);
                break;
            case 6:
            case 7:
                spin_tex<<<1, 1, 0, nonblocking>>>(cycles, t, scratch);
                break;
            default:
                launch(nonblocking);
            }
            double t0 = now_ms();
            switch (c) {
            case 0:
            case 1:
            case 2:
                cudaFree(nullptr);
                break;
            case 3:
            case 4:
            case 10:
                cudaFree(p);
                break;
            case 5:
            case 7:
                cudaFreeArray(a);
                break;
            case 6:
                cudaDestroyTextureObject(t);
                break;
            case 8:
                cudaStreamDestroy(own);
                break;
            case 9:
                cudaFreeHost(h);
                break;
            }
            double ms = now_ms() - t0;
            cudaError_t e = cudaGetLastError();
            cudaDeviceSynchronize();
            if (c == 5)
                cudaDestroyTextureObject(t);
            if (c == 6)
                cudaFreeArray(a);
            if (c == 7)
                cudaDestroyTextureObject(t);
            printf("%-85s rep %d: %7.2f ms (%s)\n", names[c], rep, ms, cudaGetErrorString(e));
        }
    }
    return 0;
}
