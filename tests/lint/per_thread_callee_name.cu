// per_thread_callee_name.cu: nvcc's --default-stream per-thread from the compile database; a
// wait in a function called from a loop names the loop's device work as written
// ('cudaMemcpyAsync'), also when that work is in a function template the loop calls, not by
// the runtime header's macro target ('cudaMemcpyAsync_ptsz').
// lint-compdb: /usr/local/cuda/bin/nvcc -x cu --default-stream per-thread -O2 -o per_thread_callee_name.o -c
#include <cuda_runtime.h>

template <typename T> void upload(T *d, const T *h, cudaStream_t s)
{
    cudaMemcpyAsync(d, h, 64 * sizeof(T), cudaMemcpyHostToDevice, s);
}

static void wait_for(cudaStream_t s)
{
    cudaStreamSynchronize(s); // expect: SYNC401 expect-message: ('cudaMemcpyAsync' enqueues work at line 10)
}

void grow(float *d, const float *h, int levels, cudaStream_t s)
{
    for (int level = 0; level < levels; level++) {
        upload(d, h, s);
        wait_for(s);
    }
}
