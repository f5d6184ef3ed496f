// minmax_host.cu: min and max called from host code, as nvcc accepts them (its headers declare
// them for host and device; under clang CUDA's overloads are device functions only): every
// overload nvcc has, next to std::min and std::max, in host, host-device and device code,
// parses with no error, and the calls around them are analyzed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

using namespace std;

__global__ void clamp(int *p, int n) { p[threadIdx.x] = min(p[threadIdx.x], n); }

__host__ __device__ inline int blocks_for(int n, int block) { return max(1, (n + block - 1) / block); }

size_t copy_size(int n_partialSums, int blockSize, unsigned u, long l, unsigned long ul,
                 long long ll, unsigned long long ull, float f, double d, size_t cap)
{
    int a = min(n_partialSums, blockSize) + max(n_partialSums, blockSize);
    unsigned b = min(u, 3u) + max(n_partialSums, u) + min(u, n_partialSums);
    long c = min(l, 2L) + max(l, 2L);
    unsigned long e = min(ul, cap) + max(l, ul) + min(ul, l);
    long long g = min(ll, 4LL) + max(ll, 4LL);
    unsigned long long h = min(ull, ll) + max(ll, ull) + min(ull, ull);
    double x = min(f, 2.0f) + max(d, 1.0) + min(f, d) + max(d, f);
    return std::min(cap, std::max<size_t>(1, (size_t)(a + b + c + e + g + h + x)));
}

void run(int *dev, int *host, int n, int rounds)
{
    int block = min(n, 256);
    for (int r = 0; r < rounds; r++) {
        clamp<<<blocks_for(n, block), block>>>(dev, max(n - r, 0)); // expect: SYNC101
        cudaMemcpy(host, dev, min(n, 1024) * sizeof(int), cudaMemcpyDeviceToHost); // expect: SYNC202
    }
}
