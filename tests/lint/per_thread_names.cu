// per_thread_names.cu: with CUDA_API_PER_THREAD_DEFAULT_STREAM the runtime header renames
// the stream-ordered calls by macro (cudaMemcpyAsync -> cudaMemcpyAsync_ptsz); messages name
// each call as the program writes it.
// lint-args: -DCUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime.h>

void drain_each_step(float *d, size_t n, cudaStream_t s)
{
    for (int step = 0; step < 8; step++) {
        cudaMemcpyAsync(d, d + n, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
        cudaMemsetAsync(d + 2 * n, 0, n * sizeof(float), s);
        cudaStreamSynchronize(s); // expect: SYNC401 expect-message: ('cudaMemcpyAsync' enqueues work at line 10)
    }
}
