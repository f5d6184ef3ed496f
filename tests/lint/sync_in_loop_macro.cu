// sync_in_loop_macro.cu: SYNC401 when a loop and a synchronization come from one macro
// expansion: the synchronization after the loop is not in it.
#include <cuda_runtime.h>

__global__ void step(float *x) { x[threadIdx.x] += 1.0f; }

#define RUN_THEN_SYNC(d, n, s)                                                                   \
    for (int i_ = 0; i_ < (n); i_++)                                                             \
        step<<<1, 32, 0, (s)>>>(d);                                                              \
    cudaStreamSynchronize(s)

#define RUN_AND_SYNC_EACH(d, n, s)                                                               \
    for (int i_ = 0; i_ < (n); i_++) {                                                           \
        step<<<1, 32, 0, (s)>>>(d);                                                              \
        cudaStreamSynchronize(s);                                                                \
    }

#define SYNC_ALL() cudaDeviceSynchronize()

void after_the_loop(float *d, int n, cudaStream_t s)
{
    RUN_THEN_SYNC(d, n, s);
}

void inside_the_loop(float *d, int n, cudaStream_t s)
{
    RUN_AND_SYNC_EACH(d, n, s); // expect: SYNC401
}

void macro_sync_in_a_written_loop(float *d, int n, cudaStream_t s)
{
    for (int i = 0; i < n; i++) {
        step<<<1, 32, 0, s>>>(d);
        SYNC_ALL(); // expect: SYNC401
    }
    SYNC_ALL();
}
