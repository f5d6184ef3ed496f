// per_thread_compdb.cu: nvcc --default-stream per-thread from compile_commands.json.
// lint-compdb: /usr/local/cuda/bin/nvcc -x cu --default-stream per-thread -gencode arch=compute_80,code=sm_80 --expt-relaxed-constexpr -Xcompiler -fPIC,-Wall -O2 -o per_thread_compdb.o -c
#include <cuda_runtime.h>

__global__ void k(int *p) { p[0] = 1; }

void per_thread(int *p, char *dst, const char *src, size_t n)
{
    k<<<1, 1>>>(p);
    k<<<1, 1, 0, nullptr>>>(p);
    k<<<1, 1, 0, cudaStreamLegacy>>>(p); // expect: SYNC101
    cudaMemsetAsync(dst, 0, n);
    cudaEventRecord(nullptr, cudaStreamLegacy); // expect: SYNC102
}
