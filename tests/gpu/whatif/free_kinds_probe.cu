/* free_kinds_probe.cu: which frees wait for a 50 ms kernel queued on a non-blocking stream, by
 * the kind and size of the memory, as lint's rule that takes a free for a drain of the device
 * must know (docs/lint.md, session 45; docs/studies/validation.md): memory of 0 bytes (which the
 * allocators give as a null pointer), pitched and host memory, a CUDA array, a level of a
 * mipmapped array. nvcc -O2 -arch=sm_90 free_kinds_probe.cu && ./a.out [ROUNDS] */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* One case: its name, how it allocates (into 'p' or 'a', with 'mip' for a mipmapped array) and
 * which free it calls. */
enum free_kind { FREE_DEVICE, FREE_HOST, FREE_ARRAY };
typedef struct probe_case {
    const char *name;
    int id;
    enum free_kind kind;
} probe_case;

static const probe_case cases[] = {
    {"cudaMalloc 0 bytes, cudaFree", 0, FREE_DEVICE},
    {"cudaMallocPitch width 0, cudaFree", 1, FREE_DEVICE},
    {"cudaMallocHost 0 bytes, cudaFreeHost", 2, FREE_HOST},
    {"cudaHostAlloc 0 bytes mapped, cudaFreeHost", 3, FREE_HOST},
    {"cudaHostAlloc 1 MiB mapped portable, cudaFreeHost", 4, FREE_HOST},
    {"cudaMallocPitch 256x4, cudaFree", 5, FREE_DEVICE},
    {"cudaMalloc3DArray 8^3, cudaFreeArray", 6, FREE_ARRAY},
    {"cudaMalloc 1 MiB, cudaFree (control)", 7, FREE_DEVICE},
    {"level 1 of a mipmapped array, cudaFreeArray", 8, FREE_ARRAY},
};

static cudaError_t allocate(int id, void **p, cudaArray_t *a, cudaMipmappedArray_t *mip)
{
    size_t pitch = 0;
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    switch (id) {
    case 0:
        return cudaMalloc(p, 0);
    case 1:
        return cudaMallocPitch(p, &pitch, 0, 4);
    case 2:
        return cudaMallocHost(p, 0);
    case 3:
        return cudaHostAlloc(p, 0, cudaHostAllocMapped);
    case 4:
        return cudaHostAlloc(p, 1 << 20, cudaHostAllocMapped | cudaHostAllocPortable);
    case 5:
        return cudaMallocPitch(p, &pitch, 256, 4);
    case 6:
        return cudaMalloc3DArray(a, &d, make_cudaExtent(8, 8, 8));
    case 7:
        return cudaMalloc(p, 1 << 20);
    default: {
        cudaError_t e = cudaMallocMipmappedArray(mip, &d, make_cudaExtent(64, 64, 0), 4);
        return e != cudaSuccess ? e : cudaGetMipmappedArrayLevel(a, *mip, 1);
    }
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3, clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    long long cycles = (long long)clock_khz * 50; /* 50 ms */
    cudaStream_t nb;
    cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
    cudaDeviceSynchronize();
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int r = 0; r < rounds; r++) {
            void *p = nullptr;
            cudaArray_t a = nullptr;
            cudaMipmappedArray_t mip = nullptr;
            cudaError_t made = allocate(cases[c].id, &p, &a, &mip);
            cudaDeviceSynchronize();
            spin<<<1, 1, 0, nb>>>(cycles);
            double t0 = now_ms();
            cudaError_t freed = cases[c].kind == FREE_HOST    ? cudaFreeHost(p)
                                : cases[c].kind == FREE_ARRAY ? cudaFreeArray(a)
                                                              : cudaFree(p);
            double took = now_ms() - t0;
            cudaDeviceSynchronize();
            if (mip)
                cudaFreeMipmappedArray(mip);
            printf("%-50s round %d: alloc %s, pointer %s, free %s, %.2f ms\n", cases[c].name, r,
                   cudaGetErrorString(made), (p || a) ? "set" : "null", cudaGetErrorString(freed),
                   took);
        }
    }
    cudaStreamDestroy(nb);
    return 0;
}
