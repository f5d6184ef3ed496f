// launch_macro.cu: launches written through macros are reported where the macro is used.
#include <cuda_runtime.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

#define LAUNCH_FILL(p, v, stream) fill<<<1, 64, 0, stream>>>(p, v)
#define LAUNCH_FILL_DEFAULT(p, v) fill<<<1, 64>>>(p, v)
#define DEFAULT_STREAM 0

void run_macros(int *p, cudaStream_t s)
{
    LAUNCH_FILL(p, 1, 0); // expect: SYNC101
    LAUNCH_FILL_DEFAULT(p, 2); // expect: SYNC101
    LAUNCH_FILL(p, 3, DEFAULT_STREAM); // expect: SYNC101 expect-message: (stream 'DEFAULT_STREAM')
    LAUNCH_FILL(p, 4, s);
    LAUNCH_FILL(p, 5, cudaStreamPerThread);
}
